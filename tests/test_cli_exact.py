import json

import pytest
from click.testing import CliRunner

from simulate._exact import canonical_hands_jit
from simulate.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_advise_prints_every_option_and_the_best():
    result = run("advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qh")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0] == "oasis: As Kd 7h 7c 2s, upcard Qh"
    best = [line for line in lines if line.endswith("<- best")]
    assert len(best) == 1 and best[0].startswith("play")
    assert sum(line.startswith("exchange") for line in lines) == 15


def test_advise_with_seen_cards():
    """Two sevens seen elsewhere: betting the pair of sevens is worth less (-0.3588 for
    -0.2767), the dealer holding none of them."""
    hand = ["advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qh", "--json"]
    plain = json.loads(run(*hand).output)["options"]
    seen = run(*hand, "--seen", "7s 7d")
    assert seen.exit_code == 0, seen.output
    data = json.loads(seen.output)
    assert data["seen"] == "7s 7d"
    play = {row["option"]: row["ev"] for row in data["options"] if row["cards thrown"] == ""}
    assert play["play"] < {r["option"]: r["ev"] for r in plain if r["cards thrown"] == ""}["play"]


def test_advise_json_and_buying_a_game():
    data = json.loads(
        run(
            "advise",
            "six-card",
            "As Ks Qs Js Ts",
            "--up",
            "Qh",
            "--dealer",
            "Qh Jd 9c 5s 3c",
            "--json",
        ).output
    )
    assert (data["hand"], data["upcard"], data["dealer"]) == (
        "As Ks Qs Js Ts",
        "Qh",
        "Qh Jd 9c 5s 3c",
    )
    rows = data["options"]
    assert [row["option"] for row in rows] == ["decline", "buy the dealer a game"]
    assert rows[1]["best"] and rows[1]["dealer discards"] == "3c"
    assert rows[1]["ev lost"] == 0 and rows[0]["ev lost"] == rows[1]["ev"] - rows[0]["ev"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["advise", "oasis", "As Kd 7h 7c", "--up", "Qh"], "5 or 6"),
        (["advise", "oasis", "As Kd 7h 7c 2s", "--up", "As"], "repeat a card"),
        (["advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qx"], "'Qx' is not a card"),
        (["advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qh", "--seen", "7s 7h"], "repeat a card"),
        (
            ["advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qh", "--seen", "7z"],
            "'7z' is not a card",
        ),
        (["advise", "oasis", "As Kd 7h 7c 2s 3s", "--up", "Qh"], "oasis has no sixth card"),
        (
            ["advise", "oasis", "As Kd 7h 7c 2s", "--up", "Qh", "--dealer", "Qh Jd 9c 5s 3c"],
            "buying the dealer a game is not offered",
        ),
        (
            ["advise", "six-card", "As Kd 7h 7c 2s", "--up", "Qh", "--dealer", "Qh Qd 9c 5s 3c"],
            "the dealer qualifies",
        ),
        (["exact", "oasis", "--strategy", "basic"], "draws or buys games"),
        (["exact", "poker"], "unknown variant 'poker'"),
        (["compare", "oasis", "-s", "basic"], "at least two strategies"),
        (["compare", "oasis", "-s", "basic", "-s", "best"], "unknown strategy 'best'"),
        (["exact", "caribbean", "--classes", "3"], "classes and a table go with"),
        (["exact", "oasis", "--classes", "0"], "0 is not in the range"),
        (["exact", "oasis", "--classes", "2", "--table", "t.npz"], "keeps no table"),
        (["optimize", "oasis", "--out", "/no/such/dir/s.toml"], "no such folder"),
        (["optimize", "oasis", "--from", "optimal"], "optimal is not a list of rules"),
        (["optimize", "oasis", "--from", "best"], "unknown strategy 'best'"),
        (["optimize", "oasis", "--sweeps", "2"], "--sweeps goes with --from"),
        (["optimize", "oasis", "--from", "basic", "--rounds", "4096"], "at least 8,192 rounds"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_compare_prints_and_writes_the_same_figures(tmp_path):
    out = tmp_path / "compare.json"
    args = ["compare", "caribbean", "-s", "basic", "-s", "ak-or-better", "-n", "50k"]
    written = run(*args, "--out", str(out), "--json")
    assert written.exit_code == 0, written.output
    data = json.loads(written.output)
    assert data == json.loads(out.read_text())
    assert [row["strategy"] for row in data["table"]] == ["basic", "ak-or-better"]
    assert data["table"][0]["difference"] == 0 and data["rounds"] == 50_000
    printed = run(*args)
    assert "ak-or-better" in printed.output and "difference_se" in printed.output


def test_exact_optimal_play_with_draws_on_a_few_classes(tmp_path):
    """A partial analysis: its figures and table written, its ranges cleared away."""
    out = tmp_path / "oasis"
    result = run("exact", "oasis", "--classes", "12", "--out-dir", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["strategy"] == "optimal" and "every draw" in data["method"]
    weights = canonical_hands_jit()[1][:12]
    unit = data["summary"]["weight_of_a_situation"]
    assert data["summary"]["deals"] == unit * int(weights.sum()) * 47
    assert (out / "exact-optimal.json").exists() and (out / "exact-optimal-table.csv").exists()
    assert not (out / "optimal-ranges").exists()
