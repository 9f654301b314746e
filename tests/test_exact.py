import functools
import itertools
import math

import numpy as np
import pytest

from simulate import _exact as kernels
from simulate import _settlement
from simulate._exact_play import best_option_seeing_jit
from simulate._protection_draws import dealer_of_jit, seeing_evs_jit
from simulate.cards import format_card, format_cards, parse_cards
from simulate.catalog import load_strategy
from simulate.codes import Action
from simulate.evaluator import evaluate, hand_value
from simulate.exact import DEALS, advise, exact_game
from simulate.simulation import run
from simulate.variant import load_variant

from . import oracle
from .helpers import scaled

Z999 = 3.290526731491926
VARIANTS = ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]


@pytest.fixture(scope="module")
def lists():
    return kernels.load_value_lists()


@functools.cache
def _fours(n):
    return np.array(list(itertools.combinations(range(n), 4)))


def dealer_hands(upcard, dead):
    """Every dealer hand: the upcard and four cards of the rest, dead cards left out."""
    rest = np.array([c for c in range(52) if c != upcard and c not in set(dead)])
    four = rest[_fours(len(rest))]
    return np.column_stack([np.full(len(four), upcard), four]).astype(np.int8)


def brute_force_play_ev(variant, final, upcard, dead):
    """Every dealer hand avoiding the dead cards, settled by the plain-Python referee
    (one referee call per distinct dealer value, weighed by its count)."""
    hands = dealer_hands(upcard, dead)
    _, first, counts = np.unique(evaluate(hands), return_index=True, return_counts=True)
    game, cards = oracle.rules(variant.name), [format_card(int(c)) for c in final]
    total = 0.0
    for index, count in zip(first.tolist(), counts.tolist(), strict=True):
        dealer = [format_card(int(c)) for c in hands[index]]
        total += count * oracle.settle(game, cards, dealer)[0]
    return total / counts.sum()


def test_dealer_counts_against_every_dealer_hand(lists):
    rng = np.random.default_rng(8)
    for n_dead in (5, 6, 7, 10):
        cards = rng.choice(52, n_dead + 1, replace=False)
        upcard, dead = int(cards[0]), np.sort(cards[1:]).astype(np.int64)
        thresholds = np.array([1, 1114, 1278, 3000, 6000, 7462], dtype=np.int64)
        out = np.zeros(len(thresholds) + 1, dtype=np.int64)
        kernels.dealer_counts_jit(lists, upcard, dead, n_dead, thresholds, out)
        values = evaluate(dealer_hands(upcard, dead.tolist()))
        assert out[-1] == len(values) == math.comb(51 - n_dead, 4)
        assert out[:-1].tolist() == [int((values < t).sum()) for t in thresholds]


@pytest.mark.parametrize("name", VARIANTS)
def test_play_ev_against_brute_force(lists, name):
    variant = load_variant(name)
    rng = np.random.default_rng(VARIANTS.index(name))
    for _ in range(3):
        cards = rng.choice(52, 6, replace=False)
        hand, upcard = np.sort(cards[:5]).astype(np.int64), int(cards[5])
        value = hand_value(hand)
        multiple = _settlement.bet_multiple_jit(variant.arrays(), hand, value)
        ev = kernels.play_ev_jit(variant.arrays(), lists, hand, value, multiple, upcard, hand, 5)[
            0
        ]
        assert ev == pytest.approx(brute_force_play_ev(variant, hand, upcard, hand.tolist()))


def test_exchange_and_buy_against_brute_force(lists):
    oasis = load_variant("oasis")
    hand = parse_cards("As Kd 7h 7c 2s").astype(np.int64)
    upcard = int(parse_cards("Qh")[0])
    unseen = [c for c in range(52) if c != upcard and c not in hand.tolist()]
    # throw the 2s: every replacement, the better of fold and play, the 2s dead for the dealer
    expected = np.mean(
        [
            max(-1.0, brute_force_play_ev(oasis, [*hand[:4], new], upcard, [*hand.tolist(), new]))
            for new in unseen
        ]
    )
    unseen = np.array(unseen)
    tables = kernels.situation_tables_jit(lists, upcard, hand, unseen, False)
    ev = kernels.exchange_ev_jit(
        oasis.arrays(), tables, lists, hand, 0b01111, upcard, unseen, False
    )
    assert ev == pytest.approx(expected)
    six = load_variant("six-card")
    expected = np.mean(
        [
            max(-1.0, brute_force_play_ev(six, [*hand, new], upcard, [*hand.tolist(), new]))
            for new in unseen
        ]
    )
    buy = kernels.buy_ev_jit(six.arrays(), tables, lists, hand, upcard, unseen, np.nan)
    assert buy == pytest.approx(expected)


def test_advise_lists_every_option():
    frame = advise("oasis", "As Kd 7h 7c 2s", "Qh")
    assert frame["option"].value_counts().to_dict() == {
        "exchange 2": 10,
        "exchange 1": 5,
        "fold": 1,
        "play": 1,
    }
    assert frame.loc[frame["best"], "option"].tolist() == ["play"]
    assert frame.set_index("option").loc["fold", "ev"] == -1
    russian = advise("russian", "As Kd 7h 7c 2s", "Qh", game=False)
    assert len(russian) == 2 + 1 + 31  # fold, play, buy, every set of cards to exchange


def test_advise_buy_game_decision():
    frame = advise("six-card", "As Ks Qs Js Ts", "Qh", dealer="Qh Jd 9c 5s 3c")
    assert frame.loc[frame["best"], "option"].tolist() == ["buy the dealer a game"]
    frame = advise("six-card", "2c 3d 5h 7c 9s", "Qh", dealer="Qh Jd 8c 6s 4c")
    assert frame.loc[frame["best"], "option"].tolist() == ["decline"]
    with pytest.raises(ValueError, match="the dealer qualifies"):
        advise("six-card", "As Ks Qs Js Ts", "Qh", dealer="Qh Qd 9c 5s 3c")


@pytest.fixture(scope="module")
def caribbean_optimal():
    return exact_game("caribbean")


def test_caribbean_counts_every_deal(caribbean_optimal):
    assert math.comb(52, 5) * 47 * math.comb(46, 4) == DEALS
    assert caribbean_optimal.table["combinations"].sum() == DEALS
    assert caribbean_optimal.summary["deals"] == DEALS


def test_a_weighed_game_is_read_from_the_cache(caribbean_optimal, monkeypatch):
    """Every deal weighed once per rule set and strategy: the same figures, table and
    chart, and the seconds of weighing, without weighing again; uncached, it weighs."""
    import simulate.exact as exact

    def refuse(*args):
        raise AssertionError("weighed again")

    monkeypatch.setattr(exact, "weigh_every_deal", refuse)
    again = exact_game("caribbean")
    assert again.summary == caribbean_optimal.summary
    assert again.table.equals(caribbean_optimal.table)
    assert again.strategy_chart.equals(caribbean_optimal.strategy_chart)
    assert again.seconds == caribbean_optimal.seconds > 1
    with pytest.raises(AssertionError, match="weighed again"):
        exact_game("caribbean", cached=False)


def test_caribbean_optimal_house_edge_is_the_published_one(caribbean_optimal):
    # published for this pay table under optimal strategy: 5.2243%
    assert round(caribbean_optimal.summary["house_edge"], 6) == 0.052243


@pytest.mark.parametrize("name", VARIANTS)
def test_exact_against_simulation(name):
    exact = exact_game(name, "pair-or-better").summary
    n = scaled(2_000_000)
    simulated = run(name, "pair-or-better", n, seed=31).summary
    se = exact["standard_deviation"] / math.sqrt(n)
    assert abs(simulated["rtp"] - exact["rtp"]) <= Z999 * se
    assert simulated["standard_deviation"] == pytest.approx(exact["standard_deviation"], rel=0.01)


def test_exact_rejects_draw_strategies():
    with pytest.raises(ValueError, match="draws or buys games"):
        exact_game("oasis", "basic")


def test_simulated_optimal_strategy_matches_the_exact_analysis(caribbean_optimal):
    n = scaled(2_000_000)
    simulated = run("caribbean", "optimal", n, seed=41).summary
    exact = caribbean_optimal.summary
    assert abs(simulated["rtp"] - exact["rtp"]) <= Z999 * exact["standard_deviation"] / math.sqrt(
        n
    )
    bet_share = (
        1
        - run("caribbean", "optimal", 200_000, seed=42).decisions.set_index("decision")[
            "frequency"
        ]["fold"]
    )
    assert abs(bet_share - exact["play_probability"]) <= Z999 * math.sqrt(0.25 / 200_000)


def test_optimal_table_agrees_with_advise():
    from simulate._exact_play import table_bet_jit
    from simulate.catalog import load_strategy

    table = load_strategy("optimal", "caribbean").decisions(np.uint64(0), 0, 1)
    rng = np.random.default_rng(5)
    for _ in range(40):
        cards = rng.choice(52, 6, replace=False)
        hand, upcard = cards[:5].astype(np.int64), int(cards[5])
        bet = table_bet_jit(table, hand, upcard)
        frame = advise("caribbean", " ".join(_text(c) for c in hand), _text(upcard)).set_index(
            "option"
        )
        assert bool(bet) == (frame.loc["play", "ev"] > frame.loc["fold", "ev"])


def _text(card):
    from simulate.cards import format_card

    return format_card(int(card))


@pytest.mark.parametrize("pairs", [True, False])
def test_draw_counts_against_the_counts_with_every_seen_card_dead(lists, pairs):
    """Counting the dealer's hands through the situation's tables (pairs of drawn cards
    tabulated or counted directly) equals counting them with every seen card dead: the
    player's, his other boxes' (0 or 11 more), the drawn ones."""
    rng = np.random.default_rng(12)
    thresholds = np.array([1, 1278, 3000, 6000, 7462], dtype=np.int64)
    for others in (0, 11):
        for k in range(1, 6):
            cards = rng.choice(52, 6 + others, replace=False)
            upcard = int(cards[5])
            seen = np.sort(np.concatenate([cards[:5], cards[6:]])).astype(np.int64)
            unseen = np.array([c for c in range(52) if c != upcard and c not in seen.tolist()])
            tables = kernels.situation_tables_jit(lists, upcard, seen, unseen, pairs)
            picks = np.sort(rng.choice(len(unseen), k, replace=False)).astype(np.int64)
            out = np.zeros(len(thresholds) + 1, dtype=np.int64)
            scratch = np.empty((2, 5), dtype=np.int64)
            kernels.draw_counts_jit(
                tables, lists, upcard, unseen, picks, k, thresholds, out, scratch
            )
            dead = np.sort(np.concatenate([seen, unseen[picks]]))
            expected = np.zeros_like(out)
            kernels.dealer_counts_jit(lists, upcard, dead, len(dead), thresholds, expected)
            assert out.tolist() == expected.tolist()
            assert out[-1] == math.comb(46 - others - k, 4)


def test_exact_optimal_with_draws_is_out_of_reach_but_without_them_is_weighed():
    with pytest.raises(ValueError, match="optimal-no-draws"):
        exact_game("oasis", "optimal")


def test_compared_strategies_differ_as_exactly_within_the_paired_interval(caribbean_optimal):
    """On the same deals the difference of two strategies' RTPs lands within the 99.9%
    interval of the exact difference, and pairing makes that interval far narrower."""
    from simulate.compare import compare

    n = scaled(2_000_000)
    table = compare("caribbean", ["pair-or-better", "optimal", "pair-or-better"], n).table
    exact = (
        caribbean_optimal.summary["rtp"] - exact_game("caribbean", "pair-or-better").summary["rtp"]
    )
    paired, same = table.iloc[1], table.iloc[2]
    assert abs(paired["difference"] - exact) <= Z999 * paired["difference_se"]
    unpaired_se = math.hypot(table.iloc[0]["standard_error"], paired["standard_error"])
    assert paired["difference_se"] < unpaired_se / 3
    assert same["difference"] == 0 and same["difference_se"] == 0


def test_replace_after_a_buy_against_brute_force(lists):
    six_card = load_variant("six-card")
    six = parse_cards("As Kd 7h 7c 2s 9h").astype(np.int64)
    upcard = int(parse_cards("Qh")[0])
    evs = np.empty(6)
    kernels.replace_evs_jit(six_card.arrays(), lists, six, upcard, np.sort(six), evs)
    unseen = [c for c in range(52) if c != upcard and c not in six.tolist()]
    for position in (1, 5):  # throw the Kd, the 9h: the new card and the six are dead
        expected = np.mean(
            [
                max(
                    -1.0,
                    brute_force_play_ev(
                        six_card,
                        [*np.delete(six, position), new],
                        upcard,
                        [*six.tolist(), new],
                    ),
                )
                for new in unseen
            ]
        )
        assert evs[position] == pytest.approx(expected)


def _kernel_play_ev(v, lists, final, upcard, dead):
    """The kernel's EV of betting ``final``, every card in ``dead`` out of the deck."""
    final = np.asarray(final, dtype=np.int64)
    value = hand_value(final)
    multiple = _settlement.bet_multiple_jit(v, final, value)
    dead = np.sort(np.asarray(dead, dtype=np.int64))
    return kernels.play_ev_jit(v, lists, final, value, multiple, upcard, dead, len(dead))[0]


@pytest.mark.parametrize(
    ("name", "keep", "forced"),
    [
        ("oasis", 0b00111, False),
        ("oasis-classic", 0b00011, False),
        ("oasis-classic", 0b00011, True),
    ],
)
def test_long_exchanges_against_every_draw(lists, name, keep, forced):
    """Exchanges of two and three cards (the BET forced or not): every draw's final hand
    bet or folded, the thrown and drawn cards dead; a few final hands' EVs by the
    plain-Python referee."""
    variant = load_variant(name)
    v = variant.arrays()
    hand = parse_cards("As Kd 7h 7c 2s").astype(np.int64)
    upcard = int(parse_cards("Qh")[0])
    unseen = np.array([c for c in range(52) if c != upcard and c not in hand.tolist()])
    kept = [c for i, c in enumerate(hand) if keep >> i & 1]
    draws = list(itertools.combinations(unseen.tolist(), 5 - len(kept)))
    evs = [_kernel_play_ev(v, lists, [*kept, *new], upcard, [*hand, *new]) for new in draws]
    expected = np.mean(evs if forced else np.maximum(-1.0, evs))
    tables = kernels.situation_tables_jit(lists, upcard, hand, unseen, True)
    ev = kernels.exchange_ev_jit(v, tables, lists, hand, keep, upcard, unseen, forced)
    assert ev == pytest.approx(expected, abs=1e-12)
    rng = np.random.default_rng(4)
    for new in (draws[i] for i in rng.choice(len(draws), 3, replace=False)):
        final, dead = [*kept, *new], [*hand.tolist(), *new]
        assert _kernel_play_ev(v, lists, final, upcard, dead) == pytest.approx(
            brute_force_play_ev(variant, final, upcard, dead), abs=1e-12
        )


def _every_draw_ev(variant, hand, keep, upcard, unseen, forced):
    """Mean over every draw of the thrown cards of the EV of betting (or, unless
    ``forced``, folding) the final hand, the five dealt and the drawn cards dead: the
    protection kernel's tables of every dealer hand per set of unseen cards, each draw
    counted by inclusion-exclusion over its cards (another method: no pair tables, no
    bounds)."""
    option = np.array([[Action.EXCHANGE, keep]], dtype=np.int64)
    fees, forcing = np.zeros(6), np.full(6, forced)
    out = np.empty(1)
    dealer = dealer_of_jit(np.array([upcard]), unseen, option)
    seeing_evs_jit(variant.arrays(), hand, dealer, unseen, option, fees, forcing, out)
    return out[0]


@pytest.mark.parametrize(
    ("name", "keep", "forced"),
    [("oasis-classic", 0b10000, False), ("oasis-classic", 0, True)],
)
def test_four_and_five_card_exchanges_against_every_draw(lists, name, keep, forced):
    """Exchanges of four and five cards (the BET forced or not), every draw enumerated:
    the pruned kernel's pair tables and removal against plain tables per situation."""
    variant = load_variant(name)
    v = variant.arrays()
    hand = parse_cards("As Kd 7h 7c 2s").astype(np.int64)
    upcard = int(parse_cards("Qh")[0])
    unseen = np.array([c for c in range(52) if c != upcard and c not in hand.tolist()])
    expected = _every_draw_ev(variant, hand, keep, upcard, unseen, forced)
    tables = kernels.situation_tables_jit(lists, upcard, hand, unseen, True)
    ev = kernels.exchange_ev_jit(v, tables, lists, hand, keep, upcard, unseen, forced)
    assert ev == pytest.approx(expected, abs=1e-12)


def test_russian_buy_against_the_referee(lists):
    """Russian's bought sixth card, its second combination paid: every card bought, the
    six bet or folded, each six settled by the referee against every dealer hand."""
    russian = load_variant("russian")
    hand = parse_cards("As Kd Qh 7c 7s").astype(np.int64)
    upcard = int(parse_cards("2h")[0])
    unseen = [c for c in range(52) if c != upcard and c not in hand.tolist()]
    expected = np.mean(
        [
            max(-1.0, brute_force_play_ev(russian, [*hand, new], upcard, [*hand.tolist(), new]))
            for new in unseen
        ]
    )
    unseen = np.array(unseen)
    tables = kernels.situation_tables_jit(lists, upcard, hand, unseen, False)
    buy = kernels.buy_ev_jit(russian.arrays(), tables, lists, hand, upcard, unseen, np.nan)
    assert buy == pytest.approx(expected, abs=1e-12)


def test_advise_with_other_cards_seen_against_brute_force():
    """Cards of the player's other boxes are dead for his draws and for the dealer."""
    oasis = load_variant("oasis")
    hand, upcard = "As Kd 7h 7c 2s", "Qh"
    seen = "3c 4d 5h 8s 9c Jd Ts 2h Ac"
    frame = advise("oasis", hand, upcard, seen=seen).set_index(["option", "cards thrown"])
    player = parse_cards(hand).tolist()
    dead = player + parse_cards(seen).tolist()
    up = int(parse_cards(upcard)[0])
    play = brute_force_play_ev(oasis, player, up, dead)
    assert frame.loc[("play", ""), "ev"] == pytest.approx(play)
    unseen = [c for c in range(52) if c != up and c not in dead]
    exchange = np.mean(
        [
            max(-1.0, brute_force_play_ev(oasis, [*player[:4], new], up, [*dead, new]))
            for new in unseen
        ]
    )
    assert frame.loc[("exchange 1", "2s"), "ev"] == pytest.approx(
        exchange - oasis.exchange_fees[1]
    )
    assert frame.loc[("play", ""), "ev"] != pytest.approx(
        advise("oasis", hand, upcard).set_index(["option", "cards thrown"]).loc[("play", ""), "ev"]
    )


def test_replace_after_a_buy_with_other_cards_seen_against_brute_force():
    six_card = load_variant("six-card")
    six = "As Kd 7h 7c 2s 9h"
    seen = "Ks 3d 9c Tc"
    frame = advise("six-card", six, "Qh", seen=seen, game=False).set_index(
        ["option", "cards thrown"]
    )
    cards, up = parse_cards(six).tolist(), int(parse_cards("Qh")[0])
    dead = cards + parse_cards(seen).tolist()
    unseen = [c for c in range(52) if c != up and c not in dead]
    trial = list(cards)
    total = 0.0
    for new in unseen:  # replace the Kd
        trial[1] = new
        total += max(-1.0, brute_force_play_ev(six_card, trial, up, [*dead, new]))
    assert frame.loc[("replace", "Kd"), "ev"] == pytest.approx(
        total / len(unseen) - six_card.replace_fee
    )


@pytest.mark.parametrize("name", ["oasis", "six-card"])
def test_the_engines_first_decision_with_seen_cards_is_advise_best(lists, name):
    """The multi-box engine's exact first decision, other boxes' cards dead, takes an
    option of the highest EV that advise gives with those cards seen."""
    strategy = load_strategy("optimal", name)
    x = strategy.decisions(np.uint64(0), 0, 1)
    variant = load_variant(name)
    fees, forced = variant.draw_arrays()
    rng = np.random.default_rng(31)
    for _ in range(4):
        cards = rng.choice(52, 13, replace=False).astype(np.int64)
        hand, upcard, others = cards[:5], int(cards[5]), cards[6:]
        seen = sum(1 << int(c) for c in [*hand, *others])
        action, kept = best_option_seeing_jit(
            variant.arrays(), x, hand, upcard, np.int64(seen), fees, forced
        )
        frame = advise(
            name, format_cards(hand), format_card(upcard), seen=format_cards(others), game=False
        )
        thrown = format_cards([c for i, c in enumerate(hand.tolist()) if not kept >> i & 1])
        label = {Action.FOLD: "fold", Action.PLAY: "play", Action.BUY: "buy a sixth card"}
        option = label.get(int(action), f"exchange {5 - bin(kept).count('1')}")
        row = frame[(frame["option"] == option) & (frame["cards thrown"] == thrown)]
        assert row["ev"].iloc[0] == pytest.approx(frame["ev"].max(), abs=1e-12)
