"""Situations sampled within strata of the five dealt cards' category."""

import math

import numpy as np
import pytest

from simulate.cards import parse_cards
from simulate.game_strata import (
    MIN_PER_STRATUM,
    STRATA,
    WHOLE_GAME,
    StratifiedSamples,
    dealt_situation,
    next_streams,
    stratum_of,
)
from simulate.simulation import Z_999

ACES = set(parse_cards("As Ad Ah Ac").tolist())


def test_a_stream_deals_its_stratum_alone_from_its_seed_and_index():
    for stream in range(len(STRATA)):
        hands = [dealt_situation(3, stream, index) for index in range(4)]
        assert all(stratum_of(hand, upcard) == stream for hand, upcard in hands)
        hand, upcard = hands[2]
        again = dealt_situation(3, stream, 2)
        assert np.array_equal(again[0], hand) and again[1] == upcard
        assert upcard not in hand and len(set(hand.tolist())) == 5
    deck = np.random.default_rng([3, 7]).permutation(52)  # the whole game, as dealt before
    hand, upcard = dealt_situation(3, WHOLE_GAME, 7)
    assert np.array_equal(hand, np.sort(deck[:5])) and upcard == deck[5]
    for cards, upcard, stratum in [
        ("As Ad Ah Kc Kd", "Ks", "full house or better, upcard pairs"),
        ("2s 2d 2h 9c Kd", "2c", "three of a kind, upcard pairs"),
        ("2s 2d 2h 9c Kd", "Kc", "three of a kind, upcard pairs"),
        ("2s 2d 2h 9c Kd", "Qc", "three of a kind, upcard apart"),
        ("As Kd 7h 4c 2s", "3h", "high card, upcard apart"),
        ("As Ks 7s 4s 2s", "7c", "flush, upcard pairs"),
    ]:
        card = int(parse_cards(upcard)[0])
        assert stratum_of(parse_cards(cards), card) == STRATA.index(stratum)


def test_the_stratified_interval_covers_an_exact_mean():
    """A figure known exactly over the whole game (aces among the five cards, 5/13 on
    average), estimated on situations dealt within strata as ``next_streams``
    allocates them (the strata's exact shares count the upcards that pair): within
    the 99.9% interval."""
    samples = StratifiedSamples.empty(8)
    for _ in range(6):
        samples = samples.more(60, lambda hand, upcard: sum(c in ACES for c in hand.tolist()))
    assert samples.stratified and (samples.counts() >= MIN_PER_STRATUM).all()
    mean, se = samples.estimate()
    assert 0 < se < 0.05
    assert abs(mean - 5 / 13) <= Z_999 * se


def test_streams_go_first_to_short_strata_then_where_the_figure_varies():
    """Then by share times spread over the square root of the seconds a situation."""
    n = len(STRATA)
    trips, high = STRATA.index("three of a kind, upcard apart"), 0
    strata = np.repeat(np.arange(n), MIN_PER_STRATUM)
    values = np.zeros(len(strata))
    values[strata == trips] = np.tile([0.0, 0.3], MIN_PER_STRATUM // 2)
    values[strata == high] = np.tile([0.0, 0.01], MIN_PER_STRATUM // 2)
    seconds = np.ones(len(strata))
    full = StratifiedSamples(1, values, strata, np.full(len(strata), WHOLE_GAME), seconds)
    streams = next_streams(full, 200)
    assert set(streams) <= {high, trips} and streams.count(trips) > streams.count(high) > 0
    slow = StratifiedSamples(1, values, strata, full.streams, np.where(strata == trips, 400, 1))
    assert next_streams(slow, 200).count(trips) < streams.count(trips) / 2
    short = full.first(len(strata) - 5)  # the last stratum five short
    assert next_streams(short, 6)[:5] == [n - 1] * 5
    assert math.isclose(sum(row["weight"] for row in full.by_stratum()), 1)
    one = StratifiedSamples(
        1, np.zeros(3), np.zeros(3, np.int8), np.zeros(3, np.int8), seconds[:3]
    )
    assert not one.estimable
    with pytest.raises(ValueError, match="two situations in every stratum"):
        one.estimate()
