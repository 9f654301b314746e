"""A proven bound of what the long exchanges can gain, on every situation of a game.

The interval of the sampled optimum that needs no normal approximation is as wide as
the proven range of what the samples measure. ``proxy`` bounds a long exchange's
final hands with the discards' removal from the dealer's deck at its worst (where
five cards are thrown, up to 1.8 antes above their worth); here the removal is taken
to the second order instead, every hand's own removal effects counted
(``_gain_bound``). It takes about as long as the proxy.
"""

from __future__ import annotations

__all__ = ["BOUND_SOURCES", "GainBounds", "bound_tables", "gain_bounds"]

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._exact import canonical_hands_jit
from ._gain_bound import game_bounds_jit, hand_bounds, sample_bounds_jit
from ._proxy import (
    HANDS,
    OFFSETS,
    OTHERS,
    hand_values_jit,
    removal_effects_jit,
    removal_sums_jit,
    superset_sums_jit,
)
from .exact import value_lists
from .optimal_game import situation_tables
from .proxy import THROWN, UPCARDS, option_arrays
from .variant import Variant

BOUND_SOURCES = ("_proxy.py", "proxy.py", "_gain_bound.py", "gain_bound.py")
"""The modules whose code makes the bounds."""


@dataclass(frozen=True)
class GainBounds:
    """A proven bound of the gain of the long exchanges (how much the best of them beats
    every other option), in antes."""

    largest: float
    """Over every situation of the game."""
    positive_share: float
    """The share of the game's situations, as dealt, whose bound is positive (the others
    gain nothing from a long exchange)."""
    samples: np.ndarray
    """Of each sampled situation."""
    mean: float = float("nan")
    """Over the game's situations, as dealt."""


def bound_tables(
    variant: Variant, rank: int, short_draws: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For an upcard of ``rank`` (suit 0): per count k of cards thrown in a long exchange,
    the superset sums of every hand's bounded value with k cards dead; per card d of the
    51 others, of the positive parts of minus its removal effects; every hand's EV of
    betting (see ``_gain_bound``)."""
    v, lists = variant.arrays(), value_lists()
    fees, _, long, _ = option_arrays(variant, short_draws)
    _, forced = variant.draw_arrays()
    plays, best = np.empty(HANDS), np.empty(HANDS)
    hand_values_jit(v, lists, 4 * rank, plays, best)
    tables = np.zeros((6, OFFSETS[6]))
    for thrown in np.unique(THROWN[long & ~np.isnan(fees)]):
        value = np.minimum(best, hand_bounds(plays, best, thrown, 1.0 + v.bet))
        superset_sums_jit(value if forced[thrown] else np.maximum(-1.0, value), tables[thrown])
    return tables, _removal_sums(variant, rank, plays), plays


def _removal_sums(variant: Variant, rank: int, plays: np.ndarray) -> np.ndarray:
    """Per card d of the 51 others, the superset sums of the positive parts of minus its
    removal effect on every hand (``plays``: each hand's EV of betting); the slow part."""
    v, lists = variant.arrays(), value_lists()
    effects = np.empty((OTHERS, HANDS))
    removal_effects_jit(v, situation_tables(lists, v), lists, 4 * rank, plays, -np.inf, effects)
    np.maximum(np.negative(effects, out=effects), 0.0, out=effects)
    removals = np.empty((1, OTHERS, OFFSETS[6]))
    removal_sums_jit(effects, np.ones(HANDS), removals)
    return removals[0]


def gain_bounds(
    variant: Variant,
    short_draws: int,
    hands: np.ndarray,
    upcards: np.ndarray,
    *,
    classes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GainBounds:
    """The bound of every situation of ``variant`` (of the first ``classes`` classes of
    hands if given) and of the sampled situations (``hands``, ``upcards``), the exchanges
    of more than ``short_draws`` cards long; ``progress`` is called with the upcard ranks
    done and 13."""
    reps, weights = canonical_hands_jit()
    reps, weights = reps[:classes], weights[:classes]
    fees, _, long, _ = option_arrays(variant, short_draws)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    upcards = np.asarray(upcards, dtype=np.int64)
    samples = np.zeros(len(hands))
    largest = np.empty(len(reps))
    positives = np.empty(len(reps), dtype=np.int64)
    sums = np.empty(len(reps))
    most, positive, total = 0.0, 0, 0.0
    for rank in range(13):
        tables, removals, plays = bound_tables(variant, rank, short_draws)
        game_bounds_jit(tables, removals, plays, reps, rank, fees, long, largest, positives, sums)
        most, positive = max(most, largest.max()), positive + int(weights @ positives)
        total += float(weights @ sums)
        sample_bounds_jit(tables, removals, plays, hands, upcards, rank, fees, long, samples)
        if progress:
            progress(rank + 1, 13)
    assert samples.max(initial=0.0) <= most  # the samples are situations of the game
    situations = int(weights.sum()) * UPCARDS
    return GainBounds(most, positive / situations, samples, total / situations)
