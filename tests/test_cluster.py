"""Runs shared out on a Dask LocalCluster of two worker processes give the figures of a
run on one machine, bit for bit, even when the workers are killed mid-run."""

import json
import os
import signal

import numba
import numpy as np
import pytest

from simulate import optimal_game
from simulate.cluster import ClusterError, cluster_client, start_client, unit_results, using
from simulate.codes import Action
from simulate.compare import compare
from simulate.evaluator import hand_value
from simulate.optimal_game import exact_optimal_game
from simulate.optimal_sampled import sampled_optimum
from simulate.python_strategy import hand_value_jit, python_strategy
from simulate.simulation import run
from simulate.variant import load_variant

pytestmark = pytest.mark.usefixtures("no_bound")  # the bound: test_gain_bound

PAIR = hand_value("2c 2d 3h 4s 5c")  # the lowest pair
SUMS = ["floats", "ints", "cross", "whole", "largest", "block_nets"]


@pytest.fixture(scope="module")
def client():
    with cluster_client("local:2") as client:
        yield client


def same_sums(a, b) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in SUMS)


def kill_workers(client) -> None:
    """SIGKILL every worker process (their nannies start new ones)."""
    for pid in client.run(os.getpid).values():
        os.kill(pid, signal.SIGKILL)


def square(shared, unit):
    return shared * unit * unit


def test_units_come_back_in_their_order_or_as_done(client):
    ordered = list(unit_results(client, square, range(20), 3))
    assert ordered == [(i, 3 * i * i) for i in range(20)]
    unordered = sorted(unit_results(client, square, range(20), 3, in_order=False))
    assert unordered == ordered


@pytest.mark.parametrize(
    "variant, strategy, boxes",
    [
        ("caribbean", "basic", None),
        ("six-card", "basic", None),
        ("six-card", "optimal", None),  # the shipped table, rebuilt on each worker
        ("six-card-125", "basic", (10, 5, 5, 2)),
    ],
)
def test_a_simulation_on_the_cluster_equals_one_here(client, variant, strategy, boxes):
    here = run(variant, strategy, 30_000, seed=7, boxes=boxes, chunk_blocks=2)
    there = run(variant, strategy, 30_000, seed=7, boxes=boxes, chunk_blocks=2, client=client)
    assert same_sums(here, there)
    assert there.summary == here.summary


@numba.njit
def pair_or_better(point, cards, upcard):
    """Play a pair or better (a Python strategy: its compiled decider is rebuilt on
    each worker from the function)."""
    return (Action.PLAY if hand_value_jit(cards) >= PAIR else Action.FOLD), 0


def test_a_python_strategy_plays_on_the_cluster_as_its_rules_do_here(client):
    """The same decisions as the shipped rule strategy, so the same sums (here the rules:
    the engine is compiled for the Python decider on the workers only; one unit, so on
    one of them: that compilation is most of this test's time)."""
    strategy = python_strategy(pair_or_better, "caribbean")
    here = run("caribbean", "pair-or-better", 30_000, seed=5, chunk_blocks=2)
    there = run("caribbean", strategy, 30_000, seed=5, chunk_blocks=8, client=client)
    assert same_sums(here, there)


def test_a_comparison_on_the_cluster_equals_one_here(client):
    strategies = ["basic", "always-play", "pair-or-better"]
    here = compare("caribbean", strategies, 20_000, seed=3)
    there = compare("caribbean", strategies, 20_000, seed=3, client=client)
    assert there.table.equals(here.table)


def test_workers_killed_mid_run_are_replaced_and_the_figures_unchanged(client):
    """Every worker killed when the first of 200 units comes back (the scheduler has
    most of them still to hand out): new workers redo what was lost."""
    rounds = 200 * 4096
    here = run("caribbean", "basic", rounds, seed=11, chunk_blocks=1)
    before = set(client.run(os.getpid).values())
    kills = []

    def kill_once(done):
        if not kills:
            kills.append(done)
            kill_workers(client)

    there = run("caribbean", "basic", rounds, seed=11, chunk_blocks=1, client=client,
                progress=kill_once)  # fmt: skip
    assert kills == [4096]
    assert not there.interrupted
    assert same_sums(here, there)
    assert not before & set(client.run(os.getpid).values())  # the workers were replaced


def test_an_exact_slice_on_the_cluster_equals_one_here(client, tmp_path):
    """Oasis's first 40 classes in ranges of 16: the same counts, choices and figures;
    then a run interrupted after one range resumes on the cluster to the same."""
    oasis = load_variant("oasis")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(optimal_game, "RANGE_CLASSES", 16)
        here = exact_optimal_game(oasis, tmp_path / "here", classes=40)
        with using(client):
            there = exact_optimal_game(oasis, tmp_path / "there", classes=40)

            def interrupt(done, total):
                raise KeyboardInterrupt

            with pytest.raises(KeyboardInterrupt):
                exact_optimal_game(oasis, tmp_path / "resumed", progress=interrupt, classes=40)
            assert len(list((tmp_path / "resumed").glob("range-*.npz"))) == 1
            resumed = exact_optimal_game(oasis, tmp_path / "resumed", classes=40)
    for other in (there, resumed):
        assert np.array_equal(other.totals, here.totals)
        assert np.array_equal(other.choices, here.choices)
        assert other.result.table.equals(here.result.table)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("local:0", "positive number of workers"),
        ("local:two", "positive number of workers"),
        ("nowhere", "expected local, local:N"),
    ],
)
def test_a_bad_cluster_is_named(spec, message):
    with pytest.raises(ClusterError, match=message):
        start_client(spec)


def test_a_run_stopped_here_resumes_on_the_cluster_to_the_same_figures(client, tmp_path):
    rounds = 30 * 4096
    whole = run("six-card-125", "basic", rounds, seed=2, chunk_blocks=2)

    def interrupt(done):
        if done >= 8 * 4096:
            raise KeyboardInterrupt

    stopped = run("six-card-125", "basic", rounds, seed=2, chunk_blocks=2, checkpoint=tmp_path,
                  progress=interrupt)  # fmt: skip
    assert stopped.interrupted
    resumed = run("six-card-125", "basic", rounds, seed=2, chunk_blocks=2, checkpoint=tmp_path,
                  client=client)  # fmt: skip
    assert same_sums(whole, resumed)


def test_sampled_situations_weighed_on_the_cluster_equal_those_weighed_here(
    client, cheap_exchanges, no_proxy
):
    """The blocks of sampled situations of an analysis with long exchanges (Oasis with
    cheap exchanges, of which one card is the short game here)."""
    variant, folder = cheap_exchanges
    options = {"seed": 3, "short_draws": 1, "classes": 400}
    here = sampled_optimum(variant, folder / "here", 60, **options)
    with using(client):
        there = sampled_optimum(variant, folder / "there", 60, **options)
    for name in ["classes", "upcards", "short_evs", "long_evs"]:
        assert np.array_equal(getattr(here, name), getattr(there, name)), name
    assert there.summary() == here.summary()


def cli(*args):
    from click.testing import CliRunner

    from simulate.cli import main

    return CliRunner().invoke(main, list(args))


def test_the_cli_on_a_local_cluster_prints_the_same_figures():
    args = ["simulate", "oasis", "-n", "50k", "--seed", "4", "--json", "--no-progress"]
    here = cli(*args)
    there = cli(*args, "--cluster", "local:2")
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert "dashboard http" in there.stderr
    figures = [json.loads(result.stdout)["summary"] for result in (here, there)]
    assert figures[0] == figures[1]


def test_a_bad_cluster_on_the_cli_is_one_line_and_exit_2():
    result = cli("simulate", "oasis", "-n", "10k", "--cluster", "local:0")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: --cluster local:0: local:N needs a positive number of workers"
    ]
