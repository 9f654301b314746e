"""A proxy of what the long exchanges add, weighed on every situation of a game.

The gain of the long exchanges (how much the best exchange of more than
``short_draws`` cards beats every other option) is only known exactly on
sampled situations. The proxy gain values every exchange as in video poker,
from the final hands alone (the discards left in the dealer's deck; see
``_proxy``), and is computed for every situation in about a minute; the
sampled situations then only measure the gain's difference to it, which
varies much less than the gain itself.
"""

from __future__ import annotations

__all__ = ["ProxyGains", "proxy_gains"]

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._exact import canonical_hands_jit
from ._proxy import (
    HANDS,
    OFFSETS,
    final_values_jit,
    game_proxies_jit,
    sample_proxies_jit,
    superset_sums_jit,
)
from .exact import value_lists
from .variant import Variant

UPCARDS = 47  # per five dealt cards


@dataclass(frozen=True)
class ProxyGains:
    """The proxy gain over a whole game and on its sampled situations, in antes."""

    mean: float
    """Averaged over every situation, each as often as it is dealt."""
    largest: float
    gain_bound: float
    """A proven bound of the true gain of any situation: the most a long exchange's
    final hands can return, less its fee, beyond folding or betting the five cards."""
    samples: np.ndarray
    """Of each sampled situation."""


def option_arrays(variant: Variant, short_draws: int) -> tuple[np.ndarray, ...]:
    """Per mask of kept cards: the fee (0 for keeping all five, NaN where not offered),
    whether the BET is then forced, whether the exchange is a long one."""
    fees, forced_by_count = variant.draw_arrays()
    thrown = 5 - np.array([bin(mask).count("1") for mask in range(32)])
    fee = np.where(thrown == 0, 0.0, fees[thrown])
    return fee, forced_by_count[thrown], thrown > short_draws


def proxy_gains(
    variant: Variant,
    short_draws: int,
    hands: np.ndarray,
    upcards: np.ndarray,
    *,
    classes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ProxyGains:
    """The proxy gain of every situation of ``variant`` (of the first ``classes`` classes of
    hands if given) and of the sampled situations (``hands``, ``upcards``); ``progress``
    is called with the upcard ranks done and 13."""
    reps, weights = canonical_hands_jit()
    reps, weights = reps[:classes], weights[:classes]
    fees, forced, long = option_arrays(variant, short_draws)
    v, lists = variant.arrays(), value_lists()
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    upcards = np.asarray(upcards, dtype=np.int64)
    samples, bounds = np.zeros(len(hands)), np.zeros(len(hands))
    gains, largest, class_bounds = (np.empty(len(reps)) for _ in range(3))
    values, best = np.empty(HANDS), np.empty(HANDS)
    tables = np.empty((3, OFFSETS[6]))
    total, most, bound = 0.0, 0.0, 0.0
    for rank in range(13):
        final_values_jit(v, lists, 4 * rank, False, values, best)
        superset_sums_jit(values, tables[0])
        superset_sums_jit(best, tables[2])
        if forced.any():
            final_values_jit(v, lists, 4 * rank, True, values, best)
        superset_sums_jit(values, tables[1])
        game_proxies_jit(tables, reps, rank, fees, forced, long, gains, largest, class_bounds)
        total += float(weights @ gains)
        most, bound = max(most, largest.max()), max(bound, class_bounds.max())
        sample_proxies_jit(tables, hands, upcards, rank, fees, forced, long, samples, bounds)
        if progress:
            progress(rank + 1, 13)
    assert bounds.max(initial=0.0) <= bound  # the samples are situations of the game
    return ProxyGains(total / (weights.sum() * UPCARDS), most, bound, samples)
