"""What seeing the dealer's hole cards, other hands or the next card of the deck is worth
where exchanges reach five cards: the kernels against those of short draws on the same
deals, plain enumeration, the blind player's exact EV, and the figures and the command."""

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import _protection_draws as draw_kernels
from simulate import _protection_long as kernels
from simulate import protection
from simulate._decisions import best_options_jit, option_ev_jit
from simulate._evaluator import value5_jit, value6_jit
from simulate._exact import after_draw_ev_jit, situation_tables_serial_jit, unseen_jit
from simulate._protection import _dealt
from simulate._settlement import bet_multiple_jit, settle_jit
from simulate._situation import _work, situation_jit
from simulate.cards import parse_cards
from simulate.cli import main
from simulate.codes import Action, Fee
from simulate.exact import first_options, needs_pair_tables, value_lists
from simulate.optimal_game import situation_tables
from simulate.protection import shared_hands_rtp
from simulate.simulation import Z_999, _key
from simulate.variant import load_variant

OASIS = load_variant("oasis")
RUSSIAN = load_variant("russian")
SIX_CARD_125 = load_variant("six-card-125")


def gains(variant, cards, seen, rows):
    """``situation_gains_jit``'s figures of one situation (``out[r, q]``) and the blind
    player's EV."""
    options, _ = first_options(variant)
    fees, forced = variant.draw_arrays()
    sets = np.full((len(seen), kernels.SET_CARDS), -1, dtype=np.int64)
    for r, cards_seen in enumerate(seen):
        sets[r, : len(cards_seen)] = cards_seen
    out = np.empty((len(seen), len(rows), 2))
    blind, _ = kernels.situation_gains_jit(
        variant.arrays(), value_lists(), needs_pair_tables(variant), np.array(cards),
        sets, np.array(rows, dtype=np.int64), options, fees, forced, out,
    )  # fmt: skip
    return out, blind


@pytest.mark.parametrize("seen", [(1, 0), (4, 0), (0, 1)])
def test_on_short_draws_the_kernel_weighs_what_the_short_draws_kernel_weighs(seen):
    """In Oasis the blind player's exact choices (the sampled optimum's kernels) and
    the situation engine's are the same, so the gains are too, deal by deal."""
    v, lists, (options, _) = OASIS.arrays(), value_lists(), first_options(OASIS)
    fees, forced = OASIS.draw_arrays()
    holes, hands = seen
    short = np.empty((3, 3))
    key = _key(5)
    tables = situation_tables(lists, v)
    draw_kernels.sampled_gains_jit(
        v, tables, lists, key, 0, holes, hands, options, fees, forced, short
    )
    for i in range(3):
        cards = _dealt(key, i, 6 + holes + 5 * hands)
        out, blind = gains(OASIS, cards[:6], [cards[6:]], [seen])
        assert out[0, 0].tolist() == pytest.approx(short[i, :2].tolist(), abs=1e-12)
        assert blind == pytest.approx(short[i, 2], abs=1e-12)


def card_evs(variant, hand, upcard):
    """``option_card_evs_jit``'s EVs of every first option (``out[o, c]``: the next card
    of the deck the c-th unseen card), the unseen cards, and the options."""
    options, _ = first_options(variant)
    fees, forced = variant.draw_arrays()
    lists, hand, upcard = value_lists(), np.array(hand, dtype=np.int64), np.int64(upcard)
    unseen = unseen_jit(hand, upcard)
    tables = situation_tables_serial_jit(lists, upcard, hand, unseen, needs_pair_tables(variant))
    out, bets = np.empty((len(options), len(unseen))), np.empty(2_000_000, dtype=np.bool_)
    for o, (kind, keep) in enumerate(options):
        kernels.option_card_evs_jit(
            variant.arrays(), tables, lists, hand, upcard, unseen, kind, keep, fees, forced,
            out[o], bets,
        )  # fmt: skip
    return out, unseen, options


def test_on_short_draws_the_next_card_seen_is_weighed_as_the_short_draws_kernel_weighs():
    """Oasis: every option's EV for every next card is the short-draw kernel's, and the
    situation's gain is their mean over the next card."""
    v, lists, (options, _) = OASIS.arrays(), value_lists(), first_options(OASIS)
    fees, forced = OASIS.draw_arrays()
    tables, key = situation_tables(lists, v), _key(5)
    for i in range(3):
        cards = _dealt(key, i, 6)
        hand, upcard = np.sort(cards[:5]), cards[5]
        out, unseen, _ = card_evs(OASIS, hand, upcard)
        work, blind = _work(len(options), tables[4].shape[0]), np.empty(len(options))
        o = situation_jit(v, tables, lists, hand, upcard, options, fees, forced, True, blind, work)
        sit = (*work[1:7], tables, lists, hand, upcard, work[0])
        short = np.empty_like(out)
        for c in range(len(unseen)):
            draw_kernels.flashed_evs_jit(v, sit, c, options, fees, forced, short[:, c])
        np.testing.assert_allclose(out, short, rtol=0, atol=1e-12)
        weighed = np.isfinite(blind)  # options the situation engine's bounds rule out: NaN
        assert weighed[o] and out.mean(axis=1)[weighed] == pytest.approx(blind[weighed], abs=1e-12)
        gain = kernels.situation_gains_jit(
            v, lists, needs_pair_tables(OASIS), cards, np.zeros((1, kernels.SET_CARDS), np.int64),
            np.zeros((0, 2), np.int64), options, fees, forced, np.empty((1, 0, 2)),
        )[1]  # fmt: skip
        assert gain == pytest.approx((short.max(axis=0) - short[o]).mean(), abs=1e-12)


def test_the_next_card_seen_in_long_exchanges_equals_plain_enumeration():
    """Russian: for a next card, playing, buying a sixth card and exchanging one and
    three cards against every draw holding it, each settled by the exact EV after the
    draw; over the next card, each option's EV is the sampled optimum's."""
    v, lists = RUSSIAN.arrays(), value_lists()
    fees, forced = RUSSIAN.draw_arrays()
    hand, upcard = sorted(parse_cards("2c 7d 9h Js Qc").tolist()), int(parse_cards("4s")[0])
    out, unseen, options = card_evs(RUSSIAN, hand, upcard)
    c = int(np.flatnonzero(unseen == parse_cards("Qd")[0])[0])
    rest = [card for card in unseen.tolist() if card != unseen[c]]

    def after(final, drawn, must_bet):
        dead = np.array(sorted(hand + list(drawn)), dtype=np.int64)
        final = np.array(final, dtype=np.int64)
        return after_draw_ev_jit(v, lists, final, upcard, dead, len(dead), must_bet)

    pairs = needs_pair_tables(RUSSIAN)
    tables = situation_tables_serial_jit(lists, upcard, np.array(hand), unseen, pairs)
    for o, (kind, keep) in enumerate(options):
        exact = option_ev_jit(v, tables, lists, np.array(hand), upcard, unseen, kind, keep, fees,
                              forced)  # fmt: skip
        assert out[o].mean() == pytest.approx(exact, abs=1e-12)
        if kind == Action.PLAY:
            assert out[o, c] == pytest.approx(after(hand, [unseen[c]], True), abs=1e-12)
        elif kind == Action.BUY:
            bought = after([*hand, unseen[c]], [unseen[c]], False) - fees[Fee.BUY]
            assert out[o, c] == pytest.approx(bought, abs=1e-12)
        elif kind == Action.EXCHANGE and bin(keep).count("1") in (2, 4):
            kept = [card for p, card in enumerate(hand) if keep >> p & 1]
            thrown = 5 - len(kept)
            nets = [
                after([*kept, unseen[c], *others], [unseen[c], *others], forced[thrown])
                for others in itertools.combinations(rest, thrown - 1)
            ]
            assert out[o, c] == pytest.approx(np.mean(nets) - fees[thrown], abs=1e-12)


def brute_force_ev(variant, hand, dealer, keep):
    """Against the dealer's whole hand seen: the EV of exchanging the cards outside
    ``keep`` (every draw bet or folded, whichever is worth more), or (``keep`` None) of
    buying a sixth card, fees included."""
    v = variant.arrays()
    fees, forced = variant.draw_arrays()
    dealt = value5_jit(*dealer)
    unseen = [c for c in range(52) if c not in hand and c not in dealer]

    def bet_or_fold(final, must_bet):
        value = value5_jit(*final) if len(final) == 5 else value6_jit(*final)
        multiple = bet_multiple_jit(v, np.array(final), value)
        won, lost, _ = settle_jit(v, value, multiple, False, 0.0, dealt, False, 0)
        return won - lost if must_bet else max(-1.0, won - lost)

    if keep is None:
        bought = [bet_or_fold([*hand, card], False) for card in unseen]
        return sum(bought) / len(bought) - fees[0]
    kept = [card for p, card in enumerate(hand) if keep >> p & 1]
    thrown = 5 - len(kept)
    nets = [
        bet_or_fold(kept + list(drawn), forced[thrown])
        for drawn in itertools.combinations(unseen, thrown)
    ]
    return sum(nets) / len(nets) - fees[thrown]


def test_seeing_the_dealers_hand_long_exchanges_equal_plain_enumeration():
    """Russian, the dealer's whole hand seen: exchanges of three and four cards and
    buying a sixth card, each against every draw settled."""
    options, labels = first_options(RUSSIAN)
    fees, forced = RUSSIAN.draw_arrays()
    hand = sorted(parse_cards("2c 7d 9h Js Qc").tolist())
    dealer = parse_cards("Kd 3s 3h 8c 5d").tolist()
    unseen = np.array([c for c in range(52) if c not in hand and c not in dealer])
    evs = np.empty(len(options))
    known = np.array(dealer)
    draw_kernels.seeing_evs_jit(
        RUSSIAN.arrays(), np.array(hand), draw_kernels.dealer_of_jit(known, unseen, options),
        unseen, options, fees, forced, evs,
    )  # fmt: skip
    checked = {"buy": None, "keep 2": 0b00011, "keep 1": 0b10000}
    for label, keep in checked.items():
        (o,) = [
            i for i, (kind, mask) in enumerate(options)
            if (labels[i].startswith("buy") if keep is None else kind == Action.EXCHANGE
                and mask == keep)
        ]  # fmt: skip
        assert evs[o] == pytest.approx(brute_force_ev(RUSSIAN, hand, dealer, keep), abs=1e-12), (
            label
        )


def test_seeing_nothing_weighs_the_blind_players_exact_ev():
    """Nothing seen, the blind player's choices weighed by the seeing kernels are his
    exact EV and the gain is nil: on a hand whose best option throws three or more
    cards (its choices after the draw a table by the cards drawn) and one that buys."""
    options, _ = first_options(RUSSIAN)
    fees, forced = RUSSIAN.draw_arrays()
    lists = value_lists()
    for text, upcard in (("2c 7d 9h Js Qc", "4s"), ("9c 9d 5h 6s 8h", "3c")):
        cards = np.array([*sorted(parse_cards(text)), parse_cards(upcard)[0]], dtype=np.int64)
        best, ev = np.empty(1, dtype=np.int64), np.empty(1)
        best_options_jit(  # int64 cards, as the product passes them: one compiled kernel
            RUSSIAN.arrays(), lists, cards[None, :5], cards[5:], options, fees, forced,
            needs_pair_tables(RUSSIAN), best, ev,
        )  # fmt: skip
        kind, keep = options[best[0]]
        long_exchange = kind == Action.EXCHANGE and bin(keep).count("1") <= 2
        assert kind == Action.BUY or long_exchange, (text, kind, keep)
        out, blind = gains(RUSSIAN, cards, [[]], [(0, 0)])
        assert blind == pytest.approx(ev[0], abs=1e-12)
        assert out[0, 0, 1] == pytest.approx(blind, abs=1e-9)
        assert abs(out[0, 0, 0]) < 1e-9


def test_a_run_resumed_from_its_saved_situations_gives_the_same_figures(tmp_path):
    """Two situations weighed and kept, then extended to three: the figures of one run
    of three, to the last digit; a file of other rules is not read."""
    seen, path = [(0, 0, 0), (4, 0, 0), (0, 0, 1)], tmp_path / "samples.npz"
    once = protection._long_rows(SIX_CARD_125, seen, 3, 3, None)
    protection._long_rows(SIX_CARD_125, seen, 2, 3, None, path)
    assert len(np.load(path)["blind"]) == 2
    resumed = protection._long_rows(SIX_CARD_125, seen, 3, 3, None, path)
    assert resumed == once and len(np.load(path)["blind"]) == 3
    shorter = protection._long_rows(SIX_CARD_125, seen, 2, 3, None, path)
    assert shorter[1]["samples"] == 2 and len(np.load(path)["blind"]) == 3
    other = protection._long_rows(RUSSIAN, [(4, 0, 0)], 2, 3, None, path)
    assert other[0]["samples"] == 2 and len(np.load(path)["blind"]) == 2


def test_the_tables_take_every_row_from_the_same_situations_and_keep_them(tmp_path):
    tables = protection._long_tables(SIX_CARD_125, 2, 4, None, tmp_path)
    holes, shared = tables["hole_cards"], tables["shared_hands"]
    assert (
        holes["hole_cards_known"].tolist()
        == shared["other_hands_seen"].tolist()
        == [0, 1, 2, 3, 4]
    )
    assert holes["method"].tolist() == ["sampled optimum", *["sampled"] * 4]
    assert (holes["samples"][1:] == 2).all() and (shared["samples"][1:] == 2).all()
    flashed = tables["next_card"]
    assert flashed["next_cards_seen"].tolist() == [0, 1]
    assert flashed["method"].tolist() == ["sampled optimum", "sampled, every next card"]
    assert flashed["rtp"][1] == pytest.approx(flashed["rtp"][0] + flashed["gain_over_optimal"][1])
    saved = np.load(tmp_path / "protection-samples-seed4.npz")
    assert saved["figures"].shape == (2, 2, 8, 2) and saved["flashed"].shape == (2,)


def test_the_command_weighs_long_exchanges():
    """1-2-5, the dealer's whole hand seen on a few situations: a gain on some, and the
    blind player's EV weighed with the cards seen is his EV."""
    runner = CliRunner()
    result = runner.invoke(main, ["protect", "six-card-125", "--hole", "4", "--samples", "4",
                                  "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (row,) = data["hole_cards"]
    assert row["method"] == "sampled" and row["samples"] == 4 and row["sets_per_situation"] == 2
    assert row["situations_changing_decision"] > 0 and row["gain_over_optimal"] > 0
    difference = row["blind_difference"]
    assert abs(difference["mean"]) <= Z_999 * difference["standard_error"]
    assert "sampled optimum" in data["methods"] and data["methods"]["dealer's game"]
    nothing = shared_hands_rtp(SIX_CARD_125, 0)
    assert nothing["method"] == "sampled optimum" and nothing["gain_over_optimal"] == 0
    flashed = runner.invoke(main, ["protect", "oasis-classic", "--next-card", "--samples", "2",
                                   "--json"])  # fmt: skip
    assert flashed.exit_code == 0, flashed.output
    (row,) = json.loads(flashed.stdout)["next_card"]
    assert row["method"] == "sampled, every next card" and row["samples"] == 2
    assert row["gain_over_optimal"] > 0
