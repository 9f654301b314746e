"""What seeing the dealer's hole cards or other hands is worth in a game with draws
(Oasis's exchanges, Six-Card's bought card): the seeing kernel against the situation
engine and plain enumeration, the sampled figures against each other, the blind
player's EV and rounds played."""

import itertools
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import _protection_draws as kernels
from simulate._derive import option_evs_jit
from simulate._evaluator import value5_jit, value6_jit
from simulate._settlement import bet_multiple_jit, settle_jit
from simulate._situation import _work, situation_jit
from simulate.cli import main
from simulate.exact import first_options, value_lists
from simulate.optimal_game import situation_tables
from simulate.protection import (
    flashed_card_rtp,
    hole_card_rtp,
    played_with_hole_cards,
    shared_hands_rtp,
)
from simulate.simulation import Z_999
from simulate.variant import load_variant

OASIS = load_variant("oasis")
OPTIONS, LABELS = first_options(OASIS)
FEES, FORCED = OASIS.draw_arrays()
SIX_CARD = load_variant("six-card")


def seeing_evs(hand, known, others=()):
    """Every first option's EV, by the kernel, the dealer holding ``known``."""
    seen = set(hand) | set(known) | set(others)
    unseen = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    evs = np.empty(len(OPTIONS))
    dealer = kernels.dealer_of_jit(np.array(known), unseen, OPTIONS)
    kernels.seeing_evs_jit(
        OASIS.arrays(), np.array(hand), dealer, unseen, OPTIONS, FEES, FORCED, evs
    )
    return evs


def brute_force_ev(hand, known, option):
    """One option's EV: every draw, then every rest of the dealer's hand avoiding it, each
    settled; after a draw the player bets when its mean is above folding."""
    v = OASIS.arrays()
    kind, keep = OPTIONS[option]
    if kind == 0:  # fold
        return -1.0
    kept = [card for p, card in enumerate(hand) if keep >> p & 1]
    thrown = 5 - len(kept)
    unseen = [c for c in range(52) if c not in hand and c not in known]
    total, draws = 0.0, 0
    for drawn in itertools.combinations(unseen, thrown):
        final = np.array(kept + list(drawn))
        value = value5_jit(*final)
        multiple = bet_multiple_jit(v, final, value)
        nets = []
        for rest in itertools.combinations([c for c in unseen if c not in drawn], 5 - len(known)):
            dealer = value5_jit(*known, *rest)
            won, lost, _ = settle_jit(v, value, multiple, False, 0.0, dealer, False, 0)
            nets.append(won - lost)
        ev = sum(nets) / len(nets)
        total += ev if thrown == 0 else max(-1.0, ev)
        draws += 1
    return total / draws - (FEES[thrown] if thrown else 0.0)


def test_seeing_only_the_upcard_gives_the_engines_evs():
    """With no hole card seen the kernel weighs what the situation engine weighs."""
    rng = np.random.default_rng(7)
    lists = value_lists()
    tables = situation_tables(lists, OASIS.arrays())
    for _ in range(2):
        cards = rng.choice(52, 6, replace=False)
        hand, upcard = np.sort(cards[:5]).astype(np.int64), int(cards[5])
        engine = np.empty((1, len(OPTIONS)))
        option_evs_jit(OASIS.arrays(), tables, lists, hand[None], np.array([upcard]),
                       OPTIONS, FEES, FORCED, engine)  # fmt: skip
        assert seeing_evs(hand.tolist(), [upcard]) == pytest.approx(engine[0], abs=1e-9)


@pytest.mark.parametrize("holes", [3, 4])
def test_seeing_evs_equal_plain_enumeration(holes):
    """The whole hand seen: every option; three hole cards: playing, and an exchange of
    one card and one of two."""
    rng = np.random.default_rng(holes)
    cards = rng.choice(52, 6 + holes, replace=False)
    hand, known = sorted(cards[:5].tolist()), cards[5:].tolist()
    evs = seeing_evs(hand, known)
    exchanges = [i for i, label in enumerate(LABELS) if label.startswith("exchange")]
    checked = range(len(OPTIONS)) if holes == 4 else [1, exchanges[0], exchanges[-1]]
    for option in checked:
        assert evs[option] == pytest.approx(brute_force_ev(hand, known, option), abs=1e-12)


def test_other_hands_are_dead_for_the_dealer():
    """Another hand seen is the same as those five cards never in the deck: seeing them
    as dead cards changes the EVs; with none, the upcard alone."""
    rng = np.random.default_rng(3)
    cards = rng.choice(52, 11, replace=False).tolist()
    hand, upcard, other = sorted(cards[:5]), cards[5], cards[6:]
    blind, seeing = seeing_evs(hand, [upcard]), seeing_evs(hand, [upcard], other)
    assert seeing[0] == blind[0] == -1.0
    assert np.abs(seeing[1:] - blind[1:]).min() > 0


def flashed_evs(hand, upcard, flashed=None, variant=OASIS):
    """The situation engine's EVs of every first option, and the kernel's seeing the next
    card: ``flashed``, or (None) each unseen card in turn, a row each."""
    v, lists, (options, _) = variant.arrays(), value_lists(), first_options(variant)
    fees, forced = variant.draw_arrays()
    tables = situation_tables(lists, v)
    work = _work(len(options), tables[4].shape[0])
    hand = np.array(hand)
    blind = np.empty(len(options))
    situation_jit(v, tables, lists, hand, upcard, options, fees, forced, False, blind, work)
    sit = (*work[1:7], tables, lists, hand, upcard, work[0])
    unseen = work[0].tolist()
    positions = range(len(unseen)) if flashed is None else [unseen.index(flashed)]
    seeing = np.empty((len(positions), len(options)))
    for row, position in zip(seeing, positions, strict=True):
        kernels.flashed_evs_jit(v, sit, position, options, fees, forced, row)
    return blind, seeing


@pytest.mark.parametrize("variant", [OASIS, SIX_CARD], ids=lambda v: v.name)
def test_the_next_card_averaged_over_the_deck_gives_the_blind_evs(variant):
    """The first card a draw takes is any unseen card alike: over all 46 the EVs seeing
    it average to the situation engine's."""
    rng = np.random.default_rng(11)
    cards = rng.choice(52, 6, replace=False)
    blind, seeing = flashed_evs(sorted(cards[:5].tolist()), int(cards[5]), variant=variant)
    assert seeing.mean(axis=0) == pytest.approx(blind, abs=1e-12)
    assert seeing.max(axis=1).mean() >= blind.max() - 1e-12  # knowing cannot hurt


def test_seeing_the_next_card_equals_plain_enumeration():
    """Playing, and each exchange of one card (the card seen drawn), against every hand
    of the dealer avoiding it, settled."""
    v = OASIS.arrays()
    rng = np.random.default_rng(12)
    cards = rng.choice(52, 7, replace=False).tolist()
    hand, upcard, flashed = sorted(cards[:5]), cards[5], cards[6]
    evs = flashed_evs(hand, upcard, flashed)[1][0]
    rests = list(itertools.combinations([c for c in range(52) if c not in cards], 4))
    for option, (kind, keep) in enumerate(OPTIONS.tolist()):
        thrown = [p for p in range(5) if not keep >> p & 1]
        if kind == 0 or len(thrown) > 1:
            continue
        final = np.array([flashed if p in thrown else hand[p] for p in range(5)])
        value = value5_jit(*final)
        multiple = bet_multiple_jit(v, final, value)
        total = 0.0
        for rest in rests:
            dealer = value5_jit(upcard, *rest)
            won, lost, _ = settle_jit(v, value, multiple, False, 0.0, dealer, False, 0)
            total += won - lost
        ev = total / len(rests)
        expected = ev if not thrown else max(-1.0, ev) - FEES[1]
        assert evs[option] == pytest.approx(expected, abs=1e-12)


@pytest.fixture(scope="module")
def figures():
    """1 to 4 hole cards seen, 1,000 situations each (seed 3): each rise 6 to 11 standard
    errors."""
    return {hole: hole_card_rtp(OASIS, hole, samples=1_000, seed=3) for hole in range(5)}


def test_the_rtp_rises_with_each_card_seen(figures):
    rtps = [figures[hole]["rtp"] for hole in range(5)]
    assert figures[0]["method"] == "enumerated" and figures[0]["gain_over_optimal"] == 0
    for low, high in itertools.pairwise(range(5)):
        se = math.hypot(figures[low]["standard_error"], figures[high]["standard_error"])
        assert rtps[high] - rtps[low] > Z_999 * se


def test_the_blind_players_ev_is_the_same_with_the_cards_seen(figures):
    """Over the hole cards the blind player's choices are worth what they are without
    them: the mean difference is within its 99.9% interval of 0."""
    for hole in range(1, 5):
        check = figures[hole]["blind_difference"]
        assert abs(check["mean"]) < Z_999 * check["standard_error"]


def test_play_seeing_the_cards_agrees_with_the_figures(figures):
    """Rounds dealt seeing the dealer's whole hand, decided seeing it (the exchange drawn
    from the deck), settled against it: within the 99.9% interval of the sampled figure."""
    played = played_with_hole_cards(OASIS, 4, 5_000, seed=11)
    se = math.hypot(played["standard_error"], figures[4]["standard_error"])
    assert abs(played["rtp"] - figures[4]["rtp"]) < Z_999 * se


def test_play_seeing_the_next_card_agrees_with_the_figure():
    figure = flashed_card_rtp(OASIS, 1, samples=2_000, seed=5)
    assert figure["gain_over_optimal"] > Z_999 * figure["standard_error"]
    assert flashed_card_rtp(OASIS, 0)["gain_over_optimal"] == 0
    played = played_with_hole_cards(OASIS, 0, 10_000, seed=6, flashed=1)
    se = math.hypot(played["standard_error"], figure["standard_error"])
    assert abs(played["rtp"] - figure["rtp"]) < Z_999 * se


def test_other_hands_seen_raise_the_rtp():
    assert shared_hands_rtp(OASIS, 0)["gain_over_optimal"] == 0
    row = shared_hands_rtp(OASIS, 4, samples=750, seed=4)  # the gain 12 SE above 0
    assert row["gain_over_optimal"] > Z_999 * row["standard_error"]
    assert abs(row["blind_difference"]["mean"]) < Z_999 * row["blind_difference"]["standard_error"]


def test_the_command_weighs_the_draw_games_and_bad_input_is_one_line():
    runner = CliRunner()
    result = runner.invoke(main, ["protect", "oasis", "--hole", "1", "--samples", "200"])
    assert result.exit_code == 0, result.output
    assert "sampled" in result.output and "gain_over_optimal" in result.output
    flashed = runner.invoke(main, ["protect", "oasis", "--next-card", "--samples", "200"])
    assert flashed.exit_code == 0 and "next card of the deck" in flashed.output
    both = runner.invoke(main, ["protect", "oasis", "--next-card", "--hole", "1"])
    assert both.exit_code == 2 and "not more" in both.stderr
    bought = runner.invoke(main, ["protect", "six-card", "--hole", "2", "--samples", "50",
                                  "--json"])  # fmt: skip
    assert bought.exit_code == 0, bought.output
    assert json.loads(bought.stdout)["methods"]["dealer's game"].startswith("never bought")
    dealt = runner.invoke(main, ["protect", "caribbean", "--next-card"])
    assert dealt.exit_code == 2 and "no card is drawn" in dealt.stderr


def six_card_evs(hand, known):
    """Six-Card's first options' EVs by the kernel (fold, play, buy), ``known`` dealt to
    the dealer."""
    options, _ = first_options(SIX_CARD)
    fees, forced = SIX_CARD.draw_arrays()
    unseen = np.array([c for c in range(52) if c not in hand and c not in known])
    evs = np.empty(len(options))
    dealer = kernels.dealer_of_jit(np.array(known), unseen, options)
    kernels.seeing_evs_jit(
        SIX_CARD.arrays(), np.array(hand), dealer, unseen, options, fees, forced, evs
    )
    return evs


def brute_force_buy(hand, dealer):
    """Buying a sixth card against the dealer's whole hand seen: each card bought, then
    the best of folding, betting and each replacement (each card drawn bet or folded),
    every final hand settled."""
    v = SIX_CARD.arrays()
    fees, _ = SIX_CARD.draw_arrays()
    dealt = value5_jit(*dealer)

    def bet_or_fold(six):
        value = value6_jit(*six)
        won, lost, _ = settle_jit(v, value, bet_multiple_jit(v, np.array(six), value),
                                  False, 0.0, dealt, False, 0)  # fmt: skip
        return max(-1.0, won - lost)

    unseen = [c for c in range(52) if c not in hand and c not in dealer]
    total = 0.0
    for bought in unseen:
        six = [*hand, bought]
        best = bet_or_fold(six)
        for position in range(6):
            drawn = [c for c in unseen if c != bought]
            replaced = [bet_or_fold([*six[:position], c, *six[position + 1 :]]) for c in drawn]
            best = max(best, sum(replaced) / len(drawn) - fees[-1])
        total += best
    return total / len(unseen) - fees[0]


def test_six_card_seeing_the_dealers_hand_equals_plain_enumeration():
    rng = np.random.default_rng(21)
    cards = rng.choice(52, 10, replace=False).tolist()
    hand, dealer = sorted(cards[:5]), cards[5:]
    evs = six_card_evs(hand, dealer)
    assert evs[2] == pytest.approx(brute_force_buy(hand, dealer), abs=1e-12)


def test_six_card_blind_choices_weighed_on_the_upcard_alone_are_the_engines():
    """Seeing only the upcard, buying is worth the situation engine's EV both seeing (the
    kernel's own choices) and as the blind player chooses (the engine's)."""
    v, lists = SIX_CARD.arrays(), value_lists()
    options, _ = first_options(SIX_CARD)
    fees, forced = SIX_CARD.draw_arrays()
    tables = situation_tables(lists, v)
    rng = np.random.default_rng(22)
    for _ in range(2):
        cards = rng.choice(52, 6, replace=False)
        hand, upcard = np.sort(cards[:5]).astype(np.int64), int(cards[5])
        work = _work(len(options), tables[4].shape[0])
        engine = np.empty(len(options))
        situation_jit(v, tables, lists, hand, upcard, options, fees, forced, False, engine, work)
        sit = (*work[1:7], tables, lists, hand, upcard, work[0])
        dealer = kernels.dealer_of_jit(np.array([upcard]), work[0], options)
        seeing = kernels._buy_ev(v, dealer, work[0], hand, fees, None, work[9])
        blind = kernels._buy_ev(v, dealer, work[0], hand, fees, sit, work[9])
        assert seeing == pytest.approx(engine[2], abs=1e-12)
        assert blind == pytest.approx(engine[2], abs=1e-12)


def test_six_card_figures_rise_with_each_card_and_rounds_played_agree():
    """Six-Card, 600 situations per figure: the RTP rises with each hole card seen (by 5.6
    to 8 standard errors), the blind player's EV is unchanged by them, and rounds played
    seeing the whole hand (4,000) or the next card (8,000) agree with the sampled figures
    within their 99.9% intervals."""
    rows = [hole_card_rtp(SIX_CARD, hole, samples=600, seed=3) for hole in range(5)]
    assert rows[0]["gain_over_optimal"] == 0
    for low, high in itertools.pairwise(rows):
        se = math.hypot(low["standard_error"], high["standard_error"])
        assert high["rtp"] - low["rtp"] > Z_999 * se
    flashed = flashed_card_rtp(SIX_CARD, 1, samples=600, seed=5)
    assert flashed["gain_over_optimal"] > Z_999 * flashed["standard_error"]
    for row in [*rows[1:], flashed]:
        check = row["blind_difference"]
        assert abs(check["mean"]) < Z_999 * check["standard_error"]
        assert row["dealer_game"].startswith("never bought")
    for figure, hole, seen, rounds in [(rows[4], 4, 0, 4_000), (flashed, 0, 1, 8_000)]:
        played = played_with_hole_cards(SIX_CARD, hole, rounds, seed=7, flashed=seen)
        se = math.hypot(played["standard_error"], figure["standard_error"])
        assert abs(played["rtp"] - figure["rtp"]) < Z_999 * se
