"""The cluster benchmark: the local engine beside Dask worker processes of this machine,
the scheduler's cost per unit, and a projection of wall time on N workers."""

from __future__ import annotations

import math
import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from . import _engine as engine
from .bench import _best_time, _machine, _package_version
from .cluster import cluster_client, unit_results
from .optimal_game import RANGE_CLASSES, exact_optimal_game
from .provenance import __version__
from .simulation import CLUSTER_CHUNK_BLOCKS, run
from .variant import load_variant

__all__ = ["bench_cluster", "format_cluster_report"]

VARIANT, STRATEGY, EXACT_VARIANT = "oasis", "basic", "oasis"
TINY_UNITS = 200


def _nothing(shared, unit):
    return unit


def _warm(seed: int) -> None:
    """Load the kernels (each process, once)."""
    run(VARIANT, STRATEGY, 4 * engine.BLOCK, seed=seed)


def _setups(workers_counts: list[int]) -> list[tuple[str, str | None]]:
    return [("local engine", None)] + [
        (f"{n} worker process{'es' if n > 1 else ''}", f"local:{n}") for n in workers_counts
    ]


def bench_cluster(
    rounds: int = 8_000_000,
    exact_classes: int = 2 * RANGE_CLASSES,
    repeats: int = 3,
    seed: int = 1,
) -> dict:
    """Rounds per second (Oasis, basic) and exact situations per second (Oasis's optimal
    play, its first ``exact_classes`` hand classes, in ranges of 1,024) here and on
    LocalClusters of 1 and 2 worker processes; the scheduler's cost per unit; a
    projection for N machines."""
    cpus = os.cpu_count() or 1
    oasis = load_variant(EXACT_VARIANT)
    rows = []
    overheads = {}
    for label, spec in _setups(sorted({1, cpus})):
        with cluster_client(spec) as client, tempfile.TemporaryDirectory() as checkpoints:
            _warm(seed)
            if client is not None:
                client.run(_warm, seed)
            seconds = _best_time(lambda: run(VARIANT, STRATEGY, rounds, seed=seed), repeats)
            started = time.perf_counter()
            exact_optimal_game(oasis, Path(checkpoints), classes=exact_classes)
            exact_seconds = time.perf_counter() - started
            if client is not None:
                overheads[label] = (
                    _best_time(
                        lambda c=client: list(unit_results(c, _nothing, range(TINY_UNITS))),
                        repeats,
                    )
                    / TINY_UNITS
                )
        rows.append(
            {
                "setup": label,
                "rounds_per_s": rounds / seconds,
                "exact_situations_per_s": exact_classes * 47 / exact_seconds,
            }
        )
    local = rows[0]
    for row in rows:
        row["rounds_over_local"] = row["rounds_per_s"] / local["rounds_per_s"]
        row["exact_over_local"] = row["exact_situations_per_s"] / local["exact_situations_per_s"]
    overhead = max(overheads.values())
    return {
        "benchmark": "cluster",
        "software": {
            "studsim": __version__,
            "dask": _package_version("dask"),
            "distributed": _package_version("distributed"),
        },
        "machine": _machine(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "rounds": rounds,
        "exact_classes": exact_classes,
        "repeats": repeats,
        "simulation": f"{VARIANT}, {STRATEGY}",
        "exact": f"{EXACT_VARIANT}, optimal play with draws, first {exact_classes:,} hand classes",
        "rows": rows,
        "overhead_per_unit_s": overheads,
        "projection": _projection(max(rows[1:], key=lambda row: row["rounds_per_s"]), overhead),
    }


def _projection(best: dict, overhead: float) -> dict:
    """Wall time on N machines like this one, from the rates of its best cluster setup
    (``best``) and the cost per unit: units / N rounds of (unit time + overhead). A
    projection: it leaves out the network, stragglers and start-up."""
    unit_rounds = CLUSTER_CHUNK_BLOCKS * engine.BLOCK
    unit_seconds = unit_rounds / best["rounds_per_s"]
    range_seconds = RANGE_CLASSES * 47 / best["exact_situations_per_s"]
    jobs = {
        "1e9 rounds of oasis basic": (math.ceil(1e9 / unit_rounds), unit_seconds),
        "1e11 rounds of oasis basic": (math.ceil(1e11 / unit_rounds), unit_seconds),
        "the whole exact oasis (134,459 classes)": (
            math.ceil(134_459 / RANGE_CLASSES),
            range_seconds,
        ),
    }
    workers = [1, 4, 16, 64, 256]
    return {
        "setup": best["setup"],
        "method": "wall = ceil(units / N) x (unit seconds on one machine like this "
        f"+ {overhead * 1e3:.2f} ms scheduler overhead per unit); a projection, not a "
        "measurement",
        "workers": workers,
        "jobs": {
            name: {
                "units": units,
                "unit_seconds": seconds,
                "wall_seconds": [math.ceil(units / n) * (seconds + overhead) for n in workers],
            }
            for name, (units, seconds) in jobs.items()
        },
    }


def format_cluster_report(result: dict) -> str:
    """The cluster benchmark as aligned text."""
    lines = [
        f"studsim {result['software']['studsim']} cluster benchmark (dask "
        f"{result['software']['distributed']}), {result['date']}, "
        f"{result['machine']['cpus']} CPUs, best of {result['repeats']}",
        f"simulation: {result['simulation']}, {result['rounds']:,} rounds a run; exact: "
        f"{result['exact']} (one run)",
        "",
        f"{'setup':<22} {'rounds/s':>12} {'of local':>9} {'exact situations/s':>19} "
        f"{'of local':>9}",
    ]
    for row in result["rows"]:
        lines.append(
            f"{row['setup']:<22} {row['rounds_per_s']:>12,.0f} {row['rounds_over_local']:>9.4f} "
            f"{row['exact_situations_per_s']:>19,.1f} {row['exact_over_local']:>9.4f}"
        )
    lines += ["", "scheduler overhead per unit (empty tasks):"]
    lines += [f"  {label}: {s * 1e3:.3f} ms" for label, s in result["overhead_per_unit_s"].items()]
    projection = result["projection"]
    lines += [
        "",
        f"projected wall time on N machines like this one, each with "
        f"{projection['setup']} ({projection['method']}):",
    ]
    header = f"{'job':<42} {'units':>7}" + "".join(
        f" {f'N={n}':>10}" for n in projection["workers"]
    )
    lines.append(header)
    for name, job in projection["jobs"].items():
        lines.append(
            f"{name:<42} {job['units']:>7,}"
            + "".join(f" {_duration(s):>10}" for s in job["wall_seconds"])
        )
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
