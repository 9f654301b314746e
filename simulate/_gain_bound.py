"""numba kernels of a proven bound of what a situation's long exchanges can gain.

A final hand h bet against the dealer's four hidden cards S, drawn from the 46
cards outside h and the upcard (N = C(46, 4) sets), returns o(S), at least -c =
-(1 + BET) and at most W, the most betting h can return. Throwing k cards D
leaves the dealer the N_D = C(46 - k, 4) sets that avoid them. Bonferroni's
inequality of the second order, on o + c >= 0, bounds what the others hold:

    sum over S meeting D of (o(S) + c)
        >= sum over d in D of n1 (EV + e(h, d) + c) - C(k, 2) n2 (W + c),

n1 = C(45, 3) sets holding a card, n2 = C(44, 2) holding two, EV the EV of
betting h, e(h, d) how much more it returns when d is among the dealer's cards.
So h's EV with D dead is at most

    A_k(h) - n1 / N_D * (sum over d in D of e(h, d)),
    A_k(h) = ((N - k n1) EV + c (N - N_D - k n1) + C(k, 2) n2 (W + c)) / N_D,

exactly its EV for k = 1. The final hand is worth the better of folding (-1) and
betting, or betting if the exchange forces it, and never more than W: a
nondecreasing function of that EV of slope at most 1, so at most its value at
A_k(h) plus the positive parts of -n1 / N_D * e(h, d). Both are functions of one
hand (and one card), summed over the final hands by ``_proxy``'s superset sums,
so an exchange's bound is read from tables, as its proxy is.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._exact import thrown_count_jit
from ._proxy import OFFSETS, _subset_index, kept_means_jit, relabelled_jit

DEALER_SETS = comb(46, 4)  # N
HOLDING_ONE = comb(45, 3)  # n1
HOLDING_TWO = comb(44, 2)  # n2
AVOIDING = np.array([comb(46 - k, 4) for k in range(6)], dtype=np.float64)
"""Per count k of discards, the dealer's sets avoiding them (N_D)."""


def hand_bounds(plays: np.ndarray, best: np.ndarray, thrown: int, loss: float) -> np.ndarray:
    """A_k(h) of every hand (its EV of betting ``plays``, the most it can return ``best``)
    with ``thrown`` cards dead, ``loss`` = 1 + BET; see the module's docstring."""
    k, n_d = thrown, AVOIDING[thrown]
    return (
        (DEALER_SETS - k * HOLDING_ONE) * plays
        + loss * (DEALER_SETS - n_d - k * HOLDING_ONE)
        + comb(k, 2) * HOLDING_TWO * (best + loss)
    ) / n_d


@njit(cache=True)
def exchange_bounds_jit(tables, removals, hand, upcard, means, scratch, out):
    """``out[K]``: a bound of the mean value of the final hands of keeping the cards ``K``
    (a mask of positions) of ``hand`` (increasing, suit 0 the upcard's) and exchanging
    the rest, the fee aside. ``tables[k]``: the superset sums of each hand's bounded
    value with k cards dead (zero where not needed); ``removals[d]``: of the positive
    parts of -e(h, d). ``means``: 6 x 32, ``scratch``: 32."""
    for k in range(6):
        kept_means_jit(tables[k], hand, upcard, means[k])
    for mask in range(32):
        out[mask] = means[thrown_count_jit(mask), mask]
    for i in range(5):
        kept_means_jit(removals[hand[i] - (hand[i] > upcard)], hand, upcard, scratch)
        for mask in range(32):
            if not (mask >> i) & 1:  # card i thrown
                k = thrown_count_jit(mask)
                out[mask] += HOLDING_ONE / AVOIDING[k] * scratch[mask]


@njit(cache=True)
def situation_bound_jit(tables, removals, hand, upcard, fees, long, lower, means, scratch):
    """How much the best long exchange of ``hand`` can beat ``lower`` (a value the other
    options reach), at least 0: ``fees`` (NaN: not offered) and ``long`` per mask of
    kept cards, the rest as ``exchange_bounds_jit``'s; ``scratch``: 2 x 32."""
    exchange_bounds_jit(tables, removals, hand, upcard, means, scratch[0], scratch[1])
    bound = 0.0
    for mask in range(32):
        if long[mask] and not np.isnan(fees[mask]):
            bound = max(bound, scratch[1, mask] - fees[mask] - lower)
    return bound


@njit(cache=True)
def _folded_or_bet(plays, hand, upcard, indices):
    """The better of folding and betting ``hand`` as dealt (``plays``: by colex rank)."""
    for i in range(5):
        indices[i] = hand[i] - (hand[i] > upcard)
    return max(-1.0, plays[_subset_index(indices, 31) - OFFSETS[5]])


@njit(cache=True, parallel=True)
def game_bounds_jit(tables, removals, plays, reps, rank, fees, long, largest, positives, sums):
    """Per class of hands (``reps``), over its situations whose upcard has ``rank``
    (relabelled to suit 0): the largest bound (beyond folding or betting the five
    cards), how many bounds are positive and their sum."""
    upcard = 4 * rank
    for c in prange(reps.shape[0]):
        means, scratch = np.empty((6, 32)), np.empty((2, 32))
        hand, indices = np.empty(5, dtype=np.int64), np.empty(5, dtype=np.int64)
        largest[c], positives[c], sums[c] = 0.0, 0, 0.0
        for suit in range(4):
            if np.any(reps[c] == upcard + suit):
                continue
            relabelled_jit(reps[c], suit, hand)
            lower = _folded_or_bet(plays, hand, upcard, indices)
            bound = situation_bound_jit(
                tables, removals, hand, upcard, fees, long, lower, means, scratch
            )
            largest[c] = max(largest[c], bound)
            positives[c] += bound > 0.0
            sums[c] += bound


@njit(cache=True)
def sample_bounds_jit(tables, removals, plays, hands, upcards, rank, fees, long, bounds):
    """The bound of each situation (hand, upcard) whose upcard has ``rank``, into
    ``bounds``; the others are left alone."""
    means, scratch = np.empty((6, 32)), np.empty((2, 32))
    hand, indices = np.empty(5, dtype=np.int64), np.empty(5, dtype=np.int64)
    for i in range(hands.shape[0]):
        if upcards[i] >> 2 == rank:
            relabelled_jit(hands[i], upcards[i] & 3, hand)
            lower = _folded_or_bet(plays, hand, 4 * rank, indices)
            bounds[i] = situation_bound_jit(
                tables, removals, hand, 4 * rank, fees, long, lower, means, scratch
            )
