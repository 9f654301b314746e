import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulate.catalog import load_strategy
from simulate.cli import main
from simulate.codes import Action
from simulate.derive import bet_gains
from simulate.evaluator import threshold_value
from simulate.refine import THRESHOLD_STEPS, neighbours, refine
from simulate.strategy import Strategy

TOO_TIGHT = {
    "name": "too-tight",
    "variant": "caribbean",
    "first": [{"action": "play", "at_least": "As Kh Qd Jc 9s"}, {"action": "fold"}],
}


def exact_rtp(strategy: Strategy) -> float:
    """A Caribbean rule strategy's exact RTP: the exact gains of betting over folding
    summed where it bets (by hand value and upcard rank)."""
    return float(bet_gains("caribbean")[strategy.first_actions == Action.PLAY].sum())


def test_the_moves_of_a_rule_are_its_thresholds_its_upcard_ranks_its_conditions():
    data = {
        "name": "one",
        "variant": "oasis",
        "first": [
            {"action": "play", "at_least": "pair", "upcard": "56789T", "upcard_matches": True},
            {"action": "fold"},
        ],
    }
    moves = dict(neighbours(data))
    assert "first rule 1 dropped" in moves and "first rule 2 dropped" in moves
    assert moves["first rule 1 dropped"]["first"] == [{"action": "fold"}]
    upcards = {m["first"][0]["upcard"] for w, m in moves.items() if "upcard 56789T" in w}
    assert upcards == {"456789T", "56789TJ", "6789T", "56789"}
    assert "upcard_matches" not in moves["first rule 1: upcard_matches dropped"]["first"][0]
    pair = threshold_value("pair")
    moved = [
        threshold_value(m["first"][0]["at_least"]) - pair
        for w, m in moves.items()
        if w.startswith("first rule 1: at_least")
    ]
    assert sorted(moved) == sorted(s * sign for s in THRESHOLD_STEPS for sign in (-1, 1))
    second = {m["first"][1].get("upcard") for w, m in moves.items() if "rule 2:" in w}
    assert second == {"3456789TJQKA", "23456789TJQK"}  # every rank narrowed at either end
    assert len(moves) == 2 + 2 * len(THRESHOLD_STEPS) + 4 + 1 + 2


def test_refining_by_play_gains_what_enumeration_confirms():
    """Caribbean Stud bet from A K Q J 9 up (too tight): the moves the search keeps on
    2^18 deals raise the exact RTP, to within 0.0002 of the best play by one threshold
    (basic's A K J 8 3: 0.946837), each by more than 3 paired standard errors there."""
    start = Strategy.from_dict(TOO_TIGHT, "caribbean")
    refined = refine("caribbean", start, 1 << 18, seed=5, sweeps=2)
    assert refined.steps and all(step.gain > 3 * step.se for step in refined.steps)
    basic = exact_rtp(load_strategy("basic", "caribbean"))
    assert exact_rtp(start) < basic - 0.001
    assert exact_rtp(refined.strategy) > basic - 0.0002
    assert refined.rtp - refined.start_rtp == pytest.approx(sum(s.gain for s in refined.steps))
    again = refine("caribbean", start, 1 << 18, seed=5, sweeps=2)
    assert again.strategy.data == refined.strategy.data and again.steps == refined.steps


def test_optimize_from_a_strategy_writes_it_refined_and_checks_it(tmp_path):
    out = tmp_path / "refined.toml"
    args = ["optimize", "caribbean", "--from", "basic", "--rounds", "64k"]
    result = CliRunner().invoke(
        main, [*args, "--check-rounds", "64k", "--sweeps", "1", "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["search"]["start"] == "basic" and data["search"]["candidates_played"] > 1
    names = [row["strategy"] for row in data["check"]["table"]]
    assert names[:2] == ["refined", "basic"] and "expert" in names
    assert data["check"]["seed"] == 2 and data["check"]["rounds"] == 64_000
    refined = load_strategy(str(out), "caribbean")
    assert refined.name == "refined" and "Refined by play from basic" in refined.description
    assert "On 64,000 other deals (seed 2) it returns" in refined.description
    assert np.isfinite(data["check"]["table"][0]["rtp"])


def test_a_rule_dropped_takes_the_decisions_only_it_led_to():
    data = {
        "name": "one-draw",
        "variant": "oasis",
        "first": [
            {"action": "play", "at_least": "pair"},
            {"action": "exchange", "keep": "four-flush", "draw": "four-flush"},
            {"action": "fold"},
        ],
        "after_draw": [{"action": "play", "at_least": "ace-king"}, {"action": "fold"}],
    }
    dropped = dict(neighbours(data))["first rule 2 dropped"]
    assert dropped["first"] == [data["first"][0], data["first"][2]]
    assert "after_draw" not in dropped and Strategy.from_dict(dropped, "oasis").name == "one-draw"
    assert "after_draw" in dict(neighbours(data))["first rule 1 dropped"]


@pytest.fixture
def third_run_interrupted(monkeypatch) -> list:
    """Ctrl-C while the refinement's third candidate plays; the calls made, listed."""
    from simulate import refine as module

    real_run, calls = module.run, []

    def run(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_run(*args, **kwargs)

    monkeypatch.setattr(module, "run", run)
    return calls


def test_an_interrupted_refinement_keeps_the_best_found_before(third_run_interrupted):
    """Ctrl-C while the third candidate plays: the search stops with the best of the
    two played (the start, or a move kept), marked interrupted."""
    start = Strategy.from_dict(TOO_TIGHT, "caribbean")
    refined = refine("caribbean", start, 1 << 16, seed=5)
    assert refined.interrupted and refined.tried == 2 and len(third_run_interrupted) == 3
    assert refined.record()["interrupted"] is True
    assert len(refined.steps) <= 1 and refined.strategy.name == "refined"


def test_optimize_from_interrupted_writes_the_best_so_far_and_exits_130(
    third_run_interrupted, tmp_path
):
    out = tmp_path / "refined.toml"
    args = ["optimize", "caribbean", "--from", "basic", "-n", "64k", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130, result.output
    assert "interrupted: the best of 2 candidates" in result.output
    assert "Traceback" not in result.output
    assert load_strategy(str(out), "caribbean").name == "refined"
