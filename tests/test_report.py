import hashlib
import json
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from simulate import report as report_module
from simulate.catalog import load_strategy
from simulate.cli import main
from simulate.optimal_game import optimal_result
from simulate.report import SECTIONS, build_report, write_report
from simulate.simulation import run
from simulate.variant import load_variant

VARIANTS = ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]


def pdf_text(path):
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


@pytest.mark.parametrize("variant", VARIANTS)
def test_report_builds_for_every_variant(variant, tmp_path):
    strategy = "basic" if variant != "caribbean" else "pair-or-better"  # caribbean: exact
    report = build_report(variant, strategy, 20_000, seed=5, stake_rounds=4_096)
    out = write_report(report, tmp_path / "report")
    assert {p.name for p in out.iterdir()} == {
        "report.pdf",
        "report.html",
        "report.json",
        "convergence.png",
        "distribution.png",
    }
    text = pdf_text(out / "report.pdf")
    # a strategy that folds or bets on the dealt cards comes with its chart
    assert ("The strategy as a chart" in text) == (variant == "caribbean")
    pages = PdfReader(out / "report.pdf").pages
    first = pages[0].extract_text()  # the summary comes first, in words and percentages
    assert first.index(SECTIONS[0]) < first.index("Return to player, strategy")
    figures = report.figures
    assert f"{100 * figures['rtp']:.4f}%" in first
    assert f"{100 * figures['house_edge']:.4f}%" in first
    if figures["optimal_rtp"] is not None:
        assert f"{100 * figures['optimal_rtp']:.4f}%" in first
    assert "Largest win" in first and "1 in " in first and "house_edge" not in first
    report_id = report.figures["report_id"]
    for number, page in enumerate(pages, 1):
        assert f"{report_id}: page {number} of {len(pages)}" in page.extract_text()
    shipped = resources.files("simulate") / "variants" / f"{variant}.toml"
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() in "".join(text.split())
    for written in ("report.json", "report.html"):  # never a path on this machine
        assert str(Path(report_module.__file__).parents[1]) not in (out / written).read_text()
    always = SECTIONS[:-1]  # the last, on several boxes, only when asked
    for title in always:
        assert title in text, title
    html = (out / "report.html").read_text()
    assert all(title in html for title in always) and SECTIONS[-1] not in html
    # the figures are those of the run the report states
    simulated = run(variant, strategy, 20_000, seed=5).summary
    figures = json.loads((out / "report.json").read_text())["figures"]
    assert figures["simulated_rtp"] == simulated["rtp"]
    assert figures["simulated_rtp_ci99"] == simulated["rtp_ci99"]
    assert f"{simulated['rtp']:.6f}" in text
    assert report.variant.rules_hash in "".join(text.split())  # the cell may wrap it
    if variant == "caribbean":
        assert figures["method"] == "exact enumeration"
        assert abs(figures["deviation_in_standard_errors"]) < 4
    assert "Range of return, shipped strategies to optimal play" in first
    span = figures["rtp_range"]
    assert span["lowest_rtp"] == min(row["rtp"] for row in span["by_strategy"])
    assert f"{100 * span['lowest_rtp']:.4f}%" in first
    if variant == "oasis":
        shipped = [row["strategy"] for row in span["by_strategy"]]
        assert shipped == [
            "always-play", "basic", "expert", "optimized", "pair-or-better", "simple"
        ]  # fmt: skip
        same_deals = [run(variant, name, 4_096, seed=5).summary["rtp"] for name in shipped]
        assert [row["rtp"] for row in span["by_strategy"]] == same_deals
        assert span["lowest_strategy"] == "always-play" and span["highest_rtp"] > 0.98
        assert figures["rtp_by_stake"] and figures["bonus_rtp"] is not None
        lite = [row for row in figures["rtp_by_stake"] if row["account"] == "LITE"]
        assert len(lite) == 2


def test_a_report_of_optimal_play_with_draws_states_the_exact_whole_game():
    """Oasis under optimal play: the exact figures are the whole game's (its table and
    counts ship with the package), the simulation checked against them; every report
    gives the optimal RTP and how it is known."""
    exact = optimal_result(load_variant("oasis")).summary
    report = build_report("oasis", "optimal", 20_000, seed=3, stake_rounds=4_096)
    figures = report.figures
    assert figures["method"] == "exact enumeration"
    assert figures["rtp"] == exact["rtp"] == figures["optimal_rtp"]
    assert figures["optimal_rtp_method"] == "exact, every draw"
    assert abs(figures["deviation_in_standard_errors"]) < 3.3
    basic = build_report("six-card", "basic", 8_192, seed=3, stake_rounds=4_096).figures
    assert basic["optimal_rtp"] == optimal_result(load_variant("six-card")).summary["rtp"]
    assert "lower bound" in basic["optimal_rtp_method"]


def test_jurisdiction_verdicts_follow_the_table_on_its_basis(tmp_path, monkeypatch):
    report = build_report("russian", "pair-or-better", 20_000, seed=2, stake_rounds=4_096)
    figures = report.figures
    rows = {row["jurisdiction"]: row for row in figures["jurisdictions"]}
    entries = report_module.jurisdictions()
    assert set(rows) == set(entries)
    # exact (russian pair-or-better draws nothing); per amount wagered: 1 - edge / total bet
    per_wager = 1 - figures["house_edge"] / figures["average_total_bet"]
    assert per_wager == pytest.approx(1 - figures["element_of_risk"], abs=1e-12)
    for name, entry in entries.items():
        rtp = per_wager if entry.basis == "per amount wagered" else figures["rtp"]
        assert rows[name]["RTP compared"] == pytest.approx(rtp, abs=1e-12)
        assert rows[name]["verdict"] == ("meets" if rtp >= entry.minimum else "fails")
        assert entry.source is None and rows[name]["source"] == "none: an example"
    # the basis decides: 0.846 per ante is below Italy's 0.90, per amount wagered above it
    assert figures["rtp"] < entries["Italy"].minimum <= rows["Italy"]["RTP compared"]
    assert rows["Italy"]["verdict"] == "meets"
    # a simulated RTP is judged by the lower end of its 99% interval, on each basis
    simulated = dict(figures, simulated_rtp_ci99=[0.8, 0.9])
    assert report_module.compared_rtp(simulated, "per ante", exact=False) == 0.8
    assert report_module.compared_rtp(simulated, "per amount wagered", exact=False) == (
        pytest.approx(1 - 0.2 / figures["average_total_bet"])
    )


def test_report_with_several_boxes(tmp_path):
    """--boxes adds the round of several boxes: its figures, each box's, the correlation."""
    report = build_report("six-card", "basic", 8_192, seed=4, stake_rounds=4_096, boxes=(10, 5, 5))
    boxes = report.figures["boxes"]
    assert [row["kind"] for row in boxes["per_box"]] == ["open", "open", "blind"]
    assert boxes["stake_plan"]["antes"] == [10, 5, 5]
    assert boxes["correlation"][0][0] == pytest.approx(1.0)
    assert report.sections[-1].title.startswith("11. Several boxes")
    out = write_report(report, tmp_path / "r")
    assert SECTIONS[-1] in (out / "report.html").read_text()
    assert SECTIONS[-1] in pdf_text(out / "report.pdf")


def test_report_with_the_protection_section(tmp_path, monkeypatch):
    """--protection adds what seeing the dealer's hole cards or other hands is worth, in
    the figures and as the section after the others; refused where not weighed."""
    monkeypatch.setattr(report_module, "PROTECTION_SAMPLES", 4_000)
    report = build_report("caribbean", "basic", 8_192, seed=2, stake_rounds=4_096,
                          protection=True)  # fmt: skip
    holes = report.figures["protection"]["hole_cards"]
    assert [row["hole_cards_known"] for row in holes] == [0, 1, 2, 3, 4]
    assert [row["method"] for row in holes] == ["enumerated", *["sampled"] * 3, "enumerated"]
    assert holes[0]["rtp"] == pytest.approx(report.figures["optimal_rtp"], abs=1e-12)
    shared = report.figures["protection"]["shared_hands"]
    assert [row["other_hands_seen"] for row in shared] == [0, 1, 2, 3, 4]
    assert report.sections[-1].title == "11. Game protection"
    intro = report.sections[-1].paragraphs[0]
    assert "the dealer's hole cards seen; and other players' hands seen:" in intro
    assert "exchange" not in intro  # only the tables shown are named
    out = write_report(report, tmp_path / "r")
    assert "11. Game protection" in pdf_text(out / "report.pdf")
    rules = (resources.files("simulate") / "variants" / "oasis-classic.toml").read_text()
    replacing = tmp_path / "replacing.toml"  # long exchanges, and a card replaced after a buy
    replacing.write_text(
        rules.replace("[decisions]", "[decisions]\nbuy = 1\nreplace_after_buy = 1")
    )
    with pytest.raises(ValueError, match="protection section covers games decided by folding"):
        build_report(str(replacing), "basic", 8_192, seed=2, protection=True)


def test_a_failed_write_leaves_no_half_written_report(tmp_path, monkeypatch):
    report = build_report("oasis", "basic", 8_192, seed=1, stake_rounds=4_096)
    out = tmp_path / "report"

    def broken(*_):
        raise OSError("disk full")

    monkeypatch.setattr(report_module, "_pdf", broken)
    with pytest.raises(OSError):
        write_report(report, out)
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir()]  # no staging left behind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report", "poker", "--out", "{tmp}/r"], "unknown variant 'poker'"),
        (["report", "oasis", "--strategy", "best", "--out", "{tmp}/r"], "unknown strategy"),
        (["report", "oasis", "--out", "{tmp}/missing/r"], "no such folder"),
        (["report", "oasis", "--out", "{tmp}/file"], "is a file"),
        (["report", "oasis", "-n", "1", "--out", "{tmp}/r"], "at least 8,192 rounds"),
        (["report", "oasis", "--rounds", "0", "--out", "{tmp}/r"], "must be from 1 to"),
        (["report", "six-card", "--boxes", "4", "--out", "{tmp}/r"], "at most 3 boxes"),
    ],
)
def test_report_bad_input(tmp_path, args, message):
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(main, [a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_results_command_regenerates_the_folder(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- results table -->\nold\n<!-- end of results table -->\nend\n")
    result = CliRunner().invoke(
        main,
        [
            "results",
            "--size",
            "small",
            "--out-dir",
            str(tmp_path / "results"),
            "--readme",
            str(readme),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = (tmp_path / "results" / "summary.csv").read_text().splitlines()
    assert len(summary) == 1 + len(VARIANTS)
    for variant in VARIANTS:
        assert (tmp_path / "results" / variant / "report" / "report.pdf").exists()
    text = readme.read_text()
    assert "old" not in text and "| oasis | basic |" in text and text.endswith("end\n")
    before = pd.read_csv(tmp_path / "results" / "summary.csv")
    nested = before[["optimal_rtp_interval_999", "optimal_rtp_by_bound"]].stack().dropna()
    assert len(nested) > 3 and all(json.loads(cell) for cell in nested)  # intervals, runs: JSON
    args = ["results", "--size", "small", "--out-dir", str(tmp_path / "results")]
    result = CliRunner().invoke(
        main, [*args, "--readme", "", "--variant", "caribbean", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    after = pd.read_csv(tmp_path / "results" / "summary.csv")
    assert list(after["variant"]) == list(before["variant"])
    assert list(after["seed"]) == [2 if v == "caribbean" else 1 for v in after["variant"]]
    others = after["variant"] != "caribbean"
    assert after[others].equals(before[others])
    result = CliRunner().invoke(main, [*args, "--variant", "nine-card"])
    assert (
        result.exit_code == 2
        and result.output.startswith("Error:")
        and "nine-card" in result.output
    )


def test_the_report_id_follows_every_input():
    oasis, other = load_variant("oasis"), load_variant("caribbean")
    basic = load_strategy("basic", oasis)
    same = report_module.report_id(oasis, basic, 1000, 1, boxes=None)
    assert report_module.report_id(oasis, basic, 1000, 1, boxes=None) == same
    assert report_module.report_id(oasis, basic, 1000, 2, boxes=None) != same
    assert report_module.report_id(oasis, basic, 1001, 1, boxes=None) != same
    assert report_module.report_id(oasis, basic, 1000, 1, boxes=3) != same
    assert report_module.report_id(other, basic, 1000, 1, boxes=None) != same


def test_a_report_to_a_target_precision_states_it(tmp_path):
    args = ["report", "caribbean", "-s", "pair-or-better", "--out", str(tmp_path / "r")]
    result = CliRunner().invoke(main, [*args, "--target-se", "0.01", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["target_standard_error"] == 0.01
    assert figures["simulated_standard_error"] <= 0.01
    text = " ".join(pdf_text(tmp_path / "r" / "report.pdf").split())
    assert "played until the RTP's standard error was at most 0.010000" in text
    args[-1] = str(tmp_path / "r2")
    refused = CliRunner().invoke(main, [*args, "--target-se", "0.0001", "-n", "100k"])
    assert refused.exit_code == 2
    assert refused.output.startswith("Error: --target-se 0.0001: a standard error of 0.0001")
    assert not (tmp_path / "r2").exists()
