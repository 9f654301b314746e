"""Benchmarks: studsim beside the libraries a Python user would pick instead."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

import numba
import numpy as np

from . import __version__
from .cards import format_card, random_hands
from .evaluator import count_categories, evaluate

__all__ = ["bench_eval", "format_eval_report"]

_FIRST_VALUE = """
import time
start = time.perf_counter()
from simulate.evaluator import hand_value
hand_value("As Ks Qs Js Ts 9s")
hand_value("As Ks Qs Js Ts")
print(time.perf_counter() - start)
"""


def _best_time(run: Callable[[], object], repeats: int) -> float:
    """Shortest wall time of ``repeats`` runs, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _peer_evaluators() -> dict[str, tuple[Callable, Callable]]:
    """name -> (convert a hand of our cards, evaluate one converted hand)."""
    peers: dict[str, tuple[Callable, Callable]] = {}
    try:
        import eval7

        cards7 = [eval7.Card(format_card(card)) for card in range(52)]
        peers["eval7"] = (lambda hand: [cards7[c] for c in hand], eval7.evaluate)
    except ImportError:
        pass
    try:
        import treys

        cards_t = [treys.Card.new(format_card(card)) for card in range(52)]
        evaluator = treys.Evaluator()
        peers["treys"] = (
            lambda hand: ([cards_t[c] for c in hand[:2]], [cards_t[c] for c in hand[2:]]),
            lambda split: evaluator.evaluate(*split),
        )
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        # phevaluator numbers cards as studsim does
        peers["phevaluator"] = (list, lambda hand: evaluate_cards(*hand))
    except ImportError:
        pass
    return peers


def _peer_rate(convert: Callable, evaluate_one: Callable, hands: np.ndarray, repeats: int):
    converted = [convert(hand) for hand in hands.tolist()]

    def loop():
        for hand in converted:
            evaluate_one(hand)

    return len(converted) / _best_time(loop, repeats)


def _start_times() -> dict[str, float]:
    """Seconds to the first value in a new process: cold (empty caches), then warm."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, STUDSIM_CACHE_DIR=cache)
        seconds = []
        for _ in ("cold", "warm"):
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_VALUE],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            seconds.append(float(out.stdout.strip()))
    return {"cold_start_s": seconds[0], "warm_start_s": seconds[1]}


def _package_version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def bench_eval(
    hands: int = 2_000_000, peer_hands: int = 100_000, seed: int = 1, repeats: int = 3
) -> dict:
    """Evaluations per second of studsim and its peers on the same random hands."""
    rng = np.random.default_rng(seed)
    deals = {size: random_hands(hands, size, rng) for size in (5, 6)}
    threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for label, thread_count in (("studsim", 1), ("studsim", threads)):
        row = {"evaluator": label, "threads": thread_count}
        for size, deal in deals.items():
            evaluate(deal[:1000], threads=thread_count)  # compile before timing
            seconds = _best_time(
                lambda deal=deal, n=thread_count: evaluate(deal, threads=n, check=False), repeats
            )
            row[f"rate{size}"] = hands / seconds
        rows.append(row)
    for name, (convert, evaluate_one) in _peer_evaluators().items():
        row = {"evaluator": name, "threads": 1}
        for size, deal in deals.items():
            row[f"rate{size}"] = _peer_rate(convert, evaluate_one, deal[:peer_hands], repeats)
        rows.append(row)
    single = rows[0]
    for row in rows:
        for size in (5, 6):
            row[f"studsim_1_thread_ratio{size}"] = single[f"rate{size}"] / row[f"rate{size}"]
    count_categories(5)  # compile before timing
    enumerate_all = _best_time(lambda: count_categories(5), repeats)
    return {
        "benchmark": "eval",
        "software": {"studsim": __version__, "numba": numba.__version__, "numpy": np.__version__}
        | {peer: _package_version(peer) for peer in ("eval7", "treys", "phevaluator")},
        "machine": {
            "cpus": os.cpu_count(),
            "numba_threads": threads,
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "hands": hands,
        "peer_hands": peer_hands,
        "repeats": repeats,
        "note": "random hands from one seed; best of `repeats` runs; studsim without input "
        "checks (evaluate(..., check=False)); peers called once per hand in a Python loop "
        "on the first `peer_hands` hands",
        "rows": rows,
        "enumerate_all_5_card_s": enumerate_all,
        **_start_times(),
    }


def format_eval_report(result: dict) -> str:
    """The benchmark as aligned text."""
    lines = [
        f"studsim {result['software']['studsim']} eval benchmark, {result['date']}, "
        f"{result['machine']['cpus']} CPUs, seed {result['seed']}",
        "",
        f"{'evaluator':<12} {'threads':>7} {'5-card hands/s':>16} {'6-card hands/s':>16} "
        f"{'studsim/it 5':>13} {'studsim/it 6':>13}",
    ]
    for row in result["rows"]:
        lines.append(
            f"{row['evaluator']:<12} {row['threads']:>7} {row['rate5']:>16,.0f} "
            f"{row['rate6']:>16,.0f} {row['studsim_1_thread_ratio5']:>12.4f}x "
            f"{row['studsim_1_thread_ratio6']:>12.4f}x"
        )
    lines += [
        "",
        f"every 5-card hand (2,598,960), enumerated and counted: "
        f"{result['enumerate_all_5_card_s']:.4f} s",
        f"cold start (import, table build, compile, first value): {result['cold_start_s']:.4f} s",
        f"warm start (import, cached tables and kernels, first value): "
        f"{result['warm_start_s']:.4f} s",
        "",
        f"ratios: studsim on 1 thread / each library; {result['note']}.",
    ]
    return "\n".join(lines) + "\n"
