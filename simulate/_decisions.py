"""numba kernels of exact decisions: the EV of every first option of a situation, the
best of them for many situations at once, and the choices after a buy or a draw.

A first option is a row (kind, cards kept): fold, play, buy a sixth card, or
exchange the cards outside the kept mask. A situation's best option is the first
of the highest EV, computed on one thread, so it is the same however situations
are shared out. These kernels decide the figures the sampled analyses commit
(``optimal_game.DECISION_SOURCES``); how the engine reads decisions is
``_exact_play``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._exact import (
    after_draw_ev_jit,
    buy_ev_jit,
    exchange_ev_jit,
    exchange_part_jit,
    replace_evs_jit,
    situation_tables_serial_jit,
    thrown_count_jit,
    unseen_jit,
)
from .codes import Action, Fee


@njit(cache=True)
def option_ev_jit(v, tables, lists, hand, upcard, unseen, kind, keep, draw_fees, forced):
    """EV, in antes, of one first option (fees included); ``draw_fees``: buy, exchange of
    1..5 cards, replace (NaN: not offered); ``forced``: exchanging i cards forces the BET."""
    if kind == Action.FOLD:
        return -1.0
    if kind == Action.PLAY:
        dead = np.sort(tables[3])  # the hand, and every other card seen
        return after_draw_ev_jit(v, lists, hand, upcard, dead, dead.shape[0], True)
    if kind == Action.BUY:
        ev = buy_ev_jit(v, tables, lists, hand, upcard, unseen, draw_fees[Fee.REPLACE])
        return ev - draw_fees[Fee.BUY]
    thrown = thrown_count_jit(keep)
    ev = exchange_ev_jit(v, tables, lists, hand, keep, upcard, unseen, forced[thrown])
    return ev - draw_fees[thrown]


@njit(cache=True, parallel=True)
def option_evs_jit(v, tables, lists, hand, upcard, unseen, options, draw_fees, forced, out):
    """The EV of every option of one situation, as ``option_ev_jit`` gives it; the work
    shared out among threads by option and, for exchanges, by first card drawn."""
    m = unseen.shape[0]
    n_options = options.shape[0]
    first_unit = np.zeros(n_options + 1, dtype=np.int64)
    for i in range(n_options):
        units = 1
        if options[i, 0] == Action.EXCHANGE:
            units = m - thrown_count_jit(options[i, 1]) + 1
        first_unit[i + 1] = first_unit[i] + units
    sums = np.zeros(first_unit[-1])
    counts = np.zeros(first_unit[-1], dtype=np.int64)
    n_units = first_unit[-1]
    slots = min(n_units, 64)
    for slot in prange(slots):  # units dealt out cyclically: neighbours cost alike
        for unit in range(slot, n_units, slots):
            i = np.searchsorted(first_unit, unit, side="right") - 1
            kind, keep = options[i, 0], options[i, 1]
            if kind == Action.EXCHANGE:
                thrown = thrown_count_jit(keep)
                sums[unit], counts[unit] = exchange_part_jit(
                    v,
                    tables,
                    lists,
                    hand,
                    keep,
                    upcard,
                    unseen,
                    forced[thrown],
                    unit - first_unit[i],
                )
            else:
                sums[unit] = option_ev_jit(
                    v, tables, lists, hand, upcard, unseen, kind, keep, draw_fees, forced
                )
    for i in range(n_options):
        if options[i, 0] != Action.EXCHANGE:
            out[i] = sums[first_unit[i]]
            continue
        total, count = 0.0, 0
        for unit in range(first_unit[i], first_unit[i + 1]):
            total += sums[unit]
            count += counts[unit]
        out[i] = total / count - draw_fees[thrown_count_jit(options[i, 1])]


@njit(cache=True, parallel=True)
def best_options_jit(v, lists, hands, upcards, options, draw_fees, forced, pairs, out, evs):
    """For each situation (five increasing cards, upcard), the index of its best option
    (``out``) and its EV (``evs``); situations shared out among threads, each computed
    on one."""
    for s in prange(hands.shape[0]):
        hand, upcard = hands[s], upcards[s]
        unseen = unseen_jit(hand, upcard)
        tables = situation_tables_serial_jit(lists, upcard, hand, unseen, pairs)
        best, choice = -np.inf, 0
        for i in range(options.shape[0]):
            kind, keep = options[i, 0], options[i, 1]
            ev = option_ev_jit(
                v, tables, lists, hand, upcard, unseen, kind, keep, draw_fees, forced
            )
            if ev > best:
                best, choice = ev, i
        out[s], evs[s] = choice, best


@njit(cache=True)
def cards_in_jit(mask, out):
    """Write the cards of a 52-bit mask to ``out``, increasing; returns how many."""
    n = 0
    for card in range(52):
        if (mask >> card) & 1:
            out[n] = card
            n += 1
    return n


@njit(cache=True)
def after_draw_choice_jit(v, lists, final, upcard, seen_mask):
    """PLAY or FOLD, exactly, for the final hand; the dealer avoids every card the player
    has seen (``seen_mask``: his cards, discards and draws)."""
    dead = np.empty(52, dtype=np.int64)
    n = cards_in_jit(seen_mask, dead)
    ev = after_draw_ev_jit(v, lists, final, upcard, dead, n, True)
    return Action.PLAY if ev > -1.0 else Action.FOLD


@njit(cache=True)
def after_buy_choice_jit(v, lists, six, upcard, dead, replace_fee):
    """(action, kept) after a buy: fold, play or (when ``replace_fee`` is not NaN) replace
    one of the six cards, whichever is worth most; ``dead`` (increasing): every card the
    player has seen but the upcard, the six included."""
    play = after_draw_ev_jit(v, lists, six, upcard, dead, dead.shape[0], True)
    action, kept, best = (Action.PLAY, 63, play) if play > -1.0 else (Action.FOLD, 63, -1.0)
    if np.isnan(replace_fee):
        return action, kept
    replaced = np.empty(6)
    replace_evs_jit(v, lists, six, upcard, dead, replaced)
    for position in range(6):
        if replaced[position] - replace_fee > best:
            best = replaced[position] - replace_fee
            action, kept = Action.REPLACE, 63 & ~(1 << position)
    return action, kept
