"""numba kernels of a situation's first options, exactly, where at most two cards are drawn
(exchanges of one or two cards; a sixth card bought, then one card replaced).

The dealer holds the upcard ``u`` and four cards avoiding the player's five
cards P and the drawn cards R. With G(S, t) the hands holding u and S,
avoiding P, with a value below t, inclusion-exclusion over R gives

    count(t) = G({}, t) - sum over a in R of G({a}, t) + G(R, t)   (|R| = 2).

Per situation, G({}) is tabulated for every threshold; G({a}) is known
exactly on a grid of thresholds (which brackets it at any other) and
counted exactly where needed; G({a, b}) lies between 0 and the number of
hands holding u, a and b. So every option has a proven upper bound that
costs a few operations per final hand, and only the options whose bound
reaches the best exact EV so far are counted exactly. The choice is the
first option of the highest exact EV: the same as counting every option.

Counts of the chosen option are kept per (first decision, outcome, final
category), in units of 1/D of a situation for one common D, so the whole
game adds up in integers.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._evaluator import category_jit, value5_jit, value6_jit
from ._exact import (
    VALUES,
    count_below_jit,
    ev_from_counts_jit,
    set_rank_jit,
    sort_into_jit,
    thrown_positions_jit,
    with_upcard_jit,
)
from ._settlement import bet_multiple_jit
from .codes import (
    CATEGORIES,
    FIRST_DECISIONS,
    PLAIN_OUTCOMES,
    Action,
    Decision,
    DrawSlot,
    Fee,
    Outcome,
)

GRID_POINTS = 64
UNSEEN = 46  # cards the player has not seen on his first decision
DECISIONS = FIRST_DECISIONS  # the count table: first decision x outcome x category
OUTCOMES = PLAIN_OUTCOMES
CELLS = DECISIONS * OUTCOMES * CATEGORIES
SECOND = DECISIONS * CATEGORIES
"""Where a second combination is paid, the wins' extra BET multiples (above the final
category's) are summed by (first decision, category) after the count table: once
(``SECOND`` cells from ``CELLS``), then squared (the next ``SECOND``)."""
ROW = CELLS + 2 * SECOND
PAIRS_IN = comb(44, 2)  # dealer hands holding u and two drawn cards, avoiding P


@njit(cache=True, parallel=True)
def _cumulative_rows(values, out):
    """out[r, t] = how many of the sorted values[r] are below t."""
    for r in prange(values.shape[0]):
        row = values[r]
        k = 0
        for t in range(VALUES):
            while k < row.shape[0] and row[k] < t:
                k += 1
            out[r, t] = k


@njit(cache=True, parallel=True)
def _grid_rows(values, grid, out):
    """out[r, g] = how many of the sorted values[r] are below grid[g]."""
    for r in prange(values.shape[0]):
        for g in range(grid.shape[0]):
            out[r, g] = count_below_jit(values[r], grid[g])


def build_tables(lists, v) -> tuple:
    """The tables the kernels read, from the exact engine's value lists and a variant's
    arrays ``v``: every threshold for sets of one and two cards; a grid of thresholds (the
    qualifier among them, the rest splitting all hands evenly) for sets of three and four;
    the grid point at or below each threshold; what a win of five cards pays by the
    hand's value."""
    qualifier = v.qualifier
    v1, v2, v3, v4 = lists
    cum1 = np.empty((v1.shape[0], VALUES), dtype=np.int32)
    cum2 = np.empty((v2.shape[0], VALUES), dtype=np.uint16)
    _cumulative_rows(v1, cum1)
    _cumulative_rows(v2, cum2)
    below = cum1.sum(axis=0, dtype=np.int64)  # 5 x the hands below each threshold
    quantiles = np.searchsorted(below, np.linspace(0, below[-1], GRID_POINTS - 2)[1:-1])
    grid = np.unique(np.concatenate([[0, qualifier, VALUES - 1], quantiles])).astype(np.int64)
    grid3 = np.empty((v3.shape[0], len(grid)), dtype=np.uint16)
    grid4 = np.empty((v4.shape[0], len(grid)), dtype=np.uint8)
    _grid_rows(v3, grid, grid3)
    _grid_rows(v4, grid, grid4)
    thresholds = np.arange(VALUES)
    low = np.searchsorted(grid, thresholds, side="right") - 1  # largest grid point <= t
    high = np.searchsorted(grid, thresholds, side="left")  # smallest grid point >= t
    q_index = int(np.searchsorted(grid, qualifier))
    values = np.clip(thresholds, 1, VALUES - 2)
    if v.second_combination:  # a five-card hand's BET pay, second combination included
        pays = v.five_card_pays[values]
    else:
        pays = np.array([v.bet_pays[category_jit(value, v.ace_king)] for value in values])
    win_of = v.ante_pays + v.bet * pays
    return cum1, cum2, grid3, grid4, grid, low, high, q_index, win_of


@njit(cache=True)
def _setup(tables, lists, hand, upcard, unseen, g0, rank2, ranks3, ranks4, vals5, g1grid):
    """Fill the situation's arrays: g0[t] = G({}, t); for each unseen card i, the ranks
    and values its exact G({unseen[i]}) needs, and that G on the grid."""
    cum1, cum2, grid3, grid4, grid = tables[:5]
    v3, v4 = lists[2], lists[3]
    cards = np.empty(6, dtype=np.int64)
    ordered = np.empty(6, dtype=np.int64)
    histogram = np.zeros(VALUES, dtype=np.int64)
    for t in range(VALUES):
        g0[t] = cum1[upcard, t]
    for p in range(5):
        cards[0], cards[1] = upcard, hand[p]
        sort_into_jit(cards, 2, ordered)
        row = cum2[set_rank_jit(ordered, 2)]
        for t in range(VALUES):
            g0[t] -= row[t]
        for q in range(p + 1, 5):
            cards[2] = hand[q]
            sort_into_jit(cards, 3, ordered)
            for value in v3[set_rank_jit(ordered, 3)]:
                histogram[value] += 1
            for r in range(q + 1, 5):
                cards[3] = hand[r]
                sort_into_jit(cards, 4, ordered)
                for value in v4[set_rank_jit(ordered, 4)]:
                    histogram[value] -= 1
                for s in range(r + 1, 5):
                    histogram[value5_jit(upcard, hand[p], hand[q], hand[r], hand[s])] += 1
    running = 0
    for t in range(VALUES):
        g0[t] += running
        running += histogram[t]
    n_grid = grid.shape[0]
    for i in range(unseen.shape[0]):
        a = unseen[i]
        cards[0], cards[1] = upcard, a
        sort_into_jit(cards, 2, ordered)
        rank2[i] = set_rank_jit(ordered, 2)
        for g in range(n_grid):
            g1grid[i, g] = cum2[rank2[i], grid[g]]
        k4, k5 = 0, 0
        for p in range(5):
            cards[2] = hand[p]
            sort_into_jit(cards, 3, ordered)
            ranks3[i, p] = set_rank_jit(ordered, 3)
            row3 = grid3[ranks3[i, p]]
            for g in range(n_grid):
                g1grid[i, g] -= row3[g]
            for q in range(p + 1, 5):
                cards[3] = hand[q]
                sort_into_jit(cards, 4, ordered)
                ranks4[i, k4] = set_rank_jit(ordered, 4)
                row4 = grid4[ranks4[i, k4]]
                for g in range(n_grid):
                    g1grid[i, g] += row4[g]
                k4 += 1
                for r in range(q + 1, 5):
                    vals5[i, k5] = value5_jit(upcard, a, hand[p], hand[q], hand[r])
                    for g in range(n_grid):
                        g1grid[i, g] -= vals5[i, k5] < grid[g]
                    k5 += 1


@njit(cache=True, inline="always")
def _g1(sit, i, t):
    """(G({unseen[i]}, t), G({unseen[i]}, t + 1)), exactly."""
    _, rank2, ranks3, ranks4, vals5, _, tables, lists = sit[:8]
    cum2, grid3, grid4, low, high = tables[1], tables[2], tables[3], tables[5][t], tables[6][t]
    v3, v4 = lists[2], lists[3]
    below, through = np.int64(cum2[rank2[i], t]), np.int64(cum2[rank2[i], t + 1])
    for k in range(5):
        row = ranks3[i, k]
        fewer, more = _below_two(v3[row], grid3[row], t, low, high)
        below -= fewer
        through -= more
    for k in range(10):
        row = ranks4[i, k]
        fewer, more = _below_two(v4[row], grid4[row], t, low, high)
        below += fewer - (vals5[i, k] < t)
        through += more - (vals5[i, k] <= t)
    return below, through


@njit(cache=True, inline="always")
def _below(values, on_grid, t, low, high):
    """How many of the sorted ``values`` are below t, searched only between the counts
    below the grid points ``low`` <= t and ``high`` >= t (``on_grid``)."""
    start = np.int64(on_grid[low])
    return start + count_below_jit(values[start : on_grid[high]], t)


@njit(cache=True, inline="always")
def _below_two(values, on_grid, t, low, high):
    """(``_below`` at t, and at t + 1: those equal to t counted on from there)."""
    start = np.int64(on_grid[low])
    below = start + count_below_jit(values[start : on_grid[high]], t)
    through = below
    while through < values.shape[0] and values[through] == t:
        through += 1
    return below, through


@njit(cache=True)
def _g2(sit, i, j, q, t, out):
    """out = G({a, b}) below the qualifier ``q``, below t and below t + 1, exactly (t < 0:
    the qualifier's alone, the others left as they were)."""
    tables, lists, hand, upcard, unseen = sit[6:]
    a, b = unseen[i], unseen[j]
    grid3, grid4, low_of, high_of = tables[2], tables[3], tables[5], tables[6]
    v3, v4 = lists[2], lists[3]
    cards = np.empty(5, dtype=np.int64)
    ordered = np.empty(5, dtype=np.int64)
    cards[0], cards[1], cards[2] = upcard, a, b
    sort_into_jit(cards, 3, ordered)
    rank = set_rank_jit(ordered, 3)
    out[0] = _below(v3[rank], grid3[rank], q, low_of[q], high_of[q])
    if t >= 0:
        out[1], out[2] = _below_two(v3[rank], grid3[rank], t, low_of[t], high_of[t])
    for p in range(5):
        cards[3] = hand[p]
        sort_into_jit(cards, 4, ordered)
        rank = set_rank_jit(ordered, 4)
        out[0] -= _below(v4[rank], grid4[rank], q, low_of[q], high_of[q])
        if t >= 0:
            fewer, more = _below_two(v4[rank], grid4[rank], t, low_of[t], high_of[t])
            out[1] -= fewer
            out[2] -= more
        for r in range(p + 1, 5):
            value = value5_jit(upcard, a, b, hand[p], hand[r])
            out[0] += value < q
            out[1] += value < t
            out[2] += value <= t


@njit(cache=True)
def _exact_counts(v, sit, i, j, value, out):
    """out = (below the qualifier, below value, below value + 1, total): the dealer's
    hands avoiding the player's cards and unseen[i] (and unseen[j] when j >= 0); a
    hand below the qualifier has only the first and the last."""
    g0, g1grid, q_index = sit[0], sit[5], sit[6][7]
    q = v.qualifier
    wins = value >= q
    out[0] = g0[q] - g1grid[i, q_index] - (g1grid[j, q_index] if j >= 0 else 0)
    out[1], out[2] = g0[value], g0[value + 1]
    if wins:
        fewer, more = _g1(sit, i, value)
        out[1] -= fewer
        out[2] -= more
    if j < 0:
        out[3] = comb_jit(UNSEEN - 1, 4)
        return
    if wins:
        fewer, more = _g1(sit, j, value)
        out[1] -= fewer
        out[2] -= more
    pair = np.zeros(3, dtype=np.int64)  # below the qualifier, _g2 leaves the last two
    _g2(sit, i, j, q, value if wins else -1, pair)
    out[0] += pair[0]
    out[1] += pair[1]
    out[2] += pair[2]
    out[3] = comb_jit(UNSEEN - 2, 4)


@njit(cache=True)
def comb_jit(n, k):
    """C(n, k) for small k."""
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@njit(cache=True, inline="always")
def _bound(coefficient, low, high):
    return coefficient * (high if coefficient > 0 else low)


@njit(cache=True, inline="always")
def _q_bounds(sit, i, j, extra, total):
    """Bounds of the dealer's hands below the qualifier, avoiding unseen[i] (and
    unseen[j] when j >= 0): exact but for the pair term, between 0 and ``extra``."""
    tables = sit[6]
    g0, g1grid, q_index = sit[0], sit[5], tables[7]
    count = g0[tables[4][q_index]] - g1grid[i, q_index] - (g1grid[j, q_index] if j >= 0 else 0)
    return max(count, 0), min(count + extra, total)


@njit(cache=True, inline="always")
def _ev_bound(v, tables, g0, row_i, row_j, value, q_low, q_high, total, extra, forced):
    """A proven upper bound of the EV after a draw to a hand of ``value``: fold or bet (bet
    if forced). ``row_i``, ``row_j``: G of the drawn cards on the grid (zeros for none)."""
    low_of, win_of = tables[5], tables[8]
    lose = 1.0 + v.bet
    if value >= v.qualifier:
        at, above = low_of[value], low_of[value + 1]
        below_value = g0[value] - row_i[at] - row_j[at] + extra
        below_next = g0[value + 1] - row_i[above] - row_j[above] + extra
        win = win_of[value]
        net = _bound(v.ante_pays_no_qualify - win, q_low, q_high)
        net += win * min(below_value, total) + lose * (min(below_next, total) - total)
    else:
        net = _bound(v.ante_pays_no_qualify + lose, q_low, q_high) - lose * total
    ev = net / total
    return ev if forced else max(-1.0, ev)


@njit(cache=True)
def _drawn_ev(v, sit, i, j, final, value, forced, counts):
    """The exact EV after a draw of unseen[i] (and unseen[j]) to ``final`` (of ``value``):
    fold or bet (bet if forced); ``counts`` gets the dealer's counts, or (a hand that a
    proven bound folds) only their total."""
    if j >= 0 and not forced:
        total = comb_jit(UNSEEN - 2, 4)
        q_low, q_high = _q_bounds(sit, i, j, PAIRS_IN, total)
        g1grid = sit[5]
        bound = _ev_bound(
            v, sit[6], sit[0], g1grid[i], g1grid[j], value, q_low, q_high, total, PAIRS_IN, False
        )
        if bound <= -1.0:
            counts[3] = total
            return -1.0
    _exact_counts(v, sit, i, j, value, counts)
    multiple = bet_multiple_jit(v, final, value)
    ev = ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])[0]
    return ev if forced else max(-1.0, ev)


@njit(cache=True)
def _add_cells(v, cells, decision, final, value, counts, weight, folded):
    """Add a final hand's dealer counts, times ``weight``, to the count table (and its
    wins' second combination to the sums after it)."""
    category = category_jit(value, v.ace_king)
    base = (decision * OUTCOMES) * CATEGORIES + category
    if folded:
        cells[base + Outcome.FOLD * CATEGORIES] += weight * counts[3]
        return
    no_qualify = counts[0]
    win = counts[1] - counts[0] if value >= v.qualifier else 0
    push = counts[2] - counts[1] if value >= v.qualifier else 0
    cells[base + Outcome.NO_QUALIFY * CATEGORIES] += weight * no_qualify
    cells[base + Outcome.WIN * CATEGORIES] += weight * win
    cells[base + Outcome.PUSH * CATEGORIES] += weight * push
    cells[base + Outcome.LOSS * CATEGORIES] += weight * (counts[3] - no_qualify - win - push)
    if v.second_combination and win:
        extra = np.int64(bet_multiple_jit(v, final, value) - v.bet_pays[category])
        at = CELLS + decision * CATEGORIES + category
        cells[at] += weight * win * extra
        cells[at + SECOND] += weight * win * extra * extra


@njit(cache=True)
def _exchange_exact(v, sit, keep, fee, forced, cells=None, w=0):
    """Exact EV of an exchange (fee included); with ``w`` > 0 its counts times ``w`` go
    to ``cells``."""
    hand, unseen = sit[8], sit[10]
    thrown, k = thrown_positions_jit(keep)
    final = hand.copy()
    counts = np.empty(4, dtype=np.int64)
    m = unseen.shape[0]
    total, draws = 0.0, 0
    decision = Decision.EXCHANGE_1 + k - 1
    for i in range(m):
        final[thrown[0]] = unseen[i]
        for j in range(i + 1, m) if k == 2 else range(-1, 0):
            if k == 2:
                final[thrown[1]] = unseen[j]
            value = value5_jit(final[0], final[1], final[2], final[3], final[4])
            ev = _drawn_ev(v, sit, i, j, final, value, forced, counts)
            if forced or ev > -1.0:
                total += ev
                if cells is not None:
                    _add_cells(v, cells, decision, final, value, counts, w, False)
            else:
                total -= 1.0
                if cells is not None:
                    _add_cells(v, cells, decision, final, value, counts, w, True)
            draws += 1
    return total / draws - fee


@njit(cache=True)
def _exchange_bounds(v, sit, options, fees, forced, out):
    """out[o] = an upper bound of the EV of each one- or two-card exchange option; the
    draws outside and the options inside, so each draw's dealer bounds are found once."""
    tables, hand, unseen = sit[6], sit[8], sit[10]
    m, n = unseen.shape[0], options.shape[0]
    g0, g1grid = sit[0], sit[5]
    none = np.zeros(g1grid.shape[1], dtype=np.int64)
    single, double = comb_jit(UNSEEN - 1, 4), comb_jit(UNSEEN - 2, 4)
    thrown = np.zeros(n, dtype=np.int64)  # cards thrown by each exchange, else 0
    kept = np.empty((n, 4), dtype=np.int64)
    for o in range(n):
        if options[o, 0] == Action.EXCHANGE:
            for p in range(5):
                if (options[o, 1] >> p) & 1:
                    kept[o, p - thrown[o]] = hand[p]
                else:
                    thrown[o] += 1
    sums = np.zeros(n)
    for i in range(m):
        a = unseen[i]
        q_low, q_high = _q_bounds(sit, i, -1, 0, single)
        for o in range(n):
            if thrown[o] == 1:
                value = value5_jit(kept[o, 0], kept[o, 1], kept[o, 2], kept[o, 3], a)
                sums[o] += _ev_bound(
                    v, tables, g0, g1grid[i], none, value, q_low, q_high, single, 0, forced[1]
                )
        for j in range(i + 1, m):
            b = unseen[j]
            q_low, q_high = _q_bounds(sit, i, j, PAIRS_IN, double)
            for o in range(n):
                if thrown[o] == 2:
                    value = value5_jit(kept[o, 0], kept[o, 1], kept[o, 2], a, b)
                    sums[o] += _ev_bound(
                        v,
                        tables,
                        g0,
                        g1grid[i],
                        g1grid[j],
                        value,
                        q_low,
                        q_high,
                        double,
                        PAIRS_IN,
                        forced[2],
                    )
    for o in range(n):
        if thrown[o]:
            draws = m * (m - 1) // 2 if thrown[o] == 2 else m
            out[o] = sums[o] / draws - fees[thrown[o]]


@njit(cache=True)
def _six(hand, card, out):
    out[:5] = hand
    out[5] = card


@njit(cache=True)
def _value6(c):
    return value6_jit(c[0], c[1], c[2], c[3], c[4], c[5])


@njit(cache=True)
def _replace_bounds(v, sit, out):
    """out[s, position] = an upper bound of the EV (fee aside) of replacing the card at
    ``position`` of the hand with unseen[s] bought (fold or bet after)."""
    tables, hand, unseen = sit[6], sit[8], sit[10]
    m = unseen.shape[0]
    g0, g1grid = sit[0], sit[5]
    total = comb_jit(UNSEEN - 2, 4)
    out[:] = 0.0
    first = np.empty(6, dtype=np.int64)
    second = np.empty(6, dtype=np.int64)
    for i in range(m):
        row_i = g1grid[i]
        for j in range(i + 1, m):
            row_j = g1grid[j]
            _six(hand, unseen[i], first)  # bought unseen[i], then drew unseen[j]
            _six(hand, unseen[j], second)  # and the other way round
            q_low, q_high = _q_bounds(sit, i, j, PAIRS_IN, total)
            for position in range(6):
                first[position], second[position] = unseen[j], unseen[i]
                out[i, position] += _ev_bound(
                    v,
                    tables,
                    g0,
                    row_i,
                    row_j,
                    _value6(first),
                    q_low,
                    q_high,
                    total,
                    PAIRS_IN,
                    False,
                )
                out[j, position] += _ev_bound(
                    v,
                    tables,
                    g0,
                    row_i,
                    row_j,
                    _value6(second),
                    q_low,
                    q_high,
                    total,
                    PAIRS_IN,
                    False,
                )
                first[position] = unseen[i] if position == 5 else hand[position]
                second[position] = unseen[j] if position == 5 else hand[position]
    out /= m - 1


@njit(cache=True)
def _replace_exact(v, sit, s, position, cells=None, w=0):
    """Exact EV (fee aside) of replacing the card at ``position`` after buying unseen[s];
    with ``w`` > 0 its counts times ``w`` go to ``cells``."""
    hand, unseen = sit[8], sit[10]
    m = unseen.shape[0]
    six = np.empty(6, dtype=np.int64)
    _six(hand, unseen[s], six)
    counts = np.empty(4, dtype=np.int64)
    total = 0.0
    for r in range(m):
        if r == s:
            continue
        six[position] = unseen[r]
        value = _value6(six)
        ev = _drawn_ev(v, sit, min(s, r), max(s, r), six, value, False, counts)
        total += ev
        if cells is not None:
            _add_cells(v, cells, Decision.REPLACE, six, value, counts, w, ev == -1.0)
    return total / (m - 1)


@njit(cache=True)
def _buy_bound(v, sit, fees, replace_bounds):
    """A proven upper bound of the EV of buying a sixth card (fee included)."""
    tables, hand, unseen = sit[6], sit[8], sit[10]
    m = unseen.shape[0]
    g0, g1grid = sit[0], sit[5]
    none = np.zeros(g1grid.shape[1], dtype=np.int64)
    single = comb_jit(UNSEEN - 1, 4)
    six = np.empty(6, dtype=np.int64)
    total = 0.0
    for s in range(m):
        _six(hand, unseen[s], six)
        q_low, q_high = _q_bounds(sit, s, -1, 0, single)
        best = _ev_bound(
            v, tables, g0, g1grid[s], none, _value6(six), q_low, q_high, single, 0, False
        )
        if not np.isnan(fees[Fee.REPLACE]):
            best = max(best, replace_bounds[s].max() - fees[Fee.REPLACE])
        total += best
    return total / m - fees[Fee.BUY]


@njit(cache=True)
def _buy_ev(v, sit, fees, bounds, prune, after_buy):
    """Exact EV of buying a sixth card (fee included): then fold, bet or replace a card,
    whichever is worth most (replacements counted exactly where their bound reaches the
    best so far, or everywhere without ``prune``). ``after_buy[s]``: the position
    replaced after buying unseen[s], or -1 (fold or bet)."""
    hand, unseen = sit[8], sit[10]
    m = unseen.shape[0]
    six = np.empty(6, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    replace_fee = fees[Fee.REPLACE]
    total = 0.0
    for s in range(m):
        _six(hand, unseen[s], six)
        best = _drawn_ev(v, sit, s, -1, six, _value6(six), False, counts)
        choice = -1
        if not np.isnan(replace_fee):
            for position in np.argsort(-bounds[s]):
                if prune and bounds[s, position] - replace_fee < best - 1e-9:
                    break
                ev = _replace_exact(v, sit, s, position)
                ev -= replace_fee
                if ev > best or (ev == best and choice >= 0 and position < choice):
                    best, choice = ev, position
        after_buy[s] = choice
        total += best
    return total / m - fees[Fee.BUY]


@njit(cache=True)
def _buy_cells(v, sit, fees, after_buy, cells, w):
    """Add the counts of buying a sixth card, then the choices ``after_buy``, times ``w``
    to ``cells`` (a bought card that is bet on or folded weighs ``m - 5`` times a
    replacement's, so the two add up over the same dealer units)."""
    hand, unseen = sit[8], sit[10]
    m = unseen.shape[0]
    six = np.empty(6, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    for s in range(m):
        if after_buy[s] >= 0:
            _replace_exact(v, sit, s, after_buy[s], cells, w)
            continue
        _six(hand, unseen[s], six)
        value = _value6(six)
        ev = _drawn_ev(v, sit, s, -1, six, value, False, counts)
        scale = w if np.isnan(fees[Fee.REPLACE]) else w * (m - 5)
        _add_cells(v, cells, Decision.BUY, six, value, counts, scale, ev == -1.0)


@njit(cache=True)
def _fill_unseen(hand, upcard, unseen):
    """Write the cards outside the five of ``hand`` and the upcard to ``unseen``,
    increasing."""
    seen = np.int64(1) << upcard
    for card in hand:
        seen |= np.int64(1) << card
    n = 0
    for card in range(52):
        if not (seen >> card) & 1:
            unseen[n] = card
            n += 1


@njit(cache=True)
def situation_jit(v, tables, lists, hand, upcard, options, fees, forced, prune, evs, work):
    """The EV of every first option of a situation (``evs``; NaN where an option's proven
    bound falls below the best: it cannot be the best) and the index of the best, the
    first of the highest. ``hand``: five increasing cards; ``work``: ``situation_work``."""
    unseen, g0, rank2, ranks3, ranks4, vals5, g1grid, bounds, replace_bounds, after_buy = work
    replace_bounds[:] = np.inf
    _fill_unseen(hand, upcard, unseen)
    _setup(tables, lists, hand, upcard, unseen, g0, rank2, ranks3, ranks4, vals5, g1grid)
    sit = (g0, rank2, ranks3, ranks4, vals5, g1grid, tables, lists, hand, upcard, unseen)
    evs[:] = np.nan
    bounds[:] = np.inf
    best = -np.inf
    if prune:
        _exchange_bounds(v, sit, options, fees, forced, bounds)
    for o in range(options.shape[0]):
        kind = options[o, 0]
        if kind == Action.FOLD:
            evs[o] = -1.0
        elif kind == Action.PLAY:
            value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
            thresholds = np.empty(3, dtype=np.int64)
            thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
            evs[o] = ev_from_counts_jit(
                v,
                value,
                bet_multiple_jit(v, hand, value),
                g0[thresholds[0]],
                g0[thresholds[1]],
                g0[thresholds[2]],
                comb_jit(UNSEEN, 4),
            )[0]
        elif kind == Action.BUY:
            if prune and not np.isnan(fees[Fee.REPLACE]):
                _replace_bounds(v, sit, replace_bounds)
                bounds[o] = _buy_bound(v, sit, fees, replace_bounds)
            if bounds[o] >= best - 1e-9:
                evs[o] = _buy_ev(v, sit, fees, replace_bounds, prune, after_buy)
        if not np.isnan(evs[o]):
            best = max(best, evs[o])
    order = np.argsort(-bounds)
    for o in order:
        if options[o, 0] != Action.EXCHANGE or bounds[o] < best - 1e-9:
            continue
        thrown_count = thrown_positions_jit(options[o, 1])[1]
        evs[o] = _exchange_exact(v, sit, options[o, 1], fees[thrown_count], forced[thrown_count])
        best = max(best, evs[o])
    choice = 0
    for o in range(options.shape[0]):
        if evs[o] == best:
            choice = o
            break
    return choice


def situation_work(n_options: int, n_grid: int) -> tuple:
    """Scratch arrays of ``situation_jit``."""
    return _work(n_options, n_grid)


@njit(cache=True)
def _work(n_options, n_grid):
    return (
        np.empty(UNSEEN, dtype=np.int64),
        np.empty(VALUES, dtype=np.int64),
        np.empty(UNSEEN, dtype=np.int64),
        np.empty((UNSEEN, 5), dtype=np.int64),
        np.empty((UNSEEN, 10), dtype=np.int64),
        np.empty((UNSEEN, 10), dtype=np.int64),
        np.empty((UNSEEN, n_grid), dtype=np.int64),
        np.empty(n_options),
        np.empty((UNSEEN, 6)),
        np.empty(UNSEEN, dtype=np.int64),
    )


@njit(cache=True)
def chosen_cells_jit(
    v, tables, lists, hand, upcard, options, fees, forced, choice, work, factors, cells
):
    """Add the counts of option ``choice`` of the situation ``situation_jit`` last filled
    ``work`` for, each kind times its factor (``factors``, slots ``codes.DrawSlot``), to
    ``cells``."""
    unseen, g0, rank2, ranks3, ranks4, vals5, g1grid, _, _, after_buy = work
    sit = (g0, rank2, ranks3, ranks4, vals5, g1grid, tables, lists, hand, upcard, unseen)
    kind, keep = options[choice, 0], options[choice, 1]
    value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
    counts = np.empty(4, dtype=np.int64)
    counts[0], counts[1], counts[2] = g0[v.qualifier], g0[value], g0[value + 1]
    counts[3] = comb_jit(UNSEEN, 4)
    if kind == Action.FOLD:
        _add_cells(v, cells, Decision.FOLD, hand, value, counts, factors[DrawSlot.NONE], True)
    elif kind == Action.PLAY:
        _add_cells(v, cells, Decision.PLAY, hand, value, counts, factors[DrawSlot.NONE], False)
    elif kind == Action.EXCHANGE:
        k = thrown_positions_jit(keep)[1]
        _exchange_exact(v, sit, keep, fees[k], forced[k], cells, factors[k])  # slot k
    else:
        _buy_cells(v, sit, fees, after_buy, cells, factors[DrawSlot.BUY])


@njit(cache=True, parallel=True)
def game_rows_jit(v, tables, lists, reps, options, fees, forced, factors, choices, evs, cells):
    """Every situation of the hand classes ``reps`` (one row each): the best first option
    by upcard (``choices``, 255 where the upcard is in the hand), its EV, and the counts
    of the best options (``cells``, one row per class)."""
    n_grid = tables[4].shape[0]
    for row in prange(reps.shape[0]):
        hand = reps[row]
        work = _work(options.shape[0], n_grid)
        option_evs = np.empty(options.shape[0])
        for upcard in range(52):
            if (
                upcard == hand[0]
                or upcard == hand[1]
                or upcard == hand[2]
                or upcard == hand[3]
                or upcard == hand[4]
            ):
                choices[row, upcard] = 255
                evs[row, upcard] = np.nan
                continue
            choice = situation_jit(
                v, tables, lists, hand, upcard, options, fees, forced, True, option_evs, work
            )
            choices[row, upcard] = choice
            evs[row, upcard] = option_evs[choice]
            chosen_cells_jit(
                v,
                tables,
                lists,
                hand,
                upcard,
                options,
                fees,
                forced,
                choice,
                work,
                factors,
                cells[row],
            )


@njit(cache=True, parallel=True)
def best_options_jit(v, tables, lists, hands, upcards, options, fees, forced, out, evs):
    """For each situation (five increasing cards, upcard), the index of its best option
    (``out``) and its EV (``evs``); situations shared out among threads, each computed
    on one."""
    n_grid = tables[4].shape[0]
    for s in prange(hands.shape[0]):
        work = _work(options.shape[0], n_grid)
        option_evs = np.empty(options.shape[0])
        out[s] = situation_jit(
            v, tables, lists, hands[s], upcards[s], options, fees, forced, True, option_evs, work
        )
        evs[s] = option_evs[out[s]]


@njit(cache=True)
def after_buy_jit(v, tables, lists, six, upcard, replace_fee):
    """(action, cards kept) after buying six[5] to the dealt six[:5]: fold, play or
    replace one of the six, whichever is worth most (replacements counted exactly where
    their bound reaches the best; ties as ``_buy_ev`` breaks them)."""
    hand = six[:5].copy()
    work = _work(0, tables[4].shape[0])
    unseen, g0, rank2, ranks3, ranks4, vals5, g1grid = work[:7]
    _fill_unseen(hand, upcard, unseen)
    n = unseen.shape[0]
    s = np.searchsorted(unseen, six[5])
    _setup(tables, lists, hand, upcard, unseen, g0, rank2, ranks3, ranks4, vals5, g1grid)
    sit = (g0, rank2, ranks3, ranks4, vals5, g1grid, tables, lists, hand, upcard, unseen)
    counts = np.empty(4, dtype=np.int64)
    best = _drawn_ev(v, sit, s, -1, six, _value6(six), False, counts)
    action, kept = (Action.FOLD, 63) if best == -1.0 else (Action.PLAY, 63)
    if np.isnan(replace_fee):
        return action, kept
    total = comb_jit(UNSEEN - 2, 4)
    bounds = np.zeros(6)
    trial = six.copy()
    for r in range(n):
        if r == s:
            continue
        i, j = min(s, r), max(s, r)
        q_low, q_high = _q_bounds(sit, i, j, PAIRS_IN, total)
        for position in range(6):
            trial[position] = unseen[r]
            bounds[position] += _ev_bound(
                v,
                tables,
                g0,
                g1grid[i],
                g1grid[j],
                _value6(trial),
                q_low,
                q_high,
                total,
                PAIRS_IN,
                False,
            )
            trial[position] = six[position]
    choice = -1
    for position in np.argsort(-bounds):
        if bounds[position] / (n - 1) - replace_fee < best - 1e-9:
            break
        ev = _replace_exact(v, sit, s, position)
        ev -= replace_fee
        if ev > best or (ev == best and choice >= 0 and position < choice):
            best, choice = ev, position
    if choice >= 0:
        return Action.REPLACE, 63 & ~(1 << choice)
    return action, kept


@njit(cache=True)
def add_dealer_term_jit(tables, lists, upcard, chosen, size, thresholds, sign, out, ordered):
    """Add ``sign`` times the hands holding the upcard and chosen[:size] (increasing),
    below each threshold and in all (``out[-1]``): a table look-up for one or two cards,
    a search bracketed by the grid for three or four, the hand's value for five."""
    k = with_upcard_jit(upcard, chosen, size, ordered)
    n_t = thresholds.shape[0]
    out[n_t] += sign * comb_jit(51 - size, 4 - size)
    if k == 5:
        value = value5_jit(ordered[0], ordered[1], ordered[2], ordered[3], ordered[4])
        for i in range(n_t):
            out[i] += sign * (value < thresholds[i])
        return
    if k == 1:
        for i in range(n_t):
            out[i] += sign * np.int64(tables[0][upcard, thresholds[i]])
        return
    rank = set_rank_jit(ordered, k)
    for i in range(n_t):
        t = thresholds[i]
        if k == 2:
            out[i] += sign * np.int64(tables[1][rank, t])
        elif k == 3:
            out[i] += sign * _below(lists[2][rank], tables[2][rank], t, tables[5][t], tables[6][t])
        else:
            out[i] += sign * _below(lists[3][rank], tables[3][rank], t, tables[5][t], tables[6][t])


@njit(cache=True)
def play_after_draw_jit(v, tables, lists, final, upcard, seen_mask):
    """PLAY or FOLD, exactly, for the final hand (5 or 6 cards): the dealer's hands
    avoiding every card the player has seen (``seen_mask``), by inclusion-exclusion over
    subsets of up to four of them, each term a look-up or a short search (the same
    counts as ``_exact.dealer_counts_jit``, without its searches in the long lists)."""
    dead = np.empty(52, dtype=np.int64)
    n = 0
    for card in range(52):
        if (seen_mask >> card) & 1:
            dead[n] = card
            n += 1
    if final.shape[0] == 6:
        value = _value6(final)
    else:
        value = value5_jit(final[0], final[1], final[2], final[3], final[4])
    thresholds = np.empty(3, dtype=np.int64)
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    out = np.zeros(4, dtype=np.int64)
    chosen = np.empty(4, dtype=np.int64)
    ordered = np.empty(5, dtype=np.int64)
    add_dealer_term_jit(tables, lists, upcard, chosen, 0, thresholds, 1, out, ordered)
    for a in range(n):
        chosen[0] = dead[a]
        add_dealer_term_jit(tables, lists, upcard, chosen, 1, thresholds, -1, out, ordered)
        for b in range(a + 1, n):
            chosen[1] = dead[b]
            add_dealer_term_jit(tables, lists, upcard, chosen, 2, thresholds, 1, out, ordered)
            for c in range(b + 1, n):
                chosen[2] = dead[c]
                add_dealer_term_jit(tables, lists, upcard, chosen, 3, thresholds, -1, out, ordered)
                for d in range(c + 1, n):
                    chosen[3] = dead[d]
                    add_dealer_term_jit(
                        tables, lists, upcard, chosen, 4, thresholds, 1, out, ordered
                    )
    multiple = bet_multiple_jit(v, final, value)
    ev = ev_from_counts_jit(v, value, multiple, out[0], out[1], out[2], out[3])[0]
    return Action.PLAY if ev > -1.0 else Action.FOLD
