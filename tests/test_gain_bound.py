"""The proven bound of what the long exchanges can gain: a final hand's EV with its
discards dead within its bound (equal to it with one discard), an exchange's bound the
mean of its final hands' over every draw, the game's per class the situations' one by
one, and the committed samples' exact gains within it, far below the proxy's bound."""

from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from simulate import gain_bound
from simulate._evaluator import hand_value_jit
from simulate._exact import after_draw_ev_jit
from simulate._gain_bound import (
    AVOIDING,
    HOLDING_ONE,
    exchange_bounds_jit,
    game_bounds_jit,
    hand_bounds,
    sample_bounds_jit,
)
from simulate._settlement import bet_multiple_jit
from simulate.exact import value_lists
from simulate.gain_bound import bound_tables
from simulate.optimal_sampled import _class_weights, sampled_optimum, saved_sampled_optimum
from simulate.proxy import option_arrays
from simulate.variant import load_variant

RESULTS = Path(__file__).resolve().parents[1] / "results"
RANK = 9  # the upcard's rank (suit 0: the tables' upcard)
UPCARD = 4 * RANK


@pytest.fixture(scope="module")
def russian():
    variant = load_variant("russian")
    return variant, bound_tables(variant, RANK, 2)


def _play(v, lists, final, discards=()):
    """The exact EV of betting ``final`` with ``discards`` dead too."""
    dead = np.sort(np.concatenate([final, np.asarray(discards, dtype=np.int64)]))
    return after_draw_ev_jit(v, lists, final, UPCARD, dead, len(dead), True)


def _effect(v, lists, final, card, play):
    """How much more betting ``final`` returns when ``card`` is among the dealer's four."""
    without = _play(v, lists, final, [card])
    return (comb(46, 4) * play - comb(45, 4) * without) / comb(45, 3) - play


def _most(v, final):
    """The most betting ``final`` can return."""
    win = v.ante_pays + v.bet * bet_multiple_jit(v, final, hand_value_jit(final))
    return max(0.0, v.ante_pays_no_qualify, win)


def test_a_hands_ev_with_its_discards_dead_is_within_its_bound():
    """Second-order Bonferroni: at most A_k(h) less the discards' first-order removal,
    exactly that with one discard, and much nearer than the proxy's bound."""
    variant = load_variant("russian")
    v, lists = variant.arrays(), value_lists()
    rng = np.random.default_rng(21)
    deck = np.setdiff1d(np.arange(52), [UPCARD])
    slack = {"second order": [], "proxy's": []}
    for _ in range(12):
        cards = rng.choice(deck, 10, replace=False)
        final, discards = np.sort(cards[:5]), cards[5:]
        play, most = _play(v, lists, final), _most(v, final)
        effects = np.array([_effect(v, lists, final, card, play) for card in discards])
        for k in range(1, 6):
            base = hand_bounds(np.array([play]), np.array([most]), k, 1.0 + v.bet)[0]
            bound = base - HOLDING_ONE / AVOIDING[k] * effects[:k].sum()
            exact = _play(v, lists, final, discards[:k])
            if k == 1:
                assert bound == pytest.approx(exact, abs=1e-12)
                continue
            assert exact <= bound + 1e-12
            r = comb(46, 4) / comb(46 - k, 4)
            slack["second order"].append(bound - exact)
            slack["proxy's"].append(r * play + (r - 1) * (1 + v.bet) - exact)
    assert np.mean(slack["second order"]) < np.mean(slack["proxy's"]) / 3


def test_an_exchanges_bound_is_the_mean_of_its_final_hands_bounds(russian):
    """Keeping two cards: the tables' bound equals the mean over every draw of three of
    the final hand's relaxed bound, the better of folding and betting at A_3(h), capped
    by the most it can return, plus the positive parts of its discards' removal."""
    variant, (tables, removals, _) = russian
    v, lists = variant.arrays(), value_lists()
    rng = np.random.default_rng(22)
    hand = np.sort(rng.choice(np.setdiff1d(np.arange(52), [UPCARD]), 5, replace=False))
    out = np.empty(32)
    exchange_bounds_jit(tables, removals, hand, UPCARD, np.empty((6, 32)), np.empty(32), out)
    mask = 0b00101  # keep cards 0 and 2
    kept, thrown = hand[[0, 2]], hand[[1, 3, 4]]
    unseen = np.setdiff1d(np.arange(52), [*hand, UPCARD])
    values = []
    for drawn in combinations(unseen, 3):
        final = np.sort(np.concatenate([kept, drawn]))
        play, most = _play(v, lists, final), _most(v, final)
        base = hand_bounds(np.array([play]), np.array([most]), 3, 1.0 + v.bet)[0]
        removal = sum(max(0.0, -_effect(v, lists, final, card, play)) for card in thrown)
        values.append(max(-1.0, min(most, base)) + HOLDING_ONE / AVOIDING[3] * removal)
    assert out[mask] == pytest.approx(np.mean(values), abs=1e-9)


def test_the_game_bounds_are_the_situations_one_by_one(russian):
    variant, (tables, removals, plays) = russian
    fees, _, long, _ = option_arrays(variant, 2)
    reps = _class_weights()[0][::3_300][:40]  # spread over the classes
    largest, positives, sums = np.empty(40), np.empty(40, dtype=np.int64), np.empty(40)
    game_bounds_jit(tables, removals, plays, reps, RANK, fees, long, largest, positives, sums)
    for c in range(40):
        upcards = np.array([u for u in range(UPCARD, UPCARD + 4) if u not in reps[c]])
        hands = np.repeat(reps[c : c + 1], len(upcards), axis=0)
        one = np.zeros(len(upcards))
        sample_bounds_jit(tables, removals, plays, hands, upcards, RANK, fees, long, one)
        assert largest[c] == one.max() and positives[c] == np.count_nonzero(one > 0)
        assert sums[c] == pytest.approx(one.sum(), rel=1e-12)
    assert np.any(positives == 0) and np.any(largest > 0)


def test_the_committed_russian_samples_gain_within_their_bounds(russian):
    """The exact gains of the shipped samples whose upcard has the tables' rank stay within
    their bounds, which lie far below the proxy's own bound of the whole game."""
    variant, (tables, removals, plays) = russian
    saved = saved_sampled_optimum(variant)
    mine = saved.upcards // 4 == RANK
    hands = _class_weights()[0][saved.classes[mine]]
    fees, _, long, _ = option_arrays(variant, 2)
    bounds = np.zeros(mine.sum())
    upcards = saved.upcards[mine].astype(np.int64)
    sample_bounds_jit(tables, removals, plays, hands, upcards, RANK, fees, long, bounds)
    assert mine.sum() > 50 and np.all(saved.gains[mine] <= bounds + 1e-12)
    proxys = np.load(RESULTS / "russian" / "optimal-proxy-seed1.npz")["proxy_gain_bound"]
    assert np.any(bounds == 0) and bounds.max() < proxys / 2


def test_the_sampled_optimum_measures_within_the_tighter_bound(
    cheap_exchanges, no_proxy, coarse_removal, tmp_path, monkeypatch
):
    """The bound is weighed once beside the proxy (a stub bounding gains by 10 antes),
    kept, and read again; the range of the interval that needs no normal approximation
    ends at the tighter bound (the removal effects coarsened here: their exact tables take
    minutes)."""
    variant, _ = cheap_exchanges
    options = {"seed": 4, "short_draws": 1, "classes": 400}
    first = sampled_optimum(variant, tmp_path, 40, **options)
    kept = np.load(tmp_path / "optimal-bound-draws1-seed4.npz")
    assert 0 < kept["bound_largest"] < 10
    assert first.summary()["difference_range"][1] == kept["bound_largest"]
    assert np.all(first.gains <= kept["bound_samples"][:40])

    monkeypatch.setattr(gain_bound, "_removal_sums", None)  # not weighed again
    again = sampled_optimum(variant, tmp_path, 40, **options)
    assert again.summary() == first.summary()
