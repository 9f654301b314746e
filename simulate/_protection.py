"""numba kernels of the game-protection figures: the player's EV of betting when he
also knows some of the dealer's hidden cards, in games decided by folding or betting.

The dealer's hands holding a set of known cards (his upcard, the hole cards the
player knows) and none of the player's are counted below thresholds by
inclusion-exclusion over the player's cards, from the sorted value lists of
``_exact`` (every five-card hand holding a set of one to four cards) and, for the
empty set, the sorted values of every hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._engine import draw_card_jit, round_state_jit
from ._evaluator import next_combination_jit, set_rank_jit, value5_jit
from ._exact import count_below_jit, ev_from_counts_jit, play_ev_jit
from ._settlement import bet_multiple_jit, settle_jit

FOLD_NET = -1.0
"""What folding costs, in antes."""


@njit(cache=True)
def every_value_jit() -> np.ndarray:
    """The values of all 2,598,960 five-card hands, sorted."""
    values = np.empty(2_598_960, dtype=np.uint16)
    hand = np.arange(5)
    i = 0
    while True:
        values[i] = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        i += 1
        if not next_combination_jit(hand, 52):
            break
    return np.sort(values)


@njit(cache=True)
def _count_hands_with(lists, every, cards, size, sign, thresholds, out):
    """Add ``sign`` times the hands holding ``cards[:size]`` (increasing), below each
    threshold (``out[-1]``: all of them)."""
    n = thresholds.shape[0]
    if size == 5:
        value = value5_jit(cards[0], cards[1], cards[2], cards[3], cards[4])
        for t in range(n):
            if value < thresholds[t]:
                out[t] += sign
        out[n] += sign
        return
    if size == 0:
        values = every
    else:
        rank = set_rank_jit(cards, size)
        v1, v2, v3, v4 = lists
        values = (
            v1[rank]
            if size == 1
            else v2[rank]
            if size == 2
            else v3[rank]
            if size == 3
            else v4[rank]
        )
    for t in range(n):
        out[t] += sign * count_below_jit(values, thresholds[t])
    out[n] += sign * values.shape[0]


@njit(cache=True)
def dealer_counts_known_jit(lists, every, known, dead, thresholds, out):
    """Count the dealer's hands holding every card of ``known`` (0 to 5 cards) and none of
    ``dead`` (the player's cards), below each threshold (``out[-1]``: all of them)."""
    out[:] = 0
    cards = np.empty(5, dtype=np.int64)
    room = 5 - known.shape[0]
    for mask in range(1 << dead.shape[0]):
        size = 0
        for i in range(dead.shape[0]):
            size += (mask >> i) & 1
        if size > room:
            continue
        n = 0
        for card in known:
            cards[n] = card
            n += 1
        for i in range(dead.shape[0]):
            if (mask >> i) & 1:
                cards[n] = dead[i]
                n += 1
        _sort_small(cards, n)
        _count_hands_with(lists, every, cards, n, -1 if size & 1 else 1, thresholds, out)


@njit(cache=True)
def bet_ev_known_jit(v, lists, every, hand, known):
    """The EV, in antes, of betting the five cards of ``hand`` when the dealer holds every
    card of ``known`` (his upcard first), the rest of his hand unseen."""
    value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
    thresholds = np.empty(3, dtype=np.int64)
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    counts = np.empty(4, dtype=np.int64)
    dealer_counts_known_jit(lists, every, known, hand, thresholds, counts)
    multiple = bet_multiple_jit(v, hand, value)
    return ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])[0]


@njit(cache=True, parallel=True)
def upcard_and_holes_jit(v, lists, every, reps, holes, out):
    """For each class of hands ``reps[i]``: the sum, over every upcard and (``holes`` 1)
    every hole card the player sees or (0) none, of the better of folding and betting."""
    for i in prange(reps.shape[0]):
        hand = reps[i]
        known = np.empty(1 + holes, dtype=np.int64)
        total = 0.0
        for upcard in range(52):
            if _holds(hand, upcard):
                continue
            known[0] = upcard
            if holes == 0:
                total += max(FOLD_NET, bet_ev_known_jit(v, lists, every, hand, known))
                continue
            for hole in range(52):
                if hole == upcard or _holds(hand, hole):
                    continue
                known[1] = hole
                total += max(FOLD_NET, bet_ev_known_jit(v, lists, every, hand, known))
        out[i] = total


@njit(cache=True, parallel=True)
def whole_hand_jit(v, lists, every, reps, out):
    """For each class of hands ``reps[i]``: the sum, over every dealer hand, of the better
    of folding and betting when the player sees the dealer's whole hand; the dealer
    hands counted by how they settle (not qualifying, below, equal to or above the
    player's hand)."""
    for i in prange(reps.shape[0]):
        hand = reps[i]
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        thresholds = np.empty(3, dtype=np.int64)
        thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
        counts = np.empty(4, dtype=np.int64)
        dealer_counts_known_jit(
            lists, every, np.empty(0, dtype=np.int64), hand, thresholds, counts
        )
        multiple = bet_multiple_jit(v, hand, value)
        _, _, no_qualify, win, push, loss = ev_from_counts_jit(
            v, value, multiple, counts[0], counts[1], counts[2], counts[3]
        )
        won = v.ante_pays + v.bet * multiple
        lost = -(1.0 + v.bet)
        out[i] = (
            no_qualify * max(FOLD_NET, v.ante_pays_no_qualify)
            + win * max(FOLD_NET, won)
            + push * max(FOLD_NET, 0.0)
            + loss * max(FOLD_NET, lost)
        )


@njit(cache=True)
def _dealt(key, index, count):
    """``count`` cards dealt from the stream of the seed ``key`` and ``index`` (the player's
    five first, then the dealer's, his upcard first)."""
    state = np.zeros(1, dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)
    state[0] = round_state_jit(key, index)
    cards = np.empty(count, dtype=np.int64)
    for j in range(count):
        cards[j] = draw_card_jit(state, used)
    return cards


@njit(cache=True)
def _sort_small(cards, n):
    """Sort ``cards[:n]`` in place (n at most 5)."""
    for i in range(1, n):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@njit(cache=True)
def _holds(hand, card) -> bool:
    return np.any(hand == card)


@njit(cache=True, parallel=True)
def sampled_gains_jit(v, lists, every, key, start, known_count, out):
    """For situations ``start ..`` (one per entry of ``out``, each dealt from the seed
    ``key`` and its index): the player's hand, the upcard and ``known_count`` of the
    dealer's hidden cards dealt at random; what seeing those cards adds to the better
    of folding and betting on the hand and the upcard alone (at least 0)."""
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 6 + known_count)
        hand, known = cards[:5], cards[5:]
        blind = bet_ev_known_jit(v, lists, every, hand, known[:1])
        seeing = bet_ev_known_jit(v, lists, every, hand, known)
        out[i] = max(FOLD_NET, seeing) - (seeing if blind > FOLD_NET else FOLD_NET)


@njit(cache=True, parallel=True)
def played_rounds_jit(v, key, start, known_count, lists, every, out):
    """Rounds ``start ..`` played (one per entry of ``out``, dealt from the seed ``key`` and
    its index): the player sees his hand, the upcard and ``known_count`` of the dealer's
    hidden cards, bets when that is worth more than folding, and is settled against the
    dealer's whole hand; ``out``: each round's net, in antes."""
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 10)
        hand, dealer = cards[:5], cards[5:]
        folded = bet_ev_known_jit(v, lists, every, hand, dealer[: 1 + known_count]) <= FOLD_NET
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        dealt = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
        multiple = bet_multiple_jit(v, hand, value)
        won, lost, _ = settle_jit(v, value, multiple, folded, 0.0, dealt, False, 0)
        out[i] = won - lost


@njit(cache=True, parallel=True)
def shared_hands_gains_jit(v, lists, key, start, hands_seen, out):
    """For situations ``start ..`` (one per entry of ``out``, dealt from the seed ``key`` and
    its index): the player's hand, the upcard and ``hands_seen`` other players' hands of
    five cards, all dead for the dealer's hidden cards; what seeing those hands adds to
    the better of folding and betting on the hand and the upcard alone (at least 0)."""
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 6 + 5 * hands_seen)
        hand, upcard = cards[:5], cards[5]
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        multiple = bet_multiple_jit(v, hand, value)
        dead = np.sort(np.concatenate((hand, cards[6:])))
        blind = play_ev_jit(v, lists, hand, value, multiple, upcard, np.sort(hand), 5)[0]
        seeing = play_ev_jit(v, lists, hand, value, multiple, upcard, dead, dead.shape[0])[0]
        out[i] = max(FOLD_NET, seeing) - (seeing if blind > FOLD_NET else FOLD_NET)
