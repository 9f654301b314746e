"""Our hand order against independent evaluators: eval7, treys, phevaluator."""

import numpy as np
import pytest

from simulate.cards import format_card
from simulate.evaluator import evaluate

from .helpers import random_hands, scaled

eval7 = pytest.importorskip("eval7")


def assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    """Equal values exactly where the other library's are equal, same order elsewhere."""
    order = np.lexsort((theirs, ours))
    ours, theirs = ours[order].astype(np.int64), theirs[order].astype(np.int64)
    tie = ours[1:] == ours[:-1]
    assert np.all(theirs[1:][tie] == theirs[:-1][tie]), "we tie hands the other library ranks"
    assert np.all(theirs[1:][~tie] > theirs[:-1][~tie]), "the other library orders hands otherwise"


def eval7_values(hands: np.ndarray) -> np.ndarray:
    cards = [eval7.Card(format_card(card)) for card in range(52)]
    evaluate7 = eval7.evaluate
    return np.array([evaluate7([cards[c] for c in hand]) for hand in hands.tolist()])


def test_every_five_card_hand_against_eval7(all_five_card_hands):
    assert_same_order(evaluate(all_five_card_hands), eval7_values(all_five_card_hands))


def test_a_million_six_card_hands_against_eval7():
    hands = random_hands(scaled(1_000_000), 6, seed=7)
    assert_same_order(evaluate(hands), eval7_values(hands))


def test_random_hands_against_treys():
    treys = pytest.importorskip("treys")
    cards = [treys.Card.new(format_card(card)) for card in range(52)]
    evaluator = treys.Evaluator()
    for size in (5, 6):
        hands = random_hands(scaled(50_000), size, seed=size)
        theirs = [
            -evaluator.evaluate([cards[c] for c in h[:2]], [cards[c] for c in h[2:]])
            for h in hands.tolist()
        ]
        assert_same_order(evaluate(hands), np.array(theirs))


def test_random_hands_against_phevaluator():
    phevaluator = pytest.importorskip("phevaluator")
    # phevaluator numbers cards as we do: 4 * rank + suit, suits c, d, h, s
    for size in (5, 6):
        hands = random_hands(scaled(50_000), size, seed=10 + size)
        theirs = [-phevaluator.evaluate_cards(*h) for h in hands.tolist()]
        assert_same_order(evaluate(hands), np.array(theirs))
