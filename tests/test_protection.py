"""What seeing the dealer's hole cards is worth: the EV kernel against plain
enumeration, the figures against the exact optimal RTP, each other and play."""

import itertools
import json
import math
from importlib import resources

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import _protection as kernels
from simulate import protection
from simulate._evaluator import value5_jit
from simulate._settlement import bet_multiple_jit, settle_jit
from simulate.cli import main
from simulate.exact import value_lists
from simulate.protection import hole_card_rtp, played_with_hole_cards, shared_hands_rtp
from simulate.simulation import Z_999
from simulate.variant import load_variant

CARIBBEAN = load_variant("caribbean")


def brute_force_bet_ev(hand, known):
    """Betting ``hand``: every completion of the dealer's hand holding ``known``,
    evaluated and settled."""
    v = CARIBBEAN.arrays()
    value = value5_jit(*hand)
    multiple = bet_multiple_jit(v, np.array(hand), value)
    unseen = [c for c in range(52) if c not in hand and c not in known]
    total, count = 0.0, 0
    for rest in itertools.combinations(unseen, 5 - len(known)):
        dealer = value5_jit(*known, *rest)
        won, lost, _ = settle_jit(v, value, multiple, False, 0.0, dealer, False, 0)
        total += won - lost
        count += 1
    assert count == math.comb(47 - len(known), 5 - len(known))
    return total / count


@pytest.mark.parametrize("holes", [0, 1, 2, 3, 4])
def test_the_bet_ev_equals_plain_enumeration(holes):
    rng = np.random.default_rng(holes)
    every = protection._every_value()
    for _ in range(3):
        cards = rng.choice(52, 6 + holes, replace=False)
        hand, known = sorted(cards[:5].tolist()), cards[5:].tolist()
        ev = kernels.bet_ev_known_jit(
            CARIBBEAN.arrays(), value_lists(), every, np.array(hand), np.array(known)
        )
        assert ev == pytest.approx(brute_force_bet_ev(hand, known), abs=1e-12)


def test_seeing_no_hole_card_gives_the_optimal_rtp():
    optimal = protection._optimal_rtp(CARIBBEAN)  # exact_game's, kept for the process
    assert protection._enumerated(CARIBBEAN, 0, None) == pytest.approx(optimal, abs=1e-12)


@pytest.fixture(scope="module")
def figures():
    """Exact with none and all four seen; sampled with 1 to 4 (50,000 situations)."""
    exact = {hole: hole_card_rtp(CARIBBEAN, hole) for hole in (0, 4)}
    sampled = {
        hole: hole_card_rtp(CARIBBEAN, hole, samples=50_000, seed=3) for hole in range(1, 5)
    }
    return exact, sampled


def test_the_rtp_rises_with_each_card_seen(figures):
    exact, sampled = figures
    rtps = [exact[0]["rtp"], *(sampled[hole]["rtp"] for hole in (1, 2, 3)), exact[4]["rtp"]]
    assert rtps == sorted(rtps) and len(set(rtps)) == 5
    assert all(sampled[hole]["situations_changing_decision"] > 0.1 for hole in sampled)


def test_the_sampled_interval_covers_the_enumerated_whole_hand(figures):
    exact, sampled = figures
    low, high = sampled[4]["rtp_ci999"]
    assert low <= exact[4]["rtp"] <= high
    assert high - low < 0.03


@pytest.mark.parametrize("hole", [0, 1, 4])
def test_play_seeing_the_cards_agrees_with_the_figures(figures, hole):
    """Rounds dealt, decided seeing the cards and settled against the dealer's whole hand:
    the RTP within the 99.9% interval of the exact (0, 4) or sampled (1) figure."""
    exact, sampled = figures
    played = played_with_hole_cards(CARIBBEAN, hole, 300_000, seed=11)
    figure = exact.get(hole) or sampled[hole]
    se = math.hypot(played["standard_error"], figure["standard_error"])
    assert abs(played["rtp"] - figure["rtp"]) < Z_999 * se


def test_other_hands_seen_raise_the_rtp_hand_by_hand(figures):
    """Other players' hands are dead cards for the dealer's: with none seen the optimal
    RTP; each hand seen adds (5,000 situations each, the same seed: the gains 13 and 24
    standard errors above 0, 19 apart)."""
    exact, _ = figures
    assert shared_hands_rtp(CARIBBEAN, 0)["rtp"] == exact[0]["rtp"]
    rows = [shared_hands_rtp(CARIBBEAN, hands, samples=5_000, seed=4) for hands in (1, 4)]
    gains = [row["gain_over_optimal"] for row in rows]
    assert 0 < gains[0] < gains[1] < 0.1
    for row in rows:
        assert row["gain_over_optimal"] > Z_999 * row["standard_error"]  # known to be > 0


def test_the_command_prints_and_bad_input_is_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["protect", "caribbean", "--hole", "2", "--samples", "2000"])
    assert result.exit_code == 0, result.output
    assert "sampled" in result.output and "gain_over_optimal" in result.output
    shared = runner.invoke(main, ["protect", "caribbean", "--shared", "1", "--shared-samples",
                                  "2000", "--json"])  # fmt: skip
    assert shared.exit_code == 0, shared.output
    assert json.loads(shared.stdout)["shared_hands"][0]["other_hands_seen"] == 1
    both = runner.invoke(main, ["protect", "caribbean", "--hole", "1", "--shared", "1"])
    assert both.exit_code == 2 and "not more" in both.stderr
    rules = (resources.files("simulate") / "variants" / "oasis-classic.toml").read_text()
    replacing = tmp_path / "replacing.toml"  # long exchanges, a card replaced after a buy
    replacing.write_text(
        rules.replace("[decisions]", "[decisions]\nbuy = 1\nreplace_after_buy = 2")
    )
    refused = runner.invoke(main, ["protect", str(replacing), "--hole", "1"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("Error: oasis-classic: the protection figures cover games")
    assert len(refused.stderr.strip().splitlines()) == 1
