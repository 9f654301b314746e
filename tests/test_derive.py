"""Strategies derived from the optimal decisions: the ladder against the rules it writes,
exact enumeration and play; the charts against the rules; the new condition."""

import itertools
import json
import math
from dataclasses import fields
from typing import ClassVar

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import _strategy as k
from simulate.catalog import load_strategy
from simulate.cli import main
from simulate.codes import Action, Category, Point
from simulate.derive import EXPERT_COST, SIMPLE_COST, bet_gains, derive_ladder
from simulate.evaluator import hand_category
from simulate.exact import exact_game
from simulate.simulation import Z_999, run
from simulate.strategy import Strategy, StrategyError
from simulate.strategy_chart import fold_or_bet_chart
from simulate.variant import load_variant

RUNGS = 6


@pytest.fixture(scope="module")
def ladder():
    return derive_ladder("caribbean", RUNGS)


def test_each_rule_raises_the_rtp_towards_optimal_play(ladder):
    assert len(ladder.rtps) == RUNGS
    assert all(b > a for a, b in itertools.pairwise(ladder.rtps))
    assert ladder.rtps[-1] < ladder.grouped_rtp <= ladder.optimal_rtp
    # the optimal RTP from the same EVs: the published house edge, 5.2243%
    assert round(1 - ladder.optimal_rtp, 6) == 0.052243
    assert ladder.optimal_rtp - ladder.rtps[3] <= EXPERT_COST  # four rules suffice


def test_every_rung_written_as_rules_decides_as_derived(ladder):
    """The RTP of each rung's strategy file, from the decisions its rules make on every
    (hand value, upcard rank), is the ladder's."""
    gains = bet_gains("caribbean")
    hands = k.hand_per_value_jit()
    for rules, rtp in enumerate(ladder.rtps, start=1):
        strategy = ladder.strategy(rules)
        table = k.first_actions_jit(strategy.rules, hands)
        assert np.isin(table[1:], (Action.FOLD, Action.PLAY)).all()
        assert gains[table == Action.PLAY].sum() == pytest.approx(rtp, abs=1e-12)


def test_a_rung_enumerated_and_played_gives_the_ladders_rtp(ladder):
    strategy = ladder.strategy(4, "expert")
    exact = exact_game("caribbean", strategy).summary
    assert exact["rtp"] == pytest.approx(ladder.rtps[3], abs=1e-12)
    n = 1_000_000
    simulated = run("caribbean", strategy, n, seed=17).summary
    assert abs(simulated["rtp"] - exact["rtp"]) <= Z_999 * exact["standard_deviation"] / math.sqrt(
        n
    )


def _told(cell: str, rest: str) -> bool:
    """Whether a chart cell tells the player to bet a hand whose last ranks are ``rest``."""
    if cell in ("bet", "fold"):
        return cell == "bet"
    order = "23456789TJQKA"
    return [order.index(r) for r in rest.split()] >= [order.index(r) for r in cell.split()]


@pytest.mark.parametrize("rungs", [2, 4, RUNGS])
def test_the_chart_says_what_the_rules_decide(ladder, rungs):
    strategy = ladder.strategy(rungs)
    chart = fold_or_bet_chart(strategy)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(1000):  # hands of the rows of A-K high
        ace_king = [48 + rng.integers(4), 44 + rng.integers(4)]
        others = rng.choice(np.setdiff1d(np.arange(52), ace_king), 4, replace=False)
        hand, upcard = np.sort([*ace_king, *others[:3]]), int(others[3])
        if hand_category(hand, ace_king=True) != Category.ACE_KING:
            continue
        ranks = sorted((c >> 2 for c in hand.tolist()), reverse=True)
        label = " ".join("23456789TJQKA"[r] for r in ranks[:3])
        if (upcard >> 2) in ranks:
            label += " + upcard's rank"
        cell = chart.loc[label, "23456789TJQKA"[upcard >> 2]]
        action, _ = k.decide_jit(strategy.rules, Point.FIRST, hand, upcard, 0)
        if cell != "mixed":
            rest = " ".join("23456789TJQKA"[r] for r in ranks[3:])
            assert _told(cell, rest) == (action == Action.PLAY), (hand, upcard, cell)
            checked += 1
    assert checked > 500


def test_upcard_below_reads_the_players_nth_card():
    data = {
        "name": "t",
        "variant": "caribbean",
        "first": [{"action": "play", "upcard_below": 4}, {"action": "fold"}],
    }
    strategy = Strategy.from_dict(data, "caribbean")
    rng = np.random.default_rng(3)
    for _ in range(2000):
        cards = rng.choice(52, 6, replace=False)
        hand, upcard = cards[:5], int(cards[5])
        fourth = sorted((c >> 2 for c in hand.tolist()), reverse=True)[3]
        action, _ = k.decide_jit(strategy.rules, Point.FIRST, hand, upcard, 0)
        assert (action == Action.PLAY) == ((upcard >> 2) < fourth)
    for bad in (0, 6, "4", True):
        data["first"][0]["upcard_below"] = bad
        with pytest.raises(StrategyError, match=r"first rule 1\.upcard_below: must be"):
            Strategy.from_dict(data, "caribbean")


def test_derive_writes_the_ladder_strategies_and_charts(ladder, tmp_path):
    results, strategies = tmp_path / "results", tmp_path / "strategies"
    result = CliRunner().invoke(
        main,
        ["derive", "caribbean", "--rules", "3", "--out-dir", str(results),
         "--strategies-dir", str(strategies), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [row["rules"] for row in data["ladder"]] == [1, 2, 3]
    assert [row["rtp"] for row in data["ladder"]] == pytest.approx(ladder.rtps[:3], abs=1e-12)
    assert data["shipped"]["simple"]["rules"] == 2
    assert data["variant"]["name"] == "caribbean" and data["software"]["studsim"]
    for name in ("simple", "expert"):
        strategy = load_strategy(str(strategies / f"{name}.toml"), "caribbean")
        rules = data["shipped"][name]["rules"]
        assert strategy.name == name
        assert np.array_equal(strategy.rules, ladder.strategy(rules).rules)
        assert data["shipped"][name]["rtp"] == pytest.approx(ladder.rtps[rules - 1], abs=1e-12)
        assert (results / f"{name}-chart.pdf").stat().st_size > 10_000
    assert json.loads((results / "derived.json").read_text()) == data


def test_strategies_explain_themselves(tmp_path):
    result = CliRunner().invoke(main, ["strategies", "caribbean", "--explain", "--charts",
                                       str(tmp_path)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "On the five dealt cards, the first rule that applies: 1. play if" in result.output
    assert "A K Q + upcard's rank" in result.output
    assert (tmp_path / "pair-or-better.png").is_file()
    result = CliRunner().invoke(main, ["strategies", "oasis", "--explain"])
    assert result.exit_code == 0 and "exchange" in result.output


def test_derive_refuses_a_game_whose_optimal_play_is_not_weighed(cheap_exchanges):
    variant, folder = cheap_exchanges
    result = CliRunner().invoke(main, ["derive", str(folder / "cheap.toml")])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {variant.name}: strategies are derived against")
    assert "not weighed yet" in result.output and len(result.output.splitlines()) == 1


def test_the_shipped_strategies_are_within_their_costs(ladder):
    gains, hands = bet_gains("caribbean"), k.hand_per_value_jit()
    for name, cost in (("simple", SIMPLE_COST), ("expert", EXPERT_COST)):
        strategy = load_strategy(name, "caribbean")
        rtp = gains[k.first_actions_jit(strategy.rules, hands) == Action.PLAY].sum()
        assert 0 <= ladder.optimal_rtp - rtp <= cost
        assert f"RTP {rtp:.6f}" in strategy.description


@pytest.fixture(scope="module")
def oasis():
    from simulate.derive_draws import derive_draw_ladder, sampled_situations

    situations = sampled_situations(load_variant("oasis"), 300, seed=2)
    return derive_draw_ladder("oasis", 5, situations=situations), situations


def test_the_sampled_options_are_the_situation_kernels(oasis):
    from simulate._situation import situation_jit, situation_work
    from simulate.exact import first_options, value_lists
    from simulate.optimal_game import situation_tables

    variant, situations = oasis[0].variant, oasis[1]
    options, lists = first_options(variant)[0], value_lists()
    tables, (fees, forced) = situation_tables(lists, variant.arrays()), variant.draw_arrays()
    evs = np.empty(len(options))
    for s in range(6):
        work = situation_work(len(options), len(tables[4]))
        situation_jit(variant.arrays(), tables, lists, situations.hands[s], situations.upcards[s],
                      options, fees, forced, False, evs, work)  # fmt: skip
        assert np.array_equal(evs, situations.evs[s])


def _lost_after_exchanges(variant, strategy, situations, chosen, stream):
    """Per situation, what the strategy's rules after its exchanges (``chosen``: its
    first options) lose to exact play on the draws the derive weighs, decided one final
    hand at a time as the engine decides them (the discards seen)."""
    from simulate.derive_draws import DRAWS_PER_EXCHANGE, _exchanges, after_draw_choices

    choices = after_draw_choices(variant, situations, *_exchanges(variant, chosen), stream)
    lost = np.zeros(len(situations.evs))
    for row, (hand, upcard, discards) in enumerate(
        zip(choices.hands, choices.upcards, choices.discards, strict=True)
    ):
        action = k.decide_jit(strategy.rules, Point.AFTER_DRAW, hand, upcard, discards)[0]
        gain = choices.evs[row, 1]
        bet = gain if action == Action.PLAY else 0.0
        lost[choices.groups[row]] += (max(gain, 0.0) - bet) / DRAWS_PER_EXCHANGE
    return lost


def test_each_rule_of_a_draw_ladder_lowers_its_cost_as_its_rules_decide(oasis):
    """Each rung's cost is what its strategy's first decisions lose on the sampled
    situations, plus what its decisions after its exchanges lose on their draws, decided
    by its rules as the engine decides them."""
    from simulate._derive import chosen_options_jit
    from simulate.derive_draws import FITTED
    from simulate.exact import first_options

    oasis_ladder, situations = oasis
    costs = [cost for cost, _ in oasis_ladder.costs]
    assert len(costs) == 5 and all(b < a for a, b in itertools.pairwise(costs))
    options = first_options(oasis_ladder.variant)[0]
    best = situations.evs.max(axis=1)
    for rules, cost in enumerate(costs, start=1):
        strategy = oasis_ladder.strategy(rules)
        chosen = chosen_options_jit(strategy.rules, Point.FIRST, situations.hands,
                                    situations.upcards, options, Action.DECLINE)  # fmt: skip
        assert (chosen >= 0).all()
        lost = best - situations.evs[np.arange(300), chosen]
        lost += _lost_after_exchanges(oasis_ladder.variant, strategy, situations, chosen, FITTED)
        assert lost.mean() == pytest.approx(cost, abs=1e-12)
    assert strategy.data["after_draw"] == oasis_ladder.after_draw


def _bet_gain_enumerated(variant, final, upcard, seen):
    """What betting ``final`` returns more than folding it, over every dealer's hand
    avoiding the cards ``seen`` (his cards, discards and draws), each settled by the
    public API once per dealer's hand value."""
    from simulate.evaluator import evaluate
    from simulate.settlement import settle

    unseen = [card for card in range(52) if card not in seen and card != upcard]
    hidden = np.array(list(itertools.combinations(unseen, 4)))
    dealers = np.column_stack([hidden, np.full(len(hidden), upcard)])
    _, first, counts = np.unique(evaluate(dealers), return_index=True, return_counts=True)
    nets = [settle(variant, final, dealers[i]).net for i in first]
    return float(np.dot(counts, nets)) / len(dealers) + 1.0


def test_the_choices_after_an_exchange_are_its_draws_bet_or_folded_exactly(oasis):
    """After the best option's exchanges: each draw's final hand is the cards kept and
    cards of no other seen, the discards those thrown, the draws of a situation weigh 1,
    and betting's gain is what every dealer's hand settled one by one gives, the discards
    dead; a rule's split by cards of the upcard's rank thrown reads them as the strategy
    kernels do."""
    from simulate.derive_draws import (
        DRAWS_PER_EXCHANGE,
        FITTED,
        _exchanges,
        _splits,
        after_draw_choices,
    )  # fmt: skip

    ladder, situations = oasis
    variant = ladder.variant
    rows, kept = _exchanges(variant, situations.evs.argmax(axis=1))
    choices = after_draw_choices(variant, situations, rows, kept, FITTED)
    assert len(choices.evs) == DRAWS_PER_EXCHANGE * len(rows) > 0
    assert np.allclose(np.bincount(choices.groups, choices.weights)[rows], 1.0)
    for row in range(len(choices.evs)):
        hand = situations.hands[choices.groups[row]]
        final, kept_cards = set(choices.hands[row]), set(hand[kept[row // DRAWS_PER_EXCHANGE]
                                                          >> np.arange(5) & 1 == 1])  # fmt: skip
        thrown = set(hand) - kept_cards
        assert kept_cards <= final and not (final - kept_cards) & set(hand)
        assert choices.upcards[row] not in final | set(hand)
        assert choices.discards[row] == sum(1 << int(card) for card in thrown)
    for row in np.random.default_rng(5).choice(len(choices.evs), 3, replace=False):
        seen = set(choices.hands[row]) | set(situations.hands[choices.groups[row]])
        gain = _bet_gain_enumerated(variant, choices.hands[row], choices.upcards[row], seen)
        assert choices.evs[row, 1] == pytest.approx(gain, abs=1e-9)
    split = {str(condition): held for condition, held in _splits(choices)}
    seen_rank = np.array([k.seen_of_rank_jit(d, h, u >> 2) for d, h, u in zip(
        choices.discards, choices.hands, choices.upcards, strict=True)])  # fmt: skip
    assert np.array_equal(split[str({"seen_upcard_rank": 0})], seen_rank == 0)
    assert np.array_equal(split[str({"seen_upcard_rank": [1, 2, 3]})], seen_rank > 0)


def test_the_rules_after_an_exchange_lose_what_the_strategy_kernels_decide(oasis):
    """Rules grown after the exchanges (on their draws) cost what a strategy of them
    loses, decided one final hand at a time by the strategy kernels, the discards seen;
    each rung loses less than the one before; the ladder's rules are the fewest within
    AFTER_DRAW_COST of exact play."""
    from simulate.derive_draws import (
        AFTER_DRAW_COST,
        FITTED,
        _exchanges,
        _exchanging,
        after_draw_choices,
        grow_rules,
    )  # fmt: skip

    ladder, situations = oasis
    variant = ladder.variant
    best = situations.evs.argmax(axis=1)
    choices = after_draw_choices(variant, situations, *_exchanges(variant, best), FITTED)
    grown = grow_rules(variant, choices, 4)
    costs = [cost for cost, _ in grown.costs]
    assert all(b < a for a, b in itertools.pairwise(costs))
    for rules, cost in enumerate(costs, start=1):
        data = {"name": "t", "variant": "oasis"} | _exchanging(variant, grown.rung_rules(rules))
        strategy = Strategy.from_dict(data, variant)
        lost = _lost_after_exchanges(variant, strategy, situations, best, FITTED)
        assert lost.mean() == pytest.approx(cost, abs=1e-12)
    within = grow_rules(variant, choices, 8, enough=AFTER_DRAW_COST)
    assert within.rung_rules(len(within.rungs)) == ladder.after_draw
    assert within.costs[-1][0] <= AFTER_DRAW_COST < within.costs[-2][0] or len(within.rungs) == 8


def test_a_refit_rung_loses_no_more_than_the_rules_it_grew_from(oasis):
    """Each rung is the rung before it with the rule found put at its place; the refit
    then replaces rules only where that loses less, so the rung loses no more than those
    rules, and strictly less where it replaced one."""
    from simulate._derive import chosen_options_jit
    from simulate.exact import first_options

    ladder, situations = oasis
    options, best = first_options(ladder.variant)[0], situations.evs.max(axis=1)

    def lost(rules: list[dict]) -> float:
        data = {"name": "t", "variant": "oasis", "first": rules}
        if any(rule["action"] == "exchange" for rule in rules):
            data["after_draw"] = ladder.after_draw
        compiled = Strategy.from_dict(data, ladder.variant).rules
        chosen = chosen_options_jit(compiled, Point.FIRST, situations.hands,
                                    situations.upcards, options, Action.DECLINE)  # fmt: skip
        return float((best - situations.evs[np.arange(len(best)), chosen]).mean())

    first, default = ladder.first, [{"action": ladder.first.default}]
    for rung, (found, place, replaced) in enumerate(first.added, start=2):
        before = first.rung_rules(rung - 1)[:-1]
        grown = [*before[:place], found.data(), *before[place:]]
        assert lost(first.rung_rules(rung)) == pytest.approx(first.costs[rung - 1][0], abs=1e-12)
        if replaced:
            assert lost(first.rung_rules(rung)) < lost(grown + default) - 1e-12
        else:
            assert first.rung_rules(rung) == grown + default


def test_the_rungs_are_measured_and_chosen_on_situations_held_out_of_the_fit(oasis):
    """The held-out situations are those dealt after the fitted ones; the rules grown
    are those of the fitted situations alone; each rung's cost is what its rules lose on
    the held-out situations, and the shipped rungs are chosen by that cost."""
    from simulate.derive_draws import Z_95, derive_draw_ladder, rung_losses, sampled_situations

    fitted_only, fitted = oasis
    dealt = sampled_situations(fitted_only.variant, 400, seed=2)
    assert np.array_equal(dealt.hands[:300], fitted.hands)
    assert np.array_equal(dealt.evs[:300], fitted.evs)
    ladder = derive_draw_ladder("oasis", 5, situations=dealt, held_out=100)
    assert ladder.samples == 300 and ladder.record()["held_out"] == 100
    assert [ladder.strategy(n).data for n in (1, 5)] == [
        fitted_only.strategy(n).data for n in (1, 5)
    ]
    assert ladder.fitted_costs == fitted_only.costs
    held_out = rung_losses(ladder, dealt.split(300)[1])
    assert [cost for cost, _ in ladder.costs] == pytest.approx(held_out.mean(axis=1), abs=1e-15)
    assert list(ladder.table["fitted_cost"]) == [cost for cost, _ in fitted_only.costs]
    for target in (0.02, 0.005, 0.001):
        rung = ladder.rung(target)
        within = [n for n, (cost, se) in enumerate(ladder.costs, 1) if cost + Z_95 * se <= target]
        assert rung == (within[0] if within else 5)


def test_where_no_rung_is_within_the_targets_the_simple_is_the_fewest_near_the_expert(oasis):
    """With targets no rung meets, the expert is the last rung, and the simple the fewest
    rules whose held-out losses exceed the expert's by at most the simple's target at 95%
    confidence (the paired difference's upper bound), and it says so."""
    from simulate.derive import named_strategies
    from simulate.derive_draws import Z_95, DrawLadder, derive_draw_ladder, sampled_situations

    dealt = sampled_situations(oasis[0].variant, 400, seed=2)
    ladder = derive_draw_ladder("oasis", 5, situations=dealt, held_out=100)
    losses = ladder.held_out
    simple = 0.9 * min(cost + Z_95 * se for cost, se in ladder.costs)  # no rung is within

    class Strict(DrawLadder):
        named_costs: ClassVar = {"simple": simple, "expert": 1e-9}

    strict = Strict(**{field.name: getattr(ladder, field.name) for field in fields(ladder)})
    named = named_strategies(strict)
    assert named["expert"].data == ladder.strategy(5, "expert").data | {
        "description": named["expert"].description
    }
    near = [
        n for n in range(1, 6)
        if (d := losses[n - 1] - losses[4]).mean() + Z_95 * d.std(ddof=1) / 10 <= simple
    ]  # fmt: skip
    assert near[0] < 5
    assert len(named["simple"].data["first"]) == near[0]
    assert "the fewest within" in named["simple"].description
    assert "of the expert strategy" in named["simple"].description
    checked = strict.check(named, 1 << 12)  # its figures are the shipped rungs'
    assert [checked[name]["rules"] for name in ("simple", "expert")] == [near[0], 5]
    assert checked["simple"]["estimated_cost"] == strict.costs[near[0] - 1][0]


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        ("7h 8c 9c Th Qd", "7h 8c 9c Th"),  # the open four, not the highest four (8-Q)
        ("3s 4h 5c 6c 8s", "3s 4h 5c 6c"),
        ("2s 3h 4d 5c 9s", "2s 3h 4d 5c"),  # the ace below is a free end
        ("Jh Qd Kc As 2s", None),  # ace-high: one end only
        ("7h 8c 9c Th Jd", None),  # made
    ],
)
def test_keep_open_straight_holds_the_open_four(hand, kept):
    from simulate.cards import format_cards, parse_cards

    cards = np.sort(parse_cards(hand).astype(np.int64))
    mask = k.keep_mask_jit(cards, k.KEEP_OPEN_STRAIGHT, 4)
    held = format_cards(c for i, c in enumerate(cards) if mask >> i & 1) if mask >= 0 else None
    assert held == kept


@pytest.fixture(scope="module")
def six_card():
    from simulate.derive_draws import after_buy_choices, derive_draw_ladder, sampled_situations

    situations = sampled_situations(load_variant("six-card"), 400, seed=3)
    ladder = derive_draw_ladder("six-card", 6, situations=situations)
    return ladder, situations, after_buy_choices(ladder.variant, situations)


def test_the_choices_after_a_buy_are_those_advise_weighs(six_card):
    from simulate.cards import format_cards
    from simulate.exact import advise

    choices = six_card[2]
    assert len(choices.evs) == 46 * (six_card[1].evs.argmax(axis=1) == 2).sum() > 0
    for row in np.random.default_rng(4).choice(len(choices.evs), 6, replace=False):
        frame = advise("six-card", format_cards(choices.hands[row]),
                       format_cards(choices.upcards[row : row + 1]), game=False)  # fmt: skip
        assert np.allclose(frame["ev"], choices.evs[row], rtol=0, atol=1e-9)


def test_each_rung_of_the_six_card_ladder_costs_what_its_rules_lose(six_card):
    """A rung's cost is what its first decisions lose on the sampled situations plus what
    its decisions after a buy lose where it buys, every card bought, both decided by its
    rules as the engine decides them; the rungs grow at both decisions."""
    from simulate._derive import chosen_options_jit
    from simulate.derive_draws import AFTER_BUY_OPTIONS, after_buy_choices, rung_losses
    from simulate.exact import first_options

    ladder, situations, _ = six_card
    options = first_options(ladder.variant)[0]
    costs = [cost for cost, _ in ladder.costs]
    assert all(b <= a for a, b in itertools.pairwise(costs)) and costs[-1] < costs[0] / 5
    assert set(ladder.table["decision"]) == {"first", "after a buy"}
    for rung, cost in enumerate(costs, start=1):
        strategy = ladder.strategy(rung)
        chosen = chosen_options_jit(strategy.rules, Point.FIRST, situations.hands,
                                    situations.upcards, options, Action.DECLINE)  # fmt: skip
        lost = (situations.evs.max(axis=1) - situations.evs[np.arange(400), chosen]).sum()
        if "after_buy" in strategy.data:
            after = after_buy_choices(ladder.variant, situations, chosen == 2)
            rules = strategy.rules
            decided = chosen_options_jit(rules, Point.AFTER_BUY, after.hands, after.upcards,
                                         AFTER_BUY_OPTIONS, Action.DECLINE)  # fmt: skip
            assert (decided >= 0).all()
            rows = np.arange(len(decided))
            lost += (after.weights * (after.evs.max(axis=1) - after.evs[rows, decided])).sum()
        assert lost / 400 == pytest.approx(cost, abs=1e-12)
        assert strategy.data["buy_game_decision"] == "exact"
    assert rung_losses(ladder, situations).mean(axis=1) == pytest.approx(costs, abs=1e-12)


def test_a_replacement_keeps_the_cards_of_two_patterns():
    from simulate.cards import format_cards, parse_cards

    data = {
        "name": "t",
        "variant": "six-card",
        "first": [{"action": "buy"}],
        "after_buy": [{"action": "replace", "keep": ["four-flush", "pair"]}, {"action": "fold"}],
        "after_draw": [{"action": "play"}],
    }
    rules = Strategy.from_dict(data, load_variant("six-card")).rules
    for hand, kept in [
        ("2d 4d 7d Ad 8c 2c", "2d 4d 7d Ad 2c"),  # the pair's other card, not the higher 8c
        ("2d 4d 7d Ad 8c 9c", None),  # no pair: the rule does not apply
    ]:
        cards = parse_cards(hand).astype(np.int64)
        action, mask = k.decide_jit(rules, Point.AFTER_BUY, cards, 51, 0)
        held = format_cards(c for i, c in enumerate(cards) if mask >> i & 1)
        assert (action, held) == ((Action.REPLACE, kept) if kept else (Action.FOLD, ""))


@pytest.mark.parametrize(
    ("keep", "message"),
    [(["four-flush"], "names two patterns"), (["four-flush", "nine"], "'nine' is not one of")],
)
def test_a_bad_list_of_patterns_to_keep_is_refused(keep, message):
    data = {
        "name": "t",
        "variant": "six-card",
        "first": [{"action": "buy"}],
        "after_buy": [{"action": "replace", "keep": keep}, {"action": "fold"}],
        "after_draw": [{"action": "play"}],
    }
    with pytest.raises(StrategyError, match=message) as error:
        Strategy.from_dict(data, load_variant("six-card"))
    assert "after_buy" in str(error.value) and "keep" in str(error.value)


def test_the_shipped_oasis_expert_returns_more_than_the_simple_one():
    """On the same deals, beyond the 99.9% interval of the paired difference (both are
    played against optimal play when written, 0.0018 apart: ``results/oasis/derived.json``;
    on 4M deals seed 9 gives 0.001593, paired SE 0.000226)."""
    from simulate.compare import compare

    rows = compare("oasis", ["simple", "expert"], 4_000_000, seed=9).table.set_index("strategy")
    assert rows.loc["expert", "difference"] > Z_999 * rows.loc["expert", "difference_se"]


def test_a_long_exchange_game_is_derived_from_exact_and_control_evs_and_checked(no_removal):
    """Russian (exchanges of up to five cards, a sixth card bought, no replacement after
    it): on situations of one upcard rank, every option but the long exchanges has
    advise's exact EV, those the control's; the choices after a buy are fold or bet; each
    shipped rung's checked RTP is the best play without draws' exact RTP plus their
    paired difference, on the deals a plain run plays."""
    from simulate.cards import format_cards
    from simulate.derive import named_strategies
    from simulate.derive_draws import _never_buying, after_buy_choices, derive_draw_ladder
    from simulate.derive_situations import _long_exchanges, weighed_situations
    from simulate.exact import NO_DRAWS, advise, first_options

    variant, rng = load_variant("russian"), np.random.default_rng(12)
    upcards = 36 + rng.integers(0, 4, size=80)  # jacks
    hands = np.array([np.sort(rng.choice(np.setdiff1d(np.arange(52), [u]), 5, replace=False))
                      for u in upcards])  # fmt: skip
    situations = weighed_situations(variant, hands, upcards, seed=5)
    long = _long_exchanges(first_options(variant)[0])
    assert long.sum() == 10 + 5 + 1 and np.isfinite(situations.evs).all()
    for s in range(2):
        frame = advise(variant, format_cards(hands[s]), format_cards(upcards[s : s + 1]),
                       game=False)  # fmt: skip
        assert np.allclose(frame["ev"][~long], situations.evs[s, ~long], rtol=0, atol=1e-9)
        assert np.abs(frame["ev"][long] - situations.evs[s, long]).max() < 0.1
    ladder = derive_draw_ladder(variant, 4, situations=situations)
    assert after_buy_choices(variant, situations).evs.shape[1] == 2
    assert not ladder.exact_draws and np.isfinite([cost for cost, _ in ladder.costs]).all()
    named = named_strategies(ladder)
    rounds = 1 << 16
    checked = ladder.check(named, rounds)
    base = _never_buying(load_strategy(NO_DRAWS, variant))
    base_simulated = run(variant, base, rounds, seed=ladder.seed).summary["rtp"]
    base_exact = exact_game(variant, NO_DRAWS).summary["rtp"]
    for name, strategy in named.items():
        for played, key in ((strategy, "rtp"), (_never_buying(strategy), "rtp_game_never_bought")):
            simulated = run(variant, played, rounds, seed=ladder.seed).summary["rtp"]
            assert checked[name][key] == pytest.approx(
                base_exact + simulated - base_simulated, abs=1e-12
            )
        assert checked[name]["cost"] == pytest.approx(
            ladder.optimal_rtp - checked[name]["rtp_game_never_bought"], abs=1e-12
        )


def test_the_printed_figures_compare_like_with_like():
    """Where the dealer's game is sold, optimal play's RTP is the game never bought, and
    each shipped rung is printed both ways, each under its own label."""
    from simulate.cli import _derived_figures

    row = {"rules": 9, "rtp": 0.957, "rtp_game_never_bought": 0.944}
    data = {"optimal_rtp": 0.948, "shipped": {"simple": row}}
    assert _derived_figures(data, game_sold=True) == {
        "optimal rtp, game never bought": 0.948,
        "simple (9 rules) rtp, game never bought": 0.944,
        "simple (9 rules) rtp, game bought exactly": 0.957,
    }
    assert _derived_figures(data, game_sold=False) == {
        "optimal rtp": 0.948,
        "simple (9 rules) rtp": 0.957,
    }


def test_an_interrupted_weighing_resumes_where_it_stopped_with_the_same_evs(monkeypatch, tmp_path):
    """Russian's sampled situations, interrupted after the second of three parts of exact
    options (kept in the cache: no checkpoint asked for) and again after the control's
    fifth upcard rank (kept at the checkpoint asked for), then resumed: the same EVs bit
    for bit as weighed in one go, no part weighed twice, the checkpoints removed at the
    end. (A stand-in gives the control's EVs: its tables take a minute a rank.)"""
    from simulate import derive_situations as ds

    ranks = []

    def control_option_evs(variant, hands, upcards, rank, evs):
        ranks.append(rank)
        rows = upcards >> 2 == rank
        evs[np.ix_(rows, ds._long_exchanges(ds.first_options(variant)[0]))] = rank / 13

    monkeypatch.setattr(ds, "control_option_evs", control_option_evs)
    monkeypatch.setattr(ds, "WEIGHED_ROWS", 20)
    monkeypatch.setattr(ds, "cache_dir", lambda: tmp_path / "cache")
    monkeypatch.setattr(ds, "cached_arrays", lambda name, build, sources: build())
    variant, checkpoint = load_variant("russian"), tmp_path / "derive-situations.npz"
    calls = []

    def interrupt_at(stage, done):
        def progress(*call):
            calls.append(call)
            if call[:2] == (stage, done):
                raise KeyboardInterrupt

        return progress

    def cached() -> list:
        return list((tmp_path / "cache").glob("*"))

    with pytest.raises(KeyboardInterrupt):
        ds.sampled_situations(variant, 60, 7, interrupt_at("exact options, situations", 40))
    assert len(cached()) == 1 and not checkpoint.exists()
    with pytest.raises(KeyboardInterrupt):
        ds.sampled_situations(variant, 60, 7, interrupt_at("control, upcard ranks", 5), checkpoint)
    assert checkpoint.is_file() and len(cached()) == 1
    resumed = ds.sampled_situations(variant, 60, 7, lambda *call: calls.append(call), checkpoint)
    assert ranks == list(range(13))
    exact = [done for stage, done, _ in calls if stage.startswith("exact")]
    assert exact == [20, 40, 60]  # each part reported as it is weighed, once
    assert not checkpoint.exists() and not cached()
    whole = ds.weighed_situations(variant, resumed.hands, resumed.upcards, seed=7)
    assert np.isfinite(resumed.evs).all() and np.array_equal(resumed.evs, whole.evs)
