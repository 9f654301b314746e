"""What the engine reads to play exactly: the best first option of a situation from
the table of the whole game or the memo, the choice after a buy from the table of
after-buy choices, and the best first option when other boxes' cards are seen.

A situation is keyed by the class of the player's five cards under relabelling of
suits and the upcard relabelled the same way (``class * 52 + upcard``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ._decisions import cards_in_jit, option_ev_jit
from ._exact import set_rank_jit, situation_tables_serial_jit, sort_into_jit, thrown_count_jit
from ._situation import UNSEEN, _work, play_after_draw_jit, situation_jit
from .codes import Action

AFTER_BUY_FOLD, AFTER_BUY_PLAY, AFTER_BUY_REPLACE = 0, 1, 2
"""Codes of the choice after a buy: fold, bet, or replace (``AFTER_BUY_REPLACE`` plus
the position replaced: 0-4 the class's hand, increasing, 5 the bought card)."""


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
    buy_keys: np.ndarray
    """The situations whose best first option in ``table`` is the buy, increasing, where
    the choices after a buy are tabulated (else empty)."""
    after_buy: np.ndarray
    """The choice after each bought card (``AFTER_BUY_*``), a row per ``buy_keys``."""
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
    first_actions: np.ndarray
    """A rule strategy's first decision by the value of the five cards and the upcard's
    rank, where its rules need no more of the cards (``_strategy.first_actions_jit``);
    else empty."""


def exact_options(x: ExactDecisions) -> ExactDecisions | None:
    """``x`` where it holds first options (the engine then decides exactly), else None: the
    engine compiled for None leaves the exact decisions out (about half its compile)."""
    return x if x.options.shape[0] else None


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
        *no_after_buy(),
        empty,
        empty,
        empty,
        empty,
        *no_situation_tables(),
        np.zeros((0, 13), dtype=np.int8),
    )


def no_after_buy() -> tuple:
    """No table of choices after a buy (the fields ``buy_keys`` and ``after_buy``)."""
    return np.zeros(0, dtype=np.int64), np.zeros((0, UNSEEN), dtype=np.uint8)


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
    positions = _class_positions(_class_image(x.perms, p, hand))
    kept = 0
    for j in range(5):
        if (keep >> positions[j]) & 1:
            kept |= 1 << j
    return kind, kept


@njit(cache=True)
def _class_image(perms, p, cards):
    """The cards relabelled by the suit relabelling ``p`` (to the class's suits)."""
    image = np.empty(cards.shape[0], dtype=np.int64)
    for j in range(cards.shape[0]):
        image[j] = (cards[j] & ~3) | perms[p, cards[j] & 3]
    return image


@njit(cache=True)
def _class_positions(image):
    """The position of each of the first five of ``image`` in the class's hand (its
    five cards increasing)."""
    positions = np.zeros(5, dtype=np.int64)
    for j in range(5):
        for other in range(5):
            positions[j] += image[other] < image[j]
    return positions


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


@njit(cache=True, parallel=True)
def after_buy_rows_jit(v, tables, lists, reps, keys, buy, fees, forced, out):
    """out[i, s]: the choice (``AFTER_BUY_*``) after buying the s-th card unseen in the
    situation keys[i], whose best first option is the buy (``buy``: its row of the first
    options), as the situation kernels make it; ``tables``: theirs."""
    for i in prange(keys.shape[0]):
        hand, upcard = reps[keys[i] // 52], keys[i] % 52
        work = _work(1, tables[4].shape[0])
        situation_jit(v, tables, lists, hand, upcard, buy, fees, forced, True, np.empty(1), work)
        unseen, replaced = work[0], work[-1]
        six = np.empty(6, dtype=np.int64)
        six[:5] = hand
        for s in range(UNSEEN):
            if replaced[s] >= 0:
                out[i, s] = AFTER_BUY_REPLACE + replaced[s]
                continue
            six[5] = unseen[s]
            seen = np.int64(0)
            for card in six:
                seen |= np.int64(1) << card
            play = play_after_draw_jit(v, tables, lists, six, upcard, seen) == Action.PLAY
            out[i, s] = AFTER_BUY_PLAY if play else AFTER_BUY_FOLD


@njit(cache=True)
def table_after_buy_jit(x, six, upcard):
    """(action, cards kept) after buying six[5] to the dealt six[:5], from the table of
    choices after a buy of ExactDecisions ``x``; (-1, 0) where the situation is not in
    it."""
    key, p = situation_key_jit(x.class_of, x.perm_of, x.perms, six[:5], upcard)
    row = np.searchsorted(x.buy_keys, key)
    if row == x.buy_keys.shape[0] or x.buy_keys[row] != key:
        return -1, 0
    image = _class_image(x.perms, p, six)
    bought = image[5] - ((key % 52) < image[5])  # its index among the unseen cards
    for j in range(5):
        bought -= image[j] < image[5]
    code = x.after_buy[row, bought]
    if code == AFTER_BUY_FOLD:
        return Action.FOLD, 63
    if code == AFTER_BUY_PLAY:
        return Action.PLAY, 63
    position = code - AFTER_BUY_REPLACE  # in the class's hand, then the bought card
    replaced = 5 if position == 5 else np.argmax(_class_positions(image) == position)
    return Action.REPLACE, 63 & ~(1 << replaced)
