"""The whole game under optimal play with draws, exactly.

Every situation (a class of five-card hands under relabelling of suits, and
an upcard) has its first options weighed exactly by ``_situation`` and the
best taken; every later choice (fold or bet after a draw, fold, bet or
replace after a buy) is exact too, with every card the player has seen dead.
The counts of the best options add up, in integers, to the return table.

The classes are worked through in ranges; each finished range is written to
a checkpoint folder at once, so an interrupted run resumes where it stopped.
The finished table of best first options (one byte per situation) is what
the simulator's ``optimal`` reads.
"""

from __future__ import annotations

import filecmp
import functools
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from . import _situation as kernels
from ._exact_play import after_buy_rows_jit
from ._io import read_keyed_npz, read_npz, write_npz
from ._tables import cache_dir, source_hash
from .cluster import current_client, unit_results
from .codes import (
    CATEGORIES,
    DRAW_SLOTS,
    FIRST_DECISIONS,
    PLAIN_OUTCOMES,
    Action,
    Category,
    Decision,
    DrawSlot,
    Outcome,
)
from .exact import NO_DRAWS, ExactResult, first_options, hand_classes, value_lists

__all__ = [
    "OptimalGame",
    "after_buy_table",
    "default_exact_strategy",
    "exact_optimal_game",
    "optimal_after_buy",
    "optimal_result",
    "optimal_result_of_totals",
    "optimal_table",
    "save_table",
    "supports_exact_draws",
]

RANGE_CLASSES = 1024
AFTER_BUY_BLOCK = 4096
"""Situations given their choices after a buy between two progress reports."""
TABLE_VERSION = 1
NOT_DEALT = 255  # the choice where the upcard is one of the hand's cards
DECISION_LABELS = [  # of first decisions, as the return table names them
    {Decision.BUY: "buy, then play or fold", Decision.REPLACE: "buy, then replace"}.get(d, d.label)
    for d in list(Decision)[:FIRST_DECISIONS]
]
_SOURCES = (  # the kernels whose code decides a range of the enumerated game
    "_situation.py",
    "_exact.py",
    "_evaluator.py",
    "_tables.py",
    "_settlement.py",
    "codes.py",
)
DECISION_SOURCES = (  # ... and those deciding any situation's best option
    "_situation.py",
    "_decisions.py",
    "_exact.py",
    "_evaluator.py",
    "_tables.py",
    "_settlement.py",
    "codes.py",
)


def supports_exact_draws(variant) -> bool:
    """Whether the variant has draws and its whole game under optimal play can be
    enumerated here (``enumerable``)."""
    return variant.has_draws and enumerable(variant)


def sampled_optimum(variant) -> bool:
    """Whether optimal play in the variant is known on sampled situations alone: its
    draws reach further than this module enumerates."""
    return variant.has_draws and not enumerable(variant)


def enumerable(variant) -> bool:
    """Whether this module can weigh every deal under optimal play: draws, if any, of at
    most two cards; where a second combination is paid, whole multiples and no card
    replaced after a buy (its bounds know a six-card hand's category pay only)."""
    second = variant.second_combination and (
        variant.replace_fee is not None
        or any(pay != int(pay) for pay in variant.bet_pays.values())
    )
    return max(variant.exchange_fees, default=0) <= 2 and not second


def default_exact_strategy(variant) -> str:
    """What ``studsim exact`` weighs by default: optimal play, with draws where they can
    be enumerated, else the best play without draws."""
    if sampled_optimum(variant):
        return NO_DRAWS
    return "optimal"


_TABLES = {}


def situation_tables(lists, v) -> tuple:
    """The situation kernels' tables for a variant's arrays, built once per process per
    qualifier and pay table (with its second combination, if paid)."""
    key = (v.qualifier, v.ante_pays, v.bet, v.ace_king, v.bet_pays.tobytes(), v.second_combination)
    if key not in _TABLES:
        _TABLES[key] = kernels.build_tables(lists, v)
    return _TABLES[key]


@dataclass
class OptimalGame:
    """The whole game under optimal play with draws."""

    result: ExactResult
    choices: np.ndarray
    """The best first option of every situation: an index into ``first_options``, by
    class of five cards and upcard (``NOT_DEALT`` where the upcard is in the hand)."""
    totals: np.ndarray
    """The counts of every (first decision, outcome, final category) cell, then the sums
    of a second combination's extra multiples (``_situation.SECOND``)."""


class _Inputs:
    """What the kernels read for one variant."""

    def __init__(self, variant):
        self.v = variant.arrays()
        self.lists = value_lists()
        self.tables = situation_tables(self.lists, self.v)
        self.options = first_options(variant)[0]
        self.fees, self.forced = variant.draw_arrays()
        self.factors, self.unit = unit_factors(variant)


def unit_factors(variant) -> tuple[np.ndarray, int]:
    """(factor of each kind of first option, the units of one situation): an option's
    dealer counts times its factor are in units of which a situation holds ``unit``.
    Factors by the cards drawn (slots ``codes.DrawSlot``)."""
    m = kernels.UNSEEN
    deals = {DrawSlot.NONE: math.comb(m, 4)}
    for k in variant.exchange_fees:
        deals[DrawSlot.EXCHANGE_1 + k - 1] = math.comb(m, k) * math.comb(m - k, 4)
    if variant.buy_fee is not None:
        replace = variant.replace_fee is not None
        deals[DrawSlot.BUY] = m * (
            (m - 1) * math.comb(m - 2, 4) if replace else math.comb(m - 1, 4)
        )
    unit = math.lcm(*deals.values())
    factors = np.zeros(DRAW_SLOTS, dtype=np.int64)
    for kind, total in deals.items():
        factors[kind] = unit // total
    return factors, unit


def _range_path(folder: Path, start: int) -> Path:
    return folder / f"range-{start:06d}.npz"


def _range_key(variant) -> str:
    return f"{variant.rules_hash[:16]}-{source_hash(*_SOURCES)}"


def _load_range(path: Path, key: str, rows: int) -> dict | None:
    """A finished range of ``rows`` classes, if the file holds one made by this code for
    these rules (ranges written before their time was kept count 0 seconds)."""
    done = read_keyed_npz(path, key)
    if done is None or len(done["choices"]) != rows:
        return None
    return {"seconds": np.array(0.0)} | done


def exact_optimal_game(
    variant,
    checkpoints: Path,
    *,
    progress: Callable[[int, int], None] | None = None,
    classes: int | None = None,
) -> OptimalGame:
    """Weigh every deal under optimal play with draws. Finished ranges of classes are kept
    in ``checkpoints`` and reused (a run resumes where one stopped); ``progress`` is
    called with the classes done and their number. ``classes``: weigh only the deals
    of the first classes (a partial analysis, for checks)."""
    if not enumerable(variant):
        raise ValueError(
            f"{variant.name}: optimal play is enumerated for draws of at most two cards "
            "(with a second combination: in whole multiples, no card replaced after a buy)"
        )
    seconds = 0.0  # of computing the ranges, over every run that made them
    reps, weights = hand_classes()
    reps, weights = reps[:classes], weights[:classes]
    key = _range_key(variant)
    starts = range(0, len(reps), RANGE_CLASSES)
    ranges = {start: (start, min(start + RANGE_CLASSES, len(reps))) for start in starts}
    finished = {
        start: _load_range(_range_path(checkpoints, start), key, stop - start)
        for start, (_, stop) in ranges.items()
    }
    missing = [ranges[start] for start, done in finished.items() if done is None]
    done_classes = len(reps) - sum(stop - start for start, stop in missing)
    if progress and done_classes:  # resumed
        progress(done_classes, len(reps))
    computed = unit_results(current_client(), _timed_range, missing, variant, in_order=False)
    for i, done in computed:
        start, stop = missing[i]
        write_npz(_range_path(checkpoints, start), key=np.array(key), **done)
        finished[start] = done
        done_classes += stop - start
        if progress:
            progress(done_classes, len(reps))
    choices = np.empty((len(reps), 52), dtype=np.uint8)
    totals = np.zeros(kernels.ROW, dtype=np.int64)
    ev_total = 0.0
    for start, (_, stop) in ranges.items():  # in the ranges' order, wherever computed
        done = finished[start]
        choices[start:stop] = done["choices"]
        totals += done["cells"]
        ev_total += float(done["ev"])
        seconds += float(done["seconds"])
    situations = int(weights.sum()) * 47
    result = _result(variant, totals, situations, unit_factors(variant)[1], seconds)
    mean_ev = ev_total / situations
    if abs(mean_ev - (result.summary["rtp"] - 1)) > 1e-9:  # two paths to the same figure
        raise AssertionError(f"situation EVs average {mean_ev}, the counts give another RTP")
    return OptimalGame(result, choices, totals)


def optimal_result_of_totals(variant, totals: np.ndarray, seconds: float) -> ExactResult:
    """The whole game's figures from its counts (as ``OptimalGame.totals`` holds them)."""
    unit = unit_factors(variant)[1]
    return _result(variant, totals, int(totals[: kernels.CELLS].sum()) // unit, unit, seconds)


_INPUTS: dict[str, _Inputs] = {}
"""This process's inputs, by the rules' hash: built once however many ranges it weighs."""


def _timed_range(variant, unit: tuple[int, int]) -> dict:
    """Weigh the classes ``start .. stop`` of ``unit``, and the seconds it took (the same
    on any process: a cluster's workers build their inputs once)."""
    inputs = _INPUTS.get(variant.rules_hash)
    if inputs is None:
        _INPUTS.clear()  # one variant's at a time
        inputs = _INPUTS[variant.rules_hash] = _Inputs(variant)
    began = time.perf_counter()
    reps, weights = hand_classes()
    start, stop = unit
    done = _compute_range(inputs, reps[start:stop], weights[start:stop])
    done["seconds"] = np.array(time.perf_counter() - began)
    return done


def _compute_range(inputs: _Inputs, reps: np.ndarray, weights: np.ndarray):
    choices = np.empty((len(reps), 52), dtype=np.uint8)
    evs = np.empty((len(reps), 52))
    cells = np.zeros((len(reps), kernels.ROW), dtype=np.int64)
    kernels.game_rows_jit(
        inputs.v,
        inputs.tables,
        inputs.lists,
        reps,
        inputs.options,
        inputs.fees,
        inputs.forced,
        inputs.factors,
        choices,
        evs,
        cells,
    )
    evs = np.where(choices == NOT_DEALT, 0.0, evs)
    cells = (cells * weights[:, None]).sum(axis=0)
    return {"choices": choices, "cells": cells, "ev": np.array(evs.sum(axis=1) @ weights)}


def _cell_nets(variant) -> np.ndarray:
    """Net, in antes, and amount wagered of each cell (decision x outcome x category)."""
    buy = variant.buy_fee or 0.0
    fees = {
        Decision.FOLD: 0.0,
        Decision.PLAY: 0.0,
        Decision.BUY: buy,
        Decision.REPLACE: buy + (variant.replace_fee or 0.0),
    }
    for k, fee in variant.exchange_fees.items():
        fees[Decision.EXCHANGE_1 + k - 1] = fee
    nets = np.zeros((FIRST_DECISIONS, PLAIN_OUTCOMES, CATEGORIES))
    wagers = np.zeros_like(nets)
    for decision, fee in fees.items():
        for category in Category:
            win = variant.ante_pays + variant.bet * variant.bet_pays.get(category, 0)
            outcome_nets = {
                Outcome.FOLD: -1.0,
                Outcome.NO_QUALIFY: variant.ante_pays_no_qualify,
                Outcome.WIN: win,
                Outcome.PUSH: 0.0,
                Outcome.LOSS: -1.0 - variant.bet,
            }
            for outcome, net in outcome_nets.items():
                nets[decision, outcome, category] = net - fee
                bet = 0.0 if outcome == Outcome.FOLD else variant.bet
                wagers[decision, outcome, category] = 1.0 + fee + bet
    return nets.ravel(), wagers.ravel()


def _second_sums(totals: np.ndarray) -> tuple[list[int], list[int]]:
    """The wins' extra multiples from a second combination, by (first decision,
    category): summed and summed squared (none in a table saved without them)."""
    sums = [int(x) for x in totals[kernels.CELLS :]] or [0] * (2 * kernels.SECOND)
    return sums[: kernels.SECOND], sums[kernels.SECOND :]


def _result(variant, totals: np.ndarray, situations: int, unit: int, seconds: float):
    nets, wagers = _cell_nets(variant)
    denominator = situations * unit
    counts = [int(c) for c in totals[: kernels.CELLS]]
    assert sum(counts) == denominator
    net = sum((Fraction(n) * c for n, c in zip(nets, counts, strict=True)), Fraction(0))
    net2 = sum((Fraction(n) ** 2 * c for n, c in zip(nets, counts, strict=True)), Fraction(0))
    extra, extra2 = _second_sums(totals)
    bet = Fraction(variant.bet)
    win_nets = nets.reshape(FIRST_DECISIONS, PLAIN_OUTCOMES, CATEGORIES)[:, Outcome.WIN]
    second_net = {}  # by cell: what the wins' second combinations add
    for index, (s1, s2) in enumerate(zip(extra, extra2, strict=True)):
        if s1:
            decision, category = divmod(index, CATEGORIES)
            win = Fraction(win_nets[decision, category])
            net += bet * s1
            net2 += 2 * win * bet * s1 + bet**2 * s2
            cell = (decision * PLAIN_OUTCOMES + Outcome.WIN) * CATEGORIES + category
            second_net[cell] = bet * s1
    wagered = sum((Fraction(w) * c for w, c in zip(wagers, counts, strict=True)), Fraction(0))
    mean = net / denominator
    average_bet = wagered / denominator
    variance = net2 / denominator - mean**2
    cells = totals[: kernels.CELLS].reshape(FIRST_DECISIONS, PLAIN_OUTCOMES, CATEGORIES)
    by_decision = cells.sum(axis=(1, 2))
    folded = cells[:, Outcome.FOLD, :].sum()
    hits = sum(c for n, c in zip(nets, counts, strict=True) if n > 0)
    summary = {
        "deals": denominator,
        "rtp": float(1 + mean),
        "house_edge": float(-mean),
        "house_edge_fraction": f"{(-mean).numerator}/{(-mean).denominator}",
        "element_of_risk": float(-mean / average_bet),
        "average_total_bet": float(average_bet),
        "standard_deviation": math.sqrt(float(variance)),
        "play_probability": 1 - int(folded) / denominator,
        "hit_frequency": hits / denominator,
        "first_decisions": {
            label: int(count) / denominator
            for label, count in zip(DECISION_LABELS, by_decision, strict=True)
            if count
        },
        "weight_of_a_situation": unit,
    }
    rows = []
    for index, count in enumerate(counts):
        if not count:
            continue
        decision, rest = divmod(index, PLAIN_OUTCOMES * CATEGORIES)
        outcome, category = divmod(rest, CATEGORIES)
        rows.append(
            {
                "decision": DECISION_LABELS[decision],
                "outcome": Outcome(outcome).label,
                "category": Category(category).label,
                "combinations": count,
                "probability": count / denominator,
                "net": float(nets[index] + second_net.get(index, 0) / count),
                "contribution": float(
                    (count * Fraction(nets[index]) + second_net.get(index, 0)) / denominator
                ),
            }
        )
    method = (
        "every deal enumerated with every draw: player hands by suit-symmetry class; for "
        "each class and upcard every first option weighed exactly (fold, play, every "
        "exchange, a bought card and every replacement), the dealer's hands counted by "
        "inclusion-exclusion over the player's cards and draws; the best option taken, "
        "later choices exact; the dealer's game never bought. Combinations are counted in "
        f"units of 1/{unit} of a deal of five cards and an upcard"
    )
    return ExactResult(variant, "optimal", pd.DataFrame(rows), summary, None, seconds, method)


def table_name(variant) -> str:
    """File name of a variant's table of best first options."""
    return f"{variant.name}-optimal-v{TABLE_VERSION}-{variant.rules_hash[:16]}.npz"


def after_buy_table(
    variant, choices: np.ndarray, progress: Callable[[int, int], None] | None = None
) -> np.ndarray:
    """The choice after every card bought (``_exact_play.AFTER_BUY_*``, a column per card
    unseen) in each situation whose best first option (``choices``) is the buy, a row
    each, by increasing situation (class * 52 + upcard); ``progress`` is called with the
    rows done and their number."""
    inputs = _Inputs(variant)
    buy = np.flatnonzero(inputs.options[:, 0] == Action.BUY)
    keys = _buy_keys(choices, buy)
    rows = np.empty((len(keys), kernels.UNSEEN), dtype=np.uint8)
    reps = hand_classes()[0]
    for start in range(0, len(keys), AFTER_BUY_BLOCK):
        part = slice(start, start + AFTER_BUY_BLOCK)
        after_buy_rows_jit(
            inputs.v, inputs.tables, inputs.lists, reps, keys[part], inputs.options[buy],
            inputs.fees, inputs.forced, rows[part],
        )  # fmt: skip
        if progress:
            progress(min(start + AFTER_BUY_BLOCK, len(keys)), len(keys))
    return rows


def _buy_keys(choices: np.ndarray, buy: np.ndarray) -> np.ndarray:
    """The situations (class * 52 + upcard) whose best first option is ``buy`` (its row
    among the first options; none where it is empty), increasing."""
    return np.flatnonzero(choices == buy[0]) if len(buy) else np.zeros(0, dtype=np.int64)


def save_table(
    variant, game: OptimalGame, path: Path | None = None, after_buy: np.ndarray | None = None
) -> Path:
    """Keep the table of best first options, with the counts of the whole game (and the
    choices after a buy, ``after_buy_table``), in the cache (and at ``path``)."""
    unit = game.result.summary["weight_of_a_situation"]
    arrays = {
        "choices": game.choices,
        "totals": game.totals,
        "situations": np.array(game.result.summary["deals"] // unit),
        "unit": np.array(unit),
        "seconds": np.array(game.result.seconds),
    }
    if after_buy is not None:
        arrays["after_buy"] = after_buy
    return keep_arrays(table_name(variant), arrays, path)


def keep_arrays(name: str, arrays: dict, path: Path | None = None) -> Path:
    """Write arrays to the file ``name`` in the cache (and to ``path``); the cache's copy."""
    for target in (cache_dir() / name, path):
        if target is not None:
            write_npz(target, **arrays)
    return cache_dir() / name


def kept_arrays(name: str) -> dict | None:
    """The arrays of the file ``name`` shipped with the package, else kept in the cache;
    None where neither has it. Where both are there and differ, warns (once) that the
    shipped one is read."""
    shipped = resources.files("simulate") / "tables" / name
    for path in (shipped, cache_dir() / name):
        with resources.as_file(path) as real:
            if (saved := read_npz(real)) is not None:
                if path is shipped:
                    _warn_if_cache_differs(name, real)
                return saved
    return None


@functools.cache
def _warn_if_cache_differs(name: str, shipped: Path) -> None:
    cached = cache_dir() / name
    if cached.is_file() and not filecmp.cmp(shipped, cached, shallow=False):
        warnings.warn(
            f"the cache holds another run of {name} than the one shipped with the package, "
            f"which is read ({cached}; to read it, ship it: studsim exact ... --table)",
            stacklevel=3,
        )


def _saved_table(variant) -> dict | None:
    return kept_arrays(table_name(variant))


def optimal_table(variant) -> np.ndarray | None:
    """The best first option of every situation (class x upcard; ``NOT_DEALT`` where the
    upcard is in the hand): shipped with the package, or computed by ``studsim exact``
    into the cache; None where neither has it."""
    saved = _saved_table(variant)
    return None if saved is None else saved["choices"]


def optimal_after_buy(variant) -> tuple[np.ndarray, np.ndarray] | None:
    """(the situations whose best first option is the buy, the choices after each card
    bought there: ``after_buy_table``) from the saved table; None where it has none."""
    saved = _saved_table(variant)
    if saved is None or "after_buy" not in saved:
        return None
    buy = np.flatnonzero(first_options(variant)[0][:, 0] == Action.BUY)
    keys = _buy_keys(saved["choices"], buy)
    if len(keys) != len(saved["after_buy"]):
        raise ValueError(f"{table_name(variant)}: its choices after a buy do not fit its table")
    return keys, saved["after_buy"]


def optimal_result(variant) -> ExactResult | None:
    """The whole game under optimal play with draws, from the saved table's counts (None
    where the game was not weighed)."""
    saved = _saved_table(variant)
    if saved is None:
        return None
    return optimal_result_of_totals(variant, saved["totals"], float(saved["seconds"]))
