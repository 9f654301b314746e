"""Buying the dealer a game in the EVs of advise, against plain enumeration: every
dealer hand settled, the game bought on each non-qualifying one exactly when the
engine's own rule (``exact_game_gain_jit``) finds it worth it."""

import itertools

import numpy as np
import pytest

from simulate._engine import exact_game_gain_jit, game_gains_jit
from simulate._evaluator import hand_value_jit
from simulate._exact import situation_tables_jit
from simulate._game_value import (
    buy_evs_jit,
    game_extra_jit,
    multiple_bounds_jit,
    nonqualifying_dealers_jit,
)
from simulate._settlement import bet_multiple_jit, dealer_discard_jit, settle_jit
from simulate.cards import format_card, format_cards, parse_cards
from simulate.exact import advise, value_lists
from simulate.game_buy import situation_gain
from simulate.game_strata import WHOLE_GAME, dealt_situation
from simulate.variant import load_variant

GAME_VARIANTS = ["six-card", "russian", "six-card-125"]


def bet_with_game(variant, final, upcard, pool):
    """(EV of betting ``final``, what the game adds): the dealer's upcard and every four
    cards of ``pool`` (the cards the player has not seen); his replacement card any
    card of the pool he does not hold."""
    v = variant.arrays()
    final = np.array(final, dtype=np.int64)
    value = hand_value_jit(final)
    multiple = bet_multiple_jit(v, final, value)
    outside = sum(1 << c for c in range(52) if c not in pool)
    total, extra, count = 0.0, 0.0, 0
    for hidden in itertools.combinations(pool, 4):
        dealer = np.array([*hidden, upcard], dtype=np.int64)
        dealer_value = hand_value_jit(dealer)
        won, lost, _ = settle_jit(v, value, multiple, False, 0.0, dealer_value, False, 0)
        total += won - lost
        count += 1
        if dealer_value < v.qualifier:
            used = outside | sum(1 << int(c) for c in hidden)
            discard = dealer_discard_jit(v, dealer)
            extra += max(0.0, exact_game_gain_jit(v, value, multiple, dealer, discard, used))
    return total / count, extra / count


@pytest.mark.parametrize("name", GAME_VARIANTS)
def test_the_engine_s_game_gain_settles_every_new_card(name):
    """The engine's gain of buying the game (each rank of new card weighed once) against
    every new card settled one by one, on 2,000 non-qualifying dealer hands and final
    hands of five or six cards dealt at random, the player's cards and others seen; so
    is the gain when the player sees the new card before deciding."""
    v = load_variant(name).arrays()
    rng = np.random.default_rng(21)
    checked = suited = 0
    while checked < 2_000:
        deck = rng.permutation(52)
        dealer, final = deck[:5].astype(np.int64), deck[5 : 5 + rng.integers(5, 7)]
        if hand_value_jit(dealer) >= v.qualifier:
            continue
        value = hand_value_jit(final.astype(np.int64))
        multiple = bet_multiple_jit(v, final.astype(np.int64), value)
        used = sum(1 << int(c) for c in deck[: 11 + rng.integers(0, 20)])
        discard = dealer_discard_jit(v, dealer)
        nets = []
        for card in (c for c in range(52) if not (used >> c) & 1):
            after = dealer.copy()
            after[discard] = card
            won, lost, _ = settle_jit(
                v, value, multiple, False, 0.0, 0, True, hand_value_jit(after)
            )
            nets.append(won - lost)
        declined = v.ante_pays_no_qualify
        gain = exact_game_gain_jit(v, value, multiple, dealer, discard, used)
        assert gain == pytest.approx(np.mean(nets) - declined, abs=1e-12)
        foreseen = game_gains_jit(v, value, multiple, dealer, discard, used)[1]
        assert foreseen == pytest.approx(np.maximum(np.subtract(nets, declined), 0).mean())
        assert foreseen >= max(gain, 0) - 1e-12
        suited += len({int(c) & 3 for c in np.delete(dealer, discard)}) == 1
        checked += 1
    assert suited > 20  # the flushes the new card can make are weighed too


def situation(seed, hand, upcard, n_seen):
    """``hand`` and ``upcard`` with ``n_seen`` other cards seen at random: (hand,
    upcard, seen cards, the pool of cards not seen)."""
    cards = parse_cards(hand).tolist()
    up = int(parse_cards(upcard)[0])
    rest = [c for c in range(52) if c not in cards and c != up]
    seen = np.random.default_rng(seed).choice(rest, n_seen, replace=False).tolist()
    return cards, up, seen, [c for c in rest if c not in seen]


def rows(frame):
    return frame.set_index(["option", "cards thrown"])


@pytest.mark.parametrize("name", GAME_VARIANTS)
def test_extra_of_strong_final_hands_equals_enumeration(name):
    """extra(H) of final hands of 0 to 5 drawn cards, from trips to a royal flush (the
    thresholds near their values), equals the sum over dealer hands of the positive
    gains."""
    variant = load_variant(name)
    v = variant.arrays()
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 6:
        deck = rng.permutation(52)
        dealt, upcard = deck[:5], int(deck[5])
        pool = sorted(int(c) for c in deck[6:])[:28]  # 18 more cards seen: fewer hands
        k = checked % 6
        new = rng.choice(pool, k, replace=False)
        final = np.array([*dealt[: 5 - k], *new], dtype=np.int64)
        value = hand_value_jit(final)
        if value < 5000:  # weaker hands gain nothing from a game
            continue
        dealers = nonqualifying_dealers_jit(v, upcard, np.array(pool, dtype=np.int64), 5)
        multiple = bet_multiple_jit(v, final, value)
        rest = [c for c in pool if c not in new]
        expected = bet_with_game(variant, final, upcard, rest)[1] * (
            len(list(itertools.combinations(rest, 4)))
        )
        got = game_extra_jit(v, dealers, value, multiple, new.astype(np.int64))
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-9)
        checked += 1


@pytest.mark.parametrize("name", ["russian", "six-card"])
def test_multiple_bounds_hold_for_six_card_hands(name):
    """The BET's pay on any hand (six cards, a second combination) is within the bound
    the thresholds assume for its value."""
    variant = load_variant(name)
    v = variant.arrays()
    bounds = multiple_bounds_jit(v)
    rng = np.random.default_rng(5)
    for _ in range(3000):
        hand = rng.choice(52, 6, replace=False).astype(np.int64)
        value = hand_value_jit(hand)
        assert bet_multiple_jit(v, hand, value) <= bounds[value]


def test_play_with_the_game_against_enumeration():
    variant = load_variant("six-card")
    cards, up, seen, pool = situation(3, "7s 7d 7h Ks 2d", "Qh", 20)
    frame = rows(advise(variant, format_cards(cards), format_card(up), seen=format_cards(seen)))
    ev, gain = bet_with_game(variant, cards, up, pool)
    assert gain > 0
    assert frame.loc[("play", ""), "ev"] == pytest.approx(ev + gain, abs=1e-12)
    assert frame.loc[("play", ""), "game"] == pytest.approx(gain, abs=1e-12)


def test_exchange_with_the_game_against_enumeration():
    """Russian, the 2d thrown from a straight flush draw: every draw, then the better of
    fold and bet, the game counted."""
    variant = load_variant("russian")
    cards, up, seen, pool = situation(4, "7s 8s 9s Ts 2d", "Qh", 30)
    frame = rows(advise(variant, format_cards(cards), format_card(up), seen=format_cards(seen)))
    plain = rows(
        advise(variant, format_cards(cards), format_card(up), seen=format_cards(seen), game=False)
    )
    with_game, without = [], []
    for new in pool:
        ev, gain = bet_with_game(variant, [*cards[:4], new], up, [c for c in pool if c != new])
        with_game.append(max(-1.0, ev + gain))
        without.append(max(-1.0, ev))
    fee = variant.exchange_fees[1]
    row = ("exchange 1", "2d")
    assert frame.loc[row, "ev"] == pytest.approx(np.mean(with_game) - fee, abs=1e-12)
    assert plain.loc[row, "ev"] == pytest.approx(np.mean(without) - fee, abs=1e-12)
    assert frame.loc[row, "game"] > 0
    assert (frame["ev"] - frame["game"]).to_numpy() == pytest.approx(plain["ev"].to_numpy())


def test_buy_with_the_game_against_enumeration():
    """Six-Card's buy: every sixth card, then the best of fold, bet and replacing each
    of the six (every replacement, then fold or bet), the game counted throughout; and
    the engine's play, every choice made without the game and the game then bought."""
    variant = load_variant("six-card")
    cards, up, seen, pool = situation(6, "7s 8s 9s Ts 2d", "Qh", 35)
    frame = rows(advise(variant, format_cards(cards), format_card(up), seen=format_cards(seen)))
    best_total, engine_total = 0.0, 0.0
    for bought in pool:
        six, rest = [*cards, bought], [c for c in pool if c != bought]
        ev, gain = bet_with_game(variant, six, up, rest)
        choices = [(max(-1.0, ev), max(-1.0, ev + gain), ev + gain if ev > -1 else -1.0)]
        for position in range(6):
            replaced = np.zeros(3)
            for new in rest:
                trial = list(six)
                trial[position] = new
                ev, gain = bet_with_game(variant, trial, up, [c for c in rest if c != new])
                replaced += (max(-1.0, ev), max(-1.0, ev + gain), ev + gain if ev > -1 else -1.0)
            choices.append(tuple(replaced / len(rest) - variant.replace_fee))
        best_total += max(choice[1] for choice in choices)
        engine_total += max(choices, key=lambda choice: choice[0])[2]
    expected = best_total / len(pool) - variant.buy_fee
    assert frame.loc[("buy a sixth card", ""), "ev"] == pytest.approx(expected, abs=1e-12)
    assert frame.loc[("buy a sixth card", ""), "game"] > 0
    hand, dead = np.array(cards, dtype=np.int64), np.sort([*cards, *seen])
    unseen = np.array(pool, dtype=np.int64)
    v, lists = variant.arrays(), value_lists()
    tables = situation_tables_jit(lists, up, dead, unseen, False)
    dealers = nonqualifying_dealers_jit(v, up, unseen, 2)
    engine = buy_evs_jit(v, tables, lists, dealers, hand, up, unseen, variant.replace_fee)[2]
    assert engine == pytest.approx(engine_total / len(pool), abs=1e-12)
    assert engine - variant.buy_fee <= expected + 1e-12


def test_situation_gains_against_advise():
    """Where the option best without the game is to fold or to play, the gain of
    weighing the game is advise's best EV with it less that option's EV with it."""
    situations = [dealt_situation(3, WHOLE_GAME, i) for i in range(2)]
    gains = np.array([situation_gain("six-card", *situation) for situation in situations])
    assert (gains >= 0).all()
    checked = 0
    for i, gain in enumerate(gains):
        deck = np.random.default_rng([3, i]).permutation(52)
        hand, upcard = format_cards(np.sort(deck[:5])), format_card(int(deck[5]))
        plain = advise("six-card", hand, upcard, game=False)
        chosen = plain["option"][plain["ev"].idxmax()]
        if chosen == "buy a sixth card":
            continue
        counted = advise("six-card", hand, upcard).set_index("option")["ev"]
        assert gain == pytest.approx(counted.max() - counted[chosen], abs=1e-12)
        checked += 1
    assert checked == 2 and gains[1] > 0  # trips played without the game, bought with it


def test_six_cards_after_a_buy_with_the_game():
    variant = load_variant("six-card")
    cards, up, seen, pool = situation(8, "7s 8s 9s Ts 2d 5h", "Qh", 34)
    frame = rows(advise(variant, format_cards(cards), format_card(up), seen=format_cards(seen)))
    ev, gain = bet_with_game(variant, cards, up, pool)
    assert frame.loc[("play", ""), "ev"] == pytest.approx(ev + gain, abs=1e-12)
    trial = list(cards)
    replaced = 0.0
    for new in pool:  # replace the 2d
        trial[4] = new
        replaced += max(
            -1.0, sum(bet_with_game(variant, trial, up, [c for c in pool if c != new]))
        )
    expected = replaced / len(pool) - variant.replace_fee
    assert frame.loc[("replace", "2d"), "ev"] == pytest.approx(expected, abs=1e-12)
    assert frame.loc[("replace", "2d"), "game"] > 0


def test_variants_without_a_game_have_no_game_column():
    assert "game" not in advise("oasis", "As Kd 7h 7c 2s", "Qh").columns
    assert "game" not in advise("six-card", "As Kd 7h 7c 2s", "Qh", game=False).columns
