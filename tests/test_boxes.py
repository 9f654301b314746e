"""Several boxes against one dealer: the stake plan's rules, the per-box and round
figures, what the earlier boxes' cards are worth."""

import math

import numpy as np
import pytest

from simulate.catalog import load_strategy
from simulate.compare import information_value
from simulate.simulation import run
from simulate.stakes import Stake, StakePlan, stake_plan
from simulate.variant import load_variant

from .test_simulation import KernelRounds

Z999 = 3.290526731491926


@pytest.mark.parametrize(
    ("variant", "plan"),
    [
        ("six-card-125", StakePlan((10, 2))),  # five times exactly
        ("six-card-125", StakePlan((10, 10, 2, 2))),
        ("six-card-125", StakePlan((5, 5, 25, 25))),  # blind boxes may be larger
        ("six-card", StakePlan((1, 100, 3))),  # antes independent
        ("oasis", StakePlan((1, 50), (5, 0), "LITE")),
        ("caribbean", StakePlan((7,))),
    ],
)
def test_plans_within_the_rules(variant, plan):
    assert stake_plan(variant, plan) is plan


@pytest.mark.parametrize(
    ("variant", "boxes", "message"),
    [
        ("six-card-125", StakePlan((10, 1.99)), "differ more than 5 times"),
        ("six-card-125", StakePlan((2, 2, 2, 10.01)), r"box 1 \(2\) and box 4 \(10.01\)"),
        ("six-card-125", StakePlan((10, 10.01)), "open box 2 .* the larger bet is played first"),
        ("six-card-125", StakePlan((1,) * 5), "at most 4 boxes, not 5"),
        ("six-card", 4, "six-card plays at most 3 boxes"),
        ("caribbean", 2, "caribbean plays at most 1 box, not 2"),
        ("oasis", 0, "at least one box"),
        ("oasis", StakePlan((1, 0)), "ante of box 2 must be a positive number"),
        ("oasis", StakePlan((1, math.nan)), "ante of box 2 must be a positive number"),
        ("oasis", StakePlan((1, 1), (1,)), "1 bonus bets for 2 boxes"),
        ("six-card", StakePlan((1, 1), (1, 1)), "six-card has no bonus bet"),
        ("oasis", StakePlan((1, 51), (), "LITE"), r"box 2 \(51\) is outside LITE's limits"),
        ("oasis", StakePlan((1, 1), (0, 6), "LITE"), "bonus bet of box 2"),
        ("oasis", StakePlan((1,), (), "GOLD"), "no account 'GOLD'"),
        ("oasis", "three", "boxes must be a number of boxes"),
    ],
)
def test_plans_breaking_the_rules(variant, boxes, message):
    with pytest.raises(ValueError, match=message):
        stake_plan(variant, boxes)


def test_one_stake_or_a_plan():
    with pytest.raises(ValueError, match="one StakePlan"):
        stake_plan("oasis", 2, Stake("LITE", 10))
    assert stake_plan("oasis", None, Stake("LITE", 10, 1)) == StakePlan((10,), (1,), "LITE")


def test_box_and_round_totals_equal_the_sum_of_rounds():
    """Per-box sums, covariance, the round's weighted net, hits and largest win, against
    the rounds replayed one at a time."""
    variant, strategy = load_variant("six-card-125"), load_strategy("basic", "six-card-125")
    plan = StakePlan((10, 5, 5, 2))
    rounds = 3_000
    result = run(variant, strategy, rounds, seed=9, boxes=plan)
    replay = KernelRounds(variant, strategy, 9, boxes=4, open_boxes=2)
    nets = np.array(
        [[won - lost for won, lost, *_ in replay.play(index)] for index in range(rounds)]
    )
    whole = nets @ np.array(plan.antes) / sum(plan.antes)  # exact: antes and nets are halves
    figures = result.box_figures
    assert figures["rtp"].to_numpy() == pytest.approx(1 + nets.mean(axis=0))
    assert figures["largest_win"].tolist() == nets.max(axis=0).tolist()
    assert figures["kind"].tolist() == ["open", "open", "blind", "blind"]
    assert result.covariance.to_numpy() == pytest.approx(np.cov(nets.T))
    assert result.correlation.to_numpy() == pytest.approx(np.corrcoef(nets.T))
    summary = result.summary
    assert summary["rtp"] == pytest.approx(1 + whole.mean())
    assert summary["standard_deviation"] == pytest.approx(whole.std(ddof=1))
    assert summary["hit_frequency"] == (whole > 0).mean()
    assert summary["largest_win"] == pytest.approx(whole.max())
    per_box = result.box_outcomes()
    assert per_box.groupby("box")["count"].sum().tolist() == [rounds] * 4
    blind = result.decisions.set_index("decision")["count"]["play a blind box"]
    assert blind == 2 * rounds


def test_box_one_of_several_has_the_one_box_rtp():
    """Oasis under optimal play: box 1 decides as a lone box does, so its RTP is the
    one-box game's, the exact figure, within its interval (the later boxes decided on
    their own cards, from the memo: quicker)."""
    exact_rtp = 0.988353  # results/oasis/exact-optimal.json, rounded to 1e-6
    result = run("oasis", "optimal", 100_000, seed=21, boxes=3, share_seen=False)
    box_one = result.box_figures.iloc[0]
    assert abs(box_one["rtp"] - exact_rtp) <= Z999 * box_one["standard_error"] + 1e-6


def test_seeing_no_earlier_cards_changes_nothing_for_rules_without_them():
    """Rule strategies decide on a box's own cards (Oasis has no dealer's game): the
    figures with and without the earlier boxes' cards are the same, bit for bit."""
    seeing = run("oasis", "basic", 20_000, seed=3, boxes=3)
    not_seeing = run("oasis", "basic", 20_000, seed=3, boxes=3, share_seen=False)
    for name in ["floats", "ints", "cross", "whole"]:
        assert np.array_equal(getattr(seeing, name), getattr(not_seeing, name))


def test_information_value_of_exact_decisions():
    """Optimal Oasis: the first box sees nothing earlier, so its value is exactly 0; the
    second box decides every option exactly with the first box's cards dead; the values
    are paired differences on the same deals."""
    table = information_value("oasis", "optimal", 300, boxes=2, seed=5)
    first = table.iloc[0]
    assert first["value"] == 0.0
    assert table["box"].tolist() == ["1", "2", "round"]
    assert (table["rtp_seeing"] - table["rtp_not_seeing"]).to_numpy() == pytest.approx(
        table["value"].to_numpy()
    )


def test_seeing_the_other_boxes_is_worth_something_in_six_card_125():
    """1-2-5's basic strategy asks for the dealer's exchange exactly, on every card seen:
    with the other boxes' cards known the round returns more, beyond the paired
    interval."""
    table = information_value("six-card-125", "basic", 200_000, boxes=4, seed=8)
    whole = table.set_index("box").loc["round"]
    assert whole["value"] > Z999 * whole["value_se"] > 0
