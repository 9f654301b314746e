"""numba kernels of the proxy of exchanges: every exchange of a situation valued as in
video poker, from the final hands alone.

For an upcard u, every five cards h outside it get a value f(h): the EV of the
better of folding and betting h against u and four cards outside h and u,
the player's discards left in the dealer's deck (that is what makes f a
function of h alone). Summed over every h holding a set X of cards,
T(X) = sum of f(h) over h containing X, for every X of at most five cards;
then an exchange keeping K of the player's five cards P and throwing D
draws the hands containing K and avoiding D, whose values add up by
inclusion-exclusion over D:

    sum over S within D of (-1)^|S| T(K + S),

32 look-ups for all 32 exchanges of a situation. Card sets of the 51 cards
outside u are indexed by colex rank, each size from its offset in one array.

The same sums of two upper bounds of a hand's value, whatever the discards,
bound the true gain of every situation: the most betting the hand can return;
and, with k discards dead, the dealer's hands that avoid them being at least
the share 1/r of those that avoid the hand alone (r = C(46, 4) / C(46 - k, 4)),
losing at most 1 + BET on each of the others, a value at most
r * play EV + (r - 1)(1 + BET).
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._evaluator import BINOMIAL, hand_value_jit
from ._exact import after_draw_ev_jit, thrown_count_jit
from ._settlement import bet_multiple_jit

OTHERS = 51  # cards outside the upcard
OFFSETS = np.cumsum([0] + [comb(OTHERS, k) for k in range(6)])
"""Where the sets of k cards start in an array of sums, k = 0..5; ``OFFSETS[6]``: its length."""
HANDS = comb(OTHERS, 5)
UNSEEN = 46  # cards the player draws from
VALUE, FORCED, BEST, BOUND = 0, 1, 2, 2  # tables of sums; BOUND + k: k cards thrown
TABLES = BOUND + 6


@njit(cache=True)
def _top_pairs():
    """The (4th, 5th) smallest indices of every five-card set, in an order that deals
    neighbours, which cost alike, to different threads."""
    pairs = np.empty((OTHERS * OTHERS, 2), dtype=np.int64)
    n = 0
    for e in range(4, OTHERS):
        for d in range(3, e):
            pairs[n, 0], pairs[n, 1] = d, e
            n += 1
    order = np.concatenate((np.arange(0, n, 2), np.arange(1, n, 2)))
    return pairs[order]


SUIT_PERMUTATIONS = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1]]
)
"""The relabellings of suits that keep the upcard's suit, 0: a hand's value is theirs."""


@njit(cache=True)
def _smallest_image(hand, upcard, image):
    """The smallest colex rank, among the 51 others, of ``hand`` relabelled by any of
    ``SUIT_PERMUTATIONS``."""
    smallest = HANDS
    for p in range(SUIT_PERMUTATIONS.shape[0]):
        for i in range(5):  # insertion sort: five cards
            card = hand[i] - (hand[i] & 3) + SUIT_PERMUTATIONS[p, hand[i] & 3]
            j = i
            while j > 0 and image[j - 1] > card:
                image[j] = image[j - 1]
                j -= 1
            image[j] = card
        for i in range(5):
            image[i] -= image[i] > upcard
        rank = 0
        for i in range(5):
            rank += BINOMIAL[image[i], i + 1]
        smallest = min(smallest, rank)
    return smallest


@njit(cache=True, parallel=True)
def final_values_jit(v, lists, upcard, plays, best):
    """For every five cards outside ``upcard`` (suit 0), by colex rank of their indices
    among the 51 others: into ``plays``, the EV of betting them against the dealer's
    upcard and four cards outside them; into ``best``, the most betting them can return,
    whoever the dealer holds. Computed once per class of hands under
    ``SUIT_PERMUTATIONS``, then copied."""
    pairs = _top_pairs()
    image_of = np.empty(HANDS, dtype=np.int64)
    for p in prange(pairs.shape[0]):
        d, e = pairs[p, 0], pairs[p, 1]
        hand = np.empty(5, dtype=np.int64)
        image = np.empty(5, dtype=np.int64)
        hand[3], hand[4] = d + (d >= upcard), e + (e >= upcard)
        top = BINOMIAL[d, 4] + BINOMIAL[e, 5]
        for c in range(2, d):
            hand[2] = c + (c >= upcard)
            for b in range(1, c):
                hand[1] = b + (b >= upcard)
                for a in range(b):
                    hand[0] = a + (a >= upcard)
                    rank = top + BINOMIAL[c, 3] + BINOMIAL[b, 2] + a
                    image_of[rank] = _smallest_image(hand, upcard, image)
                    if image_of[rank] < rank:
                        continue
                    plays[rank] = after_draw_ev_jit(v, lists, hand, upcard, hand, 5, True)
                    multiple = bet_multiple_jit(v, hand, hand_value_jit(hand))
                    win = v.ante_pays + v.bet * multiple
                    best[rank] = max(0.0, v.ante_pays_no_qualify, win)  # 0: a push
    for rank in prange(HANDS):
        plays[rank], best[rank] = plays[image_of[rank]], best[image_of[rank]]


@njit(cache=True)
def _subset_index(indices, mask):
    """Where the subset ``mask`` of five increasing indices sits in an array of sums."""
    rank, size = 0, 0
    for i in range(5):
        if (mask >> i) & 1:
            size += 1
            rank += BINOMIAL[indices[i], size]
    return OFFSETS[size] + rank


@njit(cache=True)
def superset_sums_jit(values, sums):
    """``sums[X]``: the sum of ``values`` of the five-card sets holding X, for every set X
    of at most five of the 51 cards."""
    sums[:] = 0.0
    x = np.empty(5, dtype=np.int64)
    for e in range(4, OTHERS):
        x[4] = e
        for d in range(3, e):
            x[3] = d
            for c in range(2, d):
                x[2] = c
                for b in range(1, c):
                    x[1] = b
                    for a in range(b):
                        x[0] = a
                        value = values[_subset_index(x, 31) - OFFSETS[5]]
                        for mask in range(32):
                            sums[_subset_index(x, mask)] += value


@njit(cache=True)
def kept_means_jit(sums, hand, upcard, out):
    """``out[K]``: the mean value of the final hands of keeping the cards ``K`` (a mask of
    positions) of ``hand`` (increasing, without the upcard) and drawing the rest."""
    x = np.empty(5, dtype=np.int64)
    for i in range(5):
        x[i] = hand[i] - (hand[i] > upcard)
    for mask in range(32):
        out[mask] = sums[_subset_index(x, mask)]
    for bit in range(5):  # inclusion-exclusion over the discards
        for mask in range(32):
            if not (mask >> bit) & 1:
                out[mask] -= out[mask | (1 << bit)]
    for mask in range(32):
        out[mask] /= BINOMIAL[UNSEEN, thrown_count_jit(mask)]


@njit(cache=True)
def situation_proxy_jit(tables, hand, upcard, fees, forced, long, means):
    """(proxy gain, bound of the true gain) of a situation: the proxy's best long exchange
    beyond its best other exchange or standing (zero if none), and a proven bound of how
    much any long exchange can beat folding or betting. ``tables``: sums of each hand's
    value (``VALUE``, ``FORCED``), of the most it can return (``BEST``) and of the bound
    of its value when k discards are dead (``BOUND + k``); ``fees``, ``forced``, ``long``:
    per mask of kept cards (fee NaN where not offered). ``means``: ``TABLES`` x 32."""
    for t in range(TABLES):
        kept_means_jit(tables[t], hand, upcard, means[t])
    short_best, long_best, bound = -np.inf, -np.inf, 0.0
    for mask in range(32):
        if np.isnan(fees[mask]):
            continue
        ev = (means[FORCED, mask] if forced[mask] else means[VALUE, mask]) - fees[mask]
        if long[mask]:
            long_best = max(long_best, ev)
            most = min(means[BEST, mask], means[BOUND + thrown_count_jit(mask), mask])
            bound = max(bound, most - fees[mask] - means[VALUE, 31])
        else:
            short_best = max(short_best, ev)
    return max(0.0, long_best - short_best), bound


@njit(cache=True)
def relabelled_jit(cards, suit, out):
    """``cards`` with suits 0 and ``suit`` swapped, into ``out``, increasing."""
    for i in range(5):
        own = cards[i] & 3
        out[i] = cards[i] - own + (suit if own == 0 else 0 if own == suit else own)
    out.sort()


@njit(cache=True, parallel=True)
def game_proxies_jit(tables, reps, rank, fees, forced, long, gains, largest, bounds):
    """Per class of hands (``reps``): the sum of the proxy gains over its situations whose
    upcard has ``rank`` (each seen with the upcard's suit relabelled to suit 0, which
    ``tables`` are for), the largest, and the largest bound of the true gain."""
    upcard = 4 * rank
    for c in prange(reps.shape[0]):
        means = np.empty((TABLES, 32))
        hand = np.empty(5, dtype=np.int64)
        gains[c], largest[c], bounds[c] = 0.0, 0.0, 0.0
        for suit in range(4):
            if np.any(reps[c] == upcard + suit):
                continue
            relabelled_jit(reps[c], suit, hand)
            gain, bound = situation_proxy_jit(tables, hand, upcard, fees, forced, long, means)
            gains[c] += gain
            largest[c] = max(largest[c], gain)
            bounds[c] = max(bounds[c], bound)


@njit(cache=True)
def sample_proxies_jit(tables, hands, upcards, rank, fees, forced, long, gains, bounds):
    """The proxy gain and the bound of the true gain of each situation (hand, upcard) whose
    upcard has ``rank``, into ``gains`` and ``bounds``; the others are left alone."""
    means = np.empty((TABLES, 32))
    hand = np.empty(5, dtype=np.int64)
    for i in range(hands.shape[0]):
        if upcards[i] >> 2 == rank:
            relabelled_jit(hands[i], upcards[i] & 3, hand)
            gains[i], bounds[i] = situation_proxy_jit(
                tables, hand, 4 * rank, fees, forced, long, means
            )
