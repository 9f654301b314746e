"""numba kernels of the dealer's game in the EVs of the player's decisions.

Where the dealer does not qualify, a player who sees his five cards may buy him a
game: he exchanges one card (his discard rule decides which) for one the player has
not seen. Betting a final hand H is then worth, beside what the dealer's hands pay
as dealt, the gain of the game wherever it is positive:

    extra(H) = sum, over his non-qualifying hands D avoiding H, of max(0, gain(H, D))

A situation's non-qualifying hands are tabulated once: the value each new card
gives the dealer, sorted, and a threshold proven for each hand (below it no final
hand gains from buying it a game, whatever cards of the draws the player holds), the
hands in order of it. A final hand then walks only over the hands it may gain
against: none, for most hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._evaluator import category_jit, hand_value_jit, next_combination_jit, value5_jit
from ._exact import _drawn_ev as drawn_ev_jit
from ._exact import count_below_jit, thrown_count_jit, thrown_positions_jit
from ._settlement import bet_multiple_jit, dealer_discard_jit, settle_jit
from ._situation import comb_jit
from .codes import Action, Fee

TOP_VALUE = 7462
"""The value of a royal flush, the highest of five cards."""


@njit(cache=True)
def bought_results_jit(v, value, multiple):
    """(no qualifier, win, push, loss, declined): the player's net, in antes and fees
    aside, of a bought game ending each way, and of declining it, for a final hand of
    ``value`` whose BET pays ``multiple``. An ending the hand cannot meet gets a value
    that is never weighed."""
    out = np.empty(5)
    ends = np.array([0, v.qualifier, value, TOP_VALUE], dtype=np.int64)
    for i in range(4):
        won, lost, _ = settle_jit(v, value, multiple, False, 0.0, 0, True, ends[i])
        out[i] = won - lost
    out[4] = v.ante_pays_no_qualify
    return out


@njit(cache=True)
def _outcomes(sorted_after, no_qualify, value, qualifier):
    """(wins, pushes) of a hand of ``value`` among the dealer's values after a new card."""
    if value < qualifier:
        return 0, 0
    below = count_below_jit(sorted_after, value)
    return below - no_qualify, count_below_jit(sorted_after, value + 1) - below


@njit(cache=True)
def _outcomes_above(sorted_after, start, value):
    """(how many of ``sorted_after`` are below ``value``, how many equal it), those
    below ``start`` known to be below it: a short walk, few values lie above."""
    j, n = start, sorted_after.shape[0]
    while j < n and sorted_after[j] < value:
        j += 1
    below = j
    while j < n and sorted_after[j] == value:
        j += 1
    return below, j - below


@njit(cache=True)
def _gain_bound(v, sorted_after, no_qualify, value, r, k):
    """An upper bound of the game's gain against one dealer hand, over every final
    hand of ``value`` whose BET pays at most the bound its bought results ``r``
    assume (``bound_results_jit``) and every set of ``k`` new cards left out of the
    dealer's draw: the k worst ends left out."""
    wins, pushes = _outcomes(sorted_after, no_qualify, value, v.qualifier)
    c0, c1, c2 = no_qualify, wins, pushes
    c3 = sorted_after.shape[0] - c0 - c1 - c2
    for _ in range(k):  # the worst end of those left: the first of the lowest result
        worst, lowest = -1, 0.0
        for end, count in enumerate((c0, c1, c2, c3)):
            if count and (worst < 0 or r[end] < lowest):
                worst, lowest = end, r[end]
        if worst == 0:
            c0 -= 1
        elif worst == 1:
            c1 -= 1
        elif worst == 2:
            c2 -= 1
        else:
            c3 -= 1
    total = c0 * r[0] + c1 * r[1] + c2 * r[2] + c3 * r[3]
    return total / (c0 + c1 + c2 + c3) - r[4]


@njit(cache=True)
def multiple_bounds_jit(v):
    """For each value, the most the BET may pay a hand of that value or lower: twice
    the category's pay where a second combination is paid (one no better than it)."""
    out = np.empty(TOP_VALUE + 1)
    best = 0.0
    for value in range(TOP_VALUE + 1):
        best = max(best, v.bet_pays[category_jit(value, v.ace_king)])
        out[value] = 2.0 * best if v.second_combination else best
    return out


@njit(cache=True)
def bound_results_jit(v):
    """For each value, ``bought_results_jit`` of a hand of that value whose BET pays the
    most a hand of that value may (``multiple_bounds_jit``)."""
    bounds = multiple_bounds_jit(v)
    out = np.empty((TOP_VALUE + 1, 5))
    for value in range(TOP_VALUE + 1):
        out[value] = bought_results_jit(v, value, bounds[value])
    return out


@njit(cache=True)
def _threshold(v, sorted_after, no_qualify, results, k):
    """The lowest value whose gain bound is positive (TOP_VALUE + 1: none): the bound
    grows with the value, so a binary search."""
    low, high = 0, TOP_VALUE + 1
    while low < high:
        middle = (low + high) >> 1
        if _gain_bound(v, sorted_after, no_qualify, middle, results[middle], k) > 0:
            high = middle
        else:
            low = middle + 1
    return low


@njit(cache=True)
def nonqualifying_dealers_jit(v, upcard, unseen, k_max):
    """The dealer's hands (his upcard and four of ``unseen``) that do not qualify, in
    order of threshold: (masks of the four, thresholds (by how many new cards a final
    hand holds, 0 to ``k_max``), how many new cards leave each short of qualifying, how
    many give it less than the lowest threshold, the values new cards give it sorted,
    and by card (-1: a card that cannot come)). ``k_max``: the most new cards a final
    hand holds."""
    m = unseen.shape[0]
    n_max = m * (m - 1) * (m - 2) * (m - 3) // 24
    masks = np.empty(n_max, dtype=np.int64)
    thresholds = np.empty((n_max, k_max + 1), dtype=np.int64)
    no_qualify = np.empty(n_max, dtype=np.int64)
    sorted_after = np.empty((n_max, m - 4), dtype=np.int32)
    after = np.full((n_max, 52), -1, dtype=np.int32)
    results = bound_results_jit(v)
    picks = np.arange(4)
    dealer = np.empty(5, dtype=np.int64)
    dealer[4] = upcard
    n = 0
    while True:
        for i in range(4):
            dealer[i] = unseen[picks[i]]
        if value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4]) < v.qualifier:
            discard = dealer_discard_jit(v, dealer)
            mask, j = np.int64(0), 0
            for i in range(4):
                mask |= np.int64(1) << dealer[i]
            trial = dealer.copy()
            for card in unseen:
                if not (mask >> card) & 1:
                    trial[discard] = card
                    after[n, card] = value5_jit(trial[0], trial[1], trial[2], trial[3], trial[4])
                    sorted_after[n, j] = after[n, card]
                    j += 1
            sorted_after[n].sort()
            masks[n] = mask
            no_qualify[n] = count_below_jit(sorted_after[n], v.qualifier)
            for k in range(k_max + 1):
                thresholds[n, k] = _threshold(v, sorted_after[n], no_qualify[n], results, k)
            n += 1
        if not next_combination_jit(picks, m):
            break
    order = np.argsort(thresholds[:n, k_max], kind="mergesort")
    lowest = max(v.qualifier, thresholds[order[0], k_max] if n else 0)
    below_lowest = np.empty(n, dtype=np.int64)
    for d in range(n):
        below_lowest[d] = count_below_jit(sorted_after[order[d]], lowest)
    return (
        masks[order],
        thresholds[order],
        no_qualify[order],
        below_lowest,
        sorted_after[order],
        after[order],
    )


@njit(cache=True, inline="always")
def _pair_gain(v, dealers, d, value, r, new_cards, new_mask):
    """The game's gain for a final hand of ``value`` (bought results ``r``) against the
    dealer's hand ``d``; 0 where it cannot be positive or ``d`` holds a new card."""
    masks, thresholds, no_qualify, below_lowest, sorted_after, after = dealers
    k = new_cards.shape[0]
    if thresholds[d, k] > value or masks[d] & new_mask:
        return 0.0
    nq = no_qualify[d]
    below, pushes = _outcomes_above(sorted_after[d], below_lowest[d], value)
    wins = below - nq
    for card in new_cards:  # they cannot come to the dealer
        a = after[d, card]
        if a < v.qualifier:
            nq -= 1
        elif a < value:
            wins -= 1
        elif a == value:
            pushes -= 1
    n = sorted_after.shape[1] - k
    losses = n - nq - wins - pushes
    return max(0.0, (nq * r[0] + wins * r[1] + pushes * r[2] + losses * r[3]) / n - r[4])


@njit(cache=True)
def game_extra_jit(v, dealers, value, multiple, new_cards):
    """extra(H), summed (not averaged) over the dealer's hands: ``new_cards`` are the
    final hand's cards drawn from the situation's unseen ones, dead for the dealer."""
    k = new_cards.shape[0]
    cards = np.empty((1, k), dtype=np.int64)
    cards[0] = new_cards
    mask = np.zeros(1, dtype=np.int64)
    for card in new_cards:
        mask[0] |= np.int64(1) << card
    results = np.empty((1, 5))
    results[0] = bought_results_jit(v, value, multiple)
    out = np.zeros(1)
    values = np.full(1, value, dtype=np.int64)
    _add_extras(v, dealers, 0, 1, values, results, cards, np.full(1, k), mask, out)
    return out[0]


@njit(cache=True)
def _add_extras(v, dealers, first, step, values, results, new_cards, new_counts, masks, out):
    """Add to ``out`` the extra(H) of final hands (in decreasing order of value;
    ``results``: their bought results; their new cards ``new_cards[h, :new_counts[h]]``)
    against the dealer's hands first, first + step, ... (in order of threshold): each
    dealer hand walks the hands that reach its threshold while its row stays in cache,
    until one no hand reaches."""
    for d in range(first, dealers[0].shape[0], step):
        lowest = dealers[1][d, -1]
        if values.shape[0] == 0 or values[0] < lowest:
            break
        for h in range(values.shape[0]):
            if values[h] < lowest:
                break
            cards = new_cards[h, : new_counts[h]]
            out[h] += _pair_gain(v, dealers, d, values[h], results[h], cards, masks[h])


@njit(cache=True, parallel=True)
def game_extras_jit(v, dealers, values, results, new_cards, new_counts, masks):
    """``_add_extras`` over every dealer hand, shared out among threads."""
    slots = 4
    sums = np.zeros((slots, values.shape[0]))
    for slot in prange(slots):
        _add_extras(
            v, dealers, slot, slots, values, results, new_cards, new_counts, masks, sums[slot]
        )
    return sums.sum(axis=0)


@njit(cache=True)
def drawn_extra_jit(v, dealers, final, unseen, picks, k):
    """extra(H) of the final hand after a draw of unseen[picks[:k]]: 0 at once where no
    dealer hand's threshold is met."""
    value = hand_value_jit(final)
    if dealers[0].shape[0] == 0 or dealers[1][0, -1] > value:
        return 0.0
    multiple = bet_multiple_jit(v, final, value)
    return game_extra_jit(v, dealers, value, multiple, unseen[picks[:k]])


@njit(cache=True)
def bet_ev_jit(v, tables, lists, final, upcard, unseen, picks, k, scratch):
    """(EV of betting ``final`` after a draw of unseen[picks[:k]], the game never
    bought; how many dealer hands avoid it). ``scratch``: 4 x 5 integers."""
    ev = drawn_ev_jit(v, tables, lists, final, upcard, unseen, picks, k, True, scratch)
    return ev, comb_jit(unseen.shape[0] - k, 4)


@njit(cache=True)
def bet_gain_jit(v, tables, lists, dealers, hand, upcard, unseen):
    """(EV of betting the hand as it is, the game never bought; what the game adds)."""
    no_picks = np.empty(0, dtype=np.int64)
    scratch = np.empty((4, 5), dtype=np.int64)
    ev, total = bet_ev_jit(v, tables, lists, hand, upcard, unseen, no_picks, 0, scratch)
    return ev, drawn_extra_jit(v, dealers, hand, unseen, no_picks, 0) / total


def no_dealers() -> tuple:
    """The table of non-qualifying dealer hands of a game without a game to buy."""
    return (
        np.empty(0, dtype=np.int64),
        np.empty((0, 1), dtype=np.int64),
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int64),
        np.empty((0, 0), dtype=np.int32),
        np.empty((0, 52), dtype=np.int32),
    )


@njit(cache=True)
def _fold_or_bet(ev, forced):
    return ev if forced else max(-1.0, ev)


@njit(cache=True, parallel=True)
def _draws(hand, keep_mask, unseen):
    """Every draw replacing the cards outside ``keep_mask``: (the indices in ``unseen``
    of its cards, the final hand's value), shared out among threads by first card."""
    thrown, k = thrown_positions_jit(keep_mask)
    m = unseen.shape[0]
    starts = np.zeros(m - k + 2, dtype=np.int64)  # draws before each first card
    for first in range(m - k + 1):
        starts[first + 1] = starts[first] + comb_jit(m - first - 1, k - 1)
    picks_of = np.empty((starts[-1], k), dtype=np.int64)
    values = np.empty(starts[-1], dtype=np.int64)
    for first in prange(m - k + 1):
        picks = np.arange(first, first + k)
        final = hand.copy()
        for i in range(starts[first], starts[first + 1]):
            for j in range(k):
                final[thrown[j]] = unseen[picks[j]]
            picks_of[i] = picks
            values[i] = hand_value_jit(final)
            if k > 1:
                next_combination_jit(picks[1:], m)
    return picks_of, values


@njit(cache=True)
def exchange_gain_jit(v, tables, lists, dealers, hand, keep_mask, upcard, unseen, forced):
    """What the game adds to the EV of throwing the cards outside ``keep_mask``: every
    draw enumerated, fold or bet after it (bet if forced); the bet's EV and the game
    weighed only for the final hands that reach a dealer hand's threshold."""
    if dealers[0].shape[0] == 0:
        return 0.0
    picks_of, values = _draws(hand, keep_mask, unseen)
    thrown, k = thrown_positions_jit(keep_mask)
    strong = np.flatnonzero(values >= dealers[1][0, -1])
    strong = strong[np.argsort(-values[strong], kind="mergesort")]
    n = strong.shape[0]
    results = np.empty((n, 5))
    new_cards = np.empty((n, k), dtype=np.int64)
    new_masks = np.zeros(n, dtype=np.int64)
    evs, totals = np.empty(n), np.empty(n)
    final = hand.copy()
    scratch = np.empty((4, 5), dtype=np.int64)
    for h in range(n):
        picks = picks_of[strong[h]]
        for j in range(k):
            final[thrown[j]] = new_cards[h, j] = unseen[picks[j]]
            new_masks[h] |= np.int64(1) << new_cards[h, j]
        value = values[strong[h]]
        results[h] = bought_results_jit(v, value, bet_multiple_jit(v, final, value))
        evs[h], totals[h] = bet_ev_jit(v, tables, lists, final, upcard, unseen, picks, k, scratch)
    counts = np.full(n, k, dtype=np.int64)
    extras = game_extras_jit(v, dealers, values[strong], results, new_cards, counts, new_masks)
    gain = 0.0
    for h in range(n):
        gain += _fold_or_bet(evs[h] + extras[h] / totals[h], forced) - _fold_or_bet(evs[h], forced)
    return gain / values.shape[0]


@njit(cache=True)
def six_card_choices_jit(v, tables, lists, dealers, six, upcard, unseen, picks, k, out):
    """The choices on six cards, ``picks[:k]`` (k: 0 or 1) the unseen cards among them:
    ``out[0]`` fold or bet, ``out[1 + i]`` replace card i (every replacement, then fold
    or bet; the fee aside). Columns: [0] the better of fold and bet, the game never
    bought; [1] the better, the game counted; [2] the game bought but not weighed in
    the choice (the engine's play). Every final hand is weighed first, then the game
    against the strong ones, dealer hand by dealer hand."""
    m = unseen.shape[0]
    n = 1 + (out.shape[0] - 1) * (m - k)
    evs, totals, choice_of = np.empty(n), np.empty(n), np.empty(n, dtype=np.int64)
    values, results = np.empty(n, dtype=np.int64), np.empty((n, 5))
    new_cards, counts = np.empty((n, 2), dtype=np.int64), np.empty(n, dtype=np.int64)
    masks = np.zeros(n, dtype=np.int64)
    scratch = np.empty((4, 5), dtype=np.int64)
    trial, drawn = six.copy(), np.empty(2, dtype=np.int64)
    drawn[:k] = picks[:k]
    h = 0
    for choice in range(out.shape[0]):
        for r in range(m if choice else 1):
            if choice:
                if k == 1 and r == picks[0]:
                    continue
                trial[choice - 1] = unseen[r]
                drawn[0], drawn[k] = (r, r) if k == 0 else (min(r, picks[0]), max(r, picks[0]))
            size = k + (choice > 0)
            evs[h], totals[h] = bet_ev_jit(
                v, tables, lists, trial, upcard, unseen, drawn, size, scratch
            )
            values[h] = hand_value_jit(trial)
            results[h] = bought_results_jit(v, values[h], bet_multiple_jit(v, trial, values[h]))
            counts[h], choice_of[h] = size, choice
            for j in range(size):
                new_cards[h, j] = unseen[drawn[j]]
                masks[h] |= np.int64(1) << new_cards[h, j]
            h += 1
        if choice:
            trial[choice - 1] = six[choice - 1]
    extras = np.zeros(n)
    if dealers[0].shape[0]:
        strong = np.flatnonzero(values >= dealers[1][0, -1])
        strong = strong[np.argsort(-values[strong], kind="mergesort")]
        found = np.zeros(strong.shape[0])
        _add_extras(
            v, dealers, 0, 1, values[strong], results[strong], new_cards[strong],
            counts[strong], masks[strong], found,
        )  # fmt: skip
        extras[strong] = found
    out[:] = 0.0
    for h in range(n):
        ev, with_game = evs[h], evs[h] + extras[h] / totals[h]
        row = out[choice_of[h]]
        row[0] += max(-1.0, ev)
        row[1] += max(-1.0, with_game)
        row[2] += with_game if ev > -1.0 else -1.0
    out[1:] /= m - k


@njit(cache=True, parallel=True)
def buy_evs_jit(v, tables, lists, dealers, hand, upcard, unseen, replace_fee):
    """The EV of buying a sixth card, the buying fee aside: [0] every choice on the six
    weighed without the game, never bought; [1] every choice weighing it; [2] the
    choices of [0] made, the game then bought exactly (the engine's play)."""
    m = unseen.shape[0]
    choices = 1 if np.isnan(replace_fee) else 7
    evs = np.zeros((m, 3))
    for b in prange(m):
        six = np.empty(6, dtype=np.int64)
        six[:5] = hand
        six[5] = unseen[b]
        out = np.empty((choices, 3))
        six_card_choices_jit(v, tables, lists, dealers, six, upcard, unseen, np.array([b]), 1, out)
        out[1:] -= replace_fee
        plain = np.argmax(out[:, 0])
        evs[b, 0], evs[b, 1], evs[b, 2] = out[plain, 0], out[:, 1].max(), out[plain, 2]
    return evs.sum(axis=0) / m


@njit(cache=True)
def option_gain_jit(v, tables, lists, dealers, hand, upcard, unseen, kind, keep, fees, forced):
    """What the game adds to the EV of one first option (kind, cards kept)."""
    if kind == Action.PLAY:
        return bet_gain_jit(v, tables, lists, dealers, hand, upcard, unseen)[1]
    if kind == Action.BUY:
        evs = buy_evs_jit(v, tables, lists, dealers, hand, upcard, unseen, fees[Fee.REPLACE])
        return evs[1] - evs[0]
    if kind == Action.EXCHANGE:
        thrown = thrown_count_jit(keep)
        return exchange_gain_jit(
            v, tables, lists, dealers, hand, keep, upcard, unseen, forced[thrown]
        )
    return 0.0
