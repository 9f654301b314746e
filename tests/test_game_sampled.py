"""What buying the dealer a game adds where optimal play is sampled (Russian, 1-2-5)."""

import functools
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import game_sampled, optimal_game, protection
from simulate._exact import situation_tables_jit
from simulate._game_value import bet_gain_jit, buy_evs_jit, exchange_gain_jit
from simulate.cards import parse_cards
from simulate.cli import main
from simulate.codes import Action
from simulate.exact import first_options, nonqualifying_dealers, value_lists
from simulate.game_buy import saved_game_gain
from simulate.game_sampled import (
    best_choices,
    control_gain,
    sampled_game_gain,
    saved_sampled_game_gain,
    situation_game_gains,
)
from simulate.optimal import hand_class_maps
from simulate.optimal_game import optimal_table
from simulate.optimal_sampled import sample_situations, saved_sampled_optimum
from simulate.optimum import optimal_rtp
from simulate.protection import exchange_card_rtp
from simulate.simulation import Z_999
from simulate.variant import load_variant

REPEATS, ROUNDS = 16, 2**13


def _class_and_upcard(hand: str, upcard: str) -> tuple[int, int]:
    """The class of ``hand`` and the upcard relabelled with it: a situation as sampled."""
    key = game_sampled._situation_keys(
        np.sort(parse_cards(hand)).astype(np.int64)[None], parse_cards(upcard).astype(np.int64)
    )[0]
    return key // 52, key % 52


def _exact_gain(variant, hand, upcard, kind, keep) -> float:
    """What the game adds to one option played as the engine plays it (the decisions
    after it made without the game), every deal counted."""
    v, lists = variant.arrays(), value_lists()
    unseen = np.array([c for c in range(52) if c != upcard and c not in hand], dtype=np.int64)
    tables = situation_tables_jit(lists, upcard, hand, unseen, False)
    dealers = nonqualifying_dealers(variant, upcard, unseen)
    if kind == Action.PLAY:
        return bet_gain_jit(v, tables, lists, dealers, hand, upcard, unseen)[1]
    if kind == Action.BUY:
        evs = buy_evs_jit(v, tables, lists, dealers, hand, upcard, unseen, np.nan)
        return evs[2] - evs[0]
    return exchange_gain_jit(v, tables, lists, dealers, hand, keep, upcard, unseen, False)


@pytest.mark.parametrize(
    ("hand", "upcard", "kind", "thrown"),
    [
        ("8s 8h 8d Ks Kh", "3c", Action.PLAY, ()),  # a full house bets: the game pays
        ("9c Tc Jc Qc 2d", "5h", Action.BUY, ()),  # then fold or play on six cards
        ("7s 7h 7d Ac 2d", "Kh", Action.EXCHANGE, (3, 4)),  # trips always bet after it
        ("Qs Qh 7d 5c 2s", "9h", Action.EXCHANGE, (2, 3, 4)),  # so do queens
    ],
)
def test_a_situation_s_gain_agrees_with_every_deal_counted(hand, upcard, kind, thrown):
    """Rounds dealt for one Russian situation, its option fixed, the game bought exactly:
    the mean gain within 99.9% of the exact one (every dealer hand and draw counted,
    the engine's decisions after the option), the spread from independent repeats."""
    variant = load_variant("russian")
    cards = np.sort(parse_cards(hand)).astype(np.int64)
    dealt = parse_cards(hand).tolist()
    keep = sum(1 << i for i, card in enumerate(cards.tolist()) if dealt.index(card) not in thrown)
    options = first_options(variant)[0]
    choice = next(i for i, (k, kept) in enumerate(options) if k == kind and kept == keep)
    klass, up = _class_and_upcard(hand, upcard)
    rep = hand_class_maps()[0][klass]
    gains, controls, bought, *_ = situation_game_gains(
        variant, np.full(REPEATS, klass), np.full(REPEATS, up), np.full(REPEATS, choice), ROUNDS
    )
    exact = _exact_gain(variant, rep, up, kind, options[choice, 1])
    se = gains.std(ddof=1) / math.sqrt(REPEATS)
    assert exact > 0.01 and bought.mean() > 0
    assert abs(gains.mean() - exact) <= Z_999 * se
    if kind == Action.PLAY:  # the best play without draws bets it too: the same rounds
        assert np.array_equal(controls, gains)


def test_the_best_choices_have_the_sampled_evs():
    """The choices found again for the first shipped 1-2-5 situations: where a long
    exchange was best, a five-card exchange; else not; a wrong sampled EV refused."""
    variant = load_variant("six-card-125")
    sampled = saved_sampled_optimum(variant)
    part = slice(0, 40)
    short, long = sampled.short_evs[part], sampled.long_evs[part]
    assert (long > short).any()
    args = (variant, sampled.classes[part], sampled.upcards[part].astype(np.int64))
    choices = best_choices(*args, short, long)
    options = first_options(variant)[0]
    five = (options[choices, 0] == Action.EXCHANGE) & (options[choices, 1] == 0)
    assert np.array_equal(five, long > short)
    with pytest.raises(ValueError, match="sampled situation 3"):
        best_choices(*args, short + (np.arange(40) == 3), long)


def test_the_measurement_resumes_and_gives_the_rtp_with_the_game(tmp_path, monkeypatch):
    """Measured in blocks, saved as each finishes: two situations, then four, equal four
    at once; the record adds the control's mean and the gains' differences to it to the
    sampled optimum's differences to the proxy."""
    monkeypatch.setattr(game_sampled, "BLOCK", 2)
    for module in (game_sampled, optimal_game):  # the measurement's cache, the rest kept
        monkeypatch.setattr(module, "cache_dir", lambda: tmp_path / "cache")
    sampled, copy = saved_sampled_optimum(load_variant("six-card-125")), tmp_path / "copy.npz"
    cached = tmp_path / "cache" / game_sampled.game_name(sampled.variant)
    measure = functools.partial(sampled_game_gain, sampled, 256, seed=3, control_rounds=2**13)
    first = measure(situations=2, path=copy)
    more = measure(situations=4)
    assert np.array_equal(more.gains[:2], first.gains) and len(more.gains) == 4
    cached.unlink()
    at_once = measure(situations=4, path=tmp_path / "other.npz")
    assert vars(at_once).keys() == vars(more).keys()
    for name, value in vars(at_once).items():
        assert np.array_equal(value, vars(more)[name]), name
    cached.unlink()
    assert np.array_equal(measure(situations=3, path=copy).gains, at_once.gains[:3])
    record = at_once.record(sampled)
    difference = at_once.gains - at_once.controls
    joint = sampled.gains[:4] - sampled.proxy.samples[:4] + difference
    rtp = sampled.short.summary["rtp"] + sampled.proxy.mean + at_once.control_gain + joint.mean()
    assert record["rtp"] == pytest.approx(rtp, abs=1e-12)
    assert record["situations"] == 4 and record["lower_bound"]


def test_sampled_situations_measure_the_gain_of_the_whole_game_in_six_card():
    """In Six-Card, whose whole game the engine plays from its table, the gain measured
    on 400 situations dealt at random against the control agrees with the engine's
    paired measurement over the whole game (shipped) within their 99.9% interval; so
    does what seeing the dealer's exchange card adds, measured both ways here. The
    spread over the situations dominates: the control's 2**20 paired rounds and the
    exchange card's 2**19 add 1-2% to the interval."""
    variant = load_variant("six-card")
    reps, table = hand_class_maps()[0], optimal_table(variant)
    blocks = [sample_situations(5, block) for block in range(20)]
    classes = np.concatenate([block[0] for block in blocks])
    upcards = np.concatenate([block[1] for block in blocks])
    keys = game_sampled._situation_keys(reps[classes], upcards)
    choices = table[keys // 52, keys % 52].astype(np.int64)
    measured = situation_game_gains(variant, classes, upcards, choices, 1024)
    gains, controls = measured.gains, measured.controls
    mean, se = control_gain(variant, 2**20, seed=5)
    difference = gains - controls
    estimate = mean + difference.mean()
    spread = math.hypot(se, difference.std(ddof=1) / math.sqrt(len(gains)))
    engine = saved_game_gain(variant)
    assert abs(estimate - engine.gain) <= Z_999 * math.hypot(spread, engine.standard_error)
    assert difference.std() < gains.std() / 2  # the control narrows it
    # seeing the card the exchange brings: each round's expectation against the engine
    # buying on the card drawn, on paired deals
    mean, se = control_gain(variant, 2**20, seed=5, foreseen=True)
    difference = measured.foreseen - measured.foreseen_controls
    estimate = mean + difference.mean()
    spread = math.hypot(se, difference.std(ddof=1) / math.sqrt(len(gains)))
    seen = exchange_card_rtp(variant, rounds=2**19, seed=6)[1]
    paired = seen["gain"], seen["gain_standard_error"]
    assert abs(estimate - paired[0]) <= Z_999 * math.hypot(spread, paired[1])
    assert (measured.foreseen >= 0).all() and estimate > 10 * spread


@pytest.mark.parametrize("name", ["russian", "six-card-125"])
def test_the_shipped_gains_recompute_and_raise_the_optimal_rtp(name):
    """The shipped measurement: its first situations measured again equal it bit for
    bit; optimal play with the game returns more than without it, beyond the interval."""
    variant = load_variant(name)
    shipped = saved_sampled_game_gain(variant)
    sampled = saved_sampled_optimum(variant)
    assert shipped is not None and len(shipped.gains) == sampled.samples
    part = slice(0, 2)
    again = situation_game_gains(
        variant, sampled.classes[part], sampled.upcards[part], shipped.choices[part],
        shipped.rounds, seed=shipped.seed,
    )  # fmt: skip
    assert np.array_equal(again[0], shipped.gains[part])
    optimal = optimal_rtp(variant)
    with_game = optimal["with_game"]
    assert with_game["rtp_interval_999"][0] > optimal["rtp"]
    assert with_game == shipped.record(sampled)


def test_the_cli_measures_and_refuses_bad_input():
    runner = CliRunner()
    result = runner.invoke(main, ["game-buy", "caribbean"])
    assert result.exit_code == 2 and "cannot be bought" in result.output
    result = runner.invoke(main, ["game-buy", "russian", "--samples", "3"])
    assert result.exit_code == 2 and "--samples" in result.output
    result = runner.invoke(main, ["game-buy", "russian", "--json"])
    assert result.exit_code == 0, result.output
    assert '"lower_bound": true' in result.output


def test_seeing_the_dealers_exchange_card_raises_the_rtp_beyond_its_interval():
    """Six-Card's optimal play, the dealer's game bought seeing the card his exchange
    brings: the first row is the optimal RTP with the game, the second adds a gain far
    beyond its standard error; a rule strategy's first row is its simulated RTP."""
    six_card = load_variant("six-card")
    rows = protection.exchange_card_rtp(six_card, rounds=2**20)
    with_game = optimal_rtp(six_card)["with_game"]
    assert rows[0]["rtp"] == with_game["rtp"] and rows[0]["strategy"] == "optimal"
    assert rows[1]["gain"] > Z_999 * rows[1]["gain_standard_error"]
    assert rows[1]["rtp"] == pytest.approx(rows[0]["rtp"] + rows[1]["gain"])
    basic = protection.exchange_card_rtp(six_card, "basic", rounds=2**18)
    assert basic[0]["method"] == "simulated" and basic[1]["gain"] > 0
    with pytest.raises(ValueError, match="does not buy the dealer's game exactly"):
        protection.exchange_card_rtp(six_card, "pair-or-better", rounds=2**18)


def test_the_command_weighs_the_exchange_card_where_the_game_is_sold(tmp_path, monkeypatch):
    """Where optimal play is sampled (1-2-5), every table, the exchange card's last,
    written with its methods; games that sell no game, or two tables asked, refused. The
    tables of cards seen here with one row of hole cards and one of hands seen (each row
    costs seconds a situation; test_protection_long weighs them all)."""
    monkeypatch.setattr(protection, "LONG_ROWS", [(4, 0, 0), (0, 4, 0)])
    runner = CliRunner()
    args = ["protect", "six-card-125", "--exchange-rounds", str(2**16), "--samples", "2"]
    result = runner.invoke(main, [*args, "--out-dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "protection.json").read_text())
    tables = ["hole_cards", "shared_hands", "next_card", "dealer_exchange"]
    assert list(data)[-4:] == tables
    unseen, seen = data["dealer_exchange"]
    assert unseen["rtp"] == optimal_rtp(load_variant("six-card-125"))["with_game"]["rtp"]
    assert seen["gain"] > Z_999 * seen["gain_standard_error"] and seen["situations"] == 2000
    assert "the card his exchange brings" in data["methods"]["sampled situations"]
    assert "exchange_cards_seen" in (tmp_path / "protection.txt").read_text()
    for bad in (["caribbean", "--exchange-card"], ["six-card", "--exchange-card", "--hole", "1"]):
        refused = runner.invoke(main, ["protect", *bad])
        assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    oasis = runner.invoke(main, ["protect", "oasis", "--exchange-card"])
    assert "cannot be bought" in oasis.stderr
