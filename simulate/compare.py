"""Strategies, and what a player sees, compared on the same deals.

Every strategy plays the same rounds (the same seed deals the same cards to
round ``i`` whatever the strategy), so the rounds they play alike cancel out
of their difference. Its standard error is estimated by batch means over
the blocks of 4,096 rounds, paired block by block.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import numpy as np
import pandas as pd

from . import _engine as engine
from .catalog import load_strategy
from .cluster import takes_client
from .provenance import software
from .simulation import DEFAULT_SEED, Z95, SimulationResult, run
from .stakes import StakePlan
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = ["Comparison", "compare", "information_value"]


class Comparison:
    """Strategies played on the same deals: each one's RTP and its difference from the
    first one's, with the standard error of the difference."""

    def __init__(self, results: list[SimulationResult]):
        self.results = results

    @property
    def table(self) -> pd.DataFrame:
        first = self.results[0]
        rows = []
        for result in self.results:
            difference, se = paired_difference(result, first)
            rows.append(
                {
                    "strategy": result.strategy.name,
                    "rtp": result.summary["rtp"],
                    "standard_error": result.summary["standard_error"],
                    "difference": difference,
                    "difference_se": se,
                    "difference_ci95_low": difference - Z95 * se,
                    "difference_ci95_high": difference + Z95 * se,
                }
            )
        return pd.DataFrame(rows)

    def to_json(self) -> dict:
        first = self.results[0]
        return {
            "software": software(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": first.variant.record(),
            "strategies": [result.strategy.record() for result in self.results],
            "seed": first.seed,
            "rounds": first.rounds,
            "method": "every strategy on the same deals; the standard error of a difference "
            f"by paired batch means over blocks of {engine.BLOCK} rounds",
            "table": self.table.to_dict(orient="records"),
        }


def paired_difference(
    a: SimulationResult, b: SimulationResult, column: int = -1
) -> tuple[float, float]:
    """(RTP of ``a`` less that of ``b``, its standard error) from their block nets, the
    two played on the same deals (NaN with fewer than two blocks); ``column``: a box
    (from 0), or -1 for the round as a whole."""
    sizes = np.full(len(a.block_nets), engine.BLOCK, dtype=float)
    sizes[-1] = a.rounds - engine.BLOCK * (len(sizes) - 1)
    nets = a.block_nets[:, column] - b.block_nets[:, column]
    difference = float(nets.sum() / a.rounds)
    blocks = len(nets)
    if blocks < 2:
        return difference, math.nan
    residuals = nets - difference * sizes
    se = math.sqrt(blocks / (blocks - 1) * (residuals**2).sum()) / a.rounds
    return difference, se


@takes_client
def compare(
    variant: Variant | str,
    strategies: list[Strategy | str | Callable],
    rounds: int,
    *,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
) -> Comparison:
    """Play each strategy (a name, a file, a numba-compiled function or a Strategy) on
    the same ``rounds`` deals of ``seed``."""
    variant = load_variant(variant)
    if len(strategies) < 2:
        raise ValueError("a comparison needs at least two strategies")
    plans = [load_strategy(s, variant) for s in strategies]
    results = [run(variant, plan, rounds, seed=seed, threads=threads) for plan in plans]
    if any(result.interrupted for result in results):
        raise KeyboardInterrupt
    return Comparison(results)


@takes_client
def information_value(
    variant: Variant | str,
    strategy: Strategy | str | Callable = "optimal",
    rounds: int = 1_000_000,
    *,
    boxes: int | Sequence[float] | StakePlan | None = None,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
) -> pd.DataFrame:
    """What the cards of the earlier boxes are worth: per box (and for the round), its
    RTP when each box is decided seeing the cards of the boxes before it and when it
    is not, on the same deals, and the difference with its standard error (paired
    batch means). ``boxes``: as in :func:`simulate.simulation.run`, by default the
    variant's most."""
    variant = load_variant(variant)
    strategy = load_strategy(strategy, variant)
    boxes = variant.boxes if boxes is None else boxes
    seeing, not_seeing = (
        run(variant, strategy, rounds, seed=seed, threads=threads, boxes=boxes, share_seen=share)
        for share in (True, False)
    )
    if seeing.interrupted or not_seeing.interrupted:
        raise KeyboardInterrupt
    figures = seeing.box_figures
    rows = []
    for column in [*range(seeing.boxes), -1]:
        value, se = paired_difference(seeing, not_seeing, column)
        rtp = seeing.summary["rtp"] if column < 0 else figures["rtp"].iloc[column]
        rows.append(
            {
                "box": "round" if column < 0 else str(column + 1),
                "rtp_seeing": rtp,
                "rtp_not_seeing": rtp - value,
                "value": value,
                "value_se": se,
                "value_ci95_low": value - Z95 * se,
                "value_ci95_high": value + Z95 * se,
            }
        )
    return pd.DataFrame(rows)
