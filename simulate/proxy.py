"""A proxy of what the long exchanges add, weighed on every situation of a game.

The gain of the long exchanges (how much the best exchange of more than
``short_draws`` cards beats every other option) is only known exactly on
sampled situations. The proxy gain values every exchange as in video poker,
from the final hands, the discards' removal from the dealer's deck taken to
first order (see ``_proxy``), and buying a sixth card exactly (it discards
nothing); it is computed for every situation in about nine minutes. The sampled situations
then only measure the gain's difference to it, which varies much less than
the gain itself.

The proxy adds the discards' removal to the final hands worth betting only. A
final hand just below the fold line, which the discards' removal would make
worth betting, counts there as folded: the proxy undervalues such exchanges
(keeping a pair of deuces and drawing three, by up to 0.09 ante in Russian). The
control (``ramp=RAMP``) weighs each hand's removal effects by a ramp instead,
from nothing at ``RAMP`` below the fold line to all of them at it, and is
otherwise the proxy. On Russian's samples the gain's difference to it varies
about three times less than to the proxy (the ramp's width was chosen on the
samples of one upcard rank). The samples stay drawn within the proxy's strata;
only what they measure against changes: the control's exact mean over the game
plus the mean difference to it, each stratum weighed by its share, is an
unbiased estimate as the proxy's is.
"""

from __future__ import annotations

__all__ = ["RAMP", "ProxyGains", "proxy_gains", "rank_tables"]

from collections.abc import Callable
from dataclasses import dataclass
from math import comb, nan

import numpy as np

from ._exact import canonical_hands_jit
from ._proxy import (
    BEST,
    BOUND,
    FORCED,
    HANDS,
    OFFSETS,
    OTHERS,
    TABLES,
    VALUE,
    game_proxies_jit,
    hand_values_jit,
    removal_effects_jit,
    removal_sums_jit,
    sample_proxies_jit,
    superset_sums_jit,
)
from .codes import Fee
from .exact import value_lists
from .optimal_game import situation_tables
from .variant import Variant

UPCARDS = 47  # per five dealt cards
THROWN = 5 - np.array([bin(mask).count("1") for mask in range(32)])
"""Cards thrown by each mask of kept cards."""
DEALER_DECK = 46  # the cards the dealer's hidden four come from, against a final hand
RAMP = 0.1
"""The control's ramp: in antes below the fold line (-1), where a hand's removal
effects start to count."""


@dataclass(frozen=True)
class ProxyGains:
    """The proxy gain over a whole game and on its sampled situations, in antes."""

    mean: float
    """Averaged over every situation, each as often as it is dealt."""
    largest: float
    gain_bound: float
    """A proven bound of the true gain of any situation: a bound of what a long
    exchange's final hands are worth (see ``_proxy``), less its fee, beyond folding or
    betting the five cards."""
    samples: np.ndarray
    """Of each sampled situation."""
    positive_share: float = nan
    """The share of the game's situations, as dealt, whose proxy gain is positive (NaN:
    not counted)."""


def option_arrays(variant: Variant, short_draws: int) -> tuple:
    """The options as ``_proxy`` reads them: per mask of kept cards, the fee (0 for
    keeping all five, NaN where not offered), whether the BET is then forced, whether
    the exchange is a long one; and the fee of buying a sixth card (NaN: not offered)."""
    fees, forced_by_count = variant.draw_arrays()
    fee = np.where(THROWN == 0, 0.0, fees[THROWN])
    return fee, forced_by_count[THROWN], short_draws < THROWN, float(fees[Fee.BUY])


def rank_tables(
    variant: Variant, rank: int, short_draws: int, ramp: float = 0.0
) -> tuple[np.ndarray, ...]:
    """The proxy's tables (the control's with a ``ramp``) for an upcard of ``rank`` (suit
    0): the sums by ``_proxy``'s table numbers (hands' values, their values when forced to
    bet, the most they can return, and for each long exchange of k cards the bound of
    their values with k discards dead); every six cards' EV of betting (empty if the
    variant sells no sixth card); the sums of every card's removal effects
    (``removal_tables``)."""
    v, lists = variant.arrays(), value_lists()
    _, forced = variant.draw_arrays()
    fees, _, long, buy_fee = option_arrays(variant, short_draws)
    plays, best = np.empty(HANDS), np.empty(HANDS)
    hand_values_jit(v, lists, 4 * rank, plays, best)
    tables = np.zeros((TABLES, OFFSETS[6]))
    superset_sums_jit(np.maximum(-1.0, plays), tables[VALUE])
    superset_sums_jit(plays, tables[FORCED])
    superset_sums_jit(best, tables[BEST])
    for thrown in np.unique(THROWN[long & ~np.isnan(fees)]):  # the long exchanges offered
        r = comb(DEALER_DECK, 4) / comb(DEALER_DECK - thrown, 4)
        most = r * plays + (r - 1) * (1 + v.bet)
        superset_sums_jit(
            most if forced[thrown] else np.maximum(-1.0, most), tables[BOUND + thrown]
        )
    buys = np.empty(comb(OTHERS, 6) if not np.isnan(buy_fee) else 0)
    if len(buys):
        hand_values_jit(v, lists, 4 * rank, buys, np.empty_like(buys))
    return tables, buys, removal_tables(variant, rank, plays, ramp)


def removal_tables(variant: Variant, rank: int, plays: np.ndarray, ramp: float) -> np.ndarray:
    """Per card d of the 51 others, the sums of its removal effects, each hand's weighed by
    its EV of betting (``plays``): without a ``ramp``, 1 for the hands worth betting and 0
    for the others; with one, rising from 0 at ``ramp`` below the fold line to 1 at it
    (and, if an exchange forces the BET, unweighed, on every hand); for an upcard of
    ``rank`` (suit 0)."""
    effects = np.empty((OTHERS, HANDS))
    v, lists = variant.arrays(), value_lists()
    forced = bool(variant.exchange_forces_bet)  # then needed on every hand
    floor = -np.inf if forced else -1.0 - ramp
    removal_effects_jit(v, situation_tables(lists, v), lists, 4 * rank, plays, floor, effects)
    if ramp:
        weights = np.clip((plays + 1.0 + ramp) / ramp, 0.0, 1.0)
    else:
        weights = (plays > -1.0).astype(float)
    removals = np.empty((1 + forced, OTHERS, OFFSETS[6]))
    removal_sums_jit(effects, weights, removals)
    return removals


def proxy_gains(
    variant: Variant,
    short_draws: int,
    hands: np.ndarray,
    upcards: np.ndarray,
    *,
    ramp: float = 0.0,
    classes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ProxyGains:
    """The proxy gain (the control's with a ``ramp``; the bound of the true gain is the
    same) of every situation of ``variant`` (of the first ``classes`` classes of hands if
    given) and of the sampled situations (``hands``, ``upcards``); ``progress`` is called
    with the upcard ranks done and 13."""
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
        proxy = rank_tables(variant, rank, short_draws, ramp)
        game_proxies_jit(proxy, reps, rank, options, gains, largest, class_bounds, positives)
        total += float(weights @ gains)
        positive += int(weights @ positives)
        most, bound = max(most, largest.max()), max(bound, class_bounds.max())
        sample_proxies_jit(proxy, hands, upcards, rank, options, samples, bounds)
        if progress:
            progress(rank + 1, 13)
    assert bounds.max(initial=0.0) <= bound  # the samples are situations of the game
    situations = int(weights.sum()) * UPCARDS
    return ProxyGains(total / situations, most, bound, samples, positive / situations)
