"""What buying the dealer a game adds to optimal play, on paired deals."""

import dataclasses
import math

import pytest

from simulate.catalog import load_strategy
from simulate.codes import GameMode
from simulate.game_buy import Z_999, game_buy_gain, saved_game_gain
from simulate.optimal_sampled import optimal_rtp
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
    assert optimal["with_game"]["rtp"] == optimal["rtp"] + shipped.gain
    low, high = optimal["with_game"]["rtp_interval_999"]
    assert low < optimal["with_game"]["rtp"] < high


def test_a_game_that_cannot_be_bought_is_refused():
    with pytest.raises(ValueError, match="cannot be bought"):
        game_buy_gain("oasis", ROUNDS)
    with pytest.raises(ValueError, match="two blocks"):
        game_buy_gain("six-card", 100)
