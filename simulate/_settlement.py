"""numba kernels that settle a box: main game, bonus bet, payout cap, dealer's exchange.

``v`` is a :class:`simulate.variant.VariantArrays`. Amounts are in antes;
a box's result is ``(won, lost, outcome)``, its net being ``won - lost``.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
from numba import njit, prange

from ._evaluator import category_jit, set_rank_jit, value5_jit
from ._tables import cached_arrays
from .codes import Category, DealerDiscard, Outcome

FIVE_CARD_VALUES = 7462
"""Values of five-card hands (1 to 7462)."""


@njit(cache=True)
def _combination_of(cards, mask, ace_king, picked):
    """Category of the cards picked by ``mask`` when they are exactly the cards
    that form a combination (AK 2, pair 2, two pair 4, trips 3, quads 4, five-card
    hands 5), else -1. ``picked`` is scratch space for five cards."""
    size = 0
    rank_mask = 0
    for i in range(cards.shape[0]):
        if (mask >> i) & 1:
            if size == 5:
                return -1
            picked[size] = cards[i]
            rank_mask |= 1 << (cards[i] >> 2)
            size += 1
    distinct = 0
    for rank in range(13):
        distinct += (rank_mask >> rank) & 1
    if size == 2:
        if distinct == 1:
            return Category.PAIR
        return Category.ACE_KING if ace_king and rank_mask == (3 << 11) else -1
    if size == 3:
        return Category.THREE_OF_A_KIND if distinct == 1 else -1
    if size == 4:
        if distinct == 1:
            return Category.FOUR_OF_A_KIND
        first_rank_count = 0
        for i in range(4):
            first_rank_count += picked[i] >> 2 == picked[0] >> 2
        return Category.TWO_PAIR if distinct == 2 and first_rank_count == 2 else -1
    if size == 5:
        value = value5_jit(picked[0], picked[1], picked[2], picked[3], picked[4])
        category = category_jit(value, False)
        return (
            category
            if category >= Category.STRAIGHT and category != Category.FOUR_OF_A_KIND
            else -1
        )
    return -1


@njit(cache=True)
def second_combination_pays_jit(cards, best_value, bet_pays, ace_king):
    """BET multiple of a winning hand paid for its first and second combination.

    The first is the best hand (value ``best_value``); the second, the
    best-paying combination with a card outside the cards forming the first;
    where the first can be formed by different cards, the choice that pays
    most in total.
    """
    n = cards.shape[0]
    first = category_jit(best_value, ace_king)
    picked = np.empty(5, dtype=np.int64)
    combos = np.empty(1 << n, dtype=np.int64)
    for mask in range(1 << n):
        combos[mask] = _combination_of(cards, mask, ace_king, picked)
    best_total = bet_pays[first]
    for forming in range(1, 1 << n):
        if combos[forming] != first:
            continue
        if n == 6:  # the forming cards must lie in a best five: drop a card outside them
            in_best_five = False
            for drop in range(6):
                if not (forming >> drop) & 1:
                    k = 0
                    for i in range(6):
                        if i != drop:
                            picked[k] = cards[i]
                            k += 1
                    if value5_jit(picked[0], picked[1], picked[2], picked[3], picked[4]) == (
                        best_value
                    ):
                        in_best_five = True
                        break
            if not in_best_five:
                continue
        second = 0.0
        for mask in range(1, 1 << n):
            if combos[mask] >= 0 and mask & ~forming:
                second = max(second, bet_pays[combos[mask]])
        best_total = max(best_total, bet_pays[first] + second)
    return best_total


@njit(cache=True)
def bet_multiple_jit(v, cards, value):
    """What the BET pays, N to 1, for a winning final hand of value ``value``."""
    if v.second_combination:
        if cards.shape[0] == 5:
            return v.five_card_pays[value]
        return second_combination_pays_jit(cards, value, v.bet_pays, v.ace_king)
    return v.bet_pays[category_jit(value, v.ace_king)]


@njit(cache=True)
def _five_card_pays_jit(bet_pays, ace_king, out):
    hand = np.empty(5, dtype=np.int64)
    for c0 in range(52):
        for c1 in range(c0 + 1, 52):
            for c2 in range(c1 + 1, 52):
                for c3 in range(c2 + 1, 52):
                    for c4 in range(c3 + 1, 52):
                        value = value5_jit(c0, c1, c2, c3, c4)
                        if out[value] < 0:
                            hand[0], hand[1], hand[2], hand[3], hand[4] = c0, c1, c2, c3, c4
                            out[value] = second_combination_pays_jit(
                                hand, value, bet_pays, ace_king
                            )


@functools.cache
def _five_card_pays(bet_pays: tuple[float, ...], ace_king: bool) -> np.ndarray:
    out = np.full(FIVE_CARD_VALUES + 1, -1.0)
    _five_card_pays_jit(np.array(bet_pays), ace_king, out)
    out[0] = 0.0
    return out


def five_card_pays(bet_pays: np.ndarray, ace_king: bool) -> np.ndarray:
    """What the BET pays for a winning five-card hand with its second combination, by
    the hand's value: the same for every hand of a value (its ranks, and whether it is
    a flush, decide its combinations), so one hand of each is weighed."""
    return _five_card_pays(tuple(float(x) for x in bet_pays), bool(ace_king))


@njit(cache=True)
def _showdown(v, player_value, multiple, opponent, ante_at_risk, lost, outcomes):
    if player_value > opponent:
        return v.ante_pays + v.bet * multiple, lost, outcomes[0]
    if player_value < opponent:
        return 0.0, lost + v.bet + (1.0 if ante_at_risk else 0.0), outcomes[1]
    return 0.0, lost, outcomes[2]


@njit(cache=True)
def settle_jit(v, player_value, multiple, folded, fees, dealer_value, bought_game, after):
    """Settle a box: ``(won, lost, outcome)`` in antes.

    ``player_value``: the player's final hand, whose BET pays ``multiple`` to
    1 if it wins; ``fees``: what buying and exchanging cost him;
    ``dealer_value``: the dealer's hand as dealt; ``bought_game``: the
    player bought the non-qualifying dealer an exchange, after which his
    hand is ``after``.
    """
    if folded:
        return 0.0, fees + 1.0, Outcome.FOLD
    if dealer_value >= v.qualifier:
        return _showdown(
            v,
            player_value,
            multiple,
            dealer_value,
            True,
            fees,
            (Outcome.WIN, Outcome.LOSS, Outcome.PUSH),
        )
    if not bought_game:
        return v.ante_pays_no_qualify, fees, Outcome.NO_QUALIFY
    lost = fees + (1.0 if v.game_fee_is_ante else v.game_fee)
    if after < v.qualifier:
        return 0.0, lost, Outcome.BOUGHT_NO_QUALIFY
    return _showdown(
        v,
        player_value,
        multiple,
        after,
        not v.game_fee_is_ante,
        lost,
        (Outcome.BOUGHT_WIN, Outcome.BOUGHT_LOSS, Outcome.BOUGHT_PUSH),
    )


@njit(cache=True)
def bonus_multiple_jit(v, first_five):
    """The bonus bet's net result, in bonus bets, on the first five cards (-1: lost)."""
    value = value5_jit(first_five[0], first_five[1], first_five[2], first_five[3], first_five[4])
    return v.bonus_pays[category_jit(value, v.ace_king)]


@njit(cache=True)
def capped_net_jit(won, lost, bonus_multiple, ante, bonus_bet, max_payout, cap_per_bet):
    """A box's net result in currency once an account's maximum payout applies.

    ``won``/``lost`` in antes, ``bonus_multiple`` in bonus bets. The cap
    limits what is won, over the box's bets together, or over each bet.
    """
    main_won, bonus_won = won * ante, max(bonus_multiple, 0.0) * bonus_bet
    lost_total = lost * ante + max(-bonus_multiple, 0.0) * bonus_bet
    if cap_per_bet:
        return min(main_won, max_payout) + min(bonus_won, max_payout) - lost_total
    return min(main_won + bonus_won, max_payout) - lost_total


@njit(cache=True)
def dealer_discard_jit(v, dealer):
    """Index in ``dealer`` (5 cards) of the card the dealer exchanges when a game is bought.

    ``MOST_OUTS``: the card whose discard leaves most of the 47 cards
    he has not seen giving him a qualifying hand; ties go to the lowest card (looked
    up in ``v.discards`` where the variant has the table). ``HIGHEST``: his highest card.
    """
    if v.dealer_discards == DealerDiscard.HIGHEST:
        return np.argmax(dealer)
    if v.discards.shape[0] == 0:
        return most_outs_discard_jit(dealer, v.qualifier)
    ordered = np.sort(dealer)
    card = ordered[v.discards[set_rank_jit(ordered, 5)]]
    for i in range(5):
        if dealer[i] == card:
            return i
    return -1


@njit(cache=True)
def most_outs_discard_jit(dealer, qualifier):
    """Index in ``dealer`` of the card whose discard leaves most of the 47 cards he has
    not seen giving him a hand of at least ``qualifier``; ties go to the lowest card."""
    order = np.argsort(dealer)
    in_hand = np.zeros(52, dtype=np.bool_)
    for card in dealer:
        in_hand[card] = True
    hand = dealer.copy()
    best, best_outs = order[0], -1
    for i in order:
        outs = 0
        for card in range(52):
            if not in_hand[card]:
                hand[i] = card
                if value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4]) >= qualifier:
                    outs += 1
        hand[i] = dealer[i]
        if outs > best_outs:
            best, best_outs = i, outs
    return best


@njit(cache=True, parallel=True)
def _discard_table_jit(qualifier, out):
    """out[rank of a hand] = the position, in the increasing hand, of the card its
    dealer discards (most outs), for every five-card hand."""
    for e in prange(4, 52):
        hand = np.empty(5, dtype=np.int64)
        hand[4] = e
        for d in range(3, e):
            hand[3] = d
            for c in range(2, d):
                hand[2] = c
                for b in range(1, c):
                    hand[1] = b
                    for a in range(b):
                        hand[0] = a
                        out[set_rank_jit(hand, 5)] = most_outs_discard_jit(hand, qualifier)


@functools.cache
def discard_table(qualifier: int) -> np.ndarray:
    """The dealer's most-outs discard of every five-card hand for a qualifier, by the
    hand's colex rank (2,598,960 bytes, kept in the cache folder)."""

    def build() -> dict[str, np.ndarray]:
        out = np.zeros(comb(52, 5), dtype=np.uint8)
        _discard_table_jit(qualifier, out)
        return {"discards": out}

    sources = ("_settlement.py", "_evaluator.py", "codes.py")
    return cached_arrays(f"dealer-discards-{qualifier}", build, sources)["discards"]
