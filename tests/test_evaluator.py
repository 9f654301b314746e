import numpy as np
import pytest

from simulate import _tables
from simulate.cards import CardError, format_cards, parse_cards
from simulate.codes import Category
from simulate.evaluator import (
    HAND_CLASSES,
    best_five,
    categories,
    count_categories,
    evaluate,
    hand_category,
    hand_value,
)

from .helpers import random_hands

C = Category
FIVE_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_098_240,
    C.HIGH_CARD: 1_302_540,
}
SIX_CARD_COUNTS = {
    C.ROYAL_FLUSH: 188,
    C.STRAIGHT_FLUSH: 1_656,
    C.FOUR_OF_A_KIND: 14_664,
    C.FULL_HOUSE: 165_984,
    C.FLUSH: 205_792,
    C.STRAIGHT: 361_620,
    C.THREE_OF_A_KIND: 732_160,
    C.TWO_PAIR: 2_532_816,
    C.PAIR: 9_730_740,
    C.HIGH_CARD: 6_612_900,
}


def test_five_card_category_counts():
    assert count_categories(5) == FIVE_CARD_COUNTS
    assert sum(FIVE_CARD_COUNTS.values()) == 2_598_960


def test_six_card_category_counts():
    assert count_categories(6) == SIX_CARD_COUNTS
    assert sum(SIX_CARD_COUNTS.values()) == 20_358_520


def test_ace_king_category_splits_high_card():
    counts = count_categories(5, ace_king=True)
    # 164 rank sets hold A and K without a straight, each in 4**5 - 4 unsuited ways.
    assert counts[C.ACE_KING] == 164 * (4**5 - 4)
    assert counts[C.HIGH_CARD] + counts[C.ACE_KING] == FIVE_CARD_COUNTS[C.HIGH_CARD]


def test_values_are_exactly_the_7462_hand_classes(all_five_card_hands):
    values = evaluate(all_five_card_hands)
    assert values.min() == 1 and values.max() == HAND_CLASSES
    assert len(np.unique(values)) == HAND_CLASSES


def test_equal_values_only_for_equal_hands(all_five_card_hands):
    """Equal value <=> same ranks, and same flushness: suits never rank."""
    values = evaluate(all_five_card_hands)
    ranks = np.sort(all_five_card_hands >> 2, axis=1)
    suits = all_five_card_hands & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    shape = ranks @ (13 ** np.arange(5)) * 2 + flush
    assert len(np.unique(shape)) == HAND_CLASSES
    pairs = np.unique(np.stack([values, shape]), axis=1)
    assert pairs.shape[1] == HAND_CLASSES


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # the seeds' examples (six-card and Russian poker)
        ("5c 5d 4h 3s 2c", "4c 4d Ah Ks Qc"),
        ("5c 5d Qh 3s 2c", "5h 5s Jh Ts 9c"),
        ("5c 5d Kh 4s 3c", "5h 5s Qh Ts 9c"),
        ("Ac Ad 2h 2s 3c", "Kc Kd Qh Qs Ac"),
        ("Ac Ad 3h 3s 2c", "Kc Kd Qh Qs Ac"),
        ("3c 3d 3h 2s 2c", "2d 2h 2s Ac Ad"),
        ("3c 3d 3h 4s 4c", "2d 2h 2s Kc Kd"),
        ("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"),
        ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac"),
        # the wheel is the lowest straight, above any three of a kind
        ("5c 4d 3h 2s Ac", "Ac Ad Ah Ks Qc"),
        # 3-2-A-K-Q is no straight: ace high only
        ("Ac Kd Qh Js 9c", "3c 2d Ah Ks Qc"),
        ("5h 4h 3h 2h Ah", "Ks Qs Js Ts 8s"),
        ("Ac Ad Ah Ks Kc", "Kd Qd Jd 9d 8d"),
    ],
)
def test_seed_orderings(better, worse):
    assert hand_value(better) > hand_value(worse)


def test_no_wrap_around_straight():
    assert hand_category("3c 2d Ah Ks Qc") == C.HIGH_CARD
    assert hand_category("3c 2d Ah Ks Qc", ace_king=True) == C.ACE_KING
    assert hand_category("5c 4d 3h 2s Ac") == C.STRAIGHT
    assert (
        hand_value("5c 4d 3h 2s Ac")
        == min(hand_value(f"{r}c {r - 1}d {r - 2}h {r - 3}s {r - 4}c") for r in range(6, 10)) - 1
    )


def test_suits_have_no_order():
    assert hand_value("Ah Kh Qh Jh Th") == hand_value("Ac Kc Qc Jc Tc") == HAND_CLASSES


def test_best_five_of_six():
    # the seeds: in Q-Q-Q-Q-8-8 and K-K-K-K-9-9 the last card does not count
    assert hand_value("Qc Qd Qh Qs 8c 8d") == hand_value("Qc Qd Qh Qs 8c")
    assert hand_value("Kc Kd Kh Ks 9c 9d") == hand_value("Kc Kd Kh Ks 9c")
    assert format_cards(best_five("2c 2d 3h 4s 9d 9c")) == "9c 9d 2c 2d 4s"
    assert hand_category("As Ks Qs Js Ts 9s") == C.ROYAL_FLUSH
    assert hand_category("Ah Ks Qs Js Ts 9s") == C.STRAIGHT_FLUSH
    assert hand_category("2h 3h 7h 9h Jh 2c") == C.FLUSH


def test_six_card_value_is_best_of_its_fives():
    hands = random_hands(20_000, 6, seed=6)
    fives = [evaluate(np.delete(hands, i, axis=1)) for i in range(6)]
    assert np.array_equal(evaluate(hands), np.max(fives, axis=0))


def test_ace_king_is_top_of_high_card():
    assert hand_category("Ah Kd 3c 4s 6h", ace_king=True) == C.ACE_KING
    assert hand_category("Ah Kd 3c 4s 6h") == C.HIGH_CARD
    assert hand_category("Ah Qd Jc 9s 8h", ace_king=True) == C.HIGH_CARD
    assert hand_category("Ah Ad Kc 4s 6h", ace_king=True) == C.PAIR
    assert hand_value("Ah Kd 3c 4s 6h") > hand_value("Ah Qd Jc Ts 8h")


def test_batch_agrees_with_scalar_serial_with_parallel():
    hands = random_hands(5_000, 5, seed=1)
    scalar = [hand_value(hand) for hand in hands]
    assert evaluate(hands).tolist() == scalar
    assert np.array_equal(evaluate(hands, threads=None), evaluate(hands, threads=1))
    assert np.array_equal(evaluate(hands.astype(np.int64)), evaluate(hands))
    six = random_hands(5_000, 6, seed=2)
    assert np.array_equal(evaluate(six, threads=2), evaluate(six, threads=1))


def test_categories_vectorised():
    hands = random_hands(2_000, 6, seed=3)
    values = evaluate(hands)
    expected = [hand_category(hand, ace_king=True) for hand in hands]
    assert categories(values, ace_king=True).tolist() == expected


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.zeros((3, 4), dtype=np.int8), "shape"),
        (np.array([[0, 1, 2, 3, 52]]), "0..51"),
        (np.array([[0, 1, 2, 3, 3]]), "row 0"),
        (np.zeros((2, 5), dtype=float), "integer"),
    ],
)
def test_batch_rejects_bad_hands(hands, message):
    with pytest.raises(CardError, match=message):
        evaluate(hands)


def test_scalar_rejects_bad_hands():
    for bad in ("As Ks Qs Js", "As Ks Qs Js Ts 9s 8s", [0, 1, 2, 3, 3], [0, 1, 2, 3, 60]):
        with pytest.raises(CardError):
            hand_value(bad)


def test_cached_tables_equal_fresh_build(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    built = _tables.load_tables()
    assert list(tmp_path.glob("hand-tables-*.npz"))
    loaded = _tables.load_tables()
    fresh = _tables.build_tables()
    for name, table in fresh.items():
        assert np.array_equal(built[name], table) and np.array_equal(loaded[name], table), name


def test_cached_arrays_are_keyed_by_the_code_that_built_them(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    builds = []

    def build():
        builds.append(1)
        return {"a": np.arange(3)}

    for sources in [("_exact.py",), ("_exact.py",), ("_exact.py", "codes.py")]:
        assert np.array_equal(_tables.cached_arrays("t", build, sources)["a"], np.arange(3))
    assert len(builds) == 2 and len(list(tmp_path.glob("t-*.npz"))) == 2
    (package := tmp_path / "simulate").mkdir()
    (package / "_exact.py").write_text("# another version")
    monkeypatch.setattr(_tables.resources, "files", lambda name: package)
    _tables.cached_arrays("t", build, ("_exact.py",))
    assert len(builds) == 3


@pytest.mark.parametrize("size", [5, 6])
def test_rank_keys_and_their_hash_are_perfect(size):
    multisets = list(_tables.valid_rank_multisets(size))
    assert len(multisets) == {5: 6_175, 6: 18_395}[size]
    keys = np.array([_tables.rank_key(ranks, size) for ranks in multisets])
    assert len(np.unique(keys)) == len(keys)
    offsets = _tables.displacement_offsets(keys, _tables.HASH_SHIFT[size])
    index = keys + offsets[keys >> _tables.HASH_SHIFT[size]]
    assert index.min() >= 0 and len(np.unique(index)) == len(keys)


def test_parse_then_value():
    assert hand_value(parse_cards("AsKsQsJsTs")) == HAND_CLASSES
