"""The ``optimal`` strategy: every decision exact.

In a variant without draws the decision is fold or bet, tabulated once for
every class of five cards and upcard by the full-game analysis. With draws,
where the whole game was weighed (Oasis, Six-Card), the best first option of
each situation is read from its table, and the choice after each card bought
from the table of choices after a buy; elsewhere the best first option of a
situation is computed when a simulation first meets it and kept in a memo on
disk. The other decisions after a buy or a draw are computed exactly as the
round is played.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numba
import numpy as np

from . import _engine as engine
from . import _exact as kernels
from . import _situation as situation_kernels
from ._decisions import best_options_jit
from ._exact_play import ExactDecisions, no_after_buy, no_situation_tables
from ._io import write_npz
from ._tables import cache_dir, source_hash
from .codes import GameMode
from .exact import (
    NO_DRAWS,
    first_options,
    hand_classes,
    needs_pair_tables,
    no_draw_plays,
    value_lists,
)
from .optimal_game import (
    DECISION_SOURCES,
    optimal_after_buy,
    optimal_table,
    situation_tables,
    supports_exact_draws,
)
from .strategy import Strategy, StrategyKind
from .variant import Variant, load_variant

__all__ = ["OptimalPlay", "hand_class_maps", "optimal_strategy"]

OPTIMAL_VERSION = 3
_CLASS_MAPS = None


def hand_class_maps() -> tuple[np.ndarray, ...]:
    """(one hand of each suit-symmetry class, the class of each five-card hand by colex
    rank, the suit relabelling to its class's hand, the relabellings), computed once
    per process (about a second)."""
    global _CLASS_MAPS
    if _CLASS_MAPS is None:
        reps, _ = hand_classes()
        class_of, perm_of = kernels.hand_classes_jit(reps)
        _CLASS_MAPS = reps, class_of, perm_of, kernels.suit_permutations_jit()
    return _CLASS_MAPS


def _cache_name(kind: str, variant: Variant) -> str:
    return f"optimal-{kind}-v{OPTIMAL_VERSION}-{variant.name}-{variant.rules_hash[:16]}"


class OptimalPlay:
    """The optimal strategy's decisions as the engine reads them: with draws, the table
    of every situation's best first option where the whole game was weighed (shipped,
    or made by ``studsim exact``), else the memo."""

    def __init__(
        self,
        variant: Variant,
        draws: bool = True,
        memo_folder: Path | None = None,
        table: bool = True,
    ):
        self.variant = variant
        self.draws = draws and variant.has_draws
        self.options = first_options(variant)[0]
        self.table = optimal_table(variant) if self.draws and table else None
        self.after_buy = optimal_after_buy(variant) if self.table is not None else None
        memo = f"{_cache_name('memo', variant)}-{source_hash(*DECISION_SOURCES)}.npz"
        self.path = (memo_folder or cache_dir()) / memo
        self.keys, self.choices, self.evs = self._load()
        self.computed = 0  # situations this process added to the memo
        self.memoized = self.draws and self.table is None
        self._plays = None  # the fold-or-bet table, without draws

    def __reduce__(self):
        """Sent to another process as how to build it there (from that process's tables
        and memo), not as its tables."""
        return OptimalPlay, (self.variant, self.draws, None, self.table is not None)

    def decisions(
        self,
        key: np.uint64,
        start: int,
        stop: int,
        progress: Callable[[int, int], None] | None = None,
        boxes: int = 1,
        open_boxes: int = 1,
    ) -> ExactDecisions:
        """The decisions for rounds ``start .. stop`` of the seed ``key`` (rounds of
        ``boxes`` boxes, the first ``open_boxes`` decided): with draws, the memo after
        adding the situation of every open box of those rounds (``progress`` is called
        with how many were added so far and how many are to add)."""
        _, class_of, perm_of, perms = hand_class_maps()
        if not self.draws:
            if self._plays is None:
                self._plays = no_draw_plays(self.variant)
            return self._arrays(self._plays, class_of, perm_of, perms, np.zeros((0, 2), np.int64))
        if self.table is None:
            keys = engine.situation_keys_jit(
                key, start, stop, boxes, open_boxes, class_of, perm_of, perms
            )
            self.cover(keys, progress)
        return self._arrays(np.zeros((0, 52), np.bool_), class_of, perm_of, perms, self.options)

    def _arrays(self, plays, class_of, perm_of, perms, options) -> ExactDecisions:
        lists = value_lists() if self.draws else (np.zeros((0, 0), np.uint16),) * 4
        table = self.table if self.table is not None else np.zeros((0, 52), np.uint8)
        tables = no_situation_tables()
        if self.draws and supports_exact_draws(self.variant):
            tables = situation_tables(value_lists(), self.variant.arrays())
        after_buy = self.after_buy or no_after_buy()
        return ExactDecisions(
            plays, class_of, perm_of, perms, self.keys, self.choices, options, table,
            *after_buy, *lists, *tables, np.zeros((0, 13), np.int8),
        )  # fmt: skip

    def cover(self, keys: np.ndarray, progress: Callable[[int, int], None] | None = None) -> None:
        """Add the best first option of each situation of ``keys`` not yet in the memo;
        saved to disk at the end, and on an interruption with what was done."""
        keys = np.unique(keys)
        missing = keys[~np.isin(keys, self.keys)]
        if not len(missing):
            return
        reps = hand_class_maps()[0]
        fees, forced = self.variant.draw_arrays()
        found = np.zeros(len(missing), dtype=np.int64)
        evs = np.zeros(len(missing))
        done = 0
        batch = 16 * numba.get_num_threads()
        best_options = self._best_options_kernel()
        try:
            while done < len(missing):
                part = missing[done : done + batch]
                best_options(
                    reps[part // 52],
                    part % 52,
                    self.options,
                    fees,
                    forced,
                    found[done : done + len(part)],
                    evs[done : done + len(part)],
                )
                done += len(part)
                if progress:
                    progress(done, len(missing))
        finally:
            self._merge(missing[:done], found[:done], evs[:done])
            self.computed += done
            self.save()

    def _best_options_kernel(self) -> Callable:
        """The kernel giving situations' best options: the pruned one where at most two
        cards are drawn, else every option counted."""
        v, lists = self.variant.arrays(), value_lists()
        if supports_exact_draws(self.variant):
            tables = situation_tables(lists, v)
            return partial(situation_kernels.best_options_jit, v, tables, lists)
        pairs = needs_pair_tables(self.variant)

        def every_option(hands, upcards, options, fees, forced, out, evs):
            best_options_jit(v, lists, hands, upcards, options, fees, forced, pairs, out, evs)

        return every_option

    def expected_values(self, keys: np.ndarray) -> np.ndarray:
        """The exact EV, in antes, of the best first option of each situation of ``keys``
        (all in the memo): the expected net of a round dealt it, the dealer's game never
        bought and the bonus aside."""
        return self.evs[np.searchsorted(self.keys, keys)]

    def _merge(self, keys: np.ndarray, choices: np.ndarray, evs: np.ndarray) -> None:
        all_keys = np.concatenate([self.keys, keys])
        order = np.argsort(all_keys, kind="stable")
        all_keys = all_keys[order]
        first = np.ones(len(all_keys), dtype=bool)
        first[1:] = all_keys[1:] != all_keys[:-1]
        self.keys = all_keys[first]
        self.choices = np.concatenate([self.choices, choices])[order][first]
        self.evs = np.concatenate([self.evs, evs])[order][first]

    def _load(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        try:
            with np.load(self.path) as saved:
                return saved["keys"], saved["choices"], saved["evs"]
        except (OSError, ValueError, KeyError):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)

    def save(self) -> None:
        """Write the memo, with what another process saved meanwhile, atomically (a
        read-only cache folder only loses the memo)."""
        self._merge(*self._load())
        with contextlib.suppress(OSError):
            write_npz(
                self.path, compress=False, keys=self.keys, choices=self.choices, evs=self.evs
            )


OPTIMAL_DESCRIPTION = (
    "Every decision exact (every dealer hand and every draw counted, with the removal of "
    "every card the player has seen): on the dealt cards the option worth most; after a buy "
    "or a draw, fold, play or replace, whichever is worth most; buy the dealer a game "
    "exactly when worth it, where offered."
)


NO_DRAWS_DESCRIPTION = (
    "Bet exactly when betting the dealt cards is worth more than folding (every dealer hand "
    "counted); no draws; buy the dealer a game exactly when worth it, where offered."
)


def optimal_strategy(
    variant: Variant | str,
    draws: bool = True,
    memo_folder: Path | None = None,
    table: bool = True,
) -> Strategy:
    """The strategy whose every decision is exact, for the simulator to play; without
    ``draws``, the best play that never buys or exchanges cards (``optimal-no-draws``).
    With draws it reads the table of best first options where there is one (unless not
    ``table``), else a memo of situations kept in ``memo_folder`` (default: the cache
    folder)."""
    variant = load_variant(variant)
    play = OptimalPlay(variant, draws, memo_folder, table)
    name = "optimal" if draws or not variant.has_draws else NO_DRAWS
    method = "exact fold or bet per hand class and upcard"
    if play.draws:
        method = (
            "best first option per situation ("
            + ("from the table of the whole game" if play.table is not None else "memoized")
            + " by suit class), exact decisions after draws"
        )
    data = {
        "name": name,
        "variant": variant.name,
        "buy_game_decision": "exact" if variant.buy_game else "never",
        "method": method,
    }
    return Strategy(
        name=name,
        variant=variant.name,
        description=OPTIMAL_DESCRIPTION if play.draws else NO_DRAWS_DESCRIPTION,
        file="(computed)",
        kind=StrategyKind.TABLE,
        game_mode=GameMode.EXACT if variant.buy_game else GameMode.NEVER,
        data=data,
        exact_play=play,
    )
