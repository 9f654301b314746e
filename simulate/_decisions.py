"""numba kernels of exact decisions: the EV of every first option of a situation, the
best of them for many situations at once, and the choices the engine makes exactly
after a buy or a draw.

A first option is a row (kind, cards kept): fold, play, buy a sixth card, or
exchange the cards outside the kept mask. A situation is keyed by the class of
the player's five cards under relabelling of suits and the upcard relabelled
the same way (``class * 52 + upcard``); its best option is the first of the
highest EV, computed on one thread, so it is the same however situations are
shared out.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ._exact import (
    after_draw_ev_jit,
    buy_ev_jit,
    exchange_ev_jit,
    exchange_part_jit,
    replace_evs_jit,
    set_rank_jit,
    situation_tables_serial_jit,
    sort_into_jit,
    thrown_count_jit,
    unseen_jit,
)
from .codes import Action, Fee


class ExactDecisions(NamedTuple):
    """What the engine reads to play exactly; empty arrays where not used."""

    plays: np.ndarray
    """Whether to bet, by class of five cards and upcard (variants without draws)."""
    class_of: np.ndarray
    perm_of: np.ndarray
    perms: np.ndarray
    keys: np.ndarray
    """The situations whose best first option is known, increasing."""
    choices: np.ndarray
    """The best first option of each, an index into ``options``."""
    options: np.ndarray
    """The first options: (kind, mask of the cards kept, by position in the class's hand)."""
    table: np.ndarray
    """The best first option of every situation, by class and upcard, where the whole
    game was weighed (then ``keys`` and ``choices`` are not read)."""
    values1: np.ndarray
    """The sorted value lists of the exact engine (``lists``), for the choices after a
    draw, one field each (numba's parallel kernels take no tuple inside a tuple)."""
    values2: np.ndarray
    values3: np.ndarray
    values4: np.ndarray
    cum1: np.ndarray
    """The tables of the situation kernels (``_situation.build_tables``), one field each,
    where they decide after a buy; else empty."""
    cum2: np.ndarray
    grid3: np.ndarray
    grid4: np.ndarray
    grid: np.ndarray
    grid_low: np.ndarray
    grid_high: np.ndarray
    qualifier_on_grid: int
    win_of: np.ndarray


def no_decisions() -> ExactDecisions:
    """The empty ExactDecisions of a rule strategy."""
    empty = np.zeros((0, 0), dtype=np.uint16)
    return ExactDecisions(
        np.zeros((0, 52), dtype=np.bool_),
        np.zeros(0, dtype=np.int32),
        np.zeros(0, dtype=np.int8),
        np.zeros((0, 4), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros((0, 2), dtype=np.int64),
        np.zeros((0, 52), dtype=np.uint8),
        empty,
        empty,
        empty,
        empty,
        *no_situation_tables(),
    )


def no_situation_tables() -> tuple:
    """Empty situation tables (the fields of ExactDecisions from ``cum1`` on)."""
    return (
        np.zeros((0, 0), dtype=np.int32),
        np.zeros((0, 0), dtype=np.uint16),
        np.zeros((0, 0), dtype=np.uint16),
        np.zeros((0, 0), dtype=np.uint8),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        0,
        np.zeros(0),
    )


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
def best_option_seeing_jit(v, x, hand, upcard, seen_mask, draw_fees, forced):
    """(action, mask of the positions of ``hand`` kept) of the situation's best first
    option when the player has also seen other cards (``seen_mask``: every card seen but
    the upcard, the hand's included), all dead: every option computed exactly, the first
    of the highest EV chosen, as in the memo."""
    order = np.argsort(hand)
    ordered = hand[order]
    dead = np.empty(52, dtype=np.int64)
    n_dead = cards_in_jit(seen_mask, dead)
    unseen = np.empty(52, dtype=np.int64)
    m = cards_in_jit(((np.int64(1) << 52) - 1) & ~seen_mask & ~(np.int64(1) << upcard), unseen)
    pairs = False
    for i in range(x.options.shape[0]):
        pairs |= x.options[i, 0] == Action.EXCHANGE and thrown_count_jit(x.options[i, 1]) >= 3
    lists = lists_of_jit(x)
    tables = situation_tables_serial_jit(lists, upcard, dead[:n_dead], unseen[:m], pairs)
    best, choice = -np.inf, 0
    for i in range(x.options.shape[0]):
        kind, keep = x.options[i, 0], x.options[i, 1]
        ev = option_ev_jit(
            v, tables, lists, ordered, upcard, unseen[:m], kind, keep, draw_fees, forced
        )
        if ev > best:
            best, choice = ev, i
    keep = x.options[choice, 1]
    kept = 0
    for position in range(5):
        if (keep >> position) & 1:
            kept |= 1 << order[position]
    return x.options[choice, 0], kept


@njit(cache=True)
def situation_key_jit(class_of, perm_of, perms, hand, upcard):
    """(key of the situation, the suit relabelling that maps the hand to its class's)."""
    ordered = np.empty(5, dtype=np.int64)
    sort_into_jit(hand, 5, ordered)
    rank = set_rank_jit(ordered, 5)
    p = perm_of[rank]
    return np.int64(class_of[rank]) * 52 + ((upcard & ~3) | perms[p, upcard & 3]), p


@njit(cache=True)
def table_bet_jit(x, hand, upcard):
    """Whether betting the five cards against the upcard is right, by the fold-or-bet
    table of ``x`` (ExactDecisions)."""
    key = situation_key_jit(x.class_of, x.perm_of, x.perms, hand, upcard)[0]
    return x.plays[key // 52, key % 52]


@njit(cache=True)
def memo_choice_jit(x, hand, upcard):
    """(action, mask of the positions of ``hand`` kept) of the situation's best option."""
    key, p = situation_key_jit(x.class_of, x.perm_of, x.perms, hand, upcard)
    if x.table.shape[0]:
        choice = np.int64(x.table[key // 52, key % 52])
    else:
        i = np.searchsorted(x.keys, key)
        if i == x.keys.shape[0] or x.keys[i] != key:
            raise KeyError("a situation missing from the decision memo")
        choice = x.choices[i]
    kind, keep = x.options[choice, 0], x.options[choice, 1]
    image = np.empty(5, dtype=np.int64)
    for j in range(5):
        image[j] = (hand[j] & ~3) | x.perms[p, hand[j] & 3]
    kept = 0
    for j in range(5):
        position = 0  # of this card in the class's (increasing) hand
        for other in range(5):
            position += image[other] < image[j]
        if (keep >> position) & 1:
            kept |= 1 << j
    return kind, kept


@njit(cache=True)
def lists_of_jit(x):
    """The value lists of ExactDecisions ``x`` as the exact kernels take them."""
    return x.values1, x.values2, x.values3, x.values4


@njit(cache=True)
def situation_tables_of_jit(x):
    """The situation kernels' tables of ExactDecisions ``x``."""
    return (
        x.cum1, x.cum2, x.grid3, x.grid4, x.grid, x.grid_low, x.grid_high,
        x.qualifier_on_grid, x.win_of,
    )  # fmt: skip


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
