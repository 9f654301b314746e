"""The package's settlement against the plain-Python referee (``oracle``): the rules'
worked examples, random boxes of every variant, and every qualifier and category
boundary."""

import itertools

import numpy as np
import pytest

from simulate.cards import format_card
from simulate.evaluator import hand_category
from simulate.settlement import bonus_multiple, dealer_discard, settle
from simulate.variant import load_variant, variant_names

from . import oracle


@pytest.mark.parametrize(
    ("name", "cards", "dealer", "expected"),
    [  # RULES.md's worked examples, in antes (ante 10 there)
        ("oasis", "6c 6d 6h Ks Kd", "Ac Kc 9d 5s 2h", 15),
        ("russian", "6c 6d 6h Ks Kd", "Ac Kc 9d 5s 2h", 14),
        ("russian", "As Ks Qs Js Ts", "Ac Kc 9d 5s 2h", 200),
        ("six-card", "6c 6d 6h Ks Kd", "Ac Ad 9d 5s 2h", 15),
        ("six-card", "As Ks Qs Js Ts", "Ac Ad 9d 5s 2h", 201),
    ],
)
def test_the_referee_settles_the_worked_examples(name, cards, dealer, expected):
    assert oracle.settle(oracle.rules(name), cards.split(), dealer.split()) == (expected, "WIN")


@pytest.mark.parametrize(
    ("cards", "pays"),
    [  # RULES.md's second-combination examples (Russian)
        ("Ac Ad Kh 7s 6c", 2),
        ("2c 2d Ah Ks 9c", 2),
        ("Ac Ad Ah As 7c 7d", 27),
        ("Ac Kd Qh Js Tc 9d", 8),
        ("As Ks Qs Js Ts 9s", 150),
        ("Ac Ad Ah As 9c", 20),
    ],
)
def test_the_referee_pays_second_combinations(cards, pays):
    assert oracle.bet_multiple(oracle.rules("russian"), cards.split()) == pays


def _cards(ints) -> list[str]:
    return [format_card(int(c)) for c in ints]


def random_boxes(name: str, n: int, seed: int):
    """n random boxes of a variant: final cards, dealer, choices and the cards after a
    bought game, the dealer's exchange made by the referee."""
    game, variant = oracle.rules(name), load_variant(name)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        deck = _cards(rng.permutation(52))
        size = 6 if variant.buy_fee is not None and rng.random() < 0.5 else 5
        cards, dealer, rest = deck[:size], deck[size : size + 5], deck[size + 5 :]
        folded = rng.random() < 0.1
        fees = float(rng.choice([0.0, 1.0, 1.5, 3.0]))
        bought, after = False, None
        if variant.buy_game and not folded and not oracle.qualifies(game, dealer):
            bought = rng.random() < 0.7
            discard = oracle.dealer_discard(game, dealer)
            after = [rest[0] if c == discard else c for c in dealer]
        yield cards, dealer, folded, fees, bought, after


@pytest.mark.parametrize("name", variant_names())
def test_random_boxes_settle_as_the_referee_says(name):
    game, variant = oracle.rules(name), load_variant(name)
    seen = set()
    for cards, dealer, folded, fees, bought, after in random_boxes(name, 400, seed=11):
        result = settle(
            variant,
            " ".join(cards),
            " ".join(dealer),
            folded=folded,
            fees=fees,
            bought_game=bought,
            dealer_after=after and " ".join(after),
        )
        expected = oracle.settle(
            game, cards, dealer, folded=folded, fees=fees, bought=bought, dealer_after=after
        )
        assert (result.net, result.outcome.name) == pytest.approx(expected), (cards, dealer)
        assert int(hand_category(" ".join(cards), ace_king=variant.ace_king)) == (
            oracle.CATEGORIES.index(oracle.category(cards, game["hands"]["ace_king"]))
        )
        if variant.bonus_pays:
            assert bonus_multiple(variant, " ".join(cards[:5])) == oracle.bonus(game, cards[:5])
        seen.add(expected[1])
    assert {"FOLD", "WIN", "LOSS", "NO_QUALIFY"} <= seen
    if variant.buy_game:
        assert {"BOUGHT_WIN", "BOUGHT_LOSS", "BOUGHT_NO_QUALIFY"} <= seen


@pytest.mark.parametrize("name", [n for n in variant_names() if load_variant(n).buy_game])
def test_the_dealer_discards_what_the_referee_says(name):
    game, variant = oracle.rules(name), load_variant(name)
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 60:
        dealer = _cards(rng.permutation(52)[:5])
        if oracle.qualifies(game, dealer):
            continue
        assert dealer_discard(variant, " ".join(dealer)) == oracle.dealer_discard(game, dealer)
        checked += 1


def boundary_hands() -> list[list[str]]:
    """The lowest and highest hands of every category, and hands just around the
    qualifiers (ace-king high, a pair of twos, A K 4 3 2)."""
    text = [
        "7c 5d 4h 3s 2c", "Ac Qd Jh Ts 8c",  # high card
        "Ac Kd 4h 3s 2c", "Ac Kd 5h 3s 2c", "Ac Kd Qh Js 9c",  # ace-king high
        "2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc",  # pair
        "3c 3d 2h 2s 4c", "Ac Ad Kh Ks Qc",  # two pair
        "2c 2d 2h 3s 4c", "Ac Ad Ah Ks Qc",  # trips
        "Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ac",  # straight
        "7c 5c 4c 3c 2c", "Ad Kd Qd Jd 9d",  # flush
        "2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc",  # full house
        "2c 2d 2h 2s 3c", "Ac Ad Ah As Kc",  # quads
        "Ah 2h 3h 4h 5h", "9s Ks Qs Js Ts",  # straight flush
        "Ts Js Qs Ks As",  # royal
    ]  # fmt: skip
    return [hand.split() for hand in text]


@pytest.mark.parametrize("name", variant_names())
def test_every_boundary_pair_settles_as_the_referee_says(name):
    game, variant = oracle.rules(name), load_variant(name)
    pairs = 0
    for cards, dealer in itertools.product(boundary_hands(), repeat=2):
        if set(cards) & set(dealer):
            continue
        result = settle(variant, " ".join(cards), " ".join(dealer))
        assert (result.net, result.outcome.name) == oracle.settle(game, cards, dealer), (
            cards,
            dealer,
        )
        pairs += 1
    assert pairs > 200
