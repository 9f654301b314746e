import json
import os
import signal

import pytest
from click.testing import CliRunner

from simulate.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_prints_aligned_figures_and_writes_json(tmp_path):
    out = tmp_path / "run.json"
    result = run(
        "simulate",
        "caribbean",
        "--strategy",
        "pair-or-better",
        "--rounds",
        "20k",
        "--seed",
        "3",
        "--out",
        str(out),
        "--no-progress",
    )
    assert result.exit_code == 0, result.output
    assert "strategy pair-or-better, seed 3, 20,000 rounds" in result.output
    assert "house edge" in result.output and "outcomes" in result.output
    data = json.loads(out.read_text())
    assert data["summary"]["rounds"] == 20_000 and data["seed"] == 3
    rtp_line = next(line for line in result.output.splitlines() if line.startswith("rtp "))
    assert f"{data['summary']['rtp']:.6f}" in rtp_line


def test_simulate_json_equals_out_file(tmp_path):
    out = tmp_path / "run.json"
    result = run(
        "simulate",
        "oasis",
        "-n",
        "5000",
        "--json",
        "--out",
        str(out),
        "--no-progress",
        "--account",
        "LITE",
        "--ante",
        "50",
        "--bonus-bet",
        "5",
    )
    assert result.exit_code == 0, result.output
    printed, written = json.loads(result.output), json.loads(out.read_text())
    assert printed["summary"] == written["summary"]
    assert "capped_rtp" in printed["summary"] and "bonus_rtp" in printed["summary"]
    assert printed["stake_plan"] == {"antes": [50.0], "bonus_bets": [5.0], "account": "LITE"}


def test_strategies_lists_the_shipped_ones():
    result = run("strategies", "caribbean")
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()[1:]] == [
        "ak-or-better",
        "always-play",
        "basic",
        "expert",
        "optimal",
        "optimized",
        "pair-or-better",
        "simple",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "poker"], "unknown variant 'poker'"),
        (["simulate", "oasis", "--strategy", "best"], "unknown strategy 'best' for oasis"),
        (["simulate", "oasis", "--rounds", "0"], "the rounds must be from 1 to"),
        (["simulate", "oasis", "--rounds", "-5"], "the rounds must be from 1 to"),
        (["simulate", "oasis", "--rounds", "nan"], "not a whole number of rounds"),
        (["simulate", "oasis", "--rounds", "1e30"], "the rounds must be from 1 to"),
        (["simulate", "oasis", "--seed", "-1"], "'--seed': -1 is not in the range"),
        (["simulate", "oasis", "--rounds", "many"], "'many' is not a number of rounds"),
        (["simulate", "oasis", "--rounds", "1.5"], "not a whole number"),
        (["simulate", "oasis", "--account", "LITE"], "--account needs --ante (one box)"),
        (["simulate", "oasis", "--ante", "5"], "--ante needs --account"),
        (["simulate", "six-card", "--boxes", "4"], "six-card plays at most 3 boxes, not 4"),
        (["simulate", "six-card-125", "--boxes", "10,60"], "differ more than 5 times"),
        (["simulate", "six-card-125", "--boxes", "5,10"], "the larger bet is played first"),
        (["simulate", "oasis", "--boxes", "1,x"], "is not a number of boxes (3) or their antes"),
        (["simulate", "oasis", "--boxes", "0"], "at least one box"),
        (["simulate", "oasis", "--information"], "--information needs --boxes"),
        (["simulate", "oasis", "--target-se", "0"], "'--target-se': 0.0 is not in the range"),
        (
            ["simulate", "oasis", "--target-se", "0.0001", "-n", "1M"],
            "--target-se 0.0001: a standard error of 0.0001 needs about",
        ),
        (
            ["simulate", "oasis", "--account", "LITE", "--ante", "5", "--boxes", "2"],
            "--ante is one box's stake",
        ),
        (
            ["simulate", "oasis", "--account", "LITE", "--boxes", "10,60"],
            "box 2 (60) is outside LITE's limits",
        ),
        (["simulate", "oasis", "--account", "GOLD", "--ante", "5"], "no account 'GOLD'"),
        (["simulate", "oasis", "--threads", "64"], "--threads 64: this machine has"),
        (["simulate", "oasis", "--out", "/no/such/dir/x.json"], "no such folder"),
        (["strategies", "poker"], "unknown variant 'poker'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args, *(["--no-progress"] if args[0] == "simulate" else []))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_strategy_for_another_variant(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('name = "x"\nvariant = "russian"\n[[first]]\naction = "fold"\n')
    result = run("simulate", "oasis", "--strategy", str(path), "--no-progress")
    assert result.exit_code == 2
    assert "the strategy is for 'russian', not 'oasis'" in result.output


class _Interrupting:
    """A progress bar whose second update is Ctrl-C."""

    def __init__(self, *args, **kwargs):
        self.n, self.updates = 0, 0

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def update(self, count):
        self.n += count
        self.updates += 1
        if self.updates == 2:
            self.stop()

    def stop(self):
        raise KeyboardInterrupt


class _Terminated(_Interrupting):
    """A progress bar through which the process is sent SIGTERM at the second update (the
    signal ``kill`` and batch systems send; background jobs ignore Ctrl-C's)."""

    def stop(self):
        os.kill(os.getpid(), signal.SIGTERM)


@pytest.mark.parametrize("bar", [_Interrupting, _Terminated])
def test_an_interrupted_simulation_keeps_what_finished_and_exits_130(bar, tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM: what finished is written; the process's own SIGTERM handler is
    back after."""
    monkeypatch.setattr("simulate.cli.tqdm", bar)
    before = signal.getsignal(signal.SIGTERM)
    out = tmp_path / "partial.json"
    result = run("simulate", "oasis", "-n", "2M", "--progress", "--out", str(out), "--json")
    assert result.exit_code == 130
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and 0 < data["summary"]["rounds"] < 2_000_000
    assert signal.getsignal(signal.SIGTERM) is before


def test_an_interrupted_report_writes_nothing_and_exits_130(tmp_path, monkeypatch):
    from simulate import report

    real_run, calls = report.run, []

    def interrupted_run(*args, **kwargs):
        def progress(done):
            calls.append(done)
            if len(calls) == 2:
                raise KeyboardInterrupt

        return real_run(*args, **kwargs, progress=progress)

    monkeypatch.setattr(report, "run", interrupted_run)
    result = run("report", "oasis", "-n", "2M", "--out", str(tmp_path / "report"))
    assert result.exit_code == 130
    assert "nothing written" in result.output
    assert not (tmp_path / "report").exists()


def test_simulate_to_a_target_standard_error():
    result = run("simulate", "caribbean", "--target-se", "0.005", "--json", "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summary"]
    assert 0.004 < summary["standard_error"] <= 0.005  # rounds enough, not the default 1M
    assert summary["rounds"] < 1_000_000
