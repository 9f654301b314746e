import itertools

import numba
import numpy as np
import pytest

from simulate import _settlement
from simulate._evaluator import value5_jit
from simulate.cards import format_cards, parse_cards
from simulate.codes import Category
from simulate.evaluator import hand_category, hand_value
from simulate.settlement import (
    Outcome,
    bet_multiple,
    bonus_multiple,
    capped_net,
    dealer_discard,
    settle,
)
from simulate.variant import load_variant

from .helpers import random_hands

AK_HIGH = "Ac Kc 9d 5s 2h"  # qualifies with ace-king, not with a pair
PAIR_OF_TWOS = "2c 2d 9h 7s 4c"
NOTHING = "Qc Jd 9h 6s 3c"  # qualifies nowhere
FULL_HOUSE = "6h 6d 6s Ks Kd"
ROYAL = "As Ks Qs Js Ts"


@pytest.mark.parametrize(
    ("variant", "won"),
    [
        ("six-card", 150),
        ("oasis", 150),
        ("russian", 140),
        ("caribbean", 150),
        ("oasis-classic", 150),
    ],
)
def test_full_house_at_ante_10(variant, won):
    dealer = AK_HIGH if variant != "six-card" else PAIR_OF_TWOS
    result = settle(variant, FULL_HOUSE, dealer)
    assert result.outcome == Outcome.WIN and result.net * 10 == won


@pytest.mark.parametrize(
    ("variant", "won"), [("six-card", 2010), ("russian", 2000), ("oasis", 2010)]
)
def test_royal_at_ante_10(variant, won):
    assert settle(variant, ROYAL, "2c 2d 9h 7s 4c").net * 10 == won


@pytest.mark.parametrize(
    ("cards", "pays"),
    [
        ("Ac Ad Kh 7s 6c", 2),  # pair + AK
        ("2c 2d Ah Ks 9c", 2),  # pair + AK
        ("Ac Ad Ah As 7c 7d", 27),  # quads + full house A-A-A-7-7
        ("Ac Kd Qh Js Tc 9d", 8),  # straight + straight
        ("Ac Kc Qc Jc Tc 9c", 150),  # royal + straight flush
        ("Ac Ad Ah As 9c", 20),  # quads only: the trips lie inside them
        ("Kc Kd 7h 7s 2c", 2),  # two pair, no second
        ("Kc Kd 7h 7s Ac", 3),  # two pair + AK
        ("6h 6d 6s Ks Kd", 7),  # a full house uses all five cards
        ("Ac Kd Qh Js Tc Td", 8),  # two straights, each with a ten the other lacks
        ("9c 8c 7c 6c 5c 9d", 54),  # straight flush + the straight with 9d
    ],
)
def test_russian_second_combination(cards, pays):
    assert bet_multiple("russian", cards) == pays


def second_combination_reference(cards: list[int], pays: dict[Category, float]) -> float:
    """RULES.md read literally, in plain Python: combinations are card sets."""
    combos = []
    for size in (2, 3, 4, 5):
        for subset in itertools.combinations(cards, size):
            ranks = sorted(c >> 2 for c in subset)
            counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
            category = None
            if size == 2:
                category = (
                    Category.PAIR
                    if counts == [2]
                    else (Category.ACE_KING if ranks == [11, 12] else None)
                )
            elif size == 3 and counts == [3]:
                category = Category.THREE_OF_A_KIND
            elif size == 4:
                category = {(4,): Category.FOUR_OF_A_KIND, (2, 2): Category.TWO_PAIR}.get(
                    tuple(counts)
                )
            elif size == 5:
                five = hand_category(list(subset))
                if five >= Category.STRAIGHT and five != Category.FOUR_OF_A_KIND:
                    category = five
            if category is not None:
                combos.append((set(subset), category))
    best = hand_value(cards)
    first = hand_category(cards, ace_king=True)
    best_fives = [set(f) for f in itertools.combinations(cards, 5) if hand_value(list(f)) == best]
    total = pays[first]
    for forming, category in combos:
        if category == first and any(forming <= five for five in best_fives):
            seconds = [pays[c] for s, c in combos if s - forming]
            total = max(total, pays[first] + max(seconds, default=0))
    return total


@pytest.mark.parametrize("size", [5, 6])
def test_second_combination_against_plain_reference(size):
    russian = load_variant("russian")
    pays = dict.fromkeys(Category, 0.0) | russian.bet_pays
    for hand in random_hands(1500, size, seed=20 + size).tolist():
        assert bet_multiple(russian, hand) == second_combination_reference(hand, pays), (
            format_cards(hand)
        )


@numba.njit(cache=True)
def _table_mismatches(hands, table, bet_pays, ace_king):
    """Hands whose value's pay in the table differs from their own cards' weighing."""
    bad = 0
    for i in range(hands.shape[0]):
        hand = hands[i]
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        own = _settlement.second_combination_pays_jit(hand, value, bet_pays, ace_king)
        bad += table[value] != own
    return bad


def test_five_card_pays_by_value_hold_for_every_five_card_hand(all_five_card_hands):
    """Russian's BET on five cards is read by the hand's value: every one of the
    2,598,960 hands, weighed from its own cards, pays what its value's entry says."""
    arrays = load_variant("russian").arrays()
    hands = all_five_card_hands.astype(np.int64)
    assert _table_mismatches(hands, arrays.five_card_pays, arrays.bet_pays, arrays.ace_king) == 0
    assert len(load_variant("oasis").arrays().five_card_pays) == 0  # paid by category


def test_every_settlement_branch():
    six, oasis, russian = "six-card", "oasis", "russian"
    # fold: the ante and the fees are lost
    assert settle(oasis, NOTHING, AK_HIGH, folded=True).net == -1
    r = settle(oasis, NOTHING, AK_HIGH, folded=True, fees=1.5)
    assert (r.net, r.outcome) == (-2.5, Outcome.FOLD)
    # dealer does not qualify: ante 1:1, BET returned, fees kept
    r = settle(six, FULL_HOUSE, AK_HIGH, fees=1)
    assert (r.net, r.outcome) == (0, Outcome.NO_QUALIFY)
    assert settle(russian, FULL_HOUSE, "Qc Jd 9h 5s 3c").net == 1
    # loss: ante and BET
    r = settle(oasis, "Ad Qd 9h 6c 3c", AK_HIGH)
    assert (r.net, r.outcome) == (-3, Outcome.LOSS)
    # push: equal hands
    r = settle(oasis, "Ad Kd 9c 5h 2s", AK_HIGH)
    assert (r.net, r.outcome) == (0, Outcome.PUSH)
    # a win after an exchange: fee, ante 1:1, AK pays 1 on the BET
    assert settle(oasis, "Ad Kd Jc 5h 2s", AK_HIGH, fees=1).net == -1 + 1 + 2
    # caribbean: ace-king high beats ace-king high, pays 1 to 1
    assert settle("caribbean", "Ad Kd Jc 5h 3s", AK_HIGH).net == 3


DEALER_NO_GAME = "Qc Jd 9h 5s 3c"


@pytest.mark.parametrize(
    ("variant", "after", "cards", "net", "outcome"),
    [
        # the fee is lost; the ante pays 1:1 on a win (returned in russian)
        ("six-card", "Qc Qd 9h 5s 3c", FULL_HOUSE, -1 + 1 + 14, Outcome.BOUGHT_WIN),
        ("russian", "Qc Qd 9h 5s 3c", FULL_HOUSE, -1 + 0 + 14, Outcome.BOUGHT_WIN),
        ("six-card", "Qc Qd 9h 5s 3c", "Jc Jh 9d 5c 3d", -1 - 3, Outcome.BOUGHT_LOSS),
        ("russian", "Qc Qd 9h 5s 3c", "Jc Jh 9d 5c 3d", -1 - 3, Outcome.BOUGHT_LOSS),
        ("six-card", "Qc Qd 9h 5s 3c", "Qh Qs 9d 5c 3d", -1, Outcome.BOUGHT_PUSH),
        ("six-card", "Qc Td 9h 5s 3c", FULL_HOUSE, -1, Outcome.BOUGHT_NO_QUALIFY),
        ("russian", "Qc Td 9h 5s 3c", FULL_HOUSE, -1, Outcome.BOUGHT_NO_QUALIFY),
        # 1-2-5: the ante is the fee; a loss loses only the BET, a win is paid the ante too
        ("six-card-125", "Qc Qd 9h 5s 3c", FULL_HOUSE, -1 + 1 + 14, Outcome.BOUGHT_WIN),
        ("six-card-125", "Qc Qd 9h 5s 3c", "Jc Jh 9d 5c 3d", -1 - 2, Outcome.BOUGHT_LOSS),
        ("six-card-125", "Qc Qd 9h 5s 3c", "Qh Qs 9d 5c 3d", -1, Outcome.BOUGHT_PUSH),
        ("six-card-125", "Qc Td 9h 5s 3c", FULL_HOUSE, -1, Outcome.BOUGHT_NO_QUALIFY),
    ],
)
def test_bought_game(variant, after, cards, net, outcome):
    result = settle(variant, cards, DEALER_NO_GAME, bought_game=True, dealer_after=after)
    assert (result.net, result.outcome) == (net, outcome)


def test_bought_game_is_checked():
    with pytest.raises(ValueError, match="not offered"):
        settle(
            "oasis", FULL_HOUSE, DEALER_NO_GAME, bought_game=True, dealer_after="Qc Qd 9h 5s 3c"
        )
    with pytest.raises(ValueError, match="only when the dealer does not qualify"):
        settle(
            "six-card", FULL_HOUSE, PAIR_OF_TWOS, bought_game=True, dealer_after="2c 2d 9h 7s 5c"
        )
    with pytest.raises(ValueError, match="exactly one card"):
        settle(
            "six-card", FULL_HOUSE, DEALER_NO_GAME, bought_game=True, dealer_after="Qc Qd 9h 4s 3c"
        )
    with pytest.raises(ValueError, match="share a card"):
        settle("six-card", FULL_HOUSE, "6h Jd 9h 5s 3c")


def test_bonus_pays():
    assert bonus_multiple("oasis", ROYAL) == 1000
    assert bonus_multiple("oasis", "9c Tc Jd Qh Ks") == 40
    assert bonus_multiple("oasis", "9c 9d 9h Qh Ks") == -1  # trips: below a straight
    assert bonus_multiple("oasis", "Ac Kd 9h 5s 2c") == -1
    assert bonus_multiple("six-card-125", "9c 9d 9h Qh Ks") == 5
    assert bonus_multiple("six-card-125", "9c 9d 8h Qh Ks") == -1
    with pytest.raises(ValueError, match="no bonus bet"):
        bonus_multiple("russian", ROYAL)


def test_payout_cap_lite_ante_50_royal():
    royal = settle("oasis", ROYAL, AK_HIGH)
    assert royal.won * 50 == 10_050
    assert capped_net("oasis", royal, account="LITE", ante=50) == 2000
    assert capped_net("oasis", royal, account="VIP", ante=50) == 10_050
    # the cap covers the box's bets together: the bonus adds nothing over it
    capped = capped_net("oasis", royal, account="LITE", ante=50, bonus_bet=5, bonus=1000)
    assert capped == 2000
    # losses are not capped, and a lost bonus bet is lost beside a capped win
    loss = settle("oasis", "Ad Qd 9h 6c 3c", AK_HIGH)
    assert capped_net("oasis", loss, account="LITE", ante=50, bonus_bet=5) == -155
    assert capped_net("oasis", royal, account="LITE", ante=50, bonus_bet=5, bonus=-1) == 1995
    with pytest.raises(ValueError, match="outside LITE's limits"):
        capped_net("oasis", royal, account="LITE", ante=51)
    with pytest.raises(ValueError, match="no account 'GOLD'"):
        capped_net("oasis", royal, account="GOLD", ante=5)


def test_cap_per_bet_lets_each_bet_win_the_maximum():
    box = _settlement.capped_net_jit(201.0, 0.0, 1000.0, 50.0, 5.0, 2000.0, False)
    each = _settlement.capped_net_jit(201.0, 0.0, 1000.0, 50.0, 5.0, 2000.0, True)
    assert (box, each) == (2000, 4000)


def discard_reference(variant, dealer: list[int]) -> int:
    qualifier = variant.qualifier_value
    if variant.buy_game.dealer_discards == "highest":
        return max(dealer)
    unseen = [c for c in range(52) if c not in dealer]

    def outs(card):
        rest = [c for c in dealer if c != card]
        return sum(hand_value([*rest, new]) >= qualifier for new in unseen)

    return max(sorted(dealer), key=outs)  # max keeps the first, the lowest card, on ties


@pytest.mark.parametrize(
    ("variant", "dealer", "discard"),
    [
        ("six-card", "2h 5h 9h Jh Kc", "Kc"),  # four to a flush: throw the odd suit
        ("six-card", "9c Td Jh Qs 3c", "3c"),  # four to a straight
        ("six-card", "2c 5d 9h Js Kc", "2c"),  # neither: all equal, the lowest goes
        ("russian", "Kh 2h 5h 9h Jc", "Jc"),  # needs ace-king: a king kept
        ("six-card-125", "2h 5h 9h Jh Kc", "Kc"),  # highest card
        ("six-card-125", "9c Td Jh Qs 3c", "Qs"),
    ],
)
def test_dealer_discard(variant, dealer, discard):
    assert dealer_discard(variant, dealer) == discard


@pytest.mark.parametrize("name", ["six-card", "russian"])
def test_dealer_discard_against_reference(name):
    variant = load_variant(name)
    hands = [
        h for h in random_hands(400, 5, seed=3).tolist() if hand_value(h) < variant.qualifier_value
    ]
    for hand in hands[:150]:
        expected = discard_reference(variant, hand)
        assert parse_cards(dealer_discard(variant, hand)).tolist() == [expected]
    assert len(hands) > 100


@pytest.mark.parametrize("name", ["six-card", "russian"])
def test_the_discard_table_is_the_most_outs_search(name):
    """The kernels look the dealer's discard up by his hand: the same card as searching
    his outs, on hands in any order."""
    variant = load_variant(name)
    arrays = variant.arrays()
    assert len(arrays.discards) == 2_598_960
    rng = np.random.default_rng(8)
    for hand in random_hands(20_000, 5, seed=8).astype("int64"):
        hand = rng.permutation(hand)
        assert _settlement.dealer_discard_jit(arrays, hand) == (
            _settlement.most_outs_discard_jit(hand, variant.qualifier_value)
        )


@pytest.mark.parametrize(
    "name", ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]
)
def test_common_branches_of_every_variant(name):
    variant = load_variant(name)
    qualifying = "Ac Ad 8h 5s 2h"  # a pair of aces qualifies everywhere
    ante_win = variant.ante_pays
    cases = [
        (dict(cards=NOTHING, dealer=qualifying, folded=True), -1, Outcome.FOLD),
        (
            dict(cards=FULL_HOUSE, dealer="Qc Jd 9h 5s 3c"),
            variant.ante_pays_no_qualify,
            Outcome.NO_QUALIFY,
        ),
        (
            dict(cards=FULL_HOUSE, dealer=qualifying),
            ante_win + 2 * bet_multiple(variant, FULL_HOUSE),
            Outcome.WIN,
        ),
        (dict(cards="Kc Kd 9c 5h 3s", dealer=qualifying), -3, Outcome.LOSS),
        (dict(cards="As Ah 8d 5c 2c", dealer=qualifying), 0, Outcome.PUSH),
    ]
    for kwargs, net, outcome in cases:
        result = settle(variant, kwargs.pop("cards"), kwargs.pop("dealer"), **kwargs)
        assert (result.net, result.outcome) == (net, outcome), (name, outcome)
