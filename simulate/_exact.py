"""numba kernels of the exact engine: the dealer's hands counted by inclusion-exclusion.

For every set T of 1 to 4 cards, ``values[k][rank(T)]`` lists (sorted) the
values of all five-card hands that contain T, so how many of them are below
a value is one binary search. The dealer's hand is his upcard ``u`` and four
of the cards the player has not seen; the hands that avoid the player's
dead cards X (his cards, discards and draws) are counted as

    sum over S in X, |S| <= 4, of (-1)^|S| * #(hands containing {u} + S),

so a situation costs at most a few hundred binary searches instead of
163,185 evaluations.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._evaluator import (
    BINOMIAL,
    category_jit,
    hand_value_jit,
    next_combination_jit,
    set_rank_jit,
    value5_jit,
)
from ._settlement import bet_multiple_jit
from ._strategy import decide_jit
from ._tables import cached_arrays
from .codes import CATEGORIES, Action, Outcome, Point

EXACT_TABLE_VERSION = 1
LIST_LENGTH = np.array([0] + [comb(52 - k, 5 - k) for k in range(1, 5)], dtype=np.int64)
DEALER_HANDS = comb(46, 4)
"""The dealer's hidden cards against five player cards and the upcard."""


@njit(cache=True)
def _fill_value_lists(v1, v2, v3, v4):
    """Each list gets the value of every five-card hand containing its set, unsorted."""
    fill1 = np.zeros(v1.shape[0], dtype=np.int64)
    fill2 = np.zeros(v2.shape[0], dtype=np.int64)
    fill3 = np.zeros(v3.shape[0], dtype=np.int64)
    fill4 = np.zeros(v4.shape[0], dtype=np.int64)
    hand = np.zeros(5, dtype=np.int64)
    subset = np.zeros(4, dtype=np.int64)
    for i in range(5):
        hand[i] = i
    while True:
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        for mask in range(1, 31):  # every proper subset but the empty one
            size = 0
            for i in range(5):
                if (mask >> i) & 1:
                    subset[size] = hand[i]
                    size += 1
            if size > 4:
                continue
            rank = set_rank_jit(subset, size)
            if size == 1:
                v1[rank, fill1[rank]] = value
                fill1[rank] += 1
            elif size == 2:
                v2[rank, fill2[rank]] = value
                fill2[rank] += 1
            elif size == 3:
                v3[rank, fill3[rank]] = value
                fill3[rank] += 1
            else:
                v4[rank, fill4[rank]] = value
                fill4[rank] += 1
        if not next_combination_jit(hand, 52):
            break


@njit(cache=True, parallel=True)
def _sort_rows(values):
    for row in prange(values.shape[0]):
        values[row] = np.sort(values[row])


def build_value_lists() -> tuple[np.ndarray, ...]:
    """The sorted value lists for sets of 1, 2, 3 and 4 cards (about 150 MB)."""
    lists = tuple(
        np.zeros((comb(52, k), comb(52 - k, 5 - k)), dtype=np.uint16) for k in range(1, 5)
    )
    _fill_value_lists(*lists)
    for values in lists:
        _sort_rows(values)
    return lists


def load_value_lists() -> tuple[np.ndarray, ...]:
    """The value lists, from the disk cache when there (built and saved on first use)."""
    arrays = cached_arrays(
        f"exact-values-v{EXACT_TABLE_VERSION}",
        lambda: {f"size{k}": values for k, values in enumerate(build_value_lists(), start=1)},
        ("_exact.py", "_evaluator.py", "_tables.py", "codes.py"),
    )
    return tuple(arrays[f"size{k}"] for k in range(1, 5))


@njit(cache=True)
def count_below_jit(values, x):
    """How many of the sorted ``values`` are below ``x``."""
    low, high = 0, values.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if values[middle] < x:
            low = middle + 1
        else:
            high = middle
    return low


@njit(cache=True)
def with_upcard_jit(upcard, chosen, size, ordered):
    """Write the upcard and ``chosen[:size]`` (increasing) to ``ordered``, increasing;
    returns how many cards that is."""
    k = 0
    placed = False
    for i in range(size):
        if not placed and upcard < chosen[i]:
            ordered[k] = upcard
            k += 1
            placed = True
        ordered[k] = chosen[i]
        k += 1
    if not placed:
        ordered[k] = upcard
        k += 1
    return k


@njit(cache=True)
def _add_term(lists, upcard, chosen, size, sign, thresholds, out, ordered):
    """Add ``sign`` times the hands containing the upcard and ``chosen[:size]`` (increasing)."""
    k = with_upcard_jit(upcard, chosen, size, ordered)
    n_thresholds = thresholds.shape[0]
    if k == 5:
        value = value5_jit(ordered[0], ordered[1], ordered[2], ordered[3], ordered[4])
        for t in range(n_thresholds):
            if value < thresholds[t]:
                out[t] += sign
        out[n_thresholds] += sign
        return
    v1, v2, v3, v4 = lists
    rank = set_rank_jit(ordered, k)
    values = v1[rank] if k == 1 else v2[rank] if k == 2 else v3[rank] if k == 3 else v4[rank]
    for t in range(n_thresholds):
        out[t] += sign * count_below_jit(values, thresholds[t])
    out[n_thresholds] += sign * values.shape[0]


@njit(cache=True)
def dealer_counts_jit(lists, upcard, dead, n_dead, thresholds, out):
    """Count the dealer's hands (``upcard`` + 4 cards outside ``dead[:n_dead]``, which is
    increasing) below each threshold value: ``out[i]`` for ``thresholds[i]``; ``out[-1]``:
    all of them. Inclusion-exclusion over the subsets of up to four dead cards."""
    out[:] = 0
    chosen = np.empty(4, dtype=np.int64)
    ordered = np.empty(5, dtype=np.int64)
    _add_term(lists, upcard, chosen, 0, 1, thresholds, out, ordered)
    for a in range(n_dead):
        chosen[0] = dead[a]
        _add_term(lists, upcard, chosen, 1, -1, thresholds, out, ordered)
        for b in range(a + 1, n_dead):
            chosen[1] = dead[b]
            _add_term(lists, upcard, chosen, 2, 1, thresholds, out, ordered)
            for c in range(b + 1, n_dead):
                chosen[2] = dead[c]
                _add_term(lists, upcard, chosen, 3, -1, thresholds, out, ordered)
                for d in range(c + 1, n_dead):
                    chosen[3] = dead[d]
                    _add_term(lists, upcard, chosen, 4, 1, thresholds, out, ordered)


@njit(cache=True)
def play_ev_jit(v, lists, final, value, multiple, upcard, dead, n_dead):
    """Exact EV, in antes, of betting ``final`` (value ``value``, BET paying ``multiple``)
    against the dealer's upcard and four cards outside ``dead[:n_dead]``.

    The dealer's game is never bought here. Returns (ev, total, no_qualify, win, push, loss).
    """
    thresholds = np.empty(3, dtype=np.int64)
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    counts = np.empty(4, dtype=np.int64)
    dealer_counts_jit(lists, upcard, dead, n_dead, thresholds, counts)
    return ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])


@njit(cache=True)
def ev_from_counts_jit(v, value, multiple, below_qualifier, below_value, below_next, total):
    """(ev, total, no_qualify, win, push, loss) of betting a hand of ``value`` from the
    dealer's hands counted below the qualifier, below ``value``, below ``value + 1``."""
    no_qualify = below_qualifier
    if value < v.qualifier:
        win, push = 0, 0
    else:
        win, push = below_value - no_qualify, below_next - below_value
    loss = total - no_qualify - win - push
    won = no_qualify * v.ante_pays_no_qualify + win * (v.ante_pays + v.bet * multiple)
    ev = (won - loss * (1.0 + v.bet)) / total
    return ev, total, no_qualify, win, push, loss


@njit(cache=True)
def _suit_permutations():
    perms = np.empty((24, 4), dtype=np.int64)
    n = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if a != b and a != c and a != d and b != c and b != d and c != d:
                        perms[n, 0], perms[n, 1], perms[n, 2], perms[n, 3] = a, b, c, d
                        n += 1
    return perms


@njit(cache=True)
def sort_into_jit(cards, n, ordered):
    """Insertion-sort cards[:n] into ordered[:n] (a handful of cards, no allocation;
    ``ordered`` may be ``cards`` itself)."""
    for i in range(n):
        card = cards[i]
        j = i
        while j > 0 and ordered[j - 1] > card:
            ordered[j] = ordered[j - 1]
            j -= 1
        ordered[j] = card


@njit(cache=True)
def _image_rank(hand, perm, image):
    """Colex rank of the hand with suit s relabelled ``perm[s]`` (``image``: scratch)."""
    for i in range(5):
        image[i] = (hand[i] & ~3) | perm[hand[i] & 3]
    sort_into_jit(image, 5, image)
    return set_rank_jit(image, 5)


@njit(cache=True)
def canonical_hands_jit():
    """One hand of each class of five-card hands under relabelling of suits (the class's
    smallest colex rank), and the size of each class."""
    perms = _suit_permutations()
    reps = np.empty((2_598_960, 5), dtype=np.int64)
    weights = np.empty(2_598_960, dtype=np.int64)
    hand = np.empty(5, dtype=np.int64)
    image = np.empty(5, dtype=np.int64)
    ranks = np.empty(24, dtype=np.int64)
    n = 0
    for i in range(5):
        hand[i] = i
    while True:
        own = set_rank_jit(hand, 5)
        smallest = own
        for p in range(24):
            ranks[p] = _image_rank(hand, perms[p], image)
            smallest = min(smallest, ranks[p])
        if smallest == own:
            reps[n] = hand
            ranks.sort()
            distinct = 1
            for p in range(1, 24):
                distinct += ranks[p] != ranks[p - 1]
            weights[n] = distinct
            n += 1
        if not next_combination_jit(hand, 52):
            break
    return reps[:n].copy(), weights[:n].copy()


# outcome cells of the full-game table: outcome x category


@njit(cache=True, parallel=True)
def full_game_jit(v, lists, reps, rules, optimal, counts, win_net, win_net2, plays):
    """Weigh every deal of the (representative) player hands against every upcard and
    dealer hand, the player folding or betting on his five cards.

    ``optimal``: bet exactly when that is worth more than folding; else the first
    decision of ``rules``. Per representative row: ``counts`` (outcome x category,
    deals), the net won on winning deals and its square, and which upcards he bets on.
    """
    for row in prange(reps.shape[0]):
        hand = reps[row]
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        category = category_jit(value, v.ace_king)
        multiple = bet_multiple_jit(v, hand, value)
        win_amount = v.ante_pays + v.bet * multiple
        dead = np.sort(hand)
        for upcard in range(52):
            if (
                upcard == hand[0]
                or upcard == hand[1]
                or upcard == hand[2]
                or (upcard == hand[3] or upcard == hand[4])
            ):
                continue
            if not optimal and decide_jit(rules, Point.FIRST, hand, upcard, 0)[0] != Action.PLAY:
                counts[row, Outcome.FOLD * CATEGORIES + category] += DEALER_HANDS
                continue
            ev, total, no_qualify, win, push, loss = play_ev_jit(
                v, lists, hand, value, multiple, upcard, dead, 5
            )
            if optimal and ev <= -1.0:
                counts[row, Outcome.FOLD * CATEGORIES + category] += total
                continue
            plays[row, upcard] = True
            counts[row, Outcome.NO_QUALIFY * CATEGORIES + category] += no_qualify
            counts[row, Outcome.WIN * CATEGORIES + category] += win
            counts[row, Outcome.PUSH * CATEGORIES + category] += push
            counts[row, Outcome.LOSS * CATEGORIES + category] += loss
            win_net[row] += win * win_amount
            win_net2[row] += win * win_amount * win_amount


@njit(cache=True)
def after_draw_ev_jit(v, lists, final, upcard, dead, n_dead, forced):
    """EV of a hand after a draw: the better of folding and betting (betting if forced)."""
    value = hand_value_jit(final)
    multiple = bet_multiple_jit(v, final, value)
    ev = play_ev_jit(v, lists, final, value, multiple, upcard, dead, n_dead)[0]
    return ev if forced else max(-1.0, ev)


@njit(cache=True)
def unseen_jit(cards, upcard):
    """The 52 cards less ``cards`` and the upcard, increasing."""
    out = np.empty(52, dtype=np.int64)
    n = 0
    for card in range(52):
        if card != upcard and not np.any(cards == card):
            out[n] = card
            n += 1
    return out[:n]


@njit(cache=True)
def replace_evs_jit(v, lists, six, upcard, seen, out):
    """EV, the fee aside, of replacing each of six cards (after a buy), into ``out``:
    every replacement, then fold or bet. ``seen``: every card the player has seen but
    the upcard, the six included. The dealer's hands avoiding those and the new card
    are counted once per new card, for the six hands it makes."""
    unseen = unseen_jit(seen, upcard)
    n = seen.shape[0]
    dead = np.empty(n + 1, dtype=np.int64)
    ordered = np.empty(n + 1, dtype=np.int64)
    dead[:n] = seen
    trial = six.copy()
    values = np.empty(6, dtype=np.int64)
    multiples = np.empty(6)
    thresholds = np.empty(13, dtype=np.int64)
    counts = np.empty(14, dtype=np.int64)
    thresholds[0] = v.qualifier
    out[:] = 0.0
    for card in unseen:
        for position in range(6):
            trial[position] = card
            values[position] = hand_value_jit(trial)
            multiples[position] = bet_multiple_jit(v, trial, values[position])
            thresholds[1 + 2 * position] = values[position]
            thresholds[2 + 2 * position] = values[position] + 1
            trial[position] = six[position]
        dead[n] = card
        sort_into_jit(dead, n + 1, ordered)
        dealer_counts_jit(lists, upcard, ordered, n + 1, thresholds, counts)
        for position in range(6):
            below, below_next = counts[1 + 2 * position], counts[2 + 2 * position]
            ev = ev_from_counts_jit(
                v, values[position], multiples[position], counts[0], below, below_next, counts[13]
            )[0]
            out[position] += max(-1.0, ev)
    out /= unseen.shape[0]


@njit(cache=True)
def _drawn_ev(v, tables, lists, final, upcard, unseen, picks, k, forced, scratch):
    """EV after a draw of unseen[picks[:k]] into ``final``: fold or bet (bet if forced).
    ``scratch``: 4 x 5 integers."""
    value = hand_value_jit(final)
    thresholds, counts = scratch[2, :3], scratch[3, :4]
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    multiple = bet_multiple_jit(v, final, value)
    if forced or k < 3 or not tables[2].shape[0]:
        draw_counts_jit(tables, lists, upcard, unseen, picks, k, thresholds, counts, scratch)
    else:  # the terms of up to two drawn cards bound the EV: count on only if it may bet
        scratch[0, 0] = upcard
        _pair_terms(tables, lists, unseen, picks, k, thresholds, counts, scratch)
        if _bet_bound(v, tables, picks, k, value, multiple, counts) < FOLDS:
            return -1.0
        _triple_terms(tables, lists, unseen, picks, k, thresholds, counts, scratch)
        counts[3] = dealer_hands_jit(unseen.shape[0] - k)
    ev = ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])[0]
    return ev if forced else max(-1.0, ev)


@njit(cache=True, inline="always")
def dealer_hands_jit(n):
    """How many hands of four the dealer can hold from ``n`` cards."""
    return n * (n - 1) * (n - 2) * (n - 3) // 24


FOLDS = -1.0 - 1e-9
"""A bound below this proves folding best; the margin keeps the exact EV's rounding
from ever reaching -1, so the result is the same as counting."""


@njit(cache=True)
def _bet_bound(v, tables, picks, k, value, multiple, high):
    """A proven upper bound of the EV of betting a hand of ``value`` after a draw of k > 2
    cards, from the inclusion-exclusion over the drawn cards cut after the pairs
    (Bonferroni: each count lies between S0 - S1 and ``high`` = S0 - S1 + S2)."""
    total = dealer_hands_jit(tables[1].shape[0] - k)
    lose = 1.0 + v.bet
    if value < v.qualifier:
        return ((v.ante_pays_no_qualify + lose) * min(high[0], total) - lose * total) / total
    win = v.ante_pays + v.bet * multiple
    paid = v.ante_pays_no_qualify - win
    if paid > 0:
        no_qualify = min(high[0], total)
    else:
        g0, g1 = tables[0], tables[1]
        no_qualify = g0[v.qualifier]
        for a in range(k):
            no_qualify -= g1[picks[a], v.qualifier]
        no_qualify = max(no_qualify, 0)
    net = paid * no_qualify + win * min(high[1], total) + lose * (min(high[2], total) - total)
    return net / total


@njit(cache=True)
def thrown_positions_jit(keep_mask):
    """(the positions a keep mask of five cards throws, how many)."""
    thrown = np.empty(5, dtype=np.int64)
    k = 0
    for p in range(5):
        if not (keep_mask >> p) & 1:
            thrown[k] = p
            k += 1
    return thrown, k


@njit(cache=True)
def thrown_count_jit(keep_mask):
    """How many of the five cards a keep mask throws."""
    thrown = 5
    for i in range(5):
        thrown -= (keep_mask >> i) & 1
    return thrown


@njit(cache=True)
def exchange_part_jit(v, tables, lists, player, keep_mask, upcard, unseen, forced, first):
    """(sum of the EVs, how many draws) of the draws whose first card is unseen[first],
    when the player throws his cards outside ``keep_mask``: fold or bet after each draw
    (bet if forced)."""
    thrown, k = thrown_positions_jit(keep_mask)
    m = unseen.shape[0]
    picks = np.arange(first, first + k)
    rest = picks[1:]
    final = player.copy()
    scratch = np.empty((4, 5), dtype=np.int64)
    total, count = 0.0, 0
    while True:
        for j in range(k):
            final[thrown[j]] = unseen[picks[j]]
        total += _drawn_ev(v, tables, lists, final, upcard, unseen, picks, k, forced, scratch)
        count += 1
        if k == 1 or not next_combination_jit(rest, m):
            return total, count


@njit(cache=True)
def exchange_ev_jit(v, tables, lists, player, keep_mask, upcard, unseen, forced):
    """EV, fees aside, of throwing the player's cards outside ``keep_mask`` and drawing
    as many from ``unseen``: every draw enumerated, summed by first card."""
    total, count = 0.0, 0
    for first in range(unseen.shape[0] - thrown_count_jit(keep_mask) + 1):
        part, n = exchange_part_jit(
            v, tables, lists, player, keep_mask, upcard, unseen, forced, first
        )
        total += part
        count += n
    return total / count


@njit(cache=True)
def buy_ev_jit(v, tables, lists, player, upcard, unseen, replace_fee):
    """EV, the buying fee aside, of buying a sixth card, then folding, betting or (when
    ``replace_fee`` is not NaN) replacing one of the six, whichever is worth most."""
    m = unseen.shape[0]
    six = np.empty(6, dtype=np.int64)
    six[:5] = player
    trial = np.empty(6, dtype=np.int64)
    picks = np.empty(2, dtype=np.int64)
    scratch = np.empty((4, 5), dtype=np.int64)
    total = 0.0
    for s in range(m):
        six[5] = unseen[s]
        picks[0] = s
        best = _drawn_ev(v, tables, lists, six, upcard, unseen, picks, 1, False, scratch)
        for position in range(0 if np.isnan(replace_fee) else 6):
            trial[:] = six
            replaced = 0.0
            for r in range(m):
                if r != s:
                    trial[position] = unseen[r]
                    picks[0], picks[1] = min(s, r), max(s, r)
                    replaced += _drawn_ev(
                        v, tables, lists, trial, upcard, unseen, picks, 2, False, scratch
                    )
            best = max(best, replaced / (m - 1) - replace_fee)
        total += best
    return total / m


@njit(cache=True)
def _smallest_image(hand, perms, image):
    """(smallest colex rank of the hand's suit relabellings, the relabelling giving it)."""
    best, best_perm = -1, 0
    for p in range(24):
        rank = _image_rank(hand, perms[p], image)
        if best < 0 or rank < best:
            best, best_perm = rank, p
    return best, best_perm


@njit(cache=True)
def hand_classes_jit(reps):
    """For every five-card hand (by colex rank): the index of its class among ``reps`` and
    the suit relabelling (an index into ``suit_permutations_jit()``) that maps it there."""
    perms = _suit_permutations()
    index_of_rank = np.full(2_598_960, -1, dtype=np.int64)
    for i in range(reps.shape[0]):
        index_of_rank[set_rank_jit(reps[i], 5)] = i
    class_of = np.empty(2_598_960, dtype=np.int32)
    perm_of = np.empty(2_598_960, dtype=np.int8)
    hand = np.empty(5, dtype=np.int64)
    image = np.empty(5, dtype=np.int64)
    for i in range(5):
        hand[i] = i
    while True:
        smallest, perm = _smallest_image(hand, perms, image)
        rank = set_rank_jit(hand, 5)
        class_of[rank] = index_of_rank[smallest]
        perm_of[rank] = perm
        if not next_combination_jit(hand, 52):
            break
    return class_of, perm_of


@njit(cache=True)
def suit_permutations_jit():
    """The 24 relabellings of suits, one per row: suit s becomes ``row[s]``."""
    return _suit_permutations()


# The dealer's hands of a situation: the upcard, the player's five cards P, and the cards
# he has not seen (``unseen``). For draws, the dealer avoids P and the drawn cards R; by
# inclusion-exclusion over subsets S of R,
#     count(avoiding P + R) = sum over S of (-1)^|S| G(S),
# where G(S) counts the hands containing the upcard and S and avoiding P. G is tabulated
# (cumulative over the value) for S of 0, 1 and 2 cards; larger S are counted directly.
VALUES = 7464  # thresholds 0..7463: "value below t"


@njit(cache=True, inline="always")
def _hands_with(lists, cards, n, ordered):
    """(sorted values of the five-card hands containing cards[:n], or the one hand's value);
    ``ordered`` is scratch space."""
    sort_into_jit(cards, n, ordered)
    if n == 5:
        return lists[0][0][:0], value5_jit(
            ordered[0], ordered[1], ordered[2], ordered[3], ordered[4]
        )
    rank = set_rank_jit(ordered, n)
    v1, v2, v3, v4 = lists
    values = v1[rank] if n == 1 else v2[rank] if n == 2 else v3[rank] if n == 3 else v4[rank]
    return values, -1


@njit(cache=True)
def _add_avoiding(lists, base, n_base, dead, histogram):
    """Add to ``histogram`` (by value) the hands containing base[:n_base] and avoiding the
    ``dead`` cards, by inclusion-exclusion over their subsets of up to 5 - n_base cards."""
    cards = np.empty(5, dtype=np.int64)
    ordered = np.empty(5, dtype=np.int64)
    picks = np.empty(5, dtype=np.int64)
    cards[:n_base] = base[:n_base]
    m = dead.shape[0]
    for size in range(min(5 - n_base, m) + 1):
        for i in range(size):
            picks[i] = i
        sign = -1 if size % 2 else 1
        while True:
            for i in range(size):
                cards[n_base + i] = dead[picks[i]]
            values, single = _hands_with(lists, cards, n_base + size, ordered)
            if single >= 0:
                histogram[single] += sign
            else:
                for value in values:
                    histogram[value] += sign
            i = size - 1  # the next subset of this size, in lexicographic order
            while i >= 0 and picks[i] == m - size + i:
                i -= 1
            if i < 0:
                break
            picks[i] += 1
            for j in range(i + 1, size):
                picks[j] = picks[j - 1] + 1


@njit(cache=True)
def _cumulative(histogram, out):
    """out[t] = how many values are below t."""
    running = 0
    for t in range(VALUES):
        out[t] = running
        if t < histogram.shape[0]:
            running += histogram[t]


@njit(cache=True)
def _empty_tables(lists, upcard, dead, m, pairs):
    """G for the empty set, filled; rows for each unseen card and (when ``pairs``) each
    pair of unseen cards, to fill with ``_fill_rows``."""
    g0 = np.zeros(VALUES, dtype=np.int64)
    base = np.empty(1, dtype=np.int64)
    base[0] = upcard
    histogram = np.zeros(VALUES, dtype=np.int64)
    _add_avoiding(lists, base, 1, dead, histogram)
    _cumulative(histogram, g0)
    g1 = np.zeros((m, VALUES), dtype=np.int64)
    g2 = np.zeros((m * (m - 1) // 2 if pairs else 0, VALUES), dtype=np.int64)
    g3 = np.zeros((BINOMIAL[m, 3] if pairs else 0, max(m - 3, 0)), dtype=np.uint16)
    return g0, g1, g2, g3


@njit(cache=True)
def _fill_triples(upcard, unseen, c, g3):
    """The sorted values of the hands holding the upcard, unseen[a], unseen[b] and unseen[c]
    (a < b < c) and one more unseen card, row ``triple_index_jit(a, b, c)``, for every a, b."""
    for b in range(c):
        for a in range(b):
            row = g3[triple_index_jit(a, b, c)]
            n = 0
            for x in range(unseen.shape[0]):
                if x != a and x != b and x != c:
                    row[n] = value5_jit(upcard, unseen[a], unseen[b], unseen[c], unseen[x])
                    n += 1
            row.sort()


@njit(cache=True, inline="always")
def triple_index_jit(a, b, c):
    """Colex index of the triple a < b < c."""
    return BINOMIAL[a, 1] + BINOMIAL[b, 2] + BINOMIAL[c, 3]


@njit(cache=True)
def _fill_rows(lists, upcard, dead, unseen, i, g1, g2):
    """G for unseen card i, and for the pairs (i, j > i) when ``g2`` has rows."""
    m = unseen.shape[0]
    local = np.zeros(3, dtype=np.int64)
    local[0], local[1] = upcard, unseen[i]
    counts = np.zeros(VALUES, dtype=np.int64)
    _add_avoiding(lists, local, 2, dead, counts)
    _cumulative(counts, g1[i])
    if g2.shape[0] == 0:
        return
    for j in range(i + 1, m):
        local[2] = unseen[j]
        counts[:] = 0
        _add_avoiding(lists, local, 3, dead, counts)
        _cumulative(counts, g2[pair_index_jit(i, j, m)])


@njit(cache=True, parallel=True)
def situation_tables_jit(lists, upcard, dead, unseen, pairs):
    """G for the empty set, each unseen card, and (when ``pairs``) each pair of unseen
    cards (index ``pair_index_jit``): hands with the upcard and those cards, avoiding
    the ``dead`` cards (the player's, and any other card he has seen). Without the pair
    rows, pairs are counted directly when drawn. With them, the sorted values of the hands
    holding the upcard and each triple of unseen cards (``triple_index_jit``), avoiding
    the dead cards. Returns (G0, G1, G2, dead, G3)."""
    g0, g1, g2, g3 = _empty_tables(lists, upcard, dead, unseen.shape[0], pairs)
    for i in prange(unseen.shape[0]):
        _fill_rows(lists, upcard, dead, unseen, i, g1, g2)
        if g3.shape[0]:
            _fill_triples(upcard, unseen, i, g3)
    return g0, g1, g2, dead, g3


@njit(cache=True)
def situation_tables_serial_jit(lists, upcard, dead, unseen, pairs):
    """``situation_tables_jit`` on one thread (for kernels that run situations in parallel)."""
    g0, g1, g2, g3 = _empty_tables(lists, upcard, dead, unseen.shape[0], pairs)
    for i in range(unseen.shape[0]):
        _fill_rows(lists, upcard, dead, unseen, i, g1, g2)
        if g3.shape[0]:
            _fill_triples(upcard, unseen, i, g3)
    return g0, g1, g2, dead, g3


@njit(cache=True)
def pair_index_jit(i, j, m):
    """Index of the pair i < j among the pairs of range(m), in lexicographic order."""
    return i * (2 * m - i - 1) // 2 + (j - i - 1)


@njit(cache=True, inline="always")
def _count_with(lists, cards, n, thresholds, sign, out, ordered):
    """Add ``sign`` times the hands containing cards[:n], below each threshold
    (``out[-1]``: all of them)."""
    n_t = thresholds.shape[0]
    values, single = _hands_with(lists, cards, n, ordered)
    if single >= 0:
        for t in range(n_t):
            out[t] += sign * (single < thresholds[t])
        out[n_t] += sign
        return
    for t in range(n_t):
        out[t] += sign * count_below_jit(values, thresholds[t])
    out[n_t] += sign * values.shape[0]


@njit(cache=True)
def draw_counts_jit(tables, lists, upcard, unseen, picks, k, thresholds, out, scratch):
    """The dealer's hands avoiding the tables' dead cards and the drawn cards
    unseen[picks[:k]], counted below each threshold (``out[-1]``: all of them).
    ``scratch``: 2 x 5 cards."""
    scratch[0, 0] = upcard
    _pair_terms(tables, lists, unseen, picks, k, thresholds, out, scratch)
    if k > 2:
        _triple_terms(tables, lists, unseen, picks, k, thresholds, out, scratch)
    out[thresholds.shape[0]] = dealer_hands_jit(unseen.shape[0] - k)


@njit(cache=True)
def _pair_terms(tables, lists, unseen, picks, k, thresholds, out, scratch):
    """``draw_counts_jit``'s terms of up to two drawn cards, into ``out`` (its total
    left to the caller); ``scratch[0, 0]`` holds the upcard."""
    g0, g1, g2, dead, _ = tables
    n_dead = dead.shape[0]
    m = unseen.shape[0]
    n_t = thresholds.shape[0]
    for t in range(n_t):
        out[t] = g0[thresholds[t]]
    cards, ordered = scratch[0], scratch[1]
    for a in range(k):
        for t in range(n_t):
            out[t] -= g1[picks[a], thresholds[t]]
        for b in range(a + 1, k):
            if g2.shape[0]:
                row = g2[pair_index_jit(picks[a], picks[b], m)]
                for t in range(n_t):
                    out[t] += row[thresholds[t]]
            else:  # hands with the pair, less those holding dead cards
                cards[1], cards[2] = unseen[picks[a]], unseen[picks[b]]
                _count_with(lists, cards, 3, thresholds, 1, out, ordered)
                for p in range(n_dead):
                    cards[3] = dead[p]
                    _count_with(lists, cards, 4, thresholds, -1, out, ordered)
                    for q in range(p + 1, n_dead):
                        cards[4] = dead[q]
                        _count_with(lists, cards, 5, thresholds, 1, out, ordered)


@njit(cache=True)
def _triple_terms(tables, lists, unseen, picks, k, thresholds, out, scratch):
    """``draw_counts_jit``'s terms of three and four drawn cards, added to ``out``;
    ``scratch[0, 0]`` holds the upcard."""
    _, _, _, dead, g3 = tables
    n_dead = dead.shape[0]
    n_t = thresholds.shape[0]
    cards, ordered = scratch[0], scratch[1]
    for a in range(k):
        for b in range(a + 1, k):
            for c in range(b + 1, k):
                cards[1], cards[2] = unseen[picks[a]], unseen[picks[b]]
                cards[3] = unseen[picks[c]]
                if g3.shape[0]:
                    row = g3[triple_index_jit(picks[a], picks[b], picks[c])]
                    for t in range(n_t):
                        out[t] -= count_below_jit(row, thresholds[t])
                else:
                    _count_with(lists, cards, 4, thresholds, -1, out, ordered)
                    for p in range(n_dead):  # those also holding a dead card
                        cards[4] = dead[p]
                        _count_with(lists, cards, 5, thresholds, 1, out, ordered)
                for d in range(c + 1, k):
                    cards[4] = unseen[picks[d]]
                    _count_with(lists, cards, 5, thresholds, 1, out, ordered)
