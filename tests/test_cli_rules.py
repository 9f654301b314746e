import json
import re

from click.testing import CliRunner

from simulate.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_variants_lists_every_variant_aligned():
    result = run("variants")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines[1:]] == [
        "caribbean",
        "oasis",
        "oasis-classic",
        "russian",
        "six-card",
        "six-card-125",
    ]
    column = lines[0].index("categories")
    assert all(
        line[column + len("categories") - 2 : column + len("categories")].strip().isdigit()
        for line in lines[1:]
    )


def test_variants_json():
    rows = json.loads(run("variants", "--json").output)
    assert {row["variant"]: row["categories"] for row in rows}["oasis"] == 11


def test_rules_prints_rules_and_pay_tables():
    result = run("rules", "oasis")
    assert result.exit_code == 0
    assert "exchange cards (number of cards: fee): 1 for 1 ante; 2 for 1.5 antes" in result.output
    assert re.search(r"^four of a kind +15 to 1$", result.output, re.MULTILINE)
    assert "bonus pay table" in result.output and "1000 to 1" in result.output
    assert "Account LITE: ante 1 to 50, bonus 0 to 5; maximum payout 2,000 a box" in result.output


def test_rules_json_is_the_data():
    data = json.loads(run("rules", "russian", "--json").output)
    assert data["rules"]["bet_pays"]["four-of-a-kind"] == 20
    assert len(data["rules_hash"]) == 64


def test_rules_of_a_users_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\ntitle = "X"\n[hands]\nace_king = false\n')
    result = run("rules", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: {path}: hands.dealer_qualifies: missing"


def test_rules_unknown_variant():
    result = run("rules", "poker")
    assert result.exit_code == 2 and "unknown variant 'poker'" in result.output
    assert "Traceback" not in result.output
