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

The discards are in fact dead: the dealer's four cards come from the 46 - k
cards outside the final hand, the upcard and the k discards. To first order,
with each card c adding w(c) to the outcome when it is among the dealer's
cards, dealing him from the 46 - k cards moves the hand's EV by

    -4 * 45 / (42 * (46 - k)) * sum over d in D of e(h, d),

e(h, d) being how much more betting h returns on average when d is among the
dealer's cards. Sums of e(h, d) over the hands holding X (a table per card d,
each hand's effects weighed: 1 where h is worth betting, else 0, or a ramp
below the fold line), by the same inclusion-exclusion over the other
discards, give that correction for every exchange.

Buying a sixth card discards nothing, so every six cards' value, the same way,
gives its exact EV: the mean over the 46 cards it can buy.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._evaluator import BINOMIAL, hand_value_jit
from ._exact import after_draw_ev_jit, ev_from_counts_jit, thrown_count_jit
from ._settlement import bet_multiple_jit
from ._situation import add_dealer_term_jit

OTHERS = 51  # cards outside the upcard
OFFSETS = np.cumsum([0] + [comb(OTHERS, k) for k in range(6)])
"""Where the sets of k cards start in an array of sums, k = 0..5; ``OFFSETS[6]``: its length."""
HANDS = comb(OTHERS, 5)
UNSEEN = 46  # cards the player draws from, and the dealer's four come from
REMOVAL_SCALE = np.array([4 * (UNSEEN - 1) / ((UNSEEN - 4) * (UNSEEN - k)) for k in range(6)])
"""Per count k of discards: how a final hand's EV moves per unit of the summed effects
of its discards (see the module's docstring)."""
VALUE, FORCED, BEST, BOUND = 0, 1, 2, 2  # tables of sums; BOUND + k: k cards thrown
TABLES = BOUND + 6


COLEX = np.array([[comb(n, k) for k in range(7)] for n in range(OTHERS + 1)], dtype=np.int64)
"""``COLEX[n, k]``: the number of k-sets below index n; a set's colex rank sums them."""
CHUNKS = 512  # of the sets of a size, valued in parallel


@njit(cache=True)
def _unrank(rank, indices):
    """The increasing indices of the set with colex ``rank``, into ``indices``."""
    for size in range(indices.shape[0], 0, -1):
        n = size - 1
        while COLEX[n + 1, size] <= rank:
            n += 1
        indices[size - 1] = n
        rank -= COLEX[n, size]


@njit(cache=True)
def _advance(indices):
    """The next set in colex order, in place."""
    i = 0
    while i + 1 < indices.shape[0] and indices[i] + 1 == indices[i + 1]:
        indices[i] = i
        i += 1
    indices[i] += 1


SUIT_PERMUTATIONS = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1]]
)
"""The relabellings of suits that keep the upcard's suit, 0: a hand's value is theirs."""


@njit(cache=True)
def _smallest_image(hand, upcard, image):
    """The smallest colex rank, among the 51 others, of ``hand`` relabelled by any of
    ``SUIT_PERMUTATIONS``, and that relabelling's number."""
    smallest, chosen = COLEX[OTHERS, hand.shape[0]], 0
    for p in range(SUIT_PERMUTATIONS.shape[0]):
        for i in range(hand.shape[0]):  # insertion sort: five or six cards
            card = _relabel(hand[i], p)
            j = i
            while j > 0 and image[j - 1] > card:
                image[j] = image[j - 1]
                j -= 1
            image[j] = card
        rank = 0
        for i in range(hand.shape[0]):
            rank += COLEX[image[i] - (image[i] > upcard), i + 1]
        if rank < smallest:
            smallest, chosen = rank, p
    return smallest, chosen


@njit(cache=True)
def _relabel(card, permutation):
    return card - (card & 3) + SUIT_PERMUTATIONS[permutation, card & 3]


@njit(cache=True, parallel=True)
def hand_values_jit(v, lists, upcard, plays, best):
    """For every set of five or six cards (the arrays' length says which) outside
    ``upcard`` (suit 0), by colex rank of their indices among the 51 others: into
    ``plays``, the EV of betting them against the dealer's upcard and four cards outside
    them; into ``best``, the most betting them can return, whoever the dealer holds.
    Computed once per class of hands under ``SUIT_PERMUTATIONS``, then copied."""
    size = 5 if plays.shape[0] == COLEX[OTHERS, 5] else 6
    image_of = np.empty(plays.shape[0], dtype=np.int64)
    order = np.concatenate((np.arange(0, CHUNKS, 2), np.arange(1, CHUNKS, 2)))
    for k in prange(CHUNKS):  # neighbouring chunks, which cost alike, to different threads
        start = plays.shape[0] * order[k] // CHUNKS
        stop = plays.shape[0] * (order[k] + 1) // CHUNKS
        indices = np.empty(size, dtype=np.int64)
        hand = np.empty(size, dtype=np.int64)
        image = np.empty(size, dtype=np.int64)
        _unrank(start, indices)
        for rank in range(start, stop):
            for i in range(size):
                hand[i] = indices[i] + (indices[i] >= upcard)
            _advance(indices)
            image_of[rank] = _smallest_image(hand, upcard, image)[0]
            if image_of[rank] < rank:
                continue
            plays[rank] = after_draw_ev_jit(v, lists, hand, upcard, hand, size, True)
            multiple = bet_multiple_jit(v, hand, hand_value_jit(hand))
            win = v.ante_pays + v.bet * multiple
            best[rank] = max(0.0, v.ante_pays_no_qualify, win)  # 0: a push
    for rank in prange(plays.shape[0]):
        plays[rank], best[rank] = plays[image_of[rank]], best[image_of[rank]]


@njit(cache=True)
def _ev_holding(v, tables, lists, hand, upcard, card, scratch):
    """The EV of betting ``hand`` (five increasing cards) against the dealer's hands that
    hold ``card``: inclusion-exclusion over the subsets S of the hand, each term the hands
    holding the upcard, the card and S. ``scratch``: 3 x 5 cards."""
    value = hand_value_jit(hand)
    thresholds, chosen, ordered = scratch[0, :3], scratch[1], scratch[2]
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    counts = np.zeros(4, dtype=np.int64)
    for mask in range(32):
        size = 0
        for p in range(5):
            size += (mask >> p) & 1
        if size > 3:  # the dealer holds the upcard, the card and at most three more
            continue
        n = 0  # chosen: S, then the card put in order
        for p in range(5):
            if (mask >> p) & 1:
                chosen[n] = hand[p]
                n += 1
        position = n
        while position > 0 and chosen[position - 1] > card:
            chosen[position] = chosen[position - 1]
            position -= 1
        chosen[position] = card
        sign = -1 if size % 2 else 1
        add_dealer_term_jit(
            tables, lists, upcard, chosen, size + 1, thresholds, sign, counts, ordered
        )
    multiple = bet_multiple_jit(v, hand, value)
    return ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])[0]


@njit(cache=True, parallel=True)
def removal_effects_jit(v, tables, lists, upcard, plays, floor, effects):
    """``effects[d, h]``: for every five cards h outside ``upcard`` (suit 0) and every card
    d outside both (by index among the 51 others; 0 where d is in h), how much more
    betting h returns on average when d is among the dealer's four cards. ``plays``:
    each hand's EV of betting, by colex rank; ``tables``: the situation kernels'; only
    for the hands whose EV of betting is above ``floor`` (0 for the others). Computed
    once per class of hands under ``SUIT_PERMUTATIONS``, then copied."""
    image_of = np.empty(HANDS, dtype=np.int64)
    relabelling = np.empty(HANDS, dtype=np.int64)
    order = np.concatenate((np.arange(0, CHUNKS, 2), np.arange(1, CHUNKS, 2)))
    for k in prange(CHUNKS):
        start, stop = HANDS * order[k] // CHUNKS, HANDS * (order[k] + 1) // CHUNKS
        indices = np.empty(5, dtype=np.int64)
        hand = np.empty(5, dtype=np.int64)
        image = np.empty(5, dtype=np.int64)
        scratch = np.empty((3, 5), dtype=np.int64)
        _unrank(start, indices)
        for rank in range(start, stop):
            for i in range(5):
                hand[i] = indices[i] + (indices[i] >= upcard)
            _advance(indices)
            image_of[rank], relabelling[rank] = _smallest_image(hand, upcard, image)
            if image_of[rank] < rank:
                continue
            for d in range(OTHERS):
                card = d + (d >= upcard)
                effects[d, rank] = 0.0
                if np.any(hand == card) or not plays[rank] > floor:
                    continue
                holding = _ev_holding(v, tables, lists, hand, upcard, card, scratch)
                effects[d, rank] = holding - plays[rank]
    for rank in prange(HANDS):
        image = image_of[rank]
        if image < rank:
            for d in range(OTHERS):
                card = _relabel(d + (d >= upcard), relabelling[rank])
                effects[d, rank] = effects[card - (card > upcard), image]


@njit(cache=True, parallel=True)
def removal_sums_jit(effects, weights, out):
    """``out[0, d]``: the sums (``superset_sums_jit``) of card d's ``effects``, each times
    its hand's weight; ``out[1, d]``, if there, unweighed. Cards shared among threads."""
    for d in prange(effects.shape[0]):
        superset_sums_jit(weights * effects[d], out[0, d])
        if out.shape[0] == 2:
            superset_sums_jit(effects[d], out[1, d])


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
def buy_mean_jit(buys, hand, upcard):
    """The mean value of buying a sixth card to ``hand`` (increasing, without the upcard):
    the better of folding and betting the six, over the 46 cards outside both (``buys``:
    every six cards' EV of betting, by colex rank)."""
    x = np.empty(5, dtype=np.int64)
    for i in range(5):
        x[i] = hand[i] - (hand[i] > upcard)
    total, below = 0.0, 0  # below: the hand's cards under the bought one
    for card in range(OTHERS):
        if below < 5 and x[below] == card:
            below += 1
            continue
        rank = COLEX[card, below + 1]
        for i in range(5):
            rank += COLEX[x[i], i + 1 + (i >= below)]
        total += max(-1.0, buys[rank])
    return total / UNSEEN


@njit(cache=True)
def removal_means_jit(removals, hand, upcard, scratch, out):
    """``out[kind, K]``: the mean over the final hands of keeping ``K`` of the summed
    effects of the discards' removal (``removals[kind, d]``: sums of card d's effects)."""
    out[:] = 0.0
    for kind in range(removals.shape[0]):
        for i in range(5):
            kept_means_jit(removals[kind, hand[i] - (hand[i] > upcard)], hand, upcard, scratch)
            for mask in range(32):
                if not (mask >> i) & 1:  # card i thrown
                    out[kind, mask] += scratch[mask]


@njit(cache=True)
def exchange_values_jit(proxy, hand, upcard, options, means, removed, out):
    """``out[K]``: the proxy's EV of keeping the cards ``K`` (a mask of positions) of
    ``hand`` and exchanging the rest, fee included (NaN where not offered); keeping all
    five: the better of folding and betting. Arguments as ``situation_proxy_jit``'s."""
    tables, _, removals = proxy
    fees, forced, _, _ = options
    for t in range(TABLES):
        kept_means_jit(tables[t], hand, upcard, means[t])
    removal_means_jit(removals, hand, upcard, removed[2], removed[:2])
    for mask in range(32):
        kind = 1 if forced[mask] else 0
        scale = REMOVAL_SCALE[thrown_count_jit(mask)]
        value = means[FORCED if forced[mask] else VALUE, mask] - scale * removed[kind, mask]
        out[mask] = value - fees[mask]


@njit(cache=True)
def situation_proxy_jit(proxy, hand, upcard, options, means, removed):
    """(proxy gain, bound of the true gain) of a situation: the proxy's best long exchange
    beyond its best other option but buying the dealer a game (zero if none), and a
    proven bound of how much any long exchange can beat folding or betting.

    ``proxy``: (sums of each hand's value (``VALUE``, ``FORCED``), of the most it can
    return (``BEST``) and of the bound of its value when k discards are dead (``BOUND +
    k``); every six cards' EV of betting, empty without a buy; the sums of each card's
    removal effects, weighed and, if an exchange forces the BET, unweighed).
    ``options``: (fees, whether the BET is forced, whether the exchange is long) per
    mask of kept cards (fee NaN where not offered), and the fee of buying a sixth card
    (NaN: not offered). ``means``: ``TABLES + 1`` x 32; ``removed``: 3 x 32."""
    buys = proxy[1]
    fees, _, long, buy_fee = options
    evs = means[TABLES]
    exchange_values_jit(proxy, hand, upcard, options, means[:TABLES], removed, evs)
    short_best, long_best, bound = -np.inf, -np.inf, 0.0
    if not np.isnan(buy_fee):
        short_best = buy_mean_jit(buys, hand, upcard) - buy_fee
    for mask in range(32):
        if np.isnan(fees[mask]):
            continue
        if long[mask]:
            long_best = max(long_best, evs[mask])
            most = min(means[BEST, mask], means[BOUND + thrown_count_jit(mask), mask])
            bound = max(bound, most - fees[mask] - means[VALUE, 31])
        else:
            short_best = max(short_best, evs[mask])
    return max(0.0, long_best - short_best), bound


@njit(cache=True)
def relabelled_jit(cards, suit, out):
    """``cards`` with suits 0 and ``suit`` swapped, into ``out``, increasing."""
    for i in range(5):
        own = cards[i] & 3
        out[i] = cards[i] - own + (suit if own == 0 else 0 if own == suit else own)
    out.sort()


@njit(cache=True, parallel=True)
def game_proxies_jit(proxy, reps, rank, options, gains, largest, bounds, positives):
    """Per class of hands (``reps``): the sum of the proxy gains over its situations whose
    upcard has ``rank`` (each seen with the upcard's suit relabelled to suit 0, which
    ``proxy`` is for), the largest, the largest bound of the true gain, and how many of
    those situations have a positive proxy gain."""
    upcard = 4 * rank
    for c in prange(reps.shape[0]):
        means = np.empty((TABLES + 1, 32))
        removed = np.empty((3, 32))
        hand = np.empty(5, dtype=np.int64)
        gains[c], largest[c], bounds[c], positives[c] = 0.0, 0.0, 0.0, 0
        for suit in range(4):
            if np.any(reps[c] == upcard + suit):
                continue
            relabelled_jit(reps[c], suit, hand)
            gain, bound = situation_proxy_jit(proxy, hand, upcard, options, means, removed)
            gains[c] += gain
            positives[c] += gain > 0.0
            largest[c] = max(largest[c], gain)
            bounds[c] = max(bounds[c], bound)


@njit(cache=True)
def sample_proxies_jit(proxy, hands, upcards, rank, options, gains, bounds):
    """The proxy gain and the bound of the true gain of each situation (hand, upcard) whose
    upcard has ``rank``, into ``gains`` and ``bounds``; the others are left alone."""
    means = np.empty((TABLES + 1, 32))
    removed = np.empty((3, 32))
    hand = np.empty(5, dtype=np.int64)
    for i in range(hands.shape[0]):
        if upcards[i] >> 2 == rank:
            relabelled_jit(hands[i], upcards[i] & 3, hand)
            gains[i], bounds[i] = situation_proxy_jit(
                proxy, hand, 4 * rank, options, means, removed
            )
