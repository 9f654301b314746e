"""numba kernels of the strategy derivation: what betting gains over folding, per hand
value and upcard rank, and the best rule to add to a list of rules.

Groups are (hand value, upcard rank): the conditions of a rule strategy's first decision
read nothing else (``_strategy.first_actions_jit``). A rule is a set of upcard ranks
(one interval), whether the upcard matches one of the player's ranks, whether it is
below the player's n-th highest card, which ranks he holds, and an interval of hand
values; ``best_rule_jit`` tries them all for one action.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._evaluator import value5_jit
from ._exact import play_ev_jit
from ._proxy import TABLES, exchange_values_jit, relabelled_jit
from ._settlement import bet_multiple_jit
from ._situation import (
    _drawn_ev,
    _fill_unseen,
    _replace_exact,
    _setup,
    _value6,
    _work,
    situation_jit,
)
from ._strategy import decide_jit, draws_jit
from .codes import Action

ANY = -1  # a condition left out (match, n-th card)


@njit(cache=True, parallel=True)
def bet_gains_jit(v, lists, reps, weights, out):
    """``out[row, upcard]``: how much betting the representative hand ``reps[row]``
    returns more than folding it against that upcard (EV + 1, in antes), times the
    hand class's size; 0 where the upcard is in the hand."""
    for row in prange(reps.shape[0]):
        hand = reps[row]
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        multiple = bet_multiple_jit(v, hand, value)
        dead = np.sort(hand)
        for upcard in range(52):
            if upcard in (hand[0], hand[1], hand[2], hand[3], hand[4]):
                continue
            ev = play_ev_jit(v, lists, hand, value, multiple, upcard, dead, 5)[0]
            out[row, upcard] = weights[row] * (ev + 1.0)


@njit(cache=True)
def _kadane(sums):
    """(best sum, first, last) of a contiguous run of ``sums`` (empty: 0, 0, -1)."""
    best, first, last = 0.0, 0, -1
    running, start = 0.0, 0
    for i in range(sums.shape[0]):
        if running <= 0.0:
            running, start = 0.0, i
        running += sums[i]
        if running > best:
            best, first, last = running, start, i
    return best, first, last


@njit(cache=True, parallel=True)
def best_rule_jit(change, rank_masks, nth_ranks, holds_masks, rank_conditions=True):
    """The rule whose groups gain most, ``change[value, up_rank]`` being what the rule's
    action gains on each group (hand values in increasing order along the first axis).

    Tried: every interval of upcard ranks x upcard matching (yes, no, ``ANY``) x upcard
    below the player's n-th highest card (``ANY`` or n = 1..5) x holding one of the
    ranks of ``holds_masks[i]`` (0: any) x the best interval of hand values; without
    ``rank_conditions``, neither the matching nor the n-th card (both ``ANY``).
    Returns (gain, first value index, last value index, low rank, high rank, match,
    n-th card, holds index)."""
    n_values = change.shape[0]
    n_holds = holds_masks.shape[0]
    per_holds = 18 if rank_conditions else 1
    combos = per_holds * n_holds
    gains = np.zeros(combos)
    found = np.zeros((combos, 4), dtype=np.int64)  # first, last, low, high
    for combo in prange(combos):
        match, nth = _rank_conditions(combo, rank_conditions)
        holds = holds_masks[combo // per_holds]
        cumulative = np.zeros((n_values, 14))
        for value in range(n_values):
            ranks = rank_masks[value]
            if holds and not ranks & holds:
                for r in range(13):
                    cumulative[value, r + 1] = cumulative[value, r]
                continue
            for r in range(13):
                held = (ranks >> r) & 1
                keep = (match == ANY or held == match) and (
                    nth == ANY or r < nth_ranks[value, nth]
                )
                cumulative[value, r + 1] = cumulative[value, r] + (
                    change[value, r] if keep else 0.0
                )
        sums = np.empty(n_values)
        for low in range(13):
            for high in range(low, 13):
                for value in range(n_values):
                    sums[value] = cumulative[value, high + 1] - cumulative[value, low]
                best, first, last = _kadane(sums)
                if best > gains[combo] + 1e-12:
                    gains[combo] = best
                    found[combo, 0], found[combo, 1] = first, last
                    found[combo, 2], found[combo, 3] = low, high
    best = np.argmax(gains)
    match, nth = _rank_conditions(best, rank_conditions)
    first, last, low, high = found[best]
    return gains[best], first, last, low, high, match, nth, best // per_holds


@njit(cache=True, inline="always")
def _rank_conditions(combo, rank_conditions):
    """(upcard matching, n-th card) of a combination of ``best_rule_jit``."""
    if not rank_conditions:
        return ANY, ANY
    return combo % 3 - 1, (combo // 3) % 6 - 1 if (combo // 3) % 6 else ANY


@njit(cache=True, parallel=True)
def option_evs_jit(v, tables, lists, hands, upcards, options, fees, forced, out):
    """``out[s, o]``: the exact EV of every first option ``o`` of each situation (five
    increasing cards, upcard), the decisions after a draw exact; situations shared out
    among threads."""
    n_grid = tables[4].shape[0]
    for s in prange(hands.shape[0]):
        work = _work(options.shape[0], n_grid)
        situation_jit(
            v, tables, lists, hands[s], upcards[s], options, fees, forced, False, out[s], work
        )


@njit(cache=True)
def draw_bits_jit(hands):
    """The draws each row of five cards holds (``_strategy.draws_jit``'s bits)."""
    bits = np.empty(hands.shape[0], dtype=np.int64)
    for s in range(hands.shape[0]):
        bits[s] = draws_jit(hands[s])
    return bits


@njit(cache=True, parallel=True)
def after_buy_evs_jit(v, tables, lists, hands, upcards, replace_fee, sixes, out):
    """For each situation (five increasing cards, upcard) and each card it may buy (the
    unseen cards, increasing): the six cards (``sixes[s, c]``: the five, then the one
    bought) and the exact EV of each choice after the buy, its fee aside
    (``out[s, c]``: fold, bet, then replacing the card at position 0..5, fee included,
    the decision after it exact; NaN where no card may be replaced)."""
    n_grid = tables[4].shape[0]
    for s in prange(hands.shape[0]):
        unseen, g0, rank2, ranks3, ranks4, vals5, g1grid = _work(0, n_grid)[:7]
        hand, upcard = hands[s].copy(), upcards[s]
        _fill_unseen(hand, upcard, unseen)
        _setup(tables, lists, hand, upcard, unseen, g0, rank2, ranks3, ranks4, vals5, g1grid)
        sit = (g0, rank2, ranks3, ranks4, vals5, g1grid, tables, lists, hand, upcard, unseen)
        counts = np.empty(4, dtype=np.int64)
        for c in range(unseen.shape[0]):
            six = sixes[s, c]
            six[:5] = hand
            six[5] = unseen[c]
            out[s, c, 0] = -1.0
            out[s, c, 1] = _drawn_ev(v, sit, c, -1, six, _value6(six), True, counts)
            for position in range(6):
                out[s, c, 2 + position] = (
                    np.nan
                    if np.isnan(replace_fee)
                    else _replace_exact(v, sit, c, position) - replace_fee
                )


@njit(cache=True)
def chosen_options_jit(rules, point, hands, upcards, options, not_applied):
    """Per situation, the index of the option (rows of kind, cards kept) the rules
    choose at ``point``, or -1 where they return ``not_applied``."""
    chosen = np.full(hands.shape[0], -1, dtype=np.int64)
    every_card = (1 << hands.shape[1]) - 1
    for s in range(hands.shape[0]):
        action, kept = decide_jit(rules, point, hands[s], upcards[s], 0)
        if action == not_applied:
            continue
        if action != Action.EXCHANGE and action != Action.REPLACE:
            kept = every_card
        for o in range(options.shape[0]):
            if options[o, 0] == action and options[o, 1] == kept:
                chosen[s] = o
    return chosen


@njit(cache=True, parallel=True)
def proxy_exchange_evs_jit(proxy, hands, upcards, rank, options, kept, out):
    """``out[s, j]``: the proxy's EV (fee included) of keeping the cards ``kept[j]`` (a
    mask of positions) of each situation (five increasing cards, upcard) whose upcard has
    ``rank``; the other rows are left alone. ``proxy``, ``options``: as
    ``_proxy.situation_proxy_jit`` reads them, for an upcard of ``rank`` and suit 0."""
    for s in prange(hands.shape[0]):
        suit = upcards[s] & 3
        if upcards[s] >> 2 != rank:
            continue
        means, removed = np.empty((TABLES, 32)), np.empty((3, 32))
        values, hand = np.empty(32), np.empty(5, dtype=np.int64)
        relabelled_jit(hands[s], suit, hand)
        exchange_values_jit(proxy, hand, 4 * rank, options, means, removed, values)
        moved = np.empty(5, dtype=np.int64)  # each card's position once relabelled
        for i in range(5):
            own = hands[s, i] & 3
            card = hands[s, i] - own + (suit if own == 0 else 0 if own == suit else own)
            moved[i] = np.searchsorted(hand, card)
        for j in range(kept.shape[0]):
            mask = 0
            for i in range(5):
                if (kept[j] >> i) & 1:
                    mask |= 1 << moved[i]
            out[s, j] = values[mask]
