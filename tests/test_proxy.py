"""The proxy of the long exchanges: its tables against plain averages over every draw,
its game sums against the situations one by one, its bound against exact gains; and
the interval that needs no normal approximation."""

import itertools
from math import comb

import numpy as np
import pytest

from simulate._exact import after_draw_ev_jit, thrown_count_jit
from simulate._proxy import (
    HANDS,
    TABLES,
    VALUE,
    _subset_index,
    buy_mean_jit,
    exchange_values_jit,
    game_proxies_jit,
    hand_values_jit,
    kept_means_jit,
    relabelled_jit,
    sample_proxies_jit,
)
from simulate.codes import Action
from simulate.exact import first_options, value_lists
from simulate.intervals import betting_interval
from simulate.optimal_sampled import (
    _best_evs,
    _class_weights,
    saved_sampled_optimum,
    situation_gains,
)
from simulate.proxy import RAMP, option_arrays, rank_tables, removal_tables
from simulate.variant import load_variant

RANK = 9  # the upcard's rank in these tests (suit 0: the tables' upcard)


@pytest.fixture(scope="module")
def russian():
    variant = load_variant("russian")
    return variant, rank_tables(variant, RANK, 2)


def test_kept_means_are_averages_over_every_draw(russian):
    variant, (tables, _, _) = russian
    v, lists = variant.arrays(), value_lists()
    upcard = 4 * RANK
    rng = np.random.default_rng(11)
    means = np.empty(32)
    for _ in range(2):
        hand = np.sort(rng.choice(np.setdiff1d(np.arange(52), [upcard]), 5, replace=False))
        kept_means_jit(tables[VALUE], hand, upcard, means)
        deck = np.setdiff1d(np.arange(52), [*hand, upcard])
        for mask in (31, 0b11101, 0b01110, 0b10001):
            kept = [int(hand[i]) for i in range(5) if (mask >> i) & 1]
            draws = itertools.combinations(deck, 5 - len(kept))
            finals = [np.array(sorted(kept + list(drawn)), dtype=np.int64) for drawn in draws]
            plain = np.mean([after_draw_ev_jit(v, lists, f, upcard, f, 5, False) for f in finals])
            assert means[mask] == pytest.approx(plain, abs=1e-12)


def test_the_removal_effects_are_those_of_a_dead_card(russian):
    """A hand's sum over itself of a card's removal effect: how much more betting it
    returns when the card is among the dealer's four (zero where folding is better)."""
    variant, (_, _, removals) = russian
    v, lists = variant.arrays(), value_lists()
    upcard = 4 * RANK
    rng = np.random.default_rng(13)
    deck = np.setdiff1d(np.arange(52), [upcard])
    checked = 0
    for _ in range(6):
        hand = np.sort(rng.choice(deck, 5, replace=False))
        play = after_draw_ev_jit(v, lists, hand, upcard, hand, 5, True)
        for card in rng.choice(np.setdiff1d(deck, hand), 3, replace=False):
            dead = np.sort(np.append(hand, card))
            without = after_draw_ev_jit(v, lists, hand, upcard, dead, 6, True)
            holding = comb(46, 4) * play - comb(45, 4) * without  # dealer hands with card
            effect = holding / comb(45, 3) - play if play > -1 else 0.0
            where = _subset_index(hand - (hand > upcard), 31)
            assert removals[0, card - (card > upcard), where] == pytest.approx(effect, abs=1e-12)
            checked += play > -1
    assert checked > 3


def test_the_removal_brings_exchanges_nearer_their_exact_evs(russian):
    """Three-card exchanges of a few situations: the proxy's EVs with the first-order
    removal of the discards are several times nearer the exact EVs than without."""
    variant, proxy = russian
    options = option_arrays(variant, 2)
    without = (*proxy[:2], np.zeros_like(proxy[2]))
    kinds = first_options(variant)[0]
    three = [i for i, (kind, keep) in enumerate(kinds) if kind == Action.EXCHANGE
             and thrown_count_jit(keep) == 3]  # fmt: skip
    rng = np.random.default_rng(14)
    upcard = 4 * RANK
    errors = {"with": [], "without": []}
    means, removed, evs = np.empty((TABLES, 32)), np.empty((3, 32)), np.empty(32)
    for _ in range(2):
        hand = np.sort(rng.choice(np.setdiff1d(np.arange(52), [upcard]), 5, replace=False))
        for i in three:
            exact = _best_evs(variant, hand[None], np.array([upcard]), kinds[i : i + 1])[0]
            for name, tables in (("with", proxy), ("without", without)):
                exchange_values_jit(tables, hand, upcard, options, means, removed, evs)
                errors[name].append(evs[kinds[i, 1]] - exact)
    rms = {name: np.sqrt(np.mean(np.square(e))) for name, e in errors.items()}
    assert rms["with"] < rms["without"] / 3


def test_the_bought_sixth_card_is_valued_exactly(russian):
    """Buying a sixth card discards nothing: its proxy value is its exact EV."""
    variant, (_, buys, _) = russian
    buy_fee = option_arrays(variant, 2)[3]
    rng = np.random.default_rng(12)
    upcard = 4 * RANK + 2
    others = np.setdiff1d(np.arange(52), [upcard])
    hands = np.sort([rng.choice(others, 5, replace=False) for _ in range(4)], axis=1)
    options = first_options(variant)[0]
    exact = _best_evs(variant, hands, np.full(4, upcard), options[options[:, 0] == Action.BUY])
    relabelled = np.empty(5, dtype=np.int64)  # the upcard's suit to 0, the tables' own
    for hand, ev in zip(hands, exact, strict=True):
        relabelled_jit(hand, 2, relabelled)
        assert buy_mean_jit(buys, relabelled, 4 * RANK) - buy_fee == pytest.approx(ev, abs=1e-12)


def test_the_game_sums_are_the_situations_one_by_one(russian):
    """Per class of hands, the sum over its upcards of one rank (relabelled to suit 0)
    equals the proxies of those situations computed one at a time."""
    variant, proxy = russian
    options = option_arrays(variant, 2)
    reps = _class_weights()[0][::3_300][:40]  # spread over the classes
    gains, largest, bounds = np.empty(40), np.empty(40), np.empty(40)
    positives = np.empty(40, dtype=np.int64)
    game_proxies_jit(proxy, reps, RANK, options, gains, largest, bounds, positives)
    for c in range(40):
        upcards = np.array([u for u in range(4 * RANK, 4 * RANK + 4) if u not in reps[c]])
        hands = np.repeat(reps[c : c + 1], len(upcards), axis=0)
        one, bound = np.zeros(len(upcards)), np.zeros(len(upcards))
        sample_proxies_jit(proxy, hands, upcards, RANK, options, one, bound)
        assert gains[c] == pytest.approx(one.sum(), abs=1e-12)
        assert largest[c] == one.max() and bounds[c] == bound.max()
        assert positives[c] == np.count_nonzero(one > 0)
    assert np.any(gains > 0) and np.any(positives < 4 - (reps >> 2 == RANK).sum(axis=1))


def test_the_bound_holds_over_exact_gains(cheap_exchanges, no_removal):
    """No situation's exact gain of the long exchanges exceeds its proven bound, and the
    proxy gain follows the exact gain."""
    variant, _ = cheap_exchanges
    proxy = rank_tables(variant, RANK, 1)
    options = option_arrays(variant, 1)
    reps = _class_weights()[0]
    classes = np.arange(0, 120_000, 1_000)
    upcards = np.array([4 * RANK + next(s for s in range(4) if 4 * RANK + s not in reps[c])
                        for c in classes])  # fmt: skip
    exact = situation_gains(variant, classes, upcards, short_draws=1)
    gains = np.maximum(0, exact["long_evs"] - exact["short_evs"])
    proxied, bounds = np.zeros(len(classes)), np.zeros(len(classes))
    sample_proxies_jit(proxy, reps[classes], upcards, RANK, options, proxied, bounds)
    assert np.all(gains <= bounds) and np.sum(gains > 0) > 10
    assert np.corrcoef(gains, proxied)[0, 1] > 0.8


def test_the_betting_interval_covers_the_mean_as_often_as_it_says():
    """Skewed samples in [0, 1] (mean 0.1): over 400 runs of 100 samples a 90% interval
    misses the mean at most about 10% of the time (fixed seed)."""
    rng = np.random.default_rng(5)
    misses = 0
    for _ in range(400):
        x = rng.beta(0.5, 4.5, size=100)
        low, high = betting_interval(x, 0.0, 1.0, alpha=0.1)
        assert low <= x.mean() <= high
        misses += not low <= 0.1 <= high
    assert misses <= 40 + 3 * np.sqrt(400 * 0.1 * 0.9)


def test_the_betting_interval_covers_a_mean_set_by_rare_extremes():
    """Where the samples spread far less than their range (the regime of a difference to a
    good proxy, where the cap sets the bets): 99.5% of them within 0.49 to 0.51, the rest 0
    (mean 0.4975). In a fifth of 400 runs of 300 samples no 0 is drawn, so the normal
    approximation's 90% interval misses the mean in more than 10% of runs; the betting
    interval's misses at most about 10% (fixed seed)."""
    rng = np.random.default_rng(7)
    mean, n, runs = 0.995 * 0.5, 300, 400
    misses = normal_misses = none_extreme = 0
    for _ in range(runs):
        x = np.where(rng.random(n) < 0.005, 0.0, rng.uniform(0.49, 0.51, size=n))
        low, high = betting_interval(x, 0.0, 1.0, alpha=0.1)
        misses += not low <= mean <= high
        half = 1.645 * x.std(ddof=1) / np.sqrt(n)
        normal_misses += not x.mean() - half <= mean <= x.mean() + half
        none_extreme += x.min() > 0
    assert none_extreme > 0.15 * runs and normal_misses > 0.15 * runs
    assert misses <= 0.1 * runs + 3 * np.sqrt(runs * 0.1 * 0.9)


def test_the_betting_interval_narrows_with_samples_and_refuses_wrong_ranges():
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 3, size=4000)
    narrow, wide = betting_interval(x, -1, 3), betting_interval(x[:400], -1, 3)
    assert narrow[1] - narrow[0] < (wide[1] - wide[0]) / 2
    assert narrow[0] < 1 < narrow[1]
    with pytest.raises(ValueError, match="outside their range"):
        betting_interval(x, 0, 3)


def test_the_bound_holds_over_the_committed_russian_samples(russian):
    """The exact gains of the shipped Russian samples whose upcard has the tables' rank
    stay within their bounds; the proxy gains there are those shipped."""
    variant, proxy = russian
    saved = saved_sampled_optimum(variant)
    mine = saved.upcards // 4 == RANK
    hands = _class_weights()[0][saved.classes[mine]]
    upcards = saved.upcards[mine].astype(np.int64)
    options = option_arrays(variant, 2)
    gains, bounds = np.zeros(mine.sum()), np.zeros(mine.sum())
    sample_proxies_jit(proxy, hands, upcards, RANK, options, gains, bounds)
    assert mine.sum() > 50 and np.all(saved.gains[mine] <= bounds)
    np.testing.assert_array_equal(gains, saved.proxy.samples[mine])


def test_each_exchanges_value_follows_its_cards_whatever_the_upcards_suit(russian):
    """The proxy's tables are for the upcard of suit 0: a situation with another upcard
    suit is valued with its suits swapped, each exchange by the cards it keeps. Valued
    both ways, a situation and its image with suits 0 and the upcard's swapped give every
    exchange of the same cards the same value."""
    from simulate._derive import proxy_exchange_evs_jit

    variant, proxy = russian
    options = first_options(variant)[0]
    exchanges = options[options[:, 0] == Action.EXCHANGE, 1]
    rng = np.random.default_rng(8)
    for suit in (1, 2, 3):
        upcard = 4 * RANK + suit
        hand = np.sort(rng.choice(np.setdiff1d(np.arange(52), [upcard]), 5, replace=False))
        image = (
            hand - (hand & 3) + np.select([hand & 3 == 0, hand & 3 == suit], [suit, 0], hand & 3)
        )
        order = np.argsort(image)
        values = np.empty((2, len(exchanges)))
        proxy_exchange_evs_jit(
            proxy, np.array([hand, image[order]]), np.array([upcard, 4 * RANK]), RANK,
            option_arrays(variant, 2), exchanges, values,
        )  # fmt: skip
        # the image's card at position i is the hand's card at position order[i]
        kept_of_image = [
            sum(1 << i for i in range(5) if (mask >> order[i]) & 1) for mask in exchanges
        ]
        np.testing.assert_allclose(
            values[0], values[1][[list(exchanges).index(m) for m in kept_of_image]], atol=1e-12
        )
        assert len(set(np.round(values[0], 9))) > 10  # the exchanges differ


@pytest.fixture(scope="module")
def ramped(russian):
    """The control's tables for the fixture's upcard: the proxy's, but the removal
    effects ramped (only those computed here)."""
    variant, (tables, buys, _) = russian
    v, lists = variant.arrays(), value_lists()
    plays = np.empty(HANDS)
    hand_values_jit(v, lists, 4 * RANK, plays, np.empty(HANDS))
    return tables, buys, removal_tables(variant, RANK, plays, RAMP)


def test_the_control_counts_each_removal_effect_by_the_ramp(russian, ramped):
    """A hand's own sum of a card's removal effect in the control: the effect times the
    share the ramp gives its EV of betting (all of it from the fold line up, none
    ``RAMP`` or more below it), hands on the ramp included."""
    variant, _ = russian
    v, lists = variant.arrays(), value_lists()
    upcard = 4 * RANK
    rng = np.random.default_rng(15)
    deck = np.setdiff1d(np.arange(52), [upcard])
    seen = {"above": 0, "on the ramp": 0, "below": 0}
    while min(seen.values()) < 2:
        hand = np.sort(rng.choice(deck, 5, replace=False))
        play = after_draw_ev_jit(v, lists, hand, upcard, hand, 5, True)
        place = "above" if play > -1 else "on the ramp" if play > -1 - RAMP else "below"
        if seen[place] >= 2:
            continue
        seen[place] += 1
        card = rng.choice(np.setdiff1d(deck, hand))
        dead = np.sort(np.append(hand, card))
        without = after_draw_ev_jit(v, lists, hand, upcard, dead, 6, True)
        holding = comb(46, 4) * play - comb(45, 4) * without  # dealer hands with card
        effect = (holding / comb(45, 3) - play) * min(1.0, max(0.0, (play + 1 + RAMP) / RAMP))
        where = _subset_index(hand - (hand > upcard), 31)
        assert ramped[2][0, card - (card > upcard), where] == pytest.approx(effect, abs=1e-12)


def test_the_committed_russian_control_is_this_codes_and_narrows_the_spread(russian, ramped):
    """The control gains of the shipped thinned Russian samples whose upcard has the
    tables' rank are those of ``rank_tables`` with the ramp; over all of them, the gain's
    difference to the control varies less than half as much as its difference to the
    proxy."""
    variant, _ = russian
    saved = saved_sampled_optimum(variant, 0, 8)
    mine = saved.upcards // 4 == RANK
    hands = _class_weights()[0][saved.classes[mine]]
    upcards = saved.upcards[mine].astype(np.int64)
    gains, bounds = np.zeros(mine.sum()), np.zeros(mine.sum())
    sample_proxies_jit(ramped, hands, upcards, RANK, option_arrays(variant, 0), gains, bounds)
    assert mine.sum() > 500
    np.testing.assert_array_equal(gains, saved.control.samples[mine])
    figures = saved.summary()
    assert figures["difference_to_control_sd"] < figures["difference_to_proxy_sd"] / 2
