"""Monte-Carlo simulation of a variant under a strategy, with honest error bars.

>>> result = run("caribbean", "pair-or-better", rounds=20_000, seed=1)
>>> result.summary["rounds"]
20000
>>> again = run("caribbean", "pair-or-better", rounds=20_000, seed=1, threads=1)
>>> again.summary["rtp"] == result.summary["rtp"]
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import numba
import numpy as np
import pandas as pd

from . import __version__
from . import _engine as engine
from .catalog import load_strategy
from .codes import CATEGORIES, DECISIONS, STAKE_SLOTS, Category, Decision, Outcome, StakeSlot
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = ["DEFAULT_SEED", "SimulationResult", "Stake", "run"]

DEFAULT_SEED = 1
"""The seed of every run, comparison and report not given one."""

Z95, Z99 = 1.959963984540054, 2.5758293035489004
DECISION_NAMES = [decision.label for decision in Decision]


@dataclass(frozen=True)
class Stake:
    """A stake in currency: the ante, the bonus bet and the account whose cap applies."""

    account: str
    ante: float
    bonus_bet: float = 0.0


def _key(seed: int) -> np.uint64:
    return np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]


def _stake_array(variant: Variant, stake: Stake | None) -> np.ndarray:
    if stake is None:
        return np.zeros(STAKE_SLOTS)
    if stake.account not in variant.accounts:
        known = ", ".join(variant.accounts) or "none"
        raise ValueError(f"{variant.name} has no account {stake.account!r} (known: {known})")
    account = variant.accounts[stake.account]
    if not account.ante[0] <= stake.ante <= account.ante[1]:
        raise ValueError(
            f"ante {stake.ante:g} is outside {account.name}'s limits "
            f"{account.ante[0]:g}..{account.ante[1]:g}"
        )
    if stake.bonus_bet and (
        account.bonus is None or not account.bonus[0] <= stake.bonus_bet <= account.bonus[1]
    ):
        raise ValueError(f"bonus bet {stake.bonus_bet:g} is outside {account.name}'s limits")
    cap = np.inf if account.max_payout is None else account.max_payout
    slots = np.zeros(STAKE_SLOTS)
    slots[StakeSlot.ANTE], slots[StakeSlot.BONUS_BET] = stake.ante, stake.bonus_bet
    slots[StakeSlot.MAXIMUM_PAYOUT] = cap
    slots[StakeSlot.CAP_PER_BET] = variant.payout_cap == "bet"
    return slots


def _situations_progress(progress: Callable[[int], None] | None, start: int, stop: int):
    """While the situations of rounds ``start .. stop`` are computed for the memo of
    exact decisions, their share done moves the progress through those rounds."""
    if progress is None:
        return None
    return lambda done, total: progress(start + (stop - start) * done // (total + 1))


def run(
    variant: Variant | str,
    strategy: Strategy | str | Callable = "basic",
    rounds: int = 1_000_000,
    *,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
    stake: Stake | None = None,
    chunk_blocks: int = 32,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds (one box each) and add up the results.

    The same seed gives the same figures, bit for bit, whatever ``threads``
    and ``chunk_blocks`` (how many blocks of 4,096 rounds a kernel call
    plays). ``progress`` is called with the rounds done after each chunk.
    Ctrl-C stops after the chunk under way; the result holds the rounds done.
    """
    variant = load_variant(variant)
    strategy = load_strategy(strategy, variant)
    if strategy.variant != variant.name:
        raise ValueError(
            f"strategy {strategy.name!r} is for {strategy.variant}, not {variant.name}"
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int | np.integer) or rounds < 1:
        raise ValueError(f"rounds must be a positive whole number, got {rounds!r}")
    if chunk_blocks < 1:
        raise ValueError(f"chunk_blocks must be at least 1, got {chunk_blocks}")
    arrays, stake_array = variant.arrays(), _stake_array(variant, stake)
    fees, forced = variant.draw_arrays()
    key = _key(seed)
    blocks = -(-rounds // engine.BLOCK)
    floats = np.zeros(engine.FLOATS)
    ints = np.zeros(engine.INTS, dtype=np.int64)
    block_nets, largest = [], -np.inf
    done_blocks, interrupted = 0, False
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        while done_blocks < blocks:
            count = min(chunk_blocks, blocks - done_blocks)
            if strategy.memoized:
                count = 1  # the memo of the exact decisions grows a block at a time
            start = done_blocks * engine.BLOCK
            stop = min(start + count * engine.BLOCK, rounds)
            computing = _situations_progress(progress, start, stop)
            exact = strategy.decisions(key, start, stop, computing)
            chunk_floats = np.zeros((count, engine.FLOATS))
            chunk_ints = np.zeros((count, engine.INTS), dtype=np.int64)
            chunk_largest = np.zeros(count)
            engine.play_blocks_jit(
                arrays,
                strategy.decider,
                int(strategy.game_mode),  # plain ints: one compiled engine for every strategy
                exact,
                fees,
                forced,
                key,
                rounds,
                done_blocks,
                stake_array,
                chunk_floats,
                chunk_ints,
                chunk_largest,
            )
            engine.add_rows_in_order_jit(floats, chunk_floats)
            ints += chunk_ints.sum(axis=0)
            largest = max(largest, chunk_largest.max())
            block_nets.append(chunk_floats[:, engine.NET].copy())
            done_blocks += count
            if progress:
                progress(min(done_blocks * engine.BLOCK, rounds))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        numba.set_num_threads(previous_threads)
    played = min(done_blocks * engine.BLOCK, rounds)
    return SimulationResult(
        variant=variant,
        strategy=strategy,
        seed=seed,
        rounds_asked=rounds,
        rounds=played,
        floats=floats,
        ints=ints,
        largest=float(largest),
        block_nets=np.concatenate(block_nets) if block_nets else np.zeros(0),
        stake=stake,
        interrupted=interrupted,
        threads=threads or previous_threads,
    )


@dataclass
class SimulationResult:
    """What a simulation found; tables as pandas objects, everything as JSON."""

    variant: Variant
    strategy: Strategy
    seed: int
    rounds_asked: int
    rounds: int
    floats: np.ndarray
    ints: np.ndarray
    largest: float
    block_nets: np.ndarray
    stake: Stake | None
    interrupted: bool
    threads: int

    def _moments(self, total: float, squares: float) -> dict:
        n = self.rounds
        mean = total / n if n else math.nan
        variance = (squares / n - mean * mean) * n / (n - 1) if n > 1 else math.nan
        sd = math.sqrt(max(variance, 0.0)) if n > 1 else math.nan
        se = sd / math.sqrt(n) if n > 1 else math.nan
        return {"mean": mean, "variance": variance, "sd": sd, "se": se}

    @property
    def summary(self) -> dict:
        """The headline figures, per round and per initial ante."""
        f, n = self.floats.tolist(), self.rounds
        main = self._moments(f[engine.NET], f[engine.NET2])
        rtp = 1 + main["mean"]
        out = {
            "rounds": n,
            "total_wagered": f[engine.WAGER],
            "net": f[engine.NET],
            "rtp": rtp,
            "house_edge": -main["mean"],
            "element_of_risk": -f[engine.NET] / f[engine.WAGER] if n else math.nan,
            "average_total_bet": f[engine.WAGER] / n if n else math.nan,
            "variance": main["variance"],
            "standard_deviation": main["sd"],
            "standard_error": main["se"],
            "rtp_ci95": [rtp - Z95 * main["se"], rtp + Z95 * main["se"]],
            "rtp_ci99": [rtp - Z99 * main["se"], rtp + Z99 * main["se"]],
            "hit_frequency": int(self.ints[engine.HITS]) / n if n else math.nan,
            "largest_win": self.largest,
        }
        if self.variant.bonus_pays:
            bonus = self._moments(f[engine.BONUS], f[engine.BONUS2])
            out |= {
                "bonus_rtp": 1 + bonus["mean"],
                "bonus_standard_deviation": bonus["sd"],
                "bonus_rtp_ci95": [
                    1 + bonus["mean"] - Z95 * bonus["se"],
                    1 + bonus["mean"] + Z95 * bonus["se"],
                ],
            }
        if self.stake is not None:
            stake = self.stake.ante + self.stake.bonus_bet
            capped = self._moments(f[engine.CAPPED], f[engine.CAPPED2])
            out |= {
                "capped_rtp": 1 + capped["mean"] / stake,
                "capped_rtp_ci95": [
                    1 + (capped["mean"] - Z95 * capped["se"]) / stake,
                    1 + (capped["mean"] + Z95 * capped["se"]) / stake,
                ],
            }
        return out

    @property
    def outcomes(self) -> pd.DataFrame:
        """Frequency and return contribution of each outcome by the final hand's category."""
        rows = []
        for outcome in Outcome:
            for category in Category:
                cell = outcome * CATEGORIES + category
                count = int(self.ints[engine.CELL_COUNT + cell])
                if count:
                    rows.append(
                        {
                            "outcome": outcome.label,
                            "category": category.label,
                            "count": count,
                            "frequency": count / self.rounds,
                            "average_net": self.floats[engine.CELL_NET + cell] / count,
                            "contribution": self.floats[engine.CELL_NET + cell] / self.rounds,
                        }
                    )
        return pd.DataFrame(rows)

    @property
    def decisions(self) -> pd.DataFrame:
        """How often each decision was taken, per round."""
        counts = self.ints[engine.DECISION_COUNT : engine.DECISION_COUNT + DECISIONS]
        rows = [
            {"decision": name, "count": int(c), "frequency": c / self.rounds}
            for name, c in zip(DECISION_NAMES, counts, strict=True)
            if c
        ]
        return pd.DataFrame(rows)

    def net_distribution(self) -> pd.DataFrame:
        """How often each round result (in antes, to the half ante) came up."""
        counts = self.ints[engine.NET_COUNT : engine.NET_COUNT + engine.NET_BINS]
        (bins,) = np.nonzero(counts)
        return pd.DataFrame(
            {
                "net": engine.NET_LOW + bins / 2.0,
                "count": counts[bins],
                "frequency": counts[bins] / self.rounds,
            }
        )

    def convergence(self, points: int = 200) -> pd.DataFrame:
        """The running RTP at up to ``points`` checkpoints (block ends)."""
        if not len(self.block_nets):
            return pd.DataFrame({"rounds": [], "rtp": []})
        ends = np.minimum((np.arange(len(self.block_nets)) + 1) * engine.BLOCK, self.rounds)
        running = 1 + np.cumsum(self.block_nets) / ends
        pick = np.unique(np.linspace(0, len(ends) - 1, min(points, len(ends))).round().astype(int))
        return pd.DataFrame({"rounds": ends[pick], "rtp": running[pick]})

    def to_json(self) -> dict:
        """Everything, with what is needed to reproduce it."""
        return {
            "software": {"studsim": __version__},
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": self.variant.record(),
            "strategy": self.strategy.record(),
            "seed": self.seed,
            "generator": "SplitMix64 stream per round from numpy SeedSequence(seed)",
            "rounds_asked": self.rounds_asked,
            "interrupted": self.interrupted,
            "stake": None if self.stake is None else vars(self.stake),
            "summary": self.summary,
            "outcomes": self.outcomes.to_dict(orient="records"),
            "decisions": self.decisions.to_dict(orient="records"),
            "net_distribution": self.net_distribution().to_dict(orient="records"),
            "convergence": self.convergence().to_dict(orient="list"),
        }
