"""Situations dealt at random in a game with draws, every first option of each weighed:
exactly, but exchanges of more than ``SHORT_DRAWS`` cards (Russian, 6 Card Poker 1-2-5,
oasis-classic), weighed by the control of the sampled optimum (``proxy``: the proxy
with the discards' removal ramped past the fold line). The rule strategies of
``derive_draws`` are grown on them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import _derive as kernels
from ._io import read_keyed_npz, write_npz
from ._tables import cache_dir, cached_arrays, source_hash
from .codes import Action
from .exact import first_options, value_lists
from .optimal_game import situation_tables
from .optimal_sampled import SHORT_DRAWS
from .proxy import RAMP, THROWN, option_arrays, rank_tables
from .variant import Variant

__all__ = [
    "Situations",
    "control_option_evs",
    "exact_option_evs",
    "sampled_situations",
    "weighed_situations",
]

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


WEIGHED_ROWS = 500
"""Situations weighed exactly between two checkpoints (about 40 s in Russian)."""


def sampled_situations(
    variant: Variant,
    samples: int,
    seed: int,
    progress: Callable[[str, int, int], None] | None = None,
    checkpoint: Path | None = None,
) -> Situations:
    """``samples`` situations dealt by ``seed`` (the first n of them the same for any
    larger ``samples``), weighed by ``weighed_situations``; kept in the cache (Russian:
    about an hour for 40,000), so growing other rules on the same situations is quick.

    Weighed in parts, each kept as it finishes in a checkpoint (at ``checkpoint``, else
    in the cache) that a run of the same situations resumes from either place, with the
    same figures; removed once all are weighed. ``progress(stage, done, total)``: the
    exact options by situations, then the control by upcard ranks."""
    name = f"situations-{variant.rules_hash[:16]}-{samples}-{seed}"
    key = f"{name}-{source_hash(*SOURCES)}"
    cached = cache_dir() / f"{key}-checkpoint.npz"  # a run without a checkpoint of its own
    checkpoints = [checkpoint, cached] if checkpoint else [cached]

    def weighed() -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        deals = np.argsort(rng.random((samples, 52)), axis=1)[:, :6]
        hands = np.sort(deals[:, :5], axis=1).astype(np.int64)
        upcards = deals[:, 5].astype(np.int64)
        evs = _weighed_in_parts(variant, hands, upcards, key, checkpoints, progress)
        return {"hands": hands, "upcards": upcards, "evs": evs}

    saved = cached_arrays(name, weighed, SOURCES)
    for path in checkpoints:
        path.unlink(missing_ok=True)
    return Situations(saved["hands"], saved["upcards"], saved["evs"], seed)


def _weighed_in_parts(variant, hands, upcards, key, checkpoints, progress) -> np.ndarray:
    """Every option's EV of each situation (``weighed_situations``): the exact ones
    ``WEIGHED_ROWS`` situations at a time, then the control's one upcard rank at a time,
    each part written to the first of ``checkpoints`` as it finishes, resumed from the
    most advanced of them."""
    long = _long_exchanges(first_options(variant)[0])
    found = [saved for path in checkpoints if (saved := read_keyed_npz(path, key)) is not None]
    if found:
        state = max(found, key=lambda saved: (saved["rows"], saved["ranks"].sum()))
        evs, rows, ranks = state["evs"], int(state["rows"]), state["ranks"]
    else:
        evs, rows, ranks = np.full((len(hands), len(long)), np.nan), 0, np.zeros(13, bool)

    def keep() -> None:
        if not checkpoints:
            return
        try:
            write_npz(checkpoints[0], key=key, evs=evs, rows=rows, ranks=ranks)
        except OSError:
            if checkpoints[0].parent != cache_dir():  # the cache's is kept where it can be
                raise

    while rows < len(hands):
        part = slice(rows, min(rows + WEIGHED_ROWS, len(hands)))
        evs[part, ~long] = exact_option_evs(variant, hands[part], upcards[part])
        rows = part.stop
        keep()
        if progress:
            progress("exact options, situations", rows, len(hands))
    if long.any():
        for rank in range(13):
            if not ranks[rank]:
                control_option_evs(variant, hands, upcards, rank, evs)
                ranks[rank] = True
                keep()
            if progress:
                progress("control, upcard ranks", rank + 1, 13)
    return evs


def weighed_situations(
    variant: Variant,
    hands: np.ndarray,
    upcards: np.ndarray,
    seed: int,
    progress: Callable[[str, int, int], None] | None = None,
) -> Situations:
    """The situations (five increasing cards, upcard), each option weighed exactly, but
    where the game exchanges more than ``SHORT_DRAWS`` cards: those exchanges are weighed
    by the control (``proxy``: every final hand's value, the discards' removal to first
    order, ramped below the fold line); ``progress`` as ``sampled_situations``'s."""
    evs = _weighed_in_parts(variant, hands, upcards, "", [], progress)
    return Situations(hands, upcards, evs, seed)


def exact_option_evs(variant: Variant, hands: np.ndarray, upcards: np.ndarray) -> np.ndarray:
    """Each situation's exact EV of every first option but the exchanges of more than
    ``SHORT_DRAWS`` cards (columns in ``first_options`` order, those left out)."""
    options = first_options(variant)[0]
    short = options[~_long_exchanges(options)]
    fees, forced = variant.draw_arrays()
    lists = value_lists()
    evs = np.empty((len(hands), len(short)))
    kernels.option_evs_jit(
        variant.arrays(), situation_tables(lists, variant.arrays()), lists, hands, upcards,
        short, fees, forced, evs,
    )  # fmt: skip
    return evs


def control_option_evs(
    variant: Variant, hands: np.ndarray, upcards: np.ndarray, rank: int, evs: np.ndarray
) -> None:
    """Into ``evs`` (columns in ``first_options`` order), the control's EVs of the
    exchanges of more than ``SHORT_DRAWS`` cards of the situations whose upcard has
    ``rank``."""
    options = first_options(variant)[0]
    long = _long_exchanges(options)
    rows = upcards >> 2 == rank
    if not rows.any():
        return
    long_evs = np.full((int(rows.sum()), int(long.sum())), np.nan)
    kernels.proxy_exchange_evs_jit(
        rank_tables(variant, rank, SHORT_DRAWS, RAMP), hands[rows], upcards[rows], rank,
        option_arrays(variant, SHORT_DRAWS), options[long, 1], long_evs,
    )  # fmt: skip
    evs[np.ix_(rows, long)] = long_evs


def _long_exchanges(options: np.ndarray) -> np.ndarray:
    """Which first options (rows of kind, cards kept) throw more than ``SHORT_DRAWS``."""
    return (options[:, 0] == Action.EXCHANGE) & (THROWN[options[:, 1]] > SHORT_DRAWS)
