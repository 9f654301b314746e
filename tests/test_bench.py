import json
from types import SimpleNamespace

import numpy as np
from click.testing import CliRunner

from simulate._engine import BLOCK
from simulate._round_parts import round_blocks_jit
from simulate.bench import (
    ROUND_PARTS,
    _round_arguments,
    _samples_to_free_half_width,
    format_exact_report,
)
from simulate.catalog import load_strategy
from simulate.cli import main
from simulate.intervals import betting_interval
from simulate.simulation import _key, run
from simulate.variant import load_variant


def test_bench_eval_writes_and_prints_the_comparison(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "eval",
            "--hands",
            "20000",
            "--peer-hands",
            "2000",
            "--repeats",
            "1",
            "--out-dir",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed == json.loads((tmp_path / "eval.json").read_text())
    names = [row["evaluator"] for row in printed["rows"]]
    assert names[:2] == ["studsim", "studsim"] and {"eval7", "treys", "phevaluator"} <= set(names)
    for row in printed["rows"]:
        assert row["rate5"] > 0 and row["rate6"] > 0
        assert (
            abs(row["studsim_1_thread_ratio5"] * row["rate5"] - printed["rows"][0]["rate5"])
            < 1e-6 * printed["rows"][0]["rate5"]
        )
    assert printed["cold_start_s"] > 0 and printed["warm_start_s"] > 0
    text = (tmp_path / "eval.txt").read_text()
    assert "eval7" in text and "cold start" in text


def test_bench_eval_unwritable_out_dir(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "eval",
            "--hands",
            "1000",
            "--peer-hands",
            "100",
            "--repeats",
            "1",
            "--out-dir",
            str(blocker / "sub"),
        ],
    )
    assert result.exit_code == 2
    assert "cannot write" in result.output and "Traceback" not in result.output


def test_bench_simulate_writes_and_prints(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "bench",
            "simulate",
            "--rounds",
            "8192",
            "--repeats",
            "1",
            "--python-rounds",
            "500",
            "--out-dir",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed == json.loads((tmp_path / "simulate.json").read_text())
    assert [row["variant"] for row in printed["rows"]][:2] == ["caribbean", "caribbean"]
    experts = {row["variant"] for row in printed["rows"] if row["strategy"] == "expert"}
    assert experts == {"oasis", "oasis-classic", "russian", "six-card", "six-card-125"}
    assert all(row["rounds_per_s_1_threads"] > 0 for row in printed["rows"])
    assert printed["python_eval7_caribbean"]["rounds_per_s"] > 0
    assert "plain Python loop over eval7" in (tmp_path / "simulate.txt").read_text()
    multi = {row["variant"]: row for row in printed["multi_box_rows"]}
    assert multi["six-card-125"]["boxes"] == 4 and multi["six-card-125"]["open_boxes"] == 2
    assert all(row["rounds_per_s"] > 0 for row in multi.values())
    assert "several boxes against one dealer" in (tmp_path / "simulate.txt").read_text()
    parts = printed["round_parts"]
    assert list(parts["ns_per_round"]) == [name for name, _ in ROUND_PARTS]
    assert sum(parts["ns_per_round"].values()) > 0
    assert "round's time goes on 1 thread" in (tmp_path / "simulate.txt").read_text()


def test_round_parts_kernel_plays_the_runs_rounds():
    """The kernel that times a round without its sums plays the rounds ``run`` plays."""
    variant = load_variant("caribbean")
    strategy = load_strategy("pair-or-better", variant)
    key, blocks = _key(3), 2
    out = np.zeros(blocks)
    arguments = _round_arguments(variant, strategy, key, blocks * BLOCK)
    round_blocks_jit(*arguments, key, blocks, out)
    assert out.sum() == run(variant, strategy, blocks * BLOCK, seed=3).summary["net"]


def test_bench_cluster_writes_and_prints(tmp_path):
    result = CliRunner().invoke(
        main,
        ["bench", "cluster", "--rounds", "300k", "--exact-classes", "40", "--repeats", "1",
         "--out-dir", str(tmp_path), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed == json.loads((tmp_path / "cluster.json").read_text())
    setups = [row["setup"] for row in printed["rows"]]
    assert setups == ["local engine", "1 worker process", "2 worker processes"]
    assert all(
        row["rounds_per_s"] > 0 and row["exact_situations_per_s"] > 0 for row in printed["rows"]
    )
    assert all(0 < seconds < 1 for seconds in printed["overhead_per_unit_s"].values())
    projection = printed["projection"]
    for job in projection["jobs"].values():  # more machines, less time, never below one unit
        walls = job["wall_seconds"]
        assert walls == sorted(walls, reverse=True) and walls[-1] >= job["unit_seconds"]
    assert "a projection, not a measurement" in (tmp_path / "cluster.txt").read_text()


def test_samples_to_a_distribution_free_half_width_are_the_fewest_that_reach_it():
    """Of a run drawn by the bound: the fewest first samples whose betting interval is
    that narrow; beyond its samples, their count scaled as 1 / samples."""
    differences = np.random.default_rng(3).normal(0.0, 0.01, size=2000)
    saved = SimpleNamespace(
        samples=2000,
        free_difference_interval=lambda n: betting_interval(differences[:n], -0.2, 0.2),
    )

    def half(n):
        low, high = betting_interval(differences[:n], -0.2, 0.2)
        return (high - low) / 2

    target = half(1200)
    needed = _samples_to_free_half_width(saved, target)
    assert needed <= 1200 and half(needed) <= target < half(needed - 1)
    beyond = _samples_to_free_half_width(saved, half(2000) / 2)
    assert abs(beyond - 4000) <= 1


def test_the_exact_benchmark_prints_each_sampling_aligned_under_its_header():
    """A run drawn by the bound gives its hours to both distribution-free half-widths,
    under their headers; a run drawn as dealt, none."""
    sampled = {
        "variant": "russian", "short_draws": 0, "thin": 1, "by_bound": False,
        "short_game_projected_seconds": 600.0, "proxy_seconds": 480.0,
        "bound_seconds": 450.0, "seconds_per_situation": 0.8312, "difference_sd": 0.0079,
        "hours_to_half_width": {"0.0005": 0.75, "0.0001": 14.5},
        "hours_to_distribution_free_half_width": None,
    }  # fmt: skip
    by_bound = sampled | {
        "by_bound": True,
        "difference_sd": 0.0055,
        "hours_to_distribution_free_half_width": {"0.0005": 1.26, "0.0001": 4.75},
    }
    result = {
        "software": {"studsim": "0"}, "date": "today", "machine": {"cpus": 2},
        "caribbean_deals": 1, "caribbean_exact_seconds": 1.0, "caribbean_house_edge": 0.05,
        "advise": [], "whole_game": [], "sampled": [sampled, by_bound], "optimal": [],
        "targets": {},
    }  # fmt: skip
    lines = format_exact_report(result).splitlines()
    header = next(line for line in lines if line.startswith("variant ") and "free" in line)
    drawn, bounded = (line for line in lines if line.startswith("russian"))
    assert "1.26 h" not in drawn and len(drawn) < header.index("free +-0.0005")
    for figure, column in (("1.26 h", "free +-0.0005"), ("4.8 h", "free +-0.0001")):
        assert bounded.index(figure) + len(figure) == header.index(column) + len(column)
    assert " B " in bounded and "0.8312" in bounded and "14.5 h" in bounded
