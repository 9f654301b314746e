import numpy as np
import pytest
from numba import njit

from simulate import _strategy as k
from simulate._evaluator import category_jit, hand_value_jit
from simulate.cards import parse_cards
from simulate.catalog import load_strategy, strategy_names
from simulate.codes import Action, Category, Point
from simulate.strategy import Strategy, StrategyError
from simulate.strategy_text import describe_strategy

VARIANTS = ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]


def cards(text):
    return parse_cards(text).astype(np.int64)


def test_every_variant_ships_basic_and_reference_strategies():
    for variant in VARIANTS:
        names = strategy_names(variant)
        assert {"basic", "always-play", "pair-or-better", "optimal"} <= set(names)
        assert ("optimal-no-draws" in names) == (variant != "caribbean")
        for name in set(names) - {"optimal", "optimal-no-draws"}:  # see test_optimal
            assert load_strategy(name, variant).variant == variant
    assert "ak-or-better" in strategy_names("caribbean")


@pytest.mark.parametrize(
    ("hand", "draws"),
    [
        ("2h 7h 9h Kh 3c", {"four-flush"}),
        ("5c 6d 7h 8s Kc", {"four-straight", "open-straight"}),
        ("5c 6d 8h 9s Kc", {"four-straight", "inside-straight"}),
        ("Ac 2d 3h 4s 9c", {"four-straight", "inside-straight"}),  # A-2-3-4: one end only
        ("Jc Qd Kh As 4c", {"four-straight", "inside-straight"}),  # J-Q-K-A: one end only
        ("2c 3d 4h 5s 9c", {"four-straight", "open-straight"}),  # A or 6
        (
            "5h 6h 7h 8h Kc",
            {"four-flush", "four-straight", "open-straight", "four-straight-flush"},
        ),
        (
            "5h 6h 8h 9h Kc",
            {"four-flush", "four-straight", "inside-straight", "four-straight-flush"},
        ),
        ("2h 7h 9d Kh 3c", {"three-flush"}),
        ("Th Jh 5d Kd 3c", {"suited-high"}),  # two hearts of ten or higher
        (
            "Th Jh Qh 5d 3c",
            {"three-flush", "suited-high", "three-straight-flush", "high-three-straight-flush"},
        ),
        (
            "9h Jh Th 5d 3c",
            {"three-flush", "suited-high", "three-straight-flush", "high-three-straight-flush"},
        ),
        ("9h Jh 7h 5d 3c", {"three-flush", "three-straight-flush"}),  # 7 to J: one window
        ("Ah 2h 4h 9d Kc", {"three-flush", "three-straight-flush"}),  # the wheel's window
        ("6h Jh 7h Kd 2c", {"three-flush"}),  # 6 to J: wider than a straight
        (
            "6h 7h 8h 9h Kc",
            {"four-flush", "four-straight", "open-straight", "four-straight-flush"},
        ),
        ("9h Jh 2d Kd 3c", set()),  # no suit holds two cards of ten or higher
        ("2h 7h 9h Kh 3h", set()),  # a made flush is no draw
        ("5c 6d 7h 8s 9c", set()),  # a made straight is no draw
        ("2c 7d 9h Kh 3s", set()),
    ],
)
def test_draws(hand, draws):
    bits = k.draws_jit(cards(hand))
    names = {
        "four-flush": k.FOUR_FLUSH,
        "four-straight": k.FOUR_STRAIGHT,
        "open-straight": k.OPEN_STRAIGHT,
        "inside-straight": k.INSIDE_STRAIGHT,
        "four-straight-flush": k.FOUR_STRAIGHT_FLUSH,
        "three-flush": k.THREE_FLUSH,
        "suited-high": k.SUITED_HIGH,
        "three-straight-flush": k.THREE_STRAIGHT_FLUSH,
        "high-three-straight-flush": k.HIGH_THREE_STRAIGHT_FLUSH,
    }
    assert {name for name, bit in names.items() if bits & bit} == draws


@pytest.mark.parametrize(
    ("hand", "keep", "count", "kept"),
    [
        ("9c 9d Kh 4s 2c", k.KEEP_PAIR, 0, "9c 9d"),
        ("9c 9d Kh Ks 2c", k.KEEP_PAIR, 0, "Kh Ks"),
        ("9c 9d Kh Ks 2c", k.KEEP_TWO_PAIR, 0, "9c 9d Kh Ks"),
        ("9c 9d 9h Ks 2c", k.KEEP_TRIPS, 0, "9c 9d 9h"),
        ("2h 7h 9h Kh 3c", k.KEEP_FOUR_FLUSH, 0, "2h 7h 9h Kh"),
        ("5c 6d 7h 8s Kc", k.KEEP_FOUR_STRAIGHT, 0, "5c 6d 7h 8s"),
        ("5c 6d 6h 8s 9c", k.KEEP_FOUR_STRAIGHT, 0, "5c 6d 8s 9c"),
        ("Ac 2d 3h 4s 9c", k.KEEP_FOUR_STRAIGHT, 0, "Ac 2d 3h 4s"),
        ("5h 6h 8h 9h 7c", k.KEEP_BEST_FIVE, 0, "5h 6h 8h 9h 7c"),
        ("5h 6h 8h 9h Kc", k.KEEP_FOUR_STRAIGHT_FLUSH, 0, "5h 6h 8h 9h"),
        ("Ah 6d 8h Kc 2s", k.KEEP_ACE_KING, 0, "Ah Kc"),
        ("Ah 6d 8h Kc 2s", k.KEEP_HIGHEST, 3, "Ah 8h Kc"),
        ("Ah 6d 8h Kc 2s", k.KEEP_NONE, 0, ""),
        ("9c 9d Kh 4s 2c", k.KEEP_MADE, 0, "9c 9d"),
        ("9c 9d 9h 4s 4c", k.KEEP_MADE, 0, "9c 9d 9h 4s 4c"),
        ("Qc Qd Qh Qs 8c 8d", k.KEEP_BEST_FIVE, 0, "Qc Qd Qh Qs 8d"),
        ("2h 7h 9d Kh 3c", k.KEEP_THREE_FLUSH, 0, "2h 7h Kh"),
        ("2h 7h 9h Kh 3c", k.KEEP_THREE_FLUSH, 0, "7h 9h Kh"),  # the suit's highest three
        ("Qc Jh Th 6c 2c", k.KEEP_SUITED_HIGH, 0, "Jh Th"),  # Qc's suit: no second of T+
        ("Ah Kh Qh 5d 2c", k.KEEP_SUITED_HIGH, 0, "Ah Kh"),
        ("Ad Kh Qh Jd 2c", k.KEEP_SUITED_HIGH, 0, "Ad Jd"),  # A-J above K-Q
        ("9h Jh 7h 5d 3c", k.KEEP_THREE_STRAIGHT_FLUSH, 0, "9h Jh 7h"),
        ("Ah 2h 4h 9d Kc", k.KEEP_THREE_STRAIGHT_FLUSH, 0, "Ah 2h 4h"),  # ace low
        ("Qh Jh 9h 8h 2c", k.KEEP_THREE_STRAIGHT_FLUSH, 0, "Qh Jh 9h"),  # the highest three
        ("Ah Kh Qh Jh 2h", k.KEEP_THREE_STRAIGHT_FLUSH, 0, "Ah Kh Qh"),
        ("9h Jh Th 5d 3c", k.KEEP_HIGH_THREE_STRAIGHT_FLUSH, 0, "9h Jh Th"),
    ],
)
def test_keep_patterns(hand, keep, count, kept):
    held = cards(hand)
    mask = k.keep_mask_jit(held, keep, count)
    kept_cards = [card for i, card in enumerate(held) if mask >> i & 1]
    assert sorted(kept_cards) == sorted(parse_cards(kept).tolist() if kept else [])


def test_three_straight_flush_is_its_definition_on_random_hands():
    """The draw holds where exactly three cards of a suit lie within a straight's five
    ranks (the ace high or low) and the hand is no straight or better, its high form where
    two or more of them are ten or higher; the patterns then keep those three."""
    rng = np.random.default_rng(3)
    for _ in range(3000):
        hand = rng.choice(52, 5, replace=False).astype(np.int64)
        suits = [[c for c in hand if c & 3 == suit] for suit in range(4)]
        three = next((cs for cs in suits if len(cs) == 3), [])
        ranks = sorted(c >> 2 for c in three)
        low_ace = [r for r in ranks if r != 12] + [-1] * (12 in ranks)
        spans = [max(r) - min(r) for r in (ranks, low_ace) if r]
        made = category_jit(hand_value_jit(hand), False) >= Category.STRAIGHT
        holds = bool(spans) and min(spans) <= 4 and not made
        high = holds and sum(c >> 2 >= 8 for c in three) >= 2
        draws = k.draws_jit(hand)
        assert bool(draws & k.THREE_STRAIGHT_FLUSH) == holds, hand
        assert bool(draws & k.HIGH_THREE_STRAIGHT_FLUSH) == high, hand
        for keep, kept in (
            (k.KEEP_THREE_STRAIGHT_FLUSH, holds),
            (k.KEEP_HIGH_THREE_STRAIGHT_FLUSH, high),
        ):
            if kept:
                mask = k.keep_mask_jit(hand, keep, 0)
                assert sorted(hand[i] for i in range(5) if mask >> i & 1) == sorted(three)


def test_missing_pattern_is_minus_one():
    assert k.keep_mask_jit(cards("2c 7d 9h Kh 3s"), k.KEEP_PAIR, 0) == -1
    assert k.keep_mask_jit(cards("2c 7d 9h Kh 3s"), k.KEEP_FOUR_FLUSH, 0) == -1
    assert k.keep_mask_jit(cards("2c 7d 9h Kh 3s"), k.KEEP_THREE_FLUSH, 0) == -1
    assert k.keep_mask_jit(cards("Tc 7d 9h Kh 3s"), k.KEEP_SUITED_HIGH, 0) == -1
    assert k.keep_mask_jit(cards("6h Jh 7h Kd 2c"), k.KEEP_THREE_STRAIGHT_FLUSH, 0) == -1
    assert k.keep_mask_jit(cards("9h Jh 7h 5d 3c"), k.KEEP_HIGH_THREE_STRAIGHT_FLUSH, 0) == -1


def test_first_matching_rule_decides(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("""
name = "s"
variant = "oasis"
[[first]]
action = "play"
at_least = "Ac Kd Jh 8s 3c"
upcard_matches = true
[[first]]
action = "exchange"
keep = "four-flush"
[[first]]
action = "play"
upcard = "23456"
holds = "A"
[[first]]
action = "fold"
[[after_draw]]
action = "fold"
""")
    rules = load_strategy(path, "oasis").rules
    up = int(parse_cards("Kc")[0])
    assert k.decide_jit(rules, Point.FIRST, cards("Ah Kd Jh 8s 3c"), up, 0)[0] == Action.PLAY
    assert k.decide_jit(rules, Point.FIRST, cards("Ah Qd Jh 8s 3c"), up, 0)[0] == Action.FOLD
    action, kept = k.decide_jit(rules, Point.FIRST, cards("Ah 2h Jh 8h 3c"), up, 0)
    assert action == Action.EXCHANGE and kept == 0b01111
    low = int(parse_cards("4d")[0])
    assert k.decide_jit(rules, Point.FIRST, cards("Ah Qd Jh 8s 3c"), low, 0)[0] == Action.PLAY


def test_rules_on_the_cards_seen_on_other_boxes(tmp_path):
    """``seen_upcard_rank``: how many cards of the upcard's rank the player has seen
    besides his hand (his other boxes, his discards); the upcard itself never counts."""
    path = tmp_path / "seen.toml"
    path.write_text("""
name = "seen"
variant = "oasis"
[[first]]
action = "play"
at_least = "ace-king"
seen_upcard_rank = [2, 3]
[[first]]
action = "fold"
""")
    strategy = load_strategy(path, "oasis")
    hand, up = cards("Ah Kd Jh 8s 3c"), int(parse_cards("Qc")[0])
    seen = {
        text: sum(1 << int(c) for c in parse_cards(text)) for text in ["Qd", "Qd Qh", "Qc Qd 7s"]
    }
    assert k.decide_jit(strategy.rules, Point.FIRST, hand, up, 0)[0] == Action.FOLD
    assert k.decide_jit(strategy.rules, Point.FIRST, hand, up, seen["Qd"])[0] == Action.FOLD
    assert k.decide_jit(strategy.rules, Point.FIRST, hand, up, seen["Qd Qh"])[0] == Action.PLAY
    assert k.decide_jit(strategy.rules, Point.FIRST, hand, up, seen["Qc Qd 7s"])[0] == Action.FOLD
    assert "has seen 2 or 3 other cards of the upcard's rank" in " ".join(
        describe_strategy(strategy)
    )


def strategy_file(tmp_path, text):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("variant", "text", "message"),
    [
        (
            "oasis",
            'name = "x"\nvariant = "russian"\n[[first]]\naction = "fold"\n',
            "variant: the strategy is for 'russian', not 'oasis'",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "fold"\nat_least = "pair"\n',
            "first rule 1.action: the last rule must have no condition",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "buy"\n',
            "first rule 1.action: oasis offers no buy",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "raise"\n',
            "first rule 1.action: must be one of fold, play, buy, exchange here",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "play"\nat_leest = "pair"\n'
            '[[first]]\naction = "fold"\n',
            "first rule 1.at_leest: unknown key",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "play"\nseen_upcard_rank = 4\n'
            '[[first]]\naction = "fold"\n',
            "first rule 1.seen_upcard_rank: must be a count from 0 to 3 or a list of them, got 4",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "exchange"\nkeep = "pair"\n'
            '[[first]]\naction = "fold"\n[[after_draw]]\naction = "play"\n',
            "first rule 1.keep: exchanges 3 cards; oasis offers 1, 2",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "exchange"\n'
            'keep = "four-flush"\n[[first]]\naction = "fold"\n',
            "after_draw: missing",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "play"\ndraw = "flush"\n'
            '[[first]]\naction = "fold"\n',
            "first rule 1.draw: 'flush' is not one of",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "play"\nholds = "AX"\n'
            '[[first]]\naction = "fold"\n',
            "first rule 1.holds: 'X' is not a rank",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "play"\nat_least = "AK"\n'
            '[[first]]\naction = "fold"\n',
            "first rule 1.at_least: neither a category nor five cards",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\nbuy_game_decision = "exact"\n[[first]]\n'
            'action = "fold"\n',
            "buy_game_decision: oasis offers no buying the dealer a game",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "fold"\n[[after_draw]]\n'
            'action = "fold"\n',
            "after_draw: never reached",
        ),
        (
            "oasis",
            'name = "x"\nvariant = "oasis"\n[[first]]\naction = "fold"\n[[first]]\n'
            'action = "play"\n',
            "first rule 1.action: always applies, so the rules after it never do",
        ),
        ("oasis", 'name = "x"\nvariant = "oasis"\n', "first: missing"),
        ("oasis", 'name = "x"\nvariant = "oasis"\nfirst = 3\n', "first: must be a list of rules"),
    ],
)
def test_strategy_validation_names_the_rule(tmp_path, variant, text, message):
    path = strategy_file(tmp_path, text)
    with pytest.raises(StrategyError) as error:
        load_strategy(path, variant)
    assert message in str(error.value) and str(error.value).startswith(str(path))


def test_unknown_strategy():
    with pytest.raises(StrategyError, match=r"unknown strategy 'best' for oasis \(known: "):
        load_strategy("best", "oasis")


def test_optimizer_improves_on_its_start_and_writes_a_loadable_strategy(tmp_path):
    from simulate.optimize import Family, optimize
    from simulate.simulation import run
    from simulate.variant import load_variant

    oasis = load_variant("oasis")
    best, strategy, rtp = optimize(oasis, rounds=40_000, seed=3)
    start = tmp_path / "start.toml"
    start.write_text(Family().toml(oasis))
    assert rtp >= run(oasis, load_strategy(start, "oasis"), 40_000, seed=3).summary["rtp"]
    assert run(oasis, strategy, 40_000, seed=3).summary["rtp"] == rtp
    path = tmp_path / "best.toml"
    path.write_text(best.toml(oasis))
    assert load_strategy(path, "oasis").name == "optimized"


def test_a_strategy_built_in_memory_equals_its_file():
    basic = load_strategy("basic", "oasis")
    built = Strategy.from_dict(basic.data, "oasis")
    assert np.array_equal(built.rules, basic.rules) and built.rules_hash == basic.rules_hash
    with pytest.raises(StrategyError, match=r"^\(in memory\): variant: the strategy is for"):
        Strategy.from_dict(basic.data, "russian")


def test_the_optimizer_writes_no_files(tmp_path, monkeypatch):
    import tempfile

    from simulate.optimize import optimize

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    _, strategy, rtp = optimize("caribbean", rounds=2_000, seed=3)
    assert list(tmp_path.iterdir()) == []
    assert strategy.name == "optimized" and 0.5 < rtp < 1.5


@njit
def _both_decisions(rules, first_actions, hands, upcards, seen, out):
    """Per deal: the rules' (action, kept), then the table's action (or UNDECIDED)."""
    for i in range(hands.shape[0]):
        out[i, 0], out[i, 1] = k.decide_jit(rules, Point.FIRST, hands[i], upcards[i], seen[i])
        out[i, 2] = k.first_action_jit(first_actions, hand_value_jit(hands[i]), upcards[i])


def test_the_first_action_table_decides_as_the_rules():
    """Every shipped rule strategy: on 200,000 random deals (other boxes' cards seen at
    random) and on a hand of every value with every upcard rank, the first action looked
    up by value and upcard rank, where the table holds one, is the rules' own."""
    rng = np.random.default_rng(8)
    deals = np.array([rng.choice(52, 12, replace=False) for _ in range(200_000)])
    hands, upcards = deals[:, :5].copy(), deals[:, 5].copy()
    seen = np.zeros(len(deals), dtype=np.int64)
    for column in range(6, 12):
        seen |= np.where(rng.random(len(deals)) < 0.5, 1 << deals[:, column], 0)
    value_hands, value_upcards = [], []
    for hand in k.hand_per_value_jit()[1:]:
        for up_rank in range(13):
            free = [c for c in range(4 * up_rank, 4 * up_rank + 4) if c not in hand]
            if free:  # not four of a kind of the upcard's rank
                value_hands.append(hand)
                value_upcards.append(free[0])
    hands = np.vstack([hands, value_hands])
    upcards = np.concatenate([upcards, value_upcards])
    seen = np.concatenate([seen, np.zeros(len(value_upcards), dtype=np.int64)])
    tabled = 0
    for variant in ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]:
        for name in strategy_names(variant):
            strategy = load_strategy(name, variant)
            if strategy.kind.value != "rules":
                continue
            first_actions = strategy.decisions(np.uint64(1), 0, 1).first_actions
            out = np.empty((len(hands), 3), dtype=np.int64)
            _both_decisions(strategy.rules, first_actions, hands, upcards, seen, out)
            decided = out[:, 2] != k.UNDECIDED
            assert np.array_equal(out[decided, 0], out[decided, 2]), (variant, name)
            assert (out[decided, 1] == 0).all()
            tabled += decided.mean() > 0.5
    assert tabled > 20  # most strategies decide most deals from the table
