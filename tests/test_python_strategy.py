"""Strategies written as numba-compiled functions: the same figures as the equivalent
rule strategy, checks on first use, and every entry point that takes a strategy."""

import ast

import numba
import numpy as np
import pytest

from simulate import run
from simulate.catalog import load_strategy, strategy_names
from simulate.codes import Action, Category, Point
from simulate.compare import compare
from simulate.python_strategy import category_jit, hand_value_jit, python_strategy
from simulate.strategy import Strategy, StrategyError, StrategyKind

# Oasis: play a pair or better; exchange one card from four to a flush; play ace-king
# or better; fold the rest. After the exchange, play ace-king or better.
OASIS_RULES = {
    "name": "four-flush",
    "variant": "oasis",
    "first": [
        {"action": "play", "at_least": "pair"},
        {"action": "exchange", "keep": "four-flush", "draw": "four-flush"},
        {"action": "play", "at_least": "ace-king"},
        {"action": "fold"},
    ],
    "after_draw": [{"action": "play", "at_least": "ace-king"}, {"action": "fold"}],
}


@numba.njit
def four_flush(point, cards, upcard):
    """The rule strategy OASIS_RULES, in Python."""
    category = category_jit(hand_value_jit(cards), True)
    if point == Point.FIRST:
        if category >= Category.PAIR:
            return Action.PLAY, 0
        for suit in range(4):
            kept = 0
            for i in range(cards.shape[0]):
                if cards[i] % 4 == suit:
                    kept |= 1 << i
            if bin_count(kept) == 4:
                return Action.EXCHANGE, kept
    return (Action.PLAY if category >= Category.ACE_KING else Action.FOLD), 0


@numba.njit
def bin_count(mask):
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@numba.njit
def pair_or_better(point, cards, upcard):
    category = category_jit(hand_value_jit(cards), False)
    return (Action.PLAY if category >= Category.PAIR else Action.FOLD), 0


@numba.njit
def buys_a_card(point, cards, upcard):
    return Action.BUY, 0


@numba.njit
def throws_three(point, cards, upcard):
    if point == Point.FIRST:
        return Action.EXCHANGE, 0b11000
    return Action.PLAY, 0


@numba.njit
def forgets_the_upcard(point, cards):
    return Action.PLAY, 0


@numba.njit
def misreads_seen(point, cards, upcard, seen):
    return Action.PLAY, seen.size


@numba.njit
def sevens_seen(point, cards, upcard, seen):
    """Oasis: play ace-king or better when two or three cards of the upcard's rank are
    seen besides the hand, else fold (the rule ``seen_upcard_rank = [2, 3]``)."""
    count = 0
    for suit in range(4):
        card = 4 * (upcard // 4) + suit
        if card != upcard and (seen >> card) & 1 and not (cards == card).any():
            count += 1
    category = category_jit(hand_value_jit(cards), True)
    if point == Point.FIRST and category >= Category.ACE_KING and count >= 2:
        return Action.PLAY, 0
    return Action.FOLD, 0


def test_a_function_taking_the_seen_cards_plays_as_its_rules_on_several_boxes():
    rules = {
        "name": "seen",
        "variant": "oasis",
        "first": [
            {"action": "play", "at_least": "ace-king", "seen_upcard_rank": [2, 3]},
            {"action": "fold"},
        ],
    }
    by_rules = run("oasis", Strategy.from_dict(rules, "oasis"), 20_000, seed=6, boxes=3)
    by_function = run("oasis", sevens_seen, 20_000, seed=6, boxes=3)
    assert np.array_equal(by_function.floats, by_rules.floats)
    assert by_rules.decisions.set_index("decision")["count"]["play"] > 0


@pytest.mark.parametrize(
    ("variant", "function", "rules"),
    [
        # the engine compiles once per function (tens of seconds): one here, with draws
        ("oasis", four_flush, OASIS_RULES),
    ],
)
def test_a_function_plays_as_its_rule_strategy_bit_for_bit(variant, function, rules):
    as_rules = (
        Strategy.from_dict(rules, variant)
        if isinstance(rules, dict)
        else load_strategy(rules, variant)
    )
    by_rules = run(variant, as_rules, 3 * 4096 + 17, seed=5, threads=2)
    by_function = run(variant, function, 3 * 4096 + 17, seed=5, threads=1, chunk_blocks=1)
    assert by_function.strategy.kind is StrategyKind.PYTHON
    assert np.array_equal(by_function.floats, by_rules.floats)
    assert np.array_equal(by_function.ints, by_rules.ints)
    assert by_function.summary["rtp"] == by_rules.summary["rtp"]


def test_comparisons_take_functions_beside_named_strategies():
    frame = compare("oasis", [four_flush, "basic"], 8192, seed=3).table
    assert list(frame["strategy"]) == ["four_flush", "basic"]


def test_the_output_records_the_function_and_its_source():
    record = run("oasis", four_flush, 4096, seed=1).to_json()["strategy"]
    assert record["name"] == "four_flush"
    assert record["rules"]["kind"] == "python"
    ast.parse(record["rules"]["source"])
    assert len(record["rules"]["source_sha256"]) == 64


@pytest.mark.parametrize(
    ("variant", "function", "message"),
    [
        ("oasis", buys_a_card, "at FIRST on .*: action BUY is not allowed there"),
        ("oasis", throws_three, "exchanging 3 cards is not offered \\(offered: 1, 2\\)"),
        (
            "caribbean",
            forgets_the_upcard,
            "takes \\(point, cards, upcard\\) or \\(point, cards, upcard, seen\\)",
        ),
        (
            "caribbean",
            misreads_seen,
            "numba cannot compile it as decide\\(point, cards, upcard, seen\\)",
        ),
    ],
)
def test_a_function_is_checked_on_first_use(variant, function, message):
    with pytest.raises(StrategyError, match=message):
        run(variant, function, 4096)


def test_a_plain_python_function_is_refused():
    def plain(point, cards, upcard):
        return 1, 0

    with pytest.raises(StrategyError, match="compiled by numba"):
        load_strategy(plain, "caribbean")


def test_buying_the_dealer_a_game_by_the_function_needs_a_variant_offering_it():
    with pytest.raises(StrategyError, match="offers no buying the dealer a game"):
        python_strategy(pair_or_better, "caribbean", buy_game="strategy")
    with pytest.raises(StrategyError, match="buy_game must be one of"):
        python_strategy(pair_or_better, "six-card", buy_game="sometimes")


def test_one_registry_names_and_loads_every_strategy():
    names = strategy_names("six-card")
    assert {"basic", "optimal", "optimal-no-draws"} <= set(names)
    kinds = {name: load_strategy(name, "six-card").kind for name in ("basic", "optimal-no-draws")}
    assert kinds == {"basic": StrategyKind.RULES, "optimal-no-draws": StrategyKind.TABLE}
    with pytest.raises(StrategyError, match="unknown strategy 'nope' for six-card"):
        load_strategy("nope", "six-card")
