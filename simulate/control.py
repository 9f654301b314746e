"""A control of the sampled gain: the proxy with the discards' removal taken past the
fold line.

The proxy (``proxy``) adds the discards' removal to the final hands worth betting
only. A final hand just below the fold line, which the discards' removal would make
worth betting, counts there as folded: the proxy undervalues such exchanges (keeping
a pair of deuces and drawing three, by up to 0.09 ante in Russian). The control
weighs each hand's removal effects by a ramp instead, from nothing at ``RAMP`` below
the fold line to all of them at it, and is otherwise the proxy. On Russian's samples
the gain's difference to it varies about three times less than to the proxy (the
ramp's width was chosen on the samples of one upcard rank).

The samples stay drawn within the proxy's strata; only what they measure against
changes: the control's exact mean over the game plus the mean difference to it, each
stratum weighed by its share, is an unbiased estimate as the proxy's is.
"""

from __future__ import annotations

__all__ = ["RAMP", "control_gains", "control_tables"]

from collections.abc import Callable

import numpy as np

from ._exact import canonical_hands_jit
from ._proxy import (
    HANDS,
    OFFSETS,
    OTHERS,
    game_proxies_jit,
    hand_values_jit,
    removal_effects_jit,
    removal_sums_jit,
    sample_proxies_jit,
)
from .exact import value_lists
from .optimal_game import situation_tables
from .proxy import UPCARDS, ProxyGains, option_arrays, rank_tables
from .variant import Variant

RAMP = 0.1
"""In antes below the fold line (-1), where a hand's removal effects start to count."""


def control_tables(variant: Variant, rank: int, short_draws: int) -> tuple[np.ndarray, ...]:
    """The control's tables for an upcard of ``rank`` (suit 0): the proxy's
    (``proxy.rank_tables``), the sums of every card's removal effects weighed by the
    ramp (and, if an exchange forces the BET, unweighed: a forced hand has no fold
    line)."""
    tables, buys, _ = rank_tables(variant, rank, short_draws)
    v, lists = variant.arrays(), value_lists()
    plays = np.empty(HANDS)
    hand_values_jit(v, lists, 4 * rank, plays, np.empty(HANDS))
    effects = np.empty((OTHERS, HANDS))
    removal_effects_jit(v, situation_tables(lists, v), lists, 4 * rank, plays, True, effects)
    every = np.ones(HANDS, dtype=np.bool_)
    forced = bool(variant.exchange_forces_bet)
    removals = np.empty((1 + forced, OTHERS, OFFSETS[6]))
    if forced:
        removal_sums_jit(effects, every, removals[1:])
    effects *= np.clip((plays + 1.0 + RAMP) / RAMP, 0.0, 1.0)
    removal_sums_jit(effects, every, removals[:1])
    return tables, buys, removals


def control_gains(
    variant: Variant,
    short_draws: int,
    hands: np.ndarray,
    upcards: np.ndarray,
    *,
    classes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ProxyGains:
    """The control gain of every situation of ``variant`` (of the first ``classes``
    classes of hands if given) and of the sampled situations (``hands``, ``upcards``), as
    ``proxy.proxy_gains`` gives the proxy's (the bound of the true gain is the proxy's);
    ``progress`` is called with the upcard ranks done and 13."""
    reps, weights = canonical_hands_jit()
    reps, weights = reps[:classes], weights[:classes]
    options = option_arrays(variant, short_draws)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    upcards = np.asarray(upcards, dtype=np.int64)
    samples, bounds = np.zeros(len(hands)), np.zeros(len(hands))
    gains, largest, class_bounds = (np.empty(len(reps)) for _ in range(3))
    positives = np.empty(len(reps), dtype=np.int64)
    total, most, bound, positive = 0.0, 0.0, 0.0, 0
    for rank in range(13):
        control = control_tables(variant, rank, short_draws)
        game_proxies_jit(control, reps, rank, options, gains, largest, class_bounds, positives)
        total += float(weights @ gains)
        positive += int(weights @ positives)
        most, bound = max(most, largest.max()), max(bound, class_bounds.max())
        sample_proxies_jit(control, hands, upcards, rank, options, samples, bounds)
        if progress:
            progress(rank + 1, 13)
    situations = int(weights.sum()) * UPCARDS
    return ProxyGains(total / situations, most, bound, samples, positive / situations)
