"""Benchmarks: studsim beside the libraries a Python user would pick instead."""

from __future__ import annotations

import functools
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numba
import numpy as np

from .cards import format_card, random_hands
from .evaluator import count_categories, evaluate
from .provenance import __version__

__all__ = [
    "bench_eval",
    "bench_exact",
    "bench_simulate",
    "format_eval_report",
    "format_exact_report",
    "format_simulate_report",
]

# a typical situation of every variant: ace-king and small cards, a queen up
ADVISE_HAND, ADVISE_UPCARD = "As Kd 7h 6c 2s", "Qh"

_FIRST_VALUE = """
import time
start = time.perf_counter()
from simulate.evaluator import hand_value
hand_value("As Ks Qs Js Ts 9s")
hand_value("As Ks Qs Js Ts")
print(time.perf_counter() - start)
"""


def _machine() -> dict:
    """What the figures were measured on."""
    return {
        "cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


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
        "machine": _machine(),
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


def _eval7_caribbean_loop(rounds: int, seed: int) -> float:
    """Rounds per second of Caribbean Stud, pair-or-better, as a Python user would write it."""
    import random

    import eval7

    deck = [eval7.Card(format_card(card)) for card in range(52)]
    pair = eval7.evaluate([deck[c] for c in (0, 1, 6, 10, 14)])  # the lowest pair, 2-2-3-4-5
    ak = eval7.evaluate([deck[c] for c in (0, 4, 8, 44, 48)])  # the lowest ace-king, A-K-4-3-2
    pays = {
        "Pair": 1,
        "Two Pair": 2,
        "Trips": 3,
        "Straight": 4,
        "Flush": 5,
        "Full House": 7,
        "Quads": 20,
        "Straight Flush": 50,
    }
    rng = random.Random(seed)
    start = time.perf_counter()
    net = 0.0
    for _ in range(rounds):
        cards = rng.sample(deck, 10)
        player = eval7.evaluate(cards[:5])
        if player < pair:
            net -= 1
            continue
        dealer = eval7.evaluate(cards[5:])
        if dealer < ak:
            net += 1
        elif player > dealer:
            kind = eval7.handtype(player)
            royal = kind == "Straight Flush" and player == eval7.evaluate(
                [deck[c] for c in (32, 36, 40, 44, 48)]
            )
            net += 1 + 2 * (100 if royal else pays[kind])
        elif player < dealer:
            net -= 3
    return rounds / (time.perf_counter() - start)


def bench_simulate(
    rounds: int = 2_000_000, python_rounds: int = 100_000, seed: int = 1, repeats: int = 3
) -> dict:
    """Rounds per second of each variant's basic strategy and (with draws) its derived
    expert one, and of Caribbean Stud with pair-or-better beside a plain Python loop over
    eval7."""
    from .simulation import run
    from .variant import load_variant, variant_names

    threads = numba.config.NUMBA_NUM_THREADS
    cases = [("caribbean", "pair-or-better")] + [(name, "basic") for name in variant_names()]
    cases += [(name, "expert") for name in variant_names() if load_variant(name).has_draws]
    rows = []
    for variant, strategy in cases:
        run(variant, strategy, 10_000, seed=seed)  # compile or load the kernels first
        row = {"variant": variant, "strategy": strategy}
        for count in sorted({1, threads}):
            seconds = _best_time(
                lambda v=variant, s=strategy, c=count: run(v, s, rounds, seed=seed, threads=c),
                repeats,
            )
            row[f"rounds_per_s_{count}_threads"] = rounds / seconds
        row["rtp"] = run(variant, strategy, rounds, seed=seed).summary["rtp"]
        rows.append(row)
    multi_box = _multi_box_rows(rows, rounds, seed, repeats, threads)
    parts = _time_round_parts("caribbean", "pair-or-better", rounds, seed, repeats)
    python_rate = _eval7_caribbean_loop(python_rounds, seed)
    studsim_rate = rows[0][f"rounds_per_s_{threads}_threads"]
    return {
        "benchmark": "simulate",
        "software": {
            "studsim": __version__,
            "numba": numba.__version__,
            "eval7": _package_version("eval7"),
        },
        "machine": _machine(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "rounds": rounds,
        "repeats": repeats,
        "rows": rows,
        "multi_box_rows": multi_box,
        "round_parts": parts,
        "python_eval7_caribbean": {"rounds": python_rounds, "rounds_per_s": python_rate},
        "studsim_over_python": studsim_rate / python_rate,
        "targets": {
            "caribbean pair-or-better, all threads >= 20,000,000 rounds/s": studsim_rate >= 20e6,
            "russian and six-card basic, all threads >= 5,000,000 rounds/s": all(
                row[f"rounds_per_s_{threads}_threads"] >= 5e6
                for row in rows
                if row["variant"] in ("russian", "six-card") and row["strategy"] == "basic"
            ),
            "every basic strategy, all threads >= 1,000,000 rounds/s": all(
                row[f"rounds_per_s_{threads}_threads"] >= 1e6
                for row in rows
                if row["strategy"] == "basic"
            ),
            "every three-box round >= a third of the one-box rate": all(
                row["over_one_box"] >= 1 / 3 for row in multi_box if row["boxes"] == 3
            ),
        },
    }


ROUND_PARTS = (
    ("dealing", "deal the 10 cards"),
    ("evaluating", "evaluate both hands"),
    ("deciding and settling", "the decision, the dealer's qualifier, settling"),
    ("adding up", "add the results to the sums, and the run's own work"),
)


def _round_arguments(variant, strategy, key: np.uint64, rounds: int) -> tuple:
    """The arguments of ``_round_parts.round_blocks_jit`` before the seed's key."""
    from .simulation import exact_options

    exact = strategy.decisions(key, 0, rounds)
    fees, forced = variant.draw_arrays()
    game_mode = int(strategy.game_mode)
    return variant.arrays(), strategy.decider, game_mode, exact, exact_options(exact), fees, forced


def _time_round_parts(variant_name: str, strategy_name: str, rounds: int, seed: int, repeats: int):
    """Nanoseconds per round of each part of a one-box round of the strategy, on one thread
    (on two, the parts' times were seen not to add up): the kernels of ``_round_parts``
    play the first parts only, ``run`` all; each part is the difference of two best
    times, over whole blocks of rounds."""
    from . import _round_parts as parts
    from .catalog import load_strategy
    from .simulation import _key, run
    from .variant import load_variant

    variant = load_variant(variant_name)
    strategy = load_strategy(strategy_name, variant)
    key, blocks = _key(seed), max(rounds // parts.BLOCK, 1)
    rounds = blocks * parts.BLOCK
    arrays = _round_arguments(variant, strategy, key, rounds)
    out = np.zeros(blocks)
    kernels = (
        (parts.deal_blocks_jit, (False,)),
        (parts.deal_blocks_jit, (True,)),  # and evaluate
        (parts.round_blocks_jit, arrays),
    )
    for kernel, first in kernels:
        kernel(*first, key, 1, out)  # compile or load the kernels first
    stages = [functools.partial(kernel, *first, key, blocks, out) for kernel, first in kernels]
    stages.append(lambda: run(variant, strategy, rounds, seed=seed, threads=1))
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        cumulative = [_best_time(stage, repeats) / rounds * 1e9 for stage in stages]
    finally:
        numba.set_num_threads(previous)
    spent = np.diff([0.0, *cumulative]).tolist()
    ns_per_round = dict(zip((name for name, _ in ROUND_PARTS), spent, strict=True))
    return {
        "variant": variant_name,
        "strategy": strategy_name,
        "rounds": rounds,
        "threads": 1,
        "ns_per_round": ns_per_round,
    }


def _multi_box_rows(rows: list[dict], rounds: int, seed: int, repeats: int, threads: int):
    """Rounds per second of each variant's basic strategy on its most boxes (equal antes),
    beside its one-box rate."""
    from .simulation import run
    from .variant import load_variant

    out = []
    for row in rows[1:]:
        variant = load_variant(row["variant"])
        if variant.boxes == 1 or row["strategy"] != "basic":
            continue
        boxes = variant.boxes
        run(variant, "basic", 10_000, seed=seed, boxes=boxes)
        seconds = _best_time(
            lambda v=variant, b=boxes: run(
                v, "basic", rounds, seed=seed, boxes=b, threads=threads
            ),
            repeats,
        )
        rate = rounds / seconds
        out.append(
            {
                "variant": variant.name,
                "strategy": "basic",
                "boxes": boxes,
                "open_boxes": min(boxes, variant.open_boxes),
                "rounds_per_s": rate,
                "boxes_per_s": rate * boxes,
                "over_one_box": rate / row[f"rounds_per_s_{threads}_threads"],
            }
        )
    return out


def format_simulate_report(result: dict) -> str:
    """The simulation benchmark as aligned text."""
    threads = result["machine"]["numba_threads"]
    counts = sorted({1, threads})
    lines = [
        f"studsim {result['software']['studsim']} simulate benchmark, {result['date']}, "
        f"{result['machine']['cpus']} CPUs, {result['rounds']:,} rounds a run, best of "
        f"{result['repeats']}, seed {result['seed']}",
        "",
        f"{'variant':<14} {'strategy':<15}"
        + "".join(f" {f'rounds/s, {c} thread' + ('s' if c > 1 else ''):>22}" for c in counts)
        + f" {'rtp':>10}",
    ]
    for row in result["rows"]:
        lines.append(
            f"{row['variant']:<14} {row['strategy']:<15}"
            + "".join(f" {row[f'rounds_per_s_{c}_threads']:>22,.0f}" for c in counts)
            + f" {row['rtp']:>10.6f}"
        )
    lines += [
        "",
        f"several boxes against one dealer, basic strategy, {threads} threads:",
        f"{'variant':<14} {'boxes':>5} {'open':>5} {'rounds/s':>12} {'boxes/s':>12} "
        f"{'of 1-box rate':>13}",
    ]
    for row in result.get("multi_box_rows", []):
        lines.append(
            f"{row['variant']:<14} {row['boxes']:>5} {row['open_boxes']:>5} "
            f"{row['rounds_per_s']:>12,.0f} {row['boxes_per_s']:>12,.0f} "
            f"{row['over_one_box']:>13.4f}"
        )
    lines += _format_round_parts(result["round_parts"]) if "round_parts" in result else []
    python = result["python_eval7_caribbean"]
    lines += [
        "",
        f"caribbean pair-or-better as a plain Python loop over eval7: "
        f"{python['rounds_per_s']:,.0f} rounds/s ({python['rounds']:,} rounds); "
        f"studsim on {threads} threads is {result['studsim_over_python']:,.1f}x faster",
        "",
    ]
    lines += [
        f"target {name}: {'met' if met else 'NOT met'}" for name, met in result["targets"].items()
    ]
    return "\n".join(lines) + "\n"


def _format_round_parts(parts: dict) -> list[str]:
    """Where a round's time goes, as aligned lines."""
    spent = parts["ns_per_round"]
    lines = [
        "",
        f"where a {parts['variant']} {parts['strategy']} round's time goes on 1 thread, "
        "ns per round (each part the difference of two best times):",
    ]
    for name, what in ROUND_PARTS:
        lines.append(f"{name:<22} {spent[name]:>8.2f}  {what}")
    lines.append(f"{'whole round':<22} {sum(spent.values()):>8.2f}")
    return lines


def bench_exact(variants: list[str] | None = None) -> dict:
    """Time of the full exact caribbean analysis; advise latency per variant, beside the
    pruned situation kernel where it applies; the time of the whole game under optimal
    play with draws, projected from a measured sample of classes; the optimal
    strategy's throughput per variant with draws."""
    from .exact import advise, exact_game
    from .optimal_game import supports_exact_draws
    from .variant import load_variant, variant_names

    advise("caribbean", ADVISE_HAND, ADVISE_UPCARD)  # load the tables, compile
    advise("six-card", ADVISE_HAND, ADVISE_UPCARD)  # and the kernels of the dealer's game
    start = time.perf_counter()
    result = exact_game("caribbean", cached=False)
    exact_seconds = time.perf_counter() - start
    names = variants or variant_names()
    rows = []
    for name in names:
        start = time.perf_counter()
        options = advise(name, ADVISE_HAND, ADVISE_UPCARD, game=False)
        seconds = time.perf_counter() - start
        game_seconds = None
        if load_variant(name).buy_game is not None:
            start = time.perf_counter()
            options = advise(name, ADVISE_HAND, ADVISE_UPCARD)
            game_seconds = time.perf_counter() - start
        rows.append(
            {
                "variant": name,
                "hand": ADVISE_HAND,
                "upcard": ADVISE_UPCARD,
                "options": len(options),
                "seconds": seconds,
                "game_seconds": game_seconds,
                "best": options.loc[options["best"], "option"].iloc[0],
                "pruned_kernel_seconds": _situation_seconds(name),
            }
        )
    drawing = [name for name in names if load_variant(name).has_draws]
    whole = [
        _whole_game_seconds(load_variant(n))
        for n in drawing
        if supports_exact_draws(load_variant(n))
    ]
    sampled = [
        row
        for n in drawing
        if not supports_exact_draws(load_variant(n))
        for short_draws in SAMPLED_SPLITS
        for row in _sampled_seconds(n, short_draws)
    ]
    optimal = [_optimal_throughput(name) for name in drawing]
    targets = {"full caribbean analysis under 2 minutes": exact_seconds < 120}
    for row in whole:
        targets[f"whole {row['variant']} game under optimal play in 30 minutes"] = (
            row["projected_seconds"] < 1800
        )
    for row in optimal:
        if row["from"] == "table":
            targets[f"optimal {row['variant']} simulated at 1M rounds/s"] = (
                row["rounds_per_s"] >= 1e6
            )
    for row in sampled:
        if row["hours_to_half_width"]:
            target = f"{row['variant']}: 99.9% half-width 0.0005 within 1 hour"
            met = row["hours_to_half_width"]["0.0005"] <= 1
            targets[target] = targets.get(target, False) or met  # by any way of sampling
        if free := row["hours_to_distribution_free_half_width"]:
            target = f"{row['variant']}: distribution-free half-width 0.0005 within 1 hour"
            targets[target] = targets.get(target, False) or free["0.0005"] <= 1
    return {
        "benchmark": "exact",
        "software": {"studsim": __version__, "numba": numba.__version__},
        "machine": _machine(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "caribbean_exact_seconds": exact_seconds,
        "caribbean_house_edge": result.summary["house_edge"],
        "caribbean_deals": result.summary["deals"],
        "advise": rows,
        "whole_game": whole,
        "sampled": sampled,
        "optimal": optimal,
        "targets": targets,
    }


def _situation_seconds(name: str) -> float | None:
    """Best of five times of the pruned kernel on the advise situation (None where it
    does not apply)."""
    from . import _situation
    from .cards import parse_cards
    from .exact import first_options, value_lists
    from .optimal_game import situation_tables, supports_exact_draws
    from .variant import load_variant

    variant = load_variant(name)
    if not supports_exact_draws(variant):
        return None
    v, lists = variant.arrays(), value_lists()
    tables = situation_tables(lists, v)
    options = first_options(variant)[0]
    fees, forced = variant.draw_arrays()
    hand = np.sort(parse_cards(ADVISE_HAND).astype(np.int64))
    upcard = int(parse_cards(ADVISE_UPCARD)[0])
    work = _situation.situation_work(len(options), len(tables[4]))
    evs = np.empty(len(options))

    def one():
        _situation.situation_jit(
            v, tables, lists, hand, upcard, options, fees, forced, True, evs, work
        )

    one()
    return _best_time(one, 5)


# the whole game is timed on every WHOLE_GAME_STRIDE-th class of hands
WHOLE_GAME_STRIDE = 64


def _whole_game_seconds(variant) -> dict:
    """Time of the optimal analysis on a sample of the classes (every 64th, so strong and
    weak hands alike; best of two runs), projected to all of them."""
    from ._exact import canonical_hands_jit
    from .optimal_game import _compute_range, _Inputs

    reps, weights = canonical_hands_jit()
    sample = np.arange(0, len(reps), WHOLE_GAME_STRIDE)
    inputs = _Inputs(variant)
    _compute_range(inputs, reps[:2], weights[:2])  # compile
    seconds = _best_time(lambda: _compute_range(inputs, reps[sample], weights[sample]), 2)
    return {
        "variant": variant.name,
        "classes_timed": len(sample),
        "classes": len(reps),
        "sample_seconds": seconds,
        "situations_per_s": len(sample) * 47 / seconds,
        "projected_seconds": seconds * len(reps) / len(sample),
    }


SAMPLED_TIMED = 4  # situations of a sampled analysis timed per variant
SAMPLED_SPLITS = (2, 0)  # the longest exchange of the enumerated game, timed for each
SAMPLINGS = ((1, False), (8, False), (1, True))
"""Projected for each: (one in K situations of zero proxy gain weighed, drawn by the bound)."""
PROXY_RANK = 6  # the upcard rank whose share of the proxy is timed (each costs about alike)


def _sampled_seconds(name: str, short_draws: int) -> list[dict]:
    """A sampled analysis of optimal play with the game of exchanges of at most
    ``short_draws`` cards enumerated: that game's time projected as above, the proxy's
    and the proven bound's (one upcard rank timed, times 13), the time of one sampled
    situation (every option weighed; the first situations of the seed-1 stream), and for
    each thinning (a row each), from the spread of the saved samples' differences to the
    proxy (to the control, and its time added, where the saved samples were measured
    against it), the samples and hours a 99.9% half-width of 0.0005 and of 0.0001 would take."""
    from .optimal_game import enumerable
    from .optimal_sampled import (
        Z_999,
        sample_situations,
        saved_sampled_optimum,
        situation_gains,
    )
    from .proxy import RAMP
    from .variant import load_variant, with_draws_up_to

    variant = load_variant(name)
    short = with_draws_up_to(variant, short_draws)
    whole = _whole_game_seconds(short) if enumerable(short) else None
    classes, upcards = sample_situations(1, 0)
    situation_gains(variant, classes[:1], upcards[:1], short_draws)  # compile
    start = time.perf_counter()
    situation_gains(variant, classes[:SAMPLED_TIMED], upcards[:SAMPLED_TIMED], short_draws)
    per_situation = (time.perf_counter() - start) / SAMPLED_TIMED
    proxy_seconds = _pass_seconds(variant, short_draws)
    bound_seconds = _bound_seconds(variant, short_draws)
    control_seconds = None  # timed where a saved run used the control
    rows = []
    for thin, by_bound in SAMPLINGS:
        saved = saved_sampled_optimum(variant, short_draws, thin, by_bound)
        row = {
            "variant": name,
            "short_draws": short_draws,
            "thin": thin,
            "by_bound": by_bound,
            "short_game_projected_seconds": whole and whole["projected_seconds"],
            "proxy_seconds": proxy_seconds,
            "bound_seconds": bound_seconds,
            "situations_timed": SAMPLED_TIMED,
            "seconds_per_situation": per_situation,
            "difference_sd": None,
            "hours_to_half_width": None,
            "hours_to_distribution_free_half_width": None,
        }
        if saved is not None and whole:
            figures = saved.summary()  # the spreads are per situation weighed
            sd = figures.get("difference_to_control_sd", figures["difference_to_proxy_sd"])
            passes = proxy_seconds + bound_seconds
            if saved.control:
                control_seconds = control_seconds or _pass_seconds(variant, short_draws, RAMP)
                passes += control_seconds
                row["control_seconds"] = control_seconds
            hours = {}
            for half in ("0.0005", "0.0001"):
                needed = math.ceil((Z_999 * sd / float(half)) ** 2)
                seconds = whole["projected_seconds"] + passes + needed * per_situation
                hours[half] = seconds / 3600
            row |= {"difference_sd": sd, "hours_to_half_width": hours}
            if by_bound:
                needed = {h: _samples_to_free_half_width(saved, float(h)) for h in hours}
                row["samples_to_distribution_free_half_width"] = needed
                row["hours_to_distribution_free_half_width"] = {
                    h: (whole["projected_seconds"] + passes + n * per_situation) / 3600
                    for h, n in needed.items()
                }
        rows.append(row)
    return rows


def _samples_to_free_half_width(saved, half_width: float) -> int:
    """The fewest first samples of a run drawn by the bound whose distribution-free 99.9%
    interval reaches ``half_width`` either side (by bisection: the width falls with the
    samples); where all of them do not, their count scaled as 1 / samples, as the width
    falls where the range sets it."""

    def half(n: int) -> float:
        low, high = saved.free_difference_interval(n)
        return (high - low) / 2

    fewest, most = 1, saved.samples
    if (widest := half(most)) > half_width:
        return math.ceil(most * widest / half_width)
    while fewest < most:
        middle = (fewest + most) // 2
        fewest, most = (fewest, middle) if half(middle) <= half_width else (middle + 1, most)
    return most


def _pass_seconds(variant, short_draws: int, ramp: float = 0.0) -> float:
    """The seconds of a pass of the proxy (the control with a ``ramp``) over every
    situation: one upcard rank timed, times 13."""
    from ._exact import canonical_hands_jit
    from ._proxy import game_proxies_jit
    from .proxy import option_arrays, rank_tables

    reps = canonical_hands_jit()[0]
    sums = [np.empty(len(reps)) for _ in range(3)]  # gains, largest, bounds: not kept
    sums.append(np.empty(len(reps), dtype=np.int64))  # positives
    start = time.perf_counter()
    tables = rank_tables(variant, PROXY_RANK, short_draws, ramp)
    game_proxies_jit(tables, reps, PROXY_RANK, option_arrays(variant, short_draws), *sums)
    return 13 * (time.perf_counter() - start)


def _bound_seconds(variant, short_draws: int) -> float:
    """The seconds of a pass of the proven bound over every situation: one upcard rank
    timed, times 13."""
    from ._exact import canonical_hands_jit
    from ._gain_bound import game_bounds_jit
    from .gain_bound import bound_tables
    from .proxy import option_arrays

    reps = canonical_hands_jit()[0]
    largest, positives = np.empty(len(reps)), np.empty(len(reps), dtype=np.int64)
    sums = np.empty(len(reps))
    fees, _, long, _ = option_arrays(variant, short_draws)
    start = time.perf_counter()
    tables, removals, plays = bound_tables(variant, PROXY_RANK, short_draws)
    game_bounds_jit(
        tables, removals, plays, reps, PROXY_RANK, fees, long, largest, positives, sums
    )
    return 13 * (time.perf_counter() - start)


# rounds of the optimal strategy timed per variant with draws, where each situation met is
# computed as the round is played (no table): about a minute each, by the longest exchange
MEMO_ROUNDS, MEMO_ROUNDS_LONG_EXCHANGES = 4096, 32
TABLE_ROUNDS = 1_000_000
SITUATIONS = 134_459 * 47  # classes of five cards x upcards: the optimal strategy's table


def _optimal_throughput(name: str) -> dict:
    """The optimal strategy simulated from the table of the whole game where there is
    one (best of three runs), else with an empty memo (every situation computed), then
    again with the memo full; beside the basic strategy."""
    from .optimal import optimal_strategy
    from .simulation import run
    from .variant import load_variant

    run(name, "basic", 4096, seed=1)  # compile
    basic_rounds = 1_000_000
    basic = basic_rounds / _best_time(lambda: run(name, "basic", basic_rounds, seed=1), 3)
    row = {"variant": name, "basic_rounds_per_s": basic}
    strategy = optimal_strategy(name)
    if strategy.exact_play.table is not None:
        run(name, strategy, 4096, seed=1)  # compile
        seconds = _best_time(lambda: run(name, strategy, TABLE_ROUNDS, seed=1), 3)
        return row | {
            "from": "table",
            "rounds": TABLE_ROUNDS,
            "rounds_per_s": TABLE_ROUNDS / seconds,
            "basic_over_optimal": basic * seconds / TABLE_ROUNDS,
        }
    longest = max(load_variant(name).exchange_fees, default=0)
    rounds = MEMO_ROUNDS if longest <= 2 else MEMO_ROUNDS_LONG_EXCHANGES
    with tempfile.TemporaryDirectory() as folder:
        strategy = optimal_strategy(name, memo_folder=Path(folder), table=False)
        start = time.perf_counter()
        run(name, strategy, rounds, seed=1)
        cold = time.perf_counter() - start
        situations = strategy.exact_play.computed
        start = time.perf_counter()
        run(name, strategy, rounds, seed=1)
        warm = time.perf_counter() - start
    return row | {
        "from": "memo",
        "rounds": rounds,
        "situations_computed": situations,
        "situations_per_s": situations / cold,
        "rounds_per_s": rounds / warm,
        "rounds_per_s_empty_memo": rounds / cold,
        "basic_over_optimal": basic * cold / rounds,
        "hours_for_every_situation": SITUATIONS / (situations / cold) / 3600,
    }


def format_exact_report(result: dict) -> str:
    """The exact-engine benchmark as aligned text."""
    lines = [
        f"studsim {result['software']['studsim']} exact benchmark, {result['date']}, "
        f"{result['machine']['cpus']} CPUs",
        "",
        f"full caribbean analysis, optimal strategy, {result['caribbean_deals']:,} deals: "
        f"{result['caribbean_exact_seconds']:.4f} s (house edge "
        f"{result['caribbean_house_edge']:.6f})",
        "",
        "one situation, every first option: advise (every option counted, the dealer's game "
        "not bought) beside the pruned kernel of optimal play (best of 5), and advise with the "
        "game counted in every option (one run; best: with the game where counted)",
        f"{'variant':<14} {'hand':<16} {'up':<3} {'options':>7} {'advise s':>10} "
        f"{'pruned s':>10} {'ratio':>8} {'game s':>9}  best",
    ]
    for row in result["advise"]:
        pruned, game = row["pruned_kernel_seconds"], row.get("game_seconds")
        lines.append(
            f"{row['variant']:<14} {row['hand']:<16} {row['upcard']:<3} "
            f"{row['options']:>7} {row['seconds']:>10.4f} "
            + (f"{pruned:>10.6f} {row['seconds'] / pruned:>7.0f}x" if pruned else f"{'':>19}")
            + (f" {game:>9.2f}" if game is not None else f" {'':>9}")
            + f"  {row['best']}"
        )
    lines += [
        "",
        f"the whole game under optimal play: every {WHOLE_GAME_STRIDE}th class of hands timed "
        "(best of 2), projected to every class",
        f"{'variant':<14} {'classes timed':>13} {'seconds':>10} {'situations/s':>13} "
        f"{'projected, every class':>23}",
    ]
    for row in result["whole_game"]:
        lines.append(
            f"{row['variant']:<14} {row['classes_timed']:>13,} {row['sample_seconds']:>10.2f} "
            f"{row['situations_per_s']:>13,.0f} {row['projected_seconds'] / 60:>19.1f} min"
        )
    lines += [
        "",
        "optimal play with longer exchanges, sampled: the game with draws of at most N cards "
        "(0: fold, play, buy) projected as above, the proxy and the proven bound of every "
        "situation (one upcard rank timed, times 13), one sampled situation "
        f"(every option weighed; {SAMPLED_TIMED} timed), and the time to a 99.9% half-width "
        "from the spread of the saved samples' differences to the proxy, or to the control "
        "where they were measured against it (its pass timed the same way and added; K: "
        "one in K situations of zero proxy gain weighed; B: drawn by the bound, and the "
        "time to its distribution-free half-widths from the fewest of its saved samples "
        "reaching them, beyond them their count scaled as 1 / samples)",
        f"{'variant':<14} {'N':>2} {'K':>2} {'short game':>12} {'proxy':>8} {'bound':>8} "
        f"{'control':>8} "
        f"{'s/situation':>12} {'diff. sd':>9} {'to +-0.0005':>12} {'to +-0.0001':>12} "
        f"{'free +-0.0005':>13} {'free +-0.0001':>13}",
    ]
    for row in result["sampled"]:
        short = row["short_game_projected_seconds"]
        hours = row["hours_to_half_width"]
        free = row.get("hours_to_distribution_free_half_width")
        lines.append(
            f"{row['variant']:<14} {row['short_draws']:>2} "
            + (f"{'B':>2} " if row.get("by_bound") else f"{row['thin']:>2} ")
            + (f"{short / 60:>8.1f} min " if short else f"{'not weighed':>12} ")
            + f"{row['proxy_seconds'] / 60:>4.1f} min "
            + f"{row['bound_seconds'] / 60:>4.1f} min "
            + (
                f"{row['control_seconds'] / 60:>4.1f} min "
                if "control_seconds" in row
                else f"{'-':>8} "
            )
            + f"{row['seconds_per_situation']:>12.4f} "
            + (
                f"{row['difference_sd']:>9.5f} "
                f"{hours['0.0005']:>10.2f} h {hours['0.0001']:>10.1f} h"
                if hours
                else f"{'':>9} {'no samples saved':>25}"
            )
            + (f" {free['0.0005']:>11.2f} h {free['0.0001']:>11.1f} h" if free else "")
        )
    lines += [
        "",
        "optimal strategy simulated: from the table of the whole game (best of 3 runs), else "
        "every situation met computed once (empty memo), then the same rounds again",
        f"{'variant':<14} {'from':<5} {'rounds':>9} {'rounds/s':>12} {'basic rounds/s':>14} "
        f"{'basic/optimal':>13} {'situations/s':>12} {'every situation':>15}",
    ]
    for row in result["optimal"]:
        memo = row["from"] == "memo"
        lines.append(
            f"{row['variant']:<14} {row['from']:<5} {row['rounds']:>9,} "
            f"{row['rounds_per_s']:>12,.0f} {row['basic_rounds_per_s']:>14,.0f} "
            f"{row['basic_over_optimal']:>12,.1f}x "
            + (
                f"{row['situations_per_s']:>12.4f} {row['hours_for_every_situation']:>13,.1f} h"
                if memo
                else ""
            )
        )
    lines.append("")
    lines += [
        f"target {name}: {'met' if met else 'NOT met'}" for name, met in result["targets"].items()
    ]
    return "\n".join(lines) + "\n"
