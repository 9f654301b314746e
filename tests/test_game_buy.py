"""What buying the dealer a game adds to optimal play, on paired deals."""

import dataclasses
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import game_buy
from simulate.catalog import load_strategy
from simulate.cli import main
from simulate.codes import GameMode
from simulate.game_buy import (
    Z_999,
    GameBuyGain,
    game_buy_gain,
    saved_game_gain,
    situation_gain,
    with_first_decisions,
)
from simulate.game_strata import STRATA, WHOLE_GAME, StratifiedSamples, dealt_situation
from simulate.optimum import optimal_rtp
from simulate.simulation import run
from simulate.variant import load_variant

ROUNDS = 2**17


@pytest.fixture(scope="module")
def measured():
    return game_buy_gain("six-card", ROUNDS, seed=9)


def test_the_gain_is_the_difference_of_the_two_plays_on_the_same_deals(measured):
    bought = load_strategy("optimal", "six-card")
    declined = dataclasses.replace(bought, game_mode=GameMode.NEVER)
    rtps = [run("six-card", plan, ROUNDS, seed=9).summary for plan in (bought, declined)]
    assert measured.gain == pytest.approx(rtps[0]["rtp"] - rtps[1]["rtp"], abs=1e-12)
    assert measured.gain - Z_999 * measured.standard_error > 0  # buying when worth it gains
    single = math.hypot(rtps[0]["standard_error"], rtps[1]["standard_error"])
    assert measured.standard_error < single / 3  # pairing the deals narrows it


def test_the_shipped_gain_agrees_with_a_fresh_measurement(measured):
    """The gain kept with the shipped table, against a run on other deals: within the
    99.9% interval of their difference; the optimal RTP with the game adds it."""
    shipped = saved_game_gain(load_variant("six-card"))
    assert shipped is not None and shipped.rounds >= 2**25
    spread = math.hypot(shipped.standard_error, measured.standard_error)
    assert abs(shipped.gain - measured.gain) <= Z_999 * spread
    optimal = optimal_rtp(load_variant("six-card"))
    first = 0.0 if shipped.decisions is None else shipped.decisions.estimate()[0]
    assert optimal["with_game"]["rtp"] == pytest.approx(optimal["rtp"] + shipped.gain + first)
    low, high = optimal["with_game"]["rtp_interval_999"]
    assert low < optimal["with_game"]["rtp"] < high


def test_a_game_that_cannot_be_bought_is_refused():
    with pytest.raises(ValueError, match="cannot be bought"):
        game_buy_gain("oasis", ROUNDS)
    with pytest.raises(ValueError, match="two blocks"):
        game_buy_gain("six-card", 100)


def test_first_decisions_turn_the_bound_into_an_estimate():
    """Their mean adds to the simulated gain, their standard error to its, and the
    figure is no longer a lower bound; with a stratum left empty, the mean of the
    situations dealt from the whole game."""
    plain = GameBuyGain(2**20, 1, 0.015, 0.0002)
    assert plain.record(0.95)["lower_bound"]
    values = np.array([0.0, 0.1, 0.0, 0.02, 0.0])
    strata, streams = np.array([0, 3, 1, 0, 1]), np.full(5, WHOLE_GAME)
    samples = StratifiedSamples(4, values, strata, streams, np.full(5, np.nan))
    record = dataclasses.replace(plain, decisions=samples).record(0.95)
    assert not record["lower_bound"]
    assert record["rtp"] == pytest.approx(0.95 + 0.015 + 0.024)
    se = values.std(ddof=1) / math.sqrt(5)
    low, high = record["rtp_interval_999"]
    assert high - record["rtp"] == pytest.approx(Z_999 * math.hypot(0.0002, se))
    assert record["rtp"] - low == pytest.approx(high - record["rtp"])
    assert record["first_decisions"]["situations_changed"] == 2
    assert record["first_decisions"]["strata"] is None


def test_first_decisions_in_strata_weigh_each_by_its_share():
    """Once every stratum holds two situations, the mean is the strata's means weighed
    by their exact shares (whatever stream dealt them), its variance the sum of each
    stratum's share squared times its mean's variance."""
    rng = np.random.default_rng(2)
    trips = STRATA.index("three of a kind, upcard apart")
    strata = np.repeat(np.arange(len(STRATA)), 3)
    values = rng.random(len(strata)) * (strata == trips)
    streams = np.where(np.arange(len(strata)) % 2, strata, WHOLE_GAME)
    samples = StratifiedSamples(1, values, strata, streams, np.ones(len(strata)))
    rows = samples.by_stratum()
    weights = np.array([row["weight"] for row in rows])
    assert weights.sum() == pytest.approx(1)
    # an upcard pairs 7 of the 47 cards left by three of a kind
    assert weights[trips] == pytest.approx(54_912 / 2_598_960 * 40 / 47)
    mean, se = samples.estimate()
    measured = values[strata == trips]
    assert mean == pytest.approx(weights[trips] * measured.mean())
    assert se == pytest.approx(weights[trips] * measured.std(ddof=1) / math.sqrt(3))
    record = GameBuyGain(2**20, 1, 0.015, 0.0002, samples).record(0.95)
    assert record["rtp"] == pytest.approx(0.95 + 0.015 + mean)
    assert [row["samples"] for row in record["first_decisions"]["strata"]] == [3] * len(STRATA)


def test_first_decisions_resume_from_the_saved_blocks(tmp_path, monkeypatch):
    """Each situation comes from the seed, its stream and its index alone; a second run
    keeps the saved ones and weighs only the rest."""
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path / "cache"))
    variant = load_variant("six-card")
    base = dataclasses.replace(saved_game_gain(variant), decisions=None)
    table = tmp_path / "table.npz"
    first = with_first_decisions(variant, base, 2, seed=5, block=1, path=table)
    assert np.array_equal(np.load(table)["game_decisions"], first.decisions.values)
    assert first.decisions.streams.tolist() == [0, 0]  # every stratum short: high cards first
    assert first.decisions.values[1] == situation_gain(variant, *dealt_situation(5, 0, 1))
    calls = []

    def counted(variant, hand, upcard):
        calls.append((hand.tolist(), upcard))
        return 0.0

    monkeypatch.setattr(game_buy, "situation_gain", counted)
    more = with_first_decisions(variant, first, 3, seed=5, path=table)
    hand, upcard = dealt_situation(5, 0, 2)
    assert calls == [(hand.tolist(), upcard)]
    assert np.array_equal(more.decisions.values[:2], first.decisions.values)
    assert np.load(table)["game_decision_streams"].tolist() == [0, 0, 0]


def test_game_buy_command_refuses_a_game_without_one():
    result = CliRunner().invoke(main, ["game-buy", "oasis"])
    assert result.exit_code == 2 and "Error:" in result.output
