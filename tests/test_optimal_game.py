"""Optimal play with draws, exactly: each situation's options against ``advise`` and
brute force, the pruned choice against every option counted, and the whole-game
counts, checkpoints and table."""

import itertools
import math

import numpy as np
import pytest

from simulate import _settlement, optimal_game
from simulate import _situation as kernels
from simulate.cards import format_card, format_cards
from simulate.evaluator import evaluate, hand_value
from simulate.exact import advise, first_options, value_lists
from simulate.optimal_game import (
    _compute_range,
    _Inputs,
    exact_optimal_game,
    situation_tables,
    supports_exact_draws,
    unit_factors,
)
from simulate.variant import load_variant, with_draws_up_to

DRAW_VARIANTS = ["oasis", "six-card", "russian-draws2"]


def variant_of(name):
    """A shipped variant, or one restricted to short draws ("russian-draws2")."""
    base, _, draws = name.partition("-draws")
    return with_draws_up_to(load_variant(base), int(draws)) if draws else load_variant(name)


def situations(n, seed):
    """n random situations: (five increasing cards, upcard)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        cards = rng.choice(52, 6, replace=False).astype(np.int64)
        yield np.sort(cards[:5]), int(cards[5])


class Situation:
    """One variant's kernel inputs, and a situation's option EVs by the kernel."""

    def __init__(self, name):
        self.variant = variant_of(name)
        self.v, self.lists = self.variant.arrays(), value_lists()
        self.tables = situation_tables(self.lists, self.v)
        self.options, self.labels = first_options(self.variant)
        self.fees, self.forced = self.variant.draw_arrays()
        self.work = kernels.situation_work(len(self.options), len(self.tables[4]))

    def evs(self, hand, upcard, prune):
        evs = np.empty(len(self.options))
        choice = kernels.situation_jit(
            self.v, self.tables, self.lists, hand, upcard, self.options, self.fees,
            self.forced, prune, evs, self.work,
        )  # fmt: skip
        return choice, evs


@pytest.fixture(scope="module", params=DRAW_VARIANTS)
def situation(request):
    return Situation(request.param)


def test_every_option_equals_advise_and_pruning_keeps_the_choice(situation):
    """On 150 random situations every option's EV equals advise's to 1e-9; pruned, the
    options still counted keep their EVs, the others' bounds fall below the best, and
    the choice is the first of the highest EV."""
    pruned_options = 0
    for hand, upcard in situations(150, seed=21):
        choice, evs = situation.evs(hand, upcard, prune=False)
        frame = advise(situation.variant, format_cards(hand), format_card(upcard), game=False)
        assert np.abs(evs - frame["ev"].to_numpy()).max() < 1e-9
        assert choice == int(np.flatnonzero(evs == evs.max())[0])
        pruned_choice, pruned = situation.evs(hand, upcard, prune=True)
        assert pruned_choice == choice
        counted = ~np.isnan(pruned)
        assert np.array_equal(pruned[counted], evs[counted])
        assert (evs[~counted] < evs.max()).all()
        pruned_options += (~counted).sum()
    assert pruned_options > 0


def brute_force_exchange_ev(variant, hand, upcard, position):
    """Throwing the card at ``position``: every replacement, every dealer hand avoiding
    the player's cards and the new one evaluated and settled, the better of fold and bet."""
    v = variant.arrays()
    unseen = [c for c in range(52) if c != upcard and c not in hand.tolist()]
    four = np.array(list(itertools.combinations(unseen, 4)))
    dealer = evaluate(np.c_[np.full(len(four), upcard), four].astype(np.int8))
    kept = [c for i, c in enumerate(hand.tolist()) if i != position]
    total = 0.0
    for new in unseen:
        final = np.array([*kept, new], dtype=np.int64)
        value = hand_value(final)
        multiple = _settlement.bet_multiple_jit(v, final, value)
        values, counts = np.unique(dealer[~(four == new).any(axis=1)], return_counts=True)
        net = sum(
            count
            * np.subtract(*_settlement.settle_jit(v, value, multiple, False, 0.0, d, False, 0)[:2])
            for d, count in zip(values.tolist(), counts.tolist(), strict=True)
        )
        total += max(-1.0, net / counts.sum())
    return total / len(unseen) - variant.exchange_fees[1]


def test_an_exchange_against_brute_force():
    oasis = Situation("oasis")
    hand, upcard = next(situations(1, seed=5))
    _, evs = oasis.evs(hand, upcard, prune=False)
    for position in (0, 4):
        keep = 31 & ~(1 << position)
        index = next(i for i, (_, mask) in enumerate(oasis.options) if mask == keep)
        expected = brute_force_exchange_ev(oasis.variant, hand, upcard, position)
        assert evs[index] == pytest.approx(expected, abs=1e-12)


def test_supported_variants():
    supported = {
        name
        for name in ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]
        if supports_exact_draws(load_variant(name))
    }
    assert supported == {"oasis", "six-card"}
    assert supports_exact_draws(variant_of("russian-draws2"))  # its second combination too


def test_units_of_a_situation_are_whole_for_every_option():
    for name in DRAW_VARIANTS:
        factors, unit = unit_factors(variant_of(name))
        assert unit == 281_004_570  # C(46, 4) x 1722
        assert factors[0] * math.comb(46, 4) == unit


@pytest.fixture(scope="module")
def slice_of_oasis(tmp_path_factory):
    """The first 40 classes of Oasis weighed, in ranges of 16 classes."""
    folder = tmp_path_factory.mktemp("ranges")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(optimal_game, "RANGE_CLASSES", 16)
        game = exact_optimal_game(load_variant("oasis"), folder, classes=40)
    return folder, game.result, game.choices


def test_the_counts_weigh_every_deal_and_agree_with_the_situation_evs(slice_of_oasis):
    _, result, choices = slice_of_oasis
    reps, weights = kernels_classes(40)
    unit = unit_factors(load_variant("oasis"))[1]
    assert result.table["combinations"].sum() == int(weights.sum()) * 47 * unit
    assert result.summary["deals"] == int(weights.sum()) * 47 * unit
    assert ((choices == optimal_game.NOT_DEALT).sum(axis=1) == 5).all()
    # the EVs of the chosen options, averaged over the deals, give the same RTP (checked
    # inside the analysis as well); and the chosen options are advise's best
    oasis = Situation("oasis")
    rng = np.random.default_rng(2)
    for row in rng.choice(40, 4, replace=False):
        upcard = int(rng.choice([c for c in range(52) if c not in reps[row].tolist()]))
        _, evs = oasis.evs(reps[row], upcard, prune=False)
        assert choices[row, upcard] == int(np.argmax(evs))


def test_a_second_combination_is_counted_in_the_wins_and_their_squares():
    """Russian restricted to draws of two cards, on classes of every kind of hand: the
    situation EVs (every BET paid with its second combination) average to the RTP of
    the counts; the wins' extra multiples are counted, and the table adds up to it."""
    variant = variant_of("russian-draws2")
    reps, weights = kernels_classes(134_459)
    rows = np.random.default_rng(6).choice(len(reps), 24, replace=False)
    done = _compute_range(_Inputs(variant), reps[rows], weights[rows])
    situations = int(weights[rows].sum()) * 47
    unit = unit_factors(variant)[1]
    result = optimal_game._result(variant, done["cells"], situations, unit, 0.0)
    assert float(done["ev"]) / situations == pytest.approx(result.summary["rtp"] - 1, abs=1e-12)
    extra, extra2 = optimal_game._second_sums(done["cells"])
    assert sum(extra) > 0 and all(s2 >= s1 >= 0 for s1, s2 in zip(extra, extra2, strict=True))
    table = result.table
    assert table["contribution"].sum() == pytest.approx(result.summary["rtp"] - 1, abs=1e-12)
    without = optimal_game._result(variant, done["cells"][: kernels.CELLS], situations, unit, 0.0)
    assert result.summary["rtp"] > without.summary["rtp"]


def kernels_classes(n):
    from simulate._exact import canonical_hands_jit

    reps, weights = canonical_hands_jit()
    return reps[:n], weights[:n]


def test_an_interrupted_analysis_resumes_to_the_same_figures(slice_of_oasis, tmp_path):
    _, whole, whole_choices = slice_of_oasis
    calls = []

    def interrupt(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(optimal_game, "RANGE_CLASSES", 16)
        with pytest.raises(KeyboardInterrupt):
            exact_optimal_game(load_variant("oasis"), tmp_path, progress=interrupt, classes=40)
        assert len(list(tmp_path.glob("range-*.npz"))) == 2
        computed = []
        patch.setattr(
            optimal_game,
            "_compute_range",
            lambda *args: computed.append(1) or _compute_range(*args),
        )
        game = exact_optimal_game(load_variant("oasis"), tmp_path, classes=40)
    assert len(computed) == 1  # only the range that had not finished
    assert game.result.summary == whole.summary
    assert np.array_equal(game.choices, whole_choices)
    with pytest.MonkeyPatch.context() as patch:  # a longer analysis redoes the short range
        patch.setattr(optimal_game, "RANGE_CLASSES", 16)
        longer = exact_optimal_game(load_variant("oasis"), tmp_path, classes=44)
    assert np.array_equal(longer.choices[:40], whole_choices)


def test_same_choices_and_counts_whatever_the_threads():
    import numba

    inputs = _Inputs(load_variant("six-card"))
    reps, weights = kernels_classes(3000)
    rows = slice(2990, 3000)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _compute_range(inputs, reps[rows], weights[rows])
        numba.set_num_threads(2)
        two = _compute_range(inputs, reps[rows], weights[rows])
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one["choices"], two["choices"])
    assert np.array_equal(one["cells"], two["cells"])


def test_other_variants_are_refused(tmp_path):
    with pytest.raises(ValueError, match="at most two cards"):
        exact_optimal_game(load_variant("russian"), tmp_path)


def test_the_choice_after_a_buy_equals_every_replacement_counted():
    """The pruned kernel the engine uses after a buy against the choice with every
    replacement counted by inclusion-exclusion over the seen cards."""
    from simulate._decisions import after_buy_choice_jit

    six_card = Situation("six-card")
    replace_fee = six_card.fees[6]
    rng = np.random.default_rng(3)
    actions = set()
    for _ in range(120):
        cards = rng.choice(52, 7, replace=False).astype(np.int64)
        six, upcard = cards[:6], int(cards[6])
        pruned = kernels.after_buy_jit(
            six_card.v, six_card.tables, six_card.lists, six, upcard, replace_fee
        )
        dead = np.sort(six)
        counted = after_buy_choice_jit(six_card.v, six_card.lists, six, upcard, dead, replace_fee)
        assert pruned == counted
        actions.add(pruned[0])
    assert len(actions) == 3  # fold, play and replace all met


@pytest.mark.parametrize("name", DRAW_VARIANTS)
def test_the_fold_or_bet_after_a_draw_equals_the_search_in_the_long_lists(name):
    """The engine's exact choice after a draw through the situation tables against the
    same inclusion-exclusion with every term searched in the value lists."""
    from simulate._decisions import after_draw_choice_jit

    situation = Situation(name)
    size = 6 if name == "six-card" else 5
    rng = np.random.default_rng(4)
    actions = set()
    for seen_count in (6, 7, 8):
        for _ in range(60):
            cards = rng.choice(52, seen_count + 1, replace=False).astype(np.int64)
            seen, upcard = cards[:seen_count], int(cards[seen_count])
            final = seen[-size:].copy()
            mask = int(sum(1 << int(c) for c in seen))
            action = kernels.play_after_draw_jit(
                situation.v, situation.tables, situation.lists, final, upcard, mask
            )
            assert action == after_draw_choice_jit(
                situation.v, situation.lists, final, upcard, mask
            )
            actions.add(action)
    assert len(actions) == 2
