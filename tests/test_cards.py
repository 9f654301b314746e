import numpy as np
import pytest

from simulate.cards import CardError, card_of, format_card, format_cards, parse_cards, random_hands


def test_encoding_is_rank_times_four_plus_suit():
    assert parse_cards("2c").tolist() == [0]
    assert parse_cards("2d 2h 2s 3c").tolist() == [1, 2, 3, 4]
    assert parse_cards("As").tolist() == [51]
    assert card_of(rank=12, suit=3) == 51


def test_every_card_round_trips():
    text = format_cards(range(52))
    assert parse_cards(text).tolist() == list(range(52))
    assert len({format_card(card) for card in range(52)}) == 52


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 10h",
        "as kd th",
        "AS KD TH",
        "AsKd10h",
        "As,Kd,Th",
        "As-Kd-10H",
        "A♠ K♦ T♥",
        "  As  Kd Th ",
    ],
)
def test_spellings(text):
    assert format_cards(parse_cards(text)) == "As Kd Th"


def test_list_of_strings_is_one_hand():
    assert format_cards(parse_cards(["As", "Kd"])) == "As Kd"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("As Kx", "'Kx'"),
        ("As 1d", "'1d'"),
        ("As K", "'K'"),
        ("11s", "'11s'"),
        ("As Zz 2c", "'Zz'"),
    ],
)
def test_malformed_card_is_named(text, named):
    with pytest.raises(CardError, match=named):
        parse_cards(text)


def test_duplicate_card_is_named():
    with pytest.raises(CardError, match="Kd appears twice"):
        parse_cards("As Kd 7h kD")
    assert parse_cards("As As", unique=False).tolist() == [51, 51]


def test_empty_and_out_of_range():
    with pytest.raises(CardError, match="no cards"):
        parse_cards(" , ")
    with pytest.raises(CardError, match=r"outside 0\.\.51"):
        format_card(52)


def test_dtype_is_compact():
    assert parse_cards("As").dtype == np.int8


def test_random_hands_are_distinct_and_uniform():
    hands = random_hands(60_000, 6, np.random.default_rng(5))
    assert hands.shape == (60_000, 6) and hands.dtype == np.int8
    assert (np.diff(np.sort(hands, axis=1), axis=1) > 0).all()
    counts = np.bincount(hands.ravel(), minlength=52)
    expected = hands.size / 52  # chi-square with 51 degrees of freedom: 99.9% point is 87.97
    assert ((counts - expected) ** 2 / expected).sum() < 87.97
    assert np.array_equal(hands, random_hands(60_000, 6, np.random.default_rng(5)))
