"""Situations dealt at random in a game with draws, every first option of each weighed:
exactly, but exchanges of more than ``SHORT_DRAWS`` cards (Russian, 6 Card Poker 1-2-5,
oasis-classic), weighed by the proxy of the sampled optimum. The rule strategies of
``derive_draws`` are grown on them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _derive as kernels
from ._tables import cached_arrays
from .codes import Action
from .exact import first_options, value_lists
from .optimal_game import situation_tables
from .optimal_sampled import SHORT_DRAWS
from .proxy import THROWN, option_arrays, rank_tables
from .variant import Variant

__all__ = ["Situations", "sampled_situations", "weighed_situations"]

SOURCES = (
    "derive_situations.py", "_derive.py", "_situation.py", "_exact.py", "_evaluator.py",
    "_tables.py", "_settlement.py", "codes.py", "exact.py", "optimal_game.py", "_proxy.py",
    "proxy.py",
)  # fmt: skip
"""The sources that weigh the sampled situations' options."""


@dataclass(frozen=True)
class Situations:
    """Situations dealt at random: five increasing cards, the upcard, every first
    option's exact EV (``first_options`` order)."""

    hands: np.ndarray
    upcards: np.ndarray
    evs: np.ndarray
    seed: int

    def split(self, rows: int) -> tuple[Situations, Situations]:
        """The first ``rows`` situations, and the others."""
        first, rest = (
            Situations(self.hands[part], self.upcards[part], self.evs[part], self.seed)
            for part in (slice(None, rows), slice(rows, None))
        )
        return first, rest


def sampled_situations(
    variant: Variant, samples: int, seed: int, progress: Callable[[int, int], None] | None = None
) -> Situations:
    """``samples`` situations dealt by ``seed`` (the first n of them the same for any
    larger ``samples``), weighed by ``weighed_situations``; kept in the cache (Russian:
    about 30 minutes for 20,000), so growing other rules on the same situations is
    quick."""

    def weighed() -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        deals = np.argsort(rng.random((samples, 52)), axis=1)[:, :6]
        hands = np.sort(deals[:, :5], axis=1).astype(np.int64)
        upcards = deals[:, 5].astype(np.int64)
        evs = weighed_situations(variant, hands, upcards, seed, progress).evs
        return {"hands": hands, "upcards": upcards, "evs": evs}

    name = f"situations-{variant.rules_hash[:16]}-{samples}-{seed}"
    saved = cached_arrays(name, weighed, SOURCES)
    return Situations(saved["hands"], saved["upcards"], saved["evs"], seed)


def weighed_situations(
    variant: Variant,
    hands: np.ndarray,
    upcards: np.ndarray,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> Situations:
    """The situations (five increasing cards, upcard), each option weighed exactly, but
    where the game exchanges more than ``SHORT_DRAWS`` cards: those exchanges are weighed
    by the proxy (``proxy``: every final hand's value, the discards' removal to first
    order), one upcard rank at a time (``progress``: called with the ranks done and 13)."""
    options = first_options(variant)[0]
    long = _long_exchanges(options)
    fees, forced = variant.draw_arrays()
    lists = value_lists()
    evs = np.empty((len(hands), len(options)))
    short_evs = np.empty((len(hands), int((~long).sum())))
    kernels.option_evs_jit(
        variant.arrays(), situation_tables(lists, variant.arrays()), lists, hands, upcards,
        options[~long], fees, forced, short_evs,
    )  # fmt: skip
    evs[:, ~long] = short_evs
    if long.any():
        long_evs = np.full((len(hands), int(long.sum())), np.nan)
        arrays = option_arrays(variant, SHORT_DRAWS)
        for rank in range(13):
            if np.any(upcards >> 2 == rank):
                kernels.proxy_exchange_evs_jit(
                    rank_tables(variant, rank, SHORT_DRAWS), hands, upcards, rank, arrays,
                    options[long, 1], long_evs,
                )  # fmt: skip
            if progress:
                progress(rank + 1, 13)
        evs[:, long] = long_evs
    return Situations(hands, upcards, evs, seed)


def _long_exchanges(options: np.ndarray) -> np.ndarray:
    """Which first options (rows of kind, cards kept) throw more than ``SHORT_DRAWS``."""
    return (options[:, 0] == Action.EXCHANGE) & (THROWN[options[:, 1]] > SHORT_DRAWS)
