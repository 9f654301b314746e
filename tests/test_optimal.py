"""The ``optimal`` strategy: its decisions are the exact engine's best, it is
reproducible whatever the threads, and its memo of situations persists."""

import dataclasses

import numpy as np
import pytest

from simulate import _engine as engine
from simulate._decisions import after_buy_choice_jit, after_draw_choice_jit
from simulate._exact import after_draw_ev_jit, replace_evs_jit
from simulate._exact_play import memo_choice_jit, situation_key_jit, table_after_buy_jit
from simulate.cards import format_card, format_cards
from simulate.catalog import load_strategy
from simulate.codes import Action, GameMode
from simulate.exact import advise, value_lists
from simulate.optimal import OptimalPlay, hand_class_maps, optimal_strategy
from simulate.optimal_game import NOT_DEALT, after_buy_table, optimal_result
from simulate.simulation import _key, run
from simulate.variant import load_variant

from .helpers import scaled
from .test_exact import Z999, brute_force_play_ev

LABELS = {Action.FOLD: "fold", Action.PLAY: "play", Action.BUY: "buy a sixth card"}


@pytest.fixture
def fresh_memo(monkeypatch, tmp_path):
    """An empty memo folder (the value lists and class maps already loaded)."""
    value_lists()
    hand_class_maps()
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    return tmp_path


def dealt(key, index):
    """The player's five cards and the upcard of round ``index``, as the engine deals."""
    state = np.array([engine.round_state_jit(key, index)], dtype=np.uint64)
    hands, dealer = np.empty((1, 6), dtype=np.int64), np.empty(5, dtype=np.int64)
    engine.deal_jit(state, np.zeros(1, dtype=np.int64), hands, dealer)
    return hands[0, :5], int(dealer[4])


@pytest.mark.parametrize(
    ("name", "rounds"),
    [("oasis", 24), ("six-card", 24), ("russian", 2), ("oasis-classic", 2), ("six-card-125", 2)],
)
def test_first_decisions_are_the_best_option_of_advise(fresh_memo, name, rounds):
    """From the shipped table where there is one, else the memo."""
    key = _key(7)
    decisions = load_strategy("optimal", name).decisions(key, 0, rounds)
    for index in range(rounds):
        hand, upcard = dealt(key, index)
        kind, kept = memo_choice_jit(decisions, hand, upcard)
        frame = advise(name, format_cards(hand), format_card(upcard), game=False)
        thrown = [c for i, c in enumerate(hand.tolist()) if not (kept >> i) & 1]
        label = LABELS.get(kind, f"exchange {len(thrown)}")
        thrown = format_cards(thrown)
        chosen = frame[(frame["option"] == label) & (frame["cards thrown"] == thrown)]
        assert len(chosen) == 1
        assert chosen["ev"].iloc[0] == pytest.approx(frame["ev"].max(), abs=1e-12)


@pytest.mark.parametrize("name", ["six-card", "russian"])
def test_choices_after_a_buy_are_the_best_option_of_advise(name):
    variant = load_variant(name)
    fees, _ = variant.draw_arrays()
    rng = np.random.default_rng(3)
    for _ in range(6):
        cards = rng.choice(52, 7, replace=False).astype(np.int64)
        six, upcard = cards[:6], int(cards[6])
        dead = np.sort(six)
        action, kept = after_buy_choice_jit(
            variant.arrays(), value_lists(), six, upcard, dead, fees[6]
        )
        frame = advise(name, format_cards(six), format_card(upcard), game=False)
        thrown = [format_card(c) for i, c in enumerate(six.tolist()) if not (kept >> i) & 1]
        label = {Action.FOLD: "fold", Action.PLAY: "play", Action.REPLACE: "replace"}[action]
        chosen = frame[(frame["option"] == label) & (frame["cards thrown"] == "".join(thrown))]
        assert chosen["ev"].iloc[0] == pytest.approx(frame["ev"].max(), abs=1e-12)


def test_the_table_of_choices_after_a_buy_holds_the_best_choice():
    """Six-Card situations whose best first option is the buy, dealt in any suits and
    order: the tabulated choice after a bought card is worth the best of folding,
    betting and every replacement, each counted over every dealer hand."""
    variant = load_variant("six-card")
    fees, _ = variant.draw_arrays()
    play = OptimalPlay(variant)
    maps = hand_class_maps()[1:]
    buy = np.flatnonzero(play.options[:, 0] == Action.BUY)[0]
    rng = np.random.default_rng(21)
    dealt = {}
    while len(dealt) < 12:  # situations whose best first option is the buy
        cards = rng.choice(52, 6, replace=False).astype(np.int64)
        key = situation_key_jit(*maps, cards[:5], cards[5])[0]
        if play.table.flat[key] == buy:
            dealt[key] = cards
    keys = np.sort(list(dealt))
    choices = np.full_like(play.table, NOT_DEALT)
    choices.flat[keys] = buy
    play.after_buy = (keys, after_buy_table(variant, choices))
    decisions = play.decisions(_key(1), 0, 0)
    v, lists = variant.arrays(), value_lists()
    actions = set()
    for cards in dealt.values():
        hand, upcard = cards[:5], int(cards[5])
        unseen = np.setdiff1d(np.arange(52), cards)
        for bought in rng.choice(unseen, 4, replace=False):
            six = np.append(hand, bought)
            action, kept = table_after_buy_jit(decisions, six, upcard)
            dead = np.sort(six)
            replaced = np.empty(6)
            replace_evs_jit(v, lists, six, upcard, dead, replaced)
            bet = after_draw_ev_jit(v, lists, six, upcard, dead, 6, True)
            evs = {Action.FOLD: -1.0, Action.PLAY: bet}
            if action == Action.REPLACE:
                evs[action] = replaced[int(np.log2(63 & ~kept))] - fees[6]
            best = max(-1.0, bet, replaced.max() - fees[6])
            assert evs[action] == pytest.approx(best, abs=1e-12)
            assert (action, kept) == after_buy_choice_jit(v, lists, six, upcard, dead, fees[6])
            actions.add(action)
    assert actions == {Action.FOLD, Action.PLAY, Action.REPLACE}


def test_choices_after_a_draw_weigh_every_dealer_hand_without_the_seen_cards():
    oasis = load_variant("oasis")
    rng = np.random.default_rng(4)
    plays = set()
    for seen_count in (6, 7, 10):
        for _ in range(4):
            cards = rng.choice(52, seen_count + 1, replace=False).astype(np.int64)
            seen, upcard = cards[:seen_count], int(cards[seen_count])
            final = seen[-5:]  # the last five: the hand after the draw
            mask = int(sum(1 << int(c) for c in seen))
            action = after_draw_choice_jit(oasis.arrays(), value_lists(), final, upcard, mask)
            ev = brute_force_play_ev(oasis, final, upcard, seen.tolist())
            assert action == (Action.PLAY if ev > -1 else Action.FOLD)
            plays.add(action)
    assert plays == {Action.PLAY, Action.FOLD}


@pytest.fixture(scope="module")
def oasis_optimal(tmp_path_factory):
    """Oasis under the optimal strategy, its memo starting empty."""
    folder = tmp_path_factory.mktemp("memo")
    strategy = optimal_strategy("oasis", memo_folder=folder, table=False)
    return run("oasis", strategy, 8192, seed=11)


def test_the_engine_takes_the_memo_decisions(oasis_optimal):
    rounds, key = oasis_optimal.rounds, _key(oasis_optimal.seed)
    decisions = oasis_optimal.strategy.decisions(key, 0, rounds)
    counts = {"fold": 0, "play": 0, "exchange 1": 0, "exchange 2": 0}
    for index in range(rounds):
        kind, kept = memo_choice_jit(decisions, *dealt(key, index))
        thrown = 5 - bin(kept).count("1")
        counts[LABELS.get(kind, f"exchange {thrown}")] += 1
    taken = oasis_optimal.decisions.set_index("decision")["count"].to_dict()
    assert {name: taken.get(name, 0) for name in counts} == counts
    assert taken["fold after a draw"] + taken["play after a draw"] == (
        counts["exchange 1"] + counts["exchange 2"]
    )


def test_the_simulation_realizes_the_exact_evs_of_its_situations(oasis_optimal):
    """A round's expected net given its dealt situation is the EV of the situation's
    best option, so the simulated mean net and the mean of those EVs differ by less
    than the 99.9% interval (SD of the net / sqrt(n) bounds the SE of the difference)."""
    rounds, key = oasis_optimal.rounds, _key(oasis_optimal.seed)
    keys = engine.situation_keys_jit(key, 0, rounds, 1, 1, *hand_class_maps()[1:])
    expected = oasis_optimal.strategy.exact_play.expected_values(keys).mean()
    summary = oasis_optimal.summary
    bound = Z999 * summary["standard_deviation"] / np.sqrt(rounds)
    assert abs(summary["rtp"] - 1 - expected) <= bound


def memo_only(name):
    """The optimal strategy from its memo (in the cache folder), not the shipped table."""
    return optimal_strategy(name, table=False)


def test_same_figures_whatever_the_threads_and_a_memo_that_persists(fresh_memo, monkeypatch):
    seen = []
    one = run("six-card", memo_only("six-card"), 700, seed=5, threads=1, progress=seen.append)
    assert seen == sorted(seen) and len(seen) > 2 and seen[-1] == 700  # moves while computing
    computed = one.strategy.exact_play.computed
    assert 600 < computed <= 700  # one per distinct situation
    memo = np.load(next(fresh_memo.glob("optimal-memo-*.npz")))
    assert len(memo["keys"]) == computed
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(fresh_memo / "other"))
    two = run("six-card", memo_only("six-card"), 700, seed=5, threads=2, chunk_blocks=3)
    assert two.summary == one.summary
    assert two.ints.tolist() == one.ints.tolist()
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(fresh_memo))
    again = run("six-card", memo_only("six-card"), 700, seed=5)
    assert again.strategy.exact_play.computed == 0 and again.summary == one.summary


def test_an_interrupted_memo_keeps_what_it_computed(fresh_memo):
    play = OptimalPlay(load_variant("oasis"))
    keys = engine.situation_keys_jit(_key(2), 0, 200, 1, 1, *hand_class_maps()[1:])

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play.cover(keys, progress=interrupt)
    kept = OptimalPlay(load_variant("oasis"))
    assert 0 < len(kept.keys) < len(np.unique(keys))
    assert kept.keys.tolist() == play.keys.tolist()
    assert kept.choices.tolist() == play.choices.tolist()


def test_buys_and_replacements_realize_the_exact_evs(tmp_path):
    """As for Oasis, in Six-Card (buy, replace) with the dealer's game never bought, as
    in the exact EVs."""
    strategy = optimal_strategy("six-card", memo_folder=tmp_path, table=False)
    rounds = 4096
    result = run(
        "six-card", dataclasses.replace(strategy, game_mode=GameMode.NEVER), rounds, seed=13
    )
    keys = engine.situation_keys_jit(_key(13), 0, rounds, 1, 1, *hand_class_maps()[1:])
    expected = strategy.exact_play.expected_values(keys).mean()
    taken = result.decisions.set_index("decision")["count"]
    assert taken["buy a sixth card"] > 0 and taken["replace a card"] > 0
    bound = Z999 * result.summary["standard_deviation"] / np.sqrt(rounds)
    assert abs(result.summary["rtp"] - 1 - expected) <= bound


@pytest.mark.parametrize("name", ["oasis", "six-card"])
def test_the_shipped_table_is_read_and_its_whole_game_counts_load(name):
    strategy = load_strategy("optimal", name)
    assert strategy.exact_play.table is not None
    assert strategy.exact_play.table.shape == (134_459, 52)
    result = optimal_result(load_variant(name))
    assert result.summary["deals"] == 2_598_960 * 47 * 281_004_570


def test_simulated_optimal_oasis_matches_the_exact_whole_game():
    """From the shipped table, on fresh deals: within the 99.9% interval of the exact RTP."""
    exact = optimal_result(load_variant("oasis")).summary
    n = scaled(1_000_000)
    simulated = run("oasis", "optimal", n, seed=77).summary
    assert abs(simulated["rtp"] - exact["rtp"]) <= Z999 * exact["standard_deviation"] / np.sqrt(n)
    assert simulated["standard_deviation"] == pytest.approx(exact["standard_deviation"], rel=0.01)


def test_simulated_optimal_six_card_matches_the_exact_whole_game():
    """As in the exact counts, the dealer's game never bought."""
    exact = optimal_result(load_variant("six-card")).summary
    n = scaled(40_000)
    strategy = dataclasses.replace(load_strategy("optimal", "six-card"), game_mode=GameMode.NEVER)
    simulated = run("six-card", strategy, n, seed=78)
    decisions = simulated.decisions.set_index("decision")["count"] / n
    assert abs(simulated.summary["rtp"] - exact["rtp"]) <= Z999 * exact[
        "standard_deviation"
    ] / np.sqrt(n)
    share = (
        exact["first_decisions"]["buy, then play or fold"]
        + exact["first_decisions"]["buy, then replace"]
    )
    assert abs(decisions["buy a sixth card"] - share) <= Z999 * np.sqrt(share * (1 - share) / n)
