import json

import pytest
from click.testing import CliRunner

from simulate.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_eval_prints_one_aligned_line_per_hand():
    result = run("eval", "As Ks Qs Js Ts", "2c 2d 3h 4s 9d 9c")
    assert result.exit_code == 0, result.output
    header, royal, two_pair = result.output.splitlines()
    assert header.split() == ["hand", "value", "category", "best", "five"]
    assert royal.startswith("As Ks Qs Js Ts") and "7462" in royal and "royal flush" in royal
    assert "two pair" in two_pair and two_pair.endswith("9c 9d 2c 2d 4s")
    assert header.index("category") == royal.index("royal") == two_pair.index("two pair")


def test_eval_json():
    result = run("eval", "--json", "--ace-king", "ah kd 9c 7s 2h")
    assert result.exit_code == 0
    [row] = json.loads(result.output)
    assert row == {
        "hand": "Ah Kd 9c 7s 2h",
        "value": 1159,
        "category": "ace-king",
        "best_five": None,
    }


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("As Ks Qs Js Xs", "'Xs' is not a card"),
        ("As As Qs Js Ts", "As appears twice"),
        ("As Ks Qs Js", "5 or 6 cards, got 4"),
    ],
)
def test_eval_bad_input_is_one_line_and_exit_2(hand, message):
    result = run("eval", hand)
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert message in result.output and "Traceback" not in result.output


def test_eval_needs_a_hand():
    assert run("eval").exit_code == 2
