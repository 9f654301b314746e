"""Game protection: what the player gains when he also sees some of the dealer's hidden
cards (a flashed or marked hole card, a dealer's hand seen whole).

In games decided by folding or betting on the dealt cards (Caribbean Stud), the player
bets exactly when it is worth more than folding, given every card he sees: his hand,
the upcard and ``hole`` of the dealer's four hidden cards. The RTP is enumerated where
that is quick (no hole card, one, all four: every situation weighed); with two or
three it is the exact optimal RTP plus the mean gain of seeing the cards over sampled
situations, each weighed exactly, with its standard error.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from . import _protection as kernels
from ._exact import canonical_hands_jit
from .exact import exact_game, value_lists
from .simulation import DEFAULT_SEED, Z95, Z_999, _key
from .variant import Variant, load_variant

__all__ = ["HOLE_CARDS", "METHODS", "hole_card_rtp", "hole_card_table", "played_with_hole_cards"]

HOLE_CARDS = 4
"""The dealer's hidden cards."""
DEFAULT_SAMPLES = 1_000_000
SAMPLE_BLOCK = 65_536
"""Sampled situations are weighed in blocks, so Ctrl-C and progress come often."""
ENUMERATED = (0, 1, HOLE_CARDS)
METHODS = {
    "enumerated": "every situation (hand, upcard, hole cards seen) weighed exactly",
    "sampled": "the exact optimal RTP plus the mean gain of seeing the cards over sampled "
    "situations, each weighed exactly; interval by the normal approximation",
}

_EVERY_VALUE = None


def _every_value() -> np.ndarray:
    global _EVERY_VALUE
    if _EVERY_VALUE is None:
        _EVERY_VALUE = kernels.every_value_jit()
    return _EVERY_VALUE


_OPTIMAL: dict[str, float] = {}


def _optimal_rtp(variant: Variant) -> float:
    """The exact RTP of optimal play, seeing no hidden card (kept per rules)."""
    if variant.rules_hash not in _OPTIMAL:
        _OPTIMAL[variant.rules_hash] = exact_game(variant, "optimal").summary["rtp"]
    return _OPTIMAL[variant.rules_hash]


def _check(variant: Variant, hole: int) -> None:
    if variant.has_draws or variant.buy_game is not None:
        raise ValueError(
            f"{variant.name}: the protection figures cover games decided by folding or "
            "betting on the dealt cards (caribbean); draws and the dealer's game are not "
            "weighed with the dealer's cards known yet"
        )
    if not 0 <= hole <= HOLE_CARDS:
        raise ValueError(f"hole cards known must be 0 to {HOLE_CARDS}, got {hole}")


def hole_card_rtp(
    variant: Variant | str,
    hole: int,
    *,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The RTP under optimal play when the player also sees ``hole`` of the dealer's hidden
    cards: enumerated for 0, 1 and 4 (unless ``samples`` is given), else from
    ``samples`` situations (default 1,000,000) drawn from ``seed``; ``progress`` is
    called with the work done and its total."""
    variant = load_variant(variant)
    _check(variant, hole)
    start = time.perf_counter()
    optimal = _optimal_rtp(variant)
    row = {"hole_cards_known": hole}
    if samples is None and hole in ENUMERATED:
        rtp = optimal if hole == 0 else _enumerated(variant, hole, progress)
        row |= {"rtp": rtp, "method": "enumerated", "standard_error": 0.0}
    else:
        samples = samples or DEFAULT_SAMPLES
        if samples < 2:
            raise ValueError(f"samples must be at least 2, got {samples}")
        gains = _sampled_gains(variant, hole, samples, seed, progress)
        se = float(gains.std(ddof=1) / math.sqrt(samples))
        rtp = optimal + float(gains.mean())
        row |= {
            "rtp": rtp,
            "method": "sampled",
            "standard_error": se,
            "rtp_ci999": [rtp - Z_999 * se, rtp + Z_999 * se],
            "samples": samples,
            "seed": seed,
            "situations_changing_decision": float((gains > 0).mean()),
        }
    row |= {
        "house_edge": 1 - rtp,
        "gain_over_optimal": rtp - optimal,
        "seconds": time.perf_counter() - start,
    }
    return row


def _enumerated(variant: Variant, hole: int, progress) -> float:
    reps, weights = canonical_hands_jit()
    v, lists, every = variant.arrays(), value_lists(), _every_value()
    sums = np.empty(len(reps))
    if hole == HOLE_CARDS:
        kernels.whole_hand_jit(v, lists, every, reps, sums)
        per_class = math.comb(47, 5)
    else:
        step = 2048
        for first in range(0, len(reps), step):
            part = slice(first, first + step)
            kernels.upcard_and_holes_jit(v, lists, every, reps[part], hole, sums[part])
            if progress:
                progress(min(first + step, len(reps)), len(reps))
        per_class = 47 * (46 if hole else 1)
    return 1 + float(weights @ sums) / (int(weights.sum()) * per_class)


def _sampled_gains(variant: Variant, hole: int, samples: int, seed: int, progress) -> np.ndarray:
    v, lists, every, key = variant.arrays(), value_lists(), _every_value(), _key(seed)
    gains = np.empty(samples)
    for first in range(0, samples, SAMPLE_BLOCK):
        block = gains[first : first + SAMPLE_BLOCK]
        kernels.sampled_gains_jit(v, lists, every, key, first, hole, block)
        if progress:
            progress(first + len(block), samples)
    return gains


def played_with_hole_cards(
    variant: Variant | str, hole: int, rounds: int, seed: int = DEFAULT_SEED
) -> dict:
    """Rounds played by a player who sees ``hole`` of the dealer's hidden cards and bets
    when that is worth more than folding, settled against the dealer's whole hand: the
    RTP and its standard error (a check of ``hole_card_rtp`` by another path)."""
    variant = load_variant(variant)
    _check(variant, hole)
    nets = np.empty(rounds)
    kernels.played_rounds_jit(
        variant.arrays(), _key(seed), 0, hole, value_lists(), _every_value(), nets
    )
    se = float(nets.std(ddof=1) / math.sqrt(rounds))
    rtp = 1 + float(nets.mean())
    return {"rtp": rtp, "standard_error": se, "rtp_ci95": [rtp - Z95 * se, rtp + Z95 * se]}


def hole_card_table(
    variant: Variant | str,
    *,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str, int, int], None] | None = None,
) -> pd.DataFrame:
    """``hole_card_rtp`` for every number of hole cards known, 0 to 4."""
    rows = []
    for hole in range(HOLE_CARDS + 1):
        stage = progress and (lambda done, total, h=hole: progress(f"{h} known", done, total))
        sampled = None if hole in ENUMERATED else samples
        rows.append(hole_card_rtp(variant, hole, samples=sampled, seed=seed, progress=stage))
    return pd.DataFrame(rows)
