"""Monte-Carlo simulation of a variant under a strategy, with honest error bars.

>>> result = run("caribbean", "pair-or-better", rounds=20_000, seed=1)
>>> result.summary["rounds"]
20000
>>> again = run("caribbean", "pair-or-better", rounds=20_000, seed=1, threads=1)
>>> again.summary["rtp"] == result.summary["rtp"]
True
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import pandas as pd

from . import _engine as engine
from ._exact_play import exact_options
from ._io import read_keyed_npz, write_json, write_npz
from ._tables import source_hash
from .catalog import load_strategy
from .cluster import current_client, unit_results
from .codes import CATEGORIES, DECISIONS, Category, Decision, Outcome
from .provenance import software
from .stakes import Stake, StakePlan, stake_plan
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = [
    "DEFAULT_SEED",
    "PrecisionError",
    "SimulationResult",
    "Stake",
    "StakePlan",
    "rounds_needed",
    "run",
    "run_to_precision",
]

DEFAULT_SEED = 1
"""The seed of every run, comparison and report not given one."""

Z95, Z99 = 1.959963984540054, 2.5758293035489004
Z_999 = 3.2905267314919255
"""The normal quantile of a two-sided 99.9% interval."""
DECISION_NAMES = [decision.label for decision in Decision]
CHUNK_BLOCKS = 128
"""Blocks of 4,096 rounds a kernel call plays, by default."""
CLUSTER_CHUNK_BLOCKS = 256
"""... on a cluster, where each chunk is a task (the scheduler's few milliseconds per task
small beside a second of work)."""


def _key(seed: int) -> np.uint64:
    return np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]


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
    seed: int | None = DEFAULT_SEED,
    threads: int | None = None,
    stake: Stake | None = None,
    boxes: int | Sequence[float] | StakePlan | None = None,
    share_seen: bool = True,
    chunk_blocks: int | None = None,
    progress: Callable[[int], None] | None = None,
    client=None,
    checkpoint: str | Path | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds and add up the results.

    A round has one box, or ``boxes``: how many (equal antes), their antes, or a
    :class:`StakePlan`; ``stake``: one box's stake in currency (its account's limits
    and cap apply). Boxes are decided in order, each seeing the cards of the boxes
    before it unless ``share_seen`` is False; the variant's open boxes come first, the
    rest are blind. The same seed gives the same figures, bit for bit, whatever
    ``threads`` and ``chunk_blocks`` (how many blocks of 4,096 rounds a kernel call
    plays). ``seed=None`` draws a fresh seed from the operating system's entropy and
    records it in the result, so the run can be replayed. ``progress`` is called with
    the rounds done after each chunk. Ctrl-C stops after the chunk under way; the
    result holds the rounds done. ``client``: a ``distributed.Client`` whose workers play
    the chunks, with the same figures (default: ``simulate.cluster.current_client()``).
    ``checkpoint``: a folder where each finished chunk is written as it ends; the same
    run started again with it reads them back instead of playing them (a resumed run
    gives the figures of one never stopped).
    """
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a whole number of at least 0 or None, got {seed!r}")
    variant = load_variant(variant)
    strategy = load_strategy(strategy, variant)
    if strategy.variant != variant.name:
        raise ValueError(
            f"strategy {strategy.name!r} is for {strategy.variant}, not {variant.name}"
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int | np.integer) or rounds < 1:
        raise ValueError(f"rounds must be a positive whole number, got {rounds!r}")
    if chunk_blocks is not None and chunk_blocks < 1:
        raise ValueError(f"chunk_blocks must be at least 1, got {chunk_blocks}")
    plan = stake_plan(variant, boxes, stake)
    n_boxes, open_boxes = plan.boxes, plan.open_boxes(variant)
    job = _Job(
        variant.arrays(), strategy, *variant.draw_arrays(), n_boxes, open_boxes, share_seen,
        _key(seed), rounds, plan.arrays(variant), np.array(plan.antes, float), threads,
    )  # fmt: skip
    blocks = -(-rounds // engine.BLOCK)
    client = client or current_client()
    if chunk_blocks is None:
        chunk_blocks = CHUNK_BLOCKS if client is None else CLUSTER_CHUNK_BLOCKS
    size = 1 if strategy.memoized and client is None else chunk_blocks
    units = [(first, min(size, blocks - first)) for first in range(0, blocks, size)]
    kept = checkpoint and _Checkpoint(checkpoint, variant, job, seed, plan, size)
    pending = [unit for unit in units if not (kept and kept.has(unit))]
    totals = _Totals(n_boxes)
    done_blocks, interrupted = 0, False
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        play = functools.partial(_play_unit, progress=progress) if client is None else _play_unit
        computed = (chunk for _, chunk in unit_results(client, play, pending, job))
        for unit in units:
            if kept and kept.has(unit):
                chunk = kept.load(unit)
                if chunk is None:  # its file cannot be read: played again, here
                    chunk = _play_unit(job, unit, progress)
                    kept.save(unit, chunk)
            else:
                chunk = next(computed)
                if kept:
                    kept.save(unit, chunk)
            totals.add(chunk, job.antes)
            done_blocks += unit[1]
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
        floats=totals.floats,
        ints=totals.ints,
        cross=totals.cross,
        whole=totals.whole,
        largest=totals.largest,
        block_nets=totals.block_nets(),
        plan=plan,
        open_boxes=open_boxes,
        share_seen=share_seen,
        interrupted=interrupted,
        threads=threads or previous_threads,
    )


class PrecisionError(ValueError):
    """A target precision that needs more rounds than allowed."""


PILOT_ROUNDS = 16 * engine.BLOCK
"""Rounds played first to estimate how many a target precision needs."""


def rounds_needed(standard_deviation: float, target_se: float) -> int:
    """Rounds, in whole blocks, for the RTP's standard error to reach ``target_se`` at
    this standard deviation of the round."""
    rounds = math.ceil((standard_deviation / target_se) ** 2)
    return max(2, -(-rounds // engine.BLOCK)) * engine.BLOCK


def run_to_precision(
    variant: Variant | str,
    strategy: Strategy | str | Callable = "basic",
    target_se: float = 0.001,
    *,
    max_rounds: int = 10**10,
    **options,
) -> SimulationResult:
    """Play until the RTP's standard error is at most ``target_se``: a pilot run
    estimates the round's standard deviation, and the rounds it asks for are played from
    the first (again, with more, while the estimate falls short). ``options`` are those
    of :func:`run`; the same seed and target give the same rounds. ValueError when the
    target needs more than ``max_rounds`` (``PrecisionError``)."""
    if not (isinstance(target_se, int | float) and math.isfinite(target_se) and target_se > 0):
        raise ValueError(f"target_se must be a positive number, got {target_se!r}")
    rounds = min(PILOT_ROUNDS, max_rounds)
    while True:
        result = run(variant, strategy, rounds, **options)
        if result.interrupted or result.summary["standard_error"] <= target_se:
            return result
        wanted = max(rounds_needed(result.summary["standard_deviation"], target_se), rounds + 1)
        if wanted > max_rounds:
            raise PrecisionError(
                f"a standard error of {target_se:g} needs about {wanted:,} rounds, more than "
                f"the {max_rounds:,} allowed"
            )
        rounds = wanted


class _Job(NamedTuple):
    """What every unit of a run reads: the kernel's inputs but the blocks."""

    arrays: tuple
    strategy: Strategy
    fees: np.ndarray
    forced: np.ndarray
    boxes: int
    open_boxes: int
    share_seen: bool
    key: np.uint64
    rounds: int
    stakes: np.ndarray
    antes: np.ndarray
    threads: int | None


def _play_unit(
    job: _Job, unit: tuple[int, int], progress: Callable[[int], None] | None = None
) -> _Chunk:
    """Play ``unit`` (first block, blocks) of a run: the same figures on any process."""
    first_block, count = unit
    if job.threads is not None:
        numba.set_num_threads(min(job.threads, numba.config.NUMBA_NUM_THREADS))
    start = first_block * engine.BLOCK
    stop = min(start + count * engine.BLOCK, job.rounds)
    computing = _situations_progress(progress, start, stop)
    strategy = job.strategy
    exact = strategy.decisions(job.key, start, stop, computing, job.boxes, job.open_boxes)
    chunk = _Chunk(count, job.boxes)
    engine.play_blocks_jit(
        job.arrays,
        strategy.decider,
        int(strategy.game_mode),  # plain ints: one compiled engine for every strategy
        exact,
        exact_options(exact),
        job.fees,
        job.forced,
        job.open_boxes,
        int(job.share_seen),
        job.key,
        job.rounds,
        first_block,
        job.stakes,
        job.antes,
        *chunk.arrays,
    )
    return chunk.compact()


ROUND_SOURCES = (  # the kernels whose code decides a round's result
    "_engine.py",
    "_strategy.py",
    "_settlement.py",
    "_evaluator.py",
    "_tables.py",
    "_exact_play.py",
    "_decisions.py",
    "_situation.py",
    "_exact.py",
    "codes.py",
)


class _Checkpoint:
    """The finished chunks of one run, a file each in a folder, keyed to the run (its
    rules, strategy, seed, rounds, boxes, chunk size and the kernels' code) so that a
    folder holding another run's chunks is refused rather than mixed in."""

    def __init__(
        self, folder: str | Path, variant: Variant, job: _Job, seed: int, plan: StakePlan,
        size: int,
    ):  # fmt: skip
        self.folder = Path(folder)
        described = {
            "variant": {"name": variant.name, "rules_hash": variant.rules_hash},
            "strategy": job.strategy.record(),
            "seed": seed,
            "rounds": job.rounds,
            "stake_plan": plan.record(),
            "open_boxes": job.open_boxes,
            "share_seen": bool(job.share_seen),
            "chunk_blocks": size,
            "kernels": source_hash(*ROUND_SOURCES),
        }
        self.key = hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()
        run_file = self.folder / "run.json"
        if run_file.exists():
            try:
                key = json.loads(run_file.read_text())["key"]
            except (OSError, ValueError, KeyError, TypeError):
                key = None
            if key != self.key:
                raise ValueError(
                    f"checkpoint {self.folder}: holds the chunks of another run (or of older "
                    "code); give another folder, or delete it to start again"
                )
        else:
            try:
                write_json(run_file, {"key": self.key, "run": described})
            except OSError as error:
                raise ValueError(f"checkpoint {self.folder}: {error.strerror}") from None
        self.finished = {path.name for path in self.folder.glob("chunk-*.npz")}

    def _path(self, unit: tuple[int, int]) -> Path:
        return self.folder / f"chunk-{unit[0]:010d}.npz"

    def has(self, unit: tuple[int, int]) -> bool:
        return self._path(unit).name in self.finished

    def load(self, unit: tuple[int, int]) -> _Chunk | None:
        """The unit's chunk as written, or None where its file cannot be read."""
        saved = read_keyed_npz(self._path(unit), self.key)
        return None if saved is None else _Chunk.of_arrays(saved)

    def save(self, unit: tuple[int, int], chunk: _Chunk) -> None:
        write_npz(self._path(unit), key=np.array(self.key), **chunk.named_arrays())


class _Totals:
    """The sums of a run's chunks, added block by block in the blocks' order."""

    def __init__(self, boxes: int):
        self.floats = np.zeros((boxes, engine.FLOATS))
        self.ints = np.zeros((boxes, engine.INTS), dtype=np.int64)
        self.cross = np.zeros((boxes, boxes))
        self.whole = np.zeros(len(engine.Whole))
        self.largest = np.full(boxes + 1, -np.inf)
        self._block_nets = []

    def add(self, chunk: _Chunk, antes: np.ndarray) -> None:
        count = len(chunk.whole)
        for total, rows in [(self.floats, chunk.floats), (self.cross, chunk.cross)]:
            engine.add_rows_in_order_jit(total.reshape(-1), rows.reshape(count, -1))
        engine.add_rows_in_order_jit(self.whole, chunk.whole)
        self.ints += chunk.ints.sum(axis=0)
        self.largest = np.maximum(self.largest, chunk.largest.max(axis=0))
        self._block_nets.append(chunk.block_nets(antes.sum()))

    def block_nets(self) -> np.ndarray:
        if not self._block_nets:
            return np.zeros((0, len(self.largest)))
        return np.concatenate(self._block_nets)


_CHUNK_ARRAYS = ("floats", "ints", "cross", "whole", "largest")


class _Chunk:
    """The outputs of one kernel call: a row per block."""

    def __init__(self, blocks: int, boxes: int):
        self.floats = np.zeros((blocks, boxes, engine.FLOATS))
        self.ints = np.zeros((blocks, boxes, engine.INTS), dtype=np.int64)
        self.cross = np.zeros((blocks, boxes, boxes))
        self.whole = np.zeros((blocks, len(engine.Whole)))
        self.largest = np.zeros((blocks, boxes + 1))
        self.arrays = (self.floats, self.ints, self.cross, self.whole, self.largest)

    def compact(self) -> _Chunk:
        """The chunk as it travels and is kept: every block's floats (added in order),
        the integer counts and the largest nets of the chunk as a whole."""
        return _Chunk.of_arrays(
            {
                "floats": self.floats,
                "ints": self.ints.sum(axis=0, keepdims=True),
                "cross": self.cross,
                "whole": self.whole,
                "largest": self.largest.max(axis=0, keepdims=True),
            }
        )

    def named_arrays(self) -> dict[str, np.ndarray]:
        return dict(zip(_CHUNK_ARRAYS, self.arrays, strict=True))

    @classmethod
    def of_arrays(cls, arrays: dict[str, np.ndarray]) -> _Chunk:
        chunk = cls.__new__(cls)
        chunk.arrays = tuple(arrays[name] for name in _CHUNK_ARRAYS)
        chunk.floats, chunk.ints, chunk.cross, chunk.whole, chunk.largest = chunk.arrays
        return chunk

    def block_nets(self, antes: float) -> np.ndarray:
        """Each block's net per box, then the round's per ante (``antes``: the round's)."""
        whole = self.whole[:, engine.Whole.NET] / antes
        return np.column_stack([self.floats[:, :, engine.NET], whole])


@dataclass
class SimulationResult:
    """What a simulation found; tables as pandas objects, everything as JSON.

    Per box (rows of ``floats``, ``ints``; ``cross`` the sums of the products of
    two boxes' nets) and for the round as a whole (``whole``: its net per ante of
    the round, the boxes weighed by their antes); ``block_nets`` per block of 4,096
    rounds, a column per box then the round's.
    """

    variant: Variant
    strategy: Strategy
    seed: int
    rounds_asked: int
    rounds: int
    floats: np.ndarray
    ints: np.ndarray
    cross: np.ndarray
    whole: np.ndarray
    largest: np.ndarray
    block_nets: np.ndarray
    plan: StakePlan
    open_boxes: int
    share_seen: bool
    interrupted: bool
    threads: int

    @property
    def boxes(self) -> int:
        """How many boxes each round has."""
        return self.plan.boxes

    def _moments(self, total: float, squares: float) -> dict:
        n = self.rounds
        mean = total / n if n else math.nan
        variance = (squares / n - mean * mean) * n / (n - 1) if n > 1 else math.nan
        sd = math.sqrt(max(variance, 0.0)) if n > 1 else math.nan
        se = sd / math.sqrt(n) if n > 1 else math.nan
        return {"mean": mean, "variance": variance, "sd": sd, "se": se}

    @property
    def summary(self) -> dict:
        """The headline figures of the round as a whole, per ante of the round (with one
        box: per box)."""
        n, whole, antes = self.rounds, self.whole.tolist(), sum(self.plan.antes)
        wagered = float(np.array(self.plan.antes) @ self.floats[:, engine.WAGER]) / antes
        net = whole[engine.Whole.NET] / antes
        main = self._moments(net, whole[engine.Whole.NET2] / antes**2)
        rtp = 1 + main["mean"]
        out = {
            "rounds": n,
            "boxes": self.boxes,
            "total_wagered": wagered,
            "net": net,
            "rtp": rtp,
            "house_edge": -main["mean"],
            "element_of_risk": -net / wagered if n else math.nan,
            "average_total_bet": wagered / n if n else math.nan,
            "variance": main["variance"],
            "standard_deviation": main["sd"],
            "standard_error": main["se"],
            "rtp_ci95": [rtp - Z95 * main["se"], rtp + Z95 * main["se"]],
            "rtp_ci99": [rtp - Z99 * main["se"], rtp + Z99 * main["se"]],
            "hit_frequency": int(whole[engine.Whole.HITS]) / n if n else math.nan,
            "largest_win": float(self.largest[-1]) / antes,
        }
        if self.variant.bonus_pays:
            out |= (
                self._bonus(0)
                if self.boxes == 1
                else {"bonus_rtp": 1 + self.floats[:, engine.BONUS].sum() / (n * self.boxes)}
            )
        if self.plan.account is not None:
            staked = sum(self.plan.antes) + sum(self.plan.bonus_bets)
            capped = self._moments(whole[engine.Whole.CAPPED], whole[engine.Whole.CAPPED2])
            out |= {
                "capped_rtp": 1 + capped["mean"] / staked,
                "capped_rtp_ci95": [
                    1 + (capped["mean"] - Z95 * capped["se"]) / staked,
                    1 + (capped["mean"] + Z95 * capped["se"]) / staked,
                ],
            }
        return out

    def _bonus(self, box: int) -> dict:
        f = self.floats[box].tolist()
        bonus = self._moments(f[engine.BONUS], f[engine.BONUS2])
        return {
            "bonus_rtp": 1 + bonus["mean"],
            "bonus_standard_deviation": bonus["sd"],
            "bonus_rtp_ci95": [
                1 + bonus["mean"] - Z95 * bonus["se"],
                1 + bonus["mean"] + Z95 * bonus["se"],
            ],
        }

    @property
    def box_figures(self) -> pd.DataFrame:
        """RTP, house edge and the rest per box, in the order the boxes are played (per
        ante of the box)."""
        rows = []
        for box in range(self.boxes):
            f = self.floats[box].tolist()
            main = self._moments(f[engine.NET], f[engine.NET2])
            rtp = 1 + main["mean"]
            row = {
                "box": box + 1,
                "kind": "open" if box < self.open_boxes else "blind",
                "ante": self.plan.antes[box],
                "rtp": rtp,
                "house_edge": -main["mean"],
                "element_of_risk": -f[engine.NET] / f[engine.WAGER],
                "average_total_bet": f[engine.WAGER] / self.rounds,
                "standard_deviation": main["sd"],
                "standard_error": main["se"],
                "rtp_ci95_low": rtp - Z95 * main["se"],
                "rtp_ci95_high": rtp + Z95 * main["se"],
                "hit_frequency": int(self.ints[box, engine.HITS]) / self.rounds,
                "largest_win": float(self.largest[box]),
            }
            if self.variant.bonus_pays:
                bonus = self._bonus(box)
                row |= {
                    "bonus_rtp": bonus["bonus_rtp"],
                    "bonus_standard_deviation": bonus["bonus_standard_deviation"],
                }
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def covariance(self) -> pd.DataFrame:
        """The covariance of the boxes' nets in a round, in antes squared."""
        n = self.rounds
        means = self.floats[:, engine.NET] / n
        lower = np.tril(self.cross)
        products = lower + np.tril(lower, -1).T
        covariance = (products / n - np.outer(means, means)) * n / (n - 1)
        labels = [f"box {box + 1}" for box in range(self.boxes)]
        return pd.DataFrame(covariance, index=labels, columns=labels)

    @property
    def correlation(self) -> pd.DataFrame:
        """The correlation of the boxes' nets in a round."""
        covariance = self.covariance
        sd = np.sqrt(np.diag(covariance.to_numpy()))
        return covariance / np.outer(sd, sd)

    def _outcome_rows(self, boxes: list[int]) -> list[dict]:
        played = self.rounds * len(boxes)
        rows = []
        for outcome in Outcome:
            for category in Category:
                cell = outcome * CATEGORIES + category
                count = int(self.ints[boxes, engine.CELL_COUNT + cell].sum())
                if count:
                    net = float(self.floats[boxes, engine.CELL_NET + cell].sum())
                    rows.append(
                        {
                            "outcome": outcome.label,
                            "category": category.label,
                            "count": count,
                            "frequency": count / played,
                            "average_net": net / count,
                            "contribution": net / played,
                        }
                    )
        return rows

    @property
    def outcomes(self) -> pd.DataFrame:
        """Frequency and return contribution of each outcome by the final hand's category,
        per box played (every box together)."""
        return pd.DataFrame(self._outcome_rows(list(range(self.boxes))))

    def box_outcomes(self) -> pd.DataFrame:
        """``outcomes`` of each box, a row per box, outcome and category."""
        rows = [
            {"box": box + 1} | row
            for box in range(self.boxes)
            for row in self._outcome_rows([box])
        ]
        return pd.DataFrame(rows)

    @property
    def decisions(self) -> pd.DataFrame:
        """How often each decision was taken, per box played (every box together)."""
        counts = self.ints[:, engine.DECISION_COUNT : engine.DECISION_COUNT + DECISIONS].sum(0)
        played = self.rounds * self.boxes
        rows = [
            {"decision": name, "count": int(c), "frequency": c / played}
            for name, c in zip(DECISION_NAMES, counts, strict=True)
            if c
        ]
        return pd.DataFrame(rows)

    def net_distribution(self) -> pd.DataFrame:
        """How often each box's result (in antes, to the half ante) came up, per box
        played (every box together)."""
        counts = self.ints[:, engine.NET_COUNT : engine.NET_COUNT + engine.NET_BINS].sum(0)
        (bins,) = np.nonzero(counts)
        return pd.DataFrame(
            {
                "net": engine.NET_LOW + bins / 2.0,
                "count": counts[bins],
                "frequency": counts[bins] / (self.rounds * self.boxes),
            }
        )

    def convergence(self, points: int = 200) -> pd.DataFrame:
        """The running RTP of the round at up to ``points`` checkpoints (block ends)."""
        if not len(self.block_nets):
            return pd.DataFrame({"rounds": [], "rtp": []})
        ends = np.minimum((np.arange(len(self.block_nets)) + 1) * engine.BLOCK, self.rounds)
        running = 1 + np.cumsum(self.block_nets[:, -1]) / ends
        pick = np.unique(np.linspace(0, len(ends) - 1, min(points, len(ends))).round().astype(int))
        return pd.DataFrame({"rounds": ends[pick], "rtp": running[pick]})

    def __repr__(self) -> str:
        figures = self.summary
        return (
            f"<SimulationResult {self.variant.name}, {self.strategy.name}, "
            f"{self.rounds:,} rounds, seed {self.seed}: RTP {figures['rtp']:.4f} "
            f"(SE {figures['standard_error']:.4f})>"
        )

    def save(self, path: str | Path) -> Path:
        """Write :meth:`to_json` to ``path``, atomically."""
        return write_json(path, self.to_json())

    def to_json(self) -> dict:
        """Everything, with what is needed to reproduce it."""
        out = {
            "software": software(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": self.variant.record(),
            "strategy": self.strategy.record(),
            "seed": self.seed,
            "generator": "SplitMix64 stream per round from numpy SeedSequence(seed)",
            "rounds_asked": self.rounds_asked,
            "interrupted": self.interrupted,
            "stake_plan": self.plan.record(),
            "summary": self.summary,
            "outcomes": self.outcomes.to_dict(orient="records"),
            "decisions": self.decisions.to_dict(orient="records"),
            "net_distribution": self.net_distribution().to_dict(orient="records"),
            "convergence": self.convergence().to_dict(orient="list"),
        }
        if self.boxes > 1:
            out |= {
                "boxes_see_earlier_boxes": self.share_seen,
                "boxes": self.box_figures.to_dict(orient="records"),
                "covariance": self.covariance.to_numpy().tolist(),
                "correlation": self.correlation.to_numpy().tolist(),
                "box_outcomes": self.box_outcomes().to_dict(orient="records"),
            }
        return out
