import dataclasses
import json
import math
from collections import Counter

import numpy as np
import pytest

from simulate import _engine as engine
from simulate._exact_play import exact_options
from simulate.catalog import load_strategy
from simulate.codes import DECISIONS, Category
from simulate.simulation import Stake, _key, rounds_needed, run, run_to_precision
from simulate.variant import load_variant

from . import one_box_figures
from .helpers import scaled
from .reference_round import reference_round

Z999 = 3.290526731491926  # two-sided 99.9%
C52_5 = 2_598_960


def test_same_seed_same_figures_whatever_threads_and_chunks():
    for variant, strategy, boxes in [
        ("caribbean", "pair-or-better", 1),
        ("six-card", "basic", 1),
        ("oasis", "basic", 1),
        ("six-card-125", "basic", (10, 5, 5, 2)),
    ]:
        runs = [
            run(variant, strategy, 30_000, seed=7, boxes=boxes, threads=1, chunk_blocks=1),
            run(variant, strategy, 30_000, seed=7, boxes=boxes, threads=2, chunk_blocks=3),
            run(variant, strategy, 30_000, seed=7, boxes=boxes, threads=2, chunk_blocks=100),
        ]
        for other in runs[1:]:
            for name in ["floats", "ints", "cross", "whole", "largest", "block_nets"]:
                assert np.array_equal(getattr(runs[0], name), getattr(other, name)), name


def test_one_box_figures_are_those_of_the_one_box_engine():
    """Every figure of a one-box run, bit for bit, as the engine gave them before it
    played several boxes (recorded by ``tests/one_box_figures.py``)."""
    recorded = json.loads(one_box_figures.FIGURES.read_text())
    for name in one_box_figures.RUNS:
        figures = json.loads(json.dumps(one_box_figures.figures(name)))
        for part, expected in recorded[name].items():
            if part == "summary":
                assert {key: figures[part][key] for key in expected} == expected, name
            else:
                assert figures[part] == expected, (name, part)


def test_different_seeds_differ():
    first = run("caribbean", "pair-or-better", 20_000, seed=1)
    second = run("caribbean", "pair-or-better", 20_000, seed=2)
    assert first.summary["net"] != second.summary["net"]
    assert not np.array_equal(first.ints, second.ints)


def test_rounds_are_counted_exactly():
    result = run("caribbean", "always-play", 10_001, seed=3)  # not a whole number of blocks
    assert result.summary["rounds"] == 10_001
    assert result.outcomes["count"].sum() == 10_001
    assert result.decisions.set_index("decision")["count"]["play"] == 10_001


def within(simulated: float, exact: float, se: float) -> bool:
    return abs(simulated - exact) <= Z999 * se


def proportion_ok(count: int, n: int, p: float) -> bool:
    return within(count / n, p, math.sqrt(p * (1 - p) / n))


@pytest.mark.parametrize(
    ("variant", "qualifying"),
    [("caribbean", 1_463_700), ("oasis", 1_463_700), ("six-card", C52_5 - 1_302_540)],
)
def test_dealer_qualifies_as_often_as_exactly_known(variant, qualifying):
    n = scaled(400_000)
    result = run(variant, "always-play", n, seed=11)
    outcomes = result.outcomes
    qualified = outcomes[outcomes["outcome"] != "dealer does not qualify"]["count"].sum()
    assert proportion_ok(int(qualified), n, qualifying / C52_5)


def test_dealt_categories_as_often_as_exactly_known():
    counts = {
        Category.HIGH_CARD: 1_302_540,
        Category.PAIR: 1_098_240,
        Category.TWO_PAIR: 123_552,
        Category.THREE_OF_A_KIND: 54_912,
        Category.STRAIGHT: 10_200,
        Category.FLUSH: 5_108,
        Category.FULL_HOUSE: 3_744,
    }
    n = scaled(400_000)
    result = run("caribbean", "always-play", n, seed=12)
    by_category = result.outcomes.groupby("category")["count"].sum()
    for category, count in counts.items():
        assert proportion_ok(int(by_category.get(category.label, 0)), n, count / C52_5), category


def test_bonus_rtp_matches_its_exact_value():
    oasis = load_variant("oasis")
    counts = {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 36,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
    }
    winning = sum(counts.values())
    exact = (
        1 + (sum(oasis.bonus_pays[c] * n for c, n in counts.items()) - (C52_5 - winning)) / C52_5
    )
    n = scaled(1_000_000)
    summary = run(oasis, "pair-or-better", n, seed=13).summary
    assert within(summary["bonus_rtp"], exact, summary["bonus_standard_deviation"] / math.sqrt(n))


def test_fold_everything_returns_nothing(tmp_path):
    path = tmp_path / "fold.toml"
    path.write_text('name = "fold"\nvariant = "caribbean"\n[[first]]\naction = "fold"\n')
    result = run("caribbean", load_strategy(path, "caribbean"), 5_000, seed=1)
    assert result.summary["rtp"] == 0 and result.summary["standard_deviation"] == 0


STRATEGY_FILES = {
    # rules on the cards seen on earlier boxes
    "oasis-seen": (
        "oasis",
        """
name = "seen-upcard"
variant = "oasis"
[[first]]
action = "exchange"
keep = "four-flush"
seen_upcard_rank = 0
[[first]]
action = "play"
at_least = "ace-king"
seen_upcard_rank = [1, 2, 3]
[[first]]
action = "play"
at_least = "pair"
[[first]]
action = "fold"
[[after_draw]]
action = "play"
at_least = "pair"
seen_upcard_rank = [0, 1]
[[after_draw]]
action = "fold"
""",
    ),
    # every decision path: buy and replace, exchanges, forced BET, bought games by rules
    "six-card-replace": (
        "six-card",
        """
name = "replace-everything"
variant = "six-card"
buy_game_decision = "rules"
[[first]]
action = "play"
at_least = "two-pair"
[[first]]
action = "buy"
[[after_buy]]
action = "replace"
keep = "made"
[[after_buy]]
action = "replace"
keep = "four-flush"
[[after_buy]]
action = "fold"
[[after_draw]]
action = "play"
at_least = "pair"
[[after_draw]]
action = "fold"
[[buy_game]]
action = "buy"
at_least = "pair"
[[buy_game]]
action = "decline"
""",
    ),
    "classic-forced": (
        "oasis-classic",
        """
name = "draw-everything"
variant = "oasis-classic"
[[first]]
action = "play"
at_least = "three-of-a-kind"
[[first]]
action = "exchange"
keep = "pair"
[[first]]
action = "exchange"
keep = "four-flush"
[[first]]
action = "exchange"
keep = "highest 2"
throw = 3
upcard = "AKQ"
[[first]]
action = "exchange"
keep = "highest 3"
upcard = "JT9"
[[first]]
action = "exchange"
keep = "highest 1"
upcard = "876"
[[first]]
action = "exchange"
keep = "none"
[[after_draw]]
action = "play"
at_least = "pair"
[[after_draw]]
action = "fold"
""",
    ),
    "russian-buy": (
        "russian",
        """
name = "buy-or-draw"
variant = "russian"
buy_game_decision = "exact"
[[first]]
action = "play"
at_least = "pair"
[[first]]
action = "buy"
holds_any = "AK"
[[first]]
action = "exchange"
keep = "highest 2"
[[after_buy]]
action = "play"
at_least = "ace-king"
[[after_buy]]
action = "fold"
[[after_draw]]
action = "play"
at_least = "ace-king"
[[after_draw]]
action = "fold"
""",
    ),
}


def strategies_to_check(tmp_path):
    for name in ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]:
        yield name, load_strategy("basic", name)
    for name in ["russian", "six-card", "six-card-125"]:  # the dealer's exchange card seen
        basic = load_strategy("basic", name)
        yield name, dataclasses.replace(basic, game_mode=engine.GAME_FORESEEN)
    for label, (variant, text) in STRATEGY_FILES.items():
        path = tmp_path / f"{label}.toml"
        path.write_text(text)
        yield variant, load_strategy(path, variant)


class KernelRounds:
    """Rounds played one at a time by the engine's round kernel, as the block kernel does."""

    def __init__(self, variant, strategy, seed, boxes=1, open_boxes=1, share_seen=True):
        self.variant, self.strategy, self.key = variant, strategy, _key(seed)
        self.arrays = variant.arrays()
        self.fees, self.forced = variant.draw_arrays()
        self.boxes, self.open_boxes, self.share_seen = boxes, open_boxes, share_seen
        self.decisions = np.zeros((boxes, DECISIONS), dtype=np.int64)
        self.scratch = (
            np.empty((boxes, 6), dtype=np.int64),
            np.empty(5, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros(boxes, dtype=np.int64),
        )
        self.box_f = np.zeros((boxes, engine.BOX_FLOATS))
        self.box_i = np.zeros((boxes, engine.BOX_INTS), dtype=np.int64)
        self.antes, self.money = np.ones(boxes), np.empty(1)

    def play(self, index, money=np.inf):
        """Per box, (won, lost, outcome, category, bonus, wager); ``money``: what the player
        can pay beyond the round's stakes, in antes of 1."""
        state = np.array([engine.round_state_jit(self.key, index)], dtype=np.uint64)
        self.money[0] = money
        exact = self.strategy.decisions(
            self.key, index, index + 1, None, self.boxes, self.open_boxes
        )
        engine.play_round_jit(
            self.arrays,
            self.strategy.rules,
            int(self.strategy.game_mode),
            exact,
            exact_options(exact),
            self.fees,
            self.forced,
            self.open_boxes,
            int(self.share_seen),
            state,
            self.decisions,
            *self.scratch,
            self.box_f,
            self.box_i,
            self.antes,
            self.money,
        )
        e = engine
        return [
            (
                float(self.box_f[box, e.WON]),
                float(self.box_f[box, e.LOST]),
                int(self.box_i[box, e.OUTCOME]),
                int(self.box_i[box, e.CATEGORY]),
                float(self.box_f[box, e.BONUS_NET]),
                float(self.box_f[box, e.WAGERED]),
            )
            for box in range(self.boxes)
        ]


def test_engine_rounds_equal_the_plain_reference_and_settlement(tmp_path):
    """Each round of the kernel, replayed in Python and settled by the plain referee."""
    seen = set()
    for variant_name, strategy in strategies_to_check(tmp_path):
        variant = load_variant(variant_name)
        rounds = KernelRounds(variant, strategy, seed=5)
        for index in range(scaled(600)):
            [(won, lost, *kernel)] = rounds.play(index)
            [(*expected, taken)] = reference_round(variant, strategy, rounds.key, index)
            assert (won - lost, *kernel) == pytest.approx(tuple(expected)), (
                variant_name,
                index,
                taken,
            )
            seen.update(f"{variant_name}: {t}" for t in taken)
    for path in [
        "six-card: buy",
        "six-card: replace",
        "six-card: bought game",
        "six-card: declined game",
        "oasis: exchange 1",
        "oasis-classic: exchange 5",
        "oasis-classic: exchange 2",
        "oasis-classic: exchange 3",
        "oasis-classic: exchange 4",
        "oasis-classic: forced play",
        "russian: buy",
        "russian: bought game",
        "six-card-125: exchange 1",
        "six-card-125: bought game",
        "six-card: bought game, card seen",
        "six-card: declined game, card seen",
        "russian: bought game, card seen",
        "six-card-125: bought game, card seen",
        "russian: play after draw",
        "russian: fold after draw",
    ]:
        assert path in seen, path


def test_multi_box_rounds_equal_the_plain_reference_and_settlement(tmp_path):
    """Rounds of several boxes, open and blind, replayed in Python box by box: the cards
    of each box dead for the later boxes' draws and for the dealer's exchange, one
    exchange serving every box that bought the dealer a game."""
    seen = set()
    for variant_name, strategy in strategies_to_check(tmp_path):
        variant = load_variant(variant_name)
        boxes = variant.boxes
        open_boxes = min(boxes, variant.open_boxes)
        for share_seen in (True, False):
            rounds = KernelRounds(variant, strategy, 6, boxes, open_boxes, share_seen)
            for index in range(scaled(300)):
                kernel = rounds.play(index)
                expected = reference_round(
                    variant, strategy, rounds.key, index, boxes, open_boxes, share_seen
                )
                for box, ((won, lost, *got), (*wanted, taken)) in enumerate(
                    zip(kernel, expected, strict=True)
                ):
                    assert (won - lost, *got) == pytest.approx(tuple(wanted)), (
                        variant_name, index, box, taken,
                    )  # fmt: skip
                    seen.update(f"{variant_name} box {box + 1}: {t}" for t in taken)
                bought = ["bought game" in e[-1] for e in expected]
                seen.add(f"{variant_name}: {sum(bought)} boxes bought the game")
    for path in [
        "six-card box 2: buy",
        "six-card box 2: replace",
        "six-card box 3: blind play",
        "six-card box 3: bought game",
        "six-card: 2 boxes bought the game",
        "russian box 2: exchange 1",
        "russian box 3: bought game",
        "six-card-125 box 4: blind play",
        "six-card-125 box 4: bought game",
        "six-card: 3 boxes bought the game",
        "oasis box 3: exchange 1",
        "oasis box 3: fold after draw",
    ]:
        assert path in seen, path


def test_kernel_totals_equal_the_sum_of_rounds():
    variant, strategy = load_variant("six-card"), load_strategy("basic", "six-card")
    result = run(variant, strategy, 3_000, seed=9)
    rounds = KernelRounds(variant, strategy, seed=9)
    nets, wagers = [], []
    for index in range(3_000):
        [(won, lost, *_, wager)] = rounds.play(index)
        nets.append(won - lost)
        wagers.append(wager)
    assert result.summary["net"] == pytest.approx(sum(nets))
    assert result.summary["total_wagered"] == pytest.approx(sum(wagers))
    assert result.summary["largest_win"] == max(nets)
    assert result.summary["standard_deviation"] == pytest.approx(np.std(nets, ddof=1))
    counts = result.decisions.set_index("decision")["count"]
    assert counts.sum() == rounds.decisions.sum()
    distribution = result.net_distribution()
    assert dict(zip(distribution["net"], distribution["count"], strict=True)) == Counter(nets)


def test_capped_rtp_with_a_stake():
    capped = run("oasis", "basic", 20_000, seed=4, stake=Stake("LITE", 50, 5)).summary
    free = run("oasis", "basic", 20_000, seed=4, stake=Stake("VIP", 50, 5)).summary
    assert capped["capped_rtp"] <= free["capped_rtp"]
    assert capped["rtp"] == free["rtp"]  # the uncapped main game is the same rounds


def test_convergence_ends_at_the_final_rtp():
    result = run("caribbean", "basic", 50_000, seed=2)
    curve = result.convergence(points=10)
    assert len(curve) == 10 and curve["rounds"].iloc[-1] == 50_000
    assert curve["rtp"].iloc[-1] == pytest.approx(result.summary["rtp"])


def test_json_records_what_reproduces_the_run():
    data = run("oasis", "basic", 5_000, seed=21).to_json()
    assert data["seed"] == 21 and data["rounds_asked"] == 5_000
    assert data["variant"]["name"] == "oasis" and data["variant"]["rules"]["bet_pays"]
    assert data["strategy"]["name"] == "basic" and len(data["strategy"]["rules_hash"]) == 64
    assert data["software"]["studsim"]


def test_a_fresh_seed_is_recorded_and_replays_the_run(tmp_path):
    fresh = run("oasis", "basic", 4_096, seed=None)
    other = run("oasis", "basic", 4_096, seed=None)
    assert fresh.seed != other.seed and fresh.seed >= 0
    again = run("oasis", "basic", 4_096, seed=fresh.seed)
    assert again.summary == fresh.summary
    assert repr(fresh).startswith("<SimulationResult oasis, basic, 4,096 rounds, seed ")
    assert f"RTP {fresh.summary['rtp']:.4f}" in repr(fresh) and "\n" not in repr(fresh)
    path = fresh.save(tmp_path / "run.json")
    saved = json.loads(path.read_text())
    assert saved["seed"] == fresh.seed and saved["summary"]["rtp"] == fresh.summary["rtp"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(rounds=0), "positive whole number"),
        (dict(rounds=-5), "positive whole number"),
        (dict(rounds=2.5), "positive whole number"),
        (dict(strategy="nope"), "unknown strategy 'nope' for oasis"),
        (dict(stake=Stake("GOLD", 5)), "no account 'GOLD'"),
        (dict(stake=Stake("LITE", 500)), "outside LITE's limits"),
        (dict(seed=-1), "seed must be a whole number"),
        (dict(seed=1.5), "seed must be a whole number"),
    ],
)
def test_bad_arguments(kwargs, message):
    arguments = {"variant": "oasis", "strategy": "basic", "rounds": 1000} | kwargs
    with pytest.raises(ValueError, match=message):
        run(**arguments)


def test_a_run_to_a_precision_meets_it_and_is_an_ordinary_run():
    result = run_to_precision("caribbean", "pair-or-better", 0.004, seed=9)
    assert result.summary["standard_error"] <= 0.004
    again = run("caribbean", "pair-or-better", result.rounds, seed=9)
    assert again.summary == result.summary  # the rounds from the first, as any run
    # the pilot's standard deviation asks for whole blocks enough for the target
    assert rounds_needed(2.0, 0.01) == 40_960 == 10 * engine.BLOCK
    with pytest.raises(ValueError, match=r"needs about .* rounds, more than the 100,000"):
        run_to_precision("caribbean", "pair-or-better", 0.001, max_rounds=100_000)
    with pytest.raises(ValueError, match="target_se must be a positive number"):
        run_to_precision("caribbean", "pair-or-better", float("nan"))


def test_a_run_interrupted_with_a_checkpoint_resumes_to_the_same_figures(tmp_path):
    whole = run("six-card", "basic", 40 * 4096 + 5, seed=9, chunk_blocks=4)
    calls = []

    def interrupt(done):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    first = run("six-card", "basic", 40 * 4096 + 5, seed=9, chunk_blocks=4,
                checkpoint=tmp_path, progress=interrupt)  # fmt: skip
    assert first.interrupted and first.rounds == 12 * 4096
    assert len(list(tmp_path.glob("chunk-*.npz"))) == 3
    resumed = run("six-card", "basic", 40 * 4096 + 5, seed=9, chunk_blocks=4, checkpoint=tmp_path)
    for name in ["floats", "ints", "cross", "whole", "largest", "block_nets"]:
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name
    assert resumed.summary == whole.summary
    assert len(list(tmp_path.glob("chunk-*.npz"))) == 11  # 41 blocks in chunks of 4
    (tmp_path / "chunk-0000000004.npz").write_bytes(b"cut short")  # a kept file unreadable
    again = run("six-card", "basic", 40 * 4096 + 5, seed=9, chunk_blocks=4, checkpoint=tmp_path)
    for name in ["floats", "ints", "cross", "whole", "largest", "block_nets"]:
        assert np.array_equal(getattr(again, name), getattr(whole, name)), name


def test_a_checkpoint_of_another_run_is_refused(tmp_path):
    run("oasis", "basic", 3 * 4096, seed=1, chunk_blocks=1, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="holds the chunks of another run"):
        run("oasis", "basic", 3 * 4096, seed=2, chunk_blocks=1, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="holds the chunks of another run"):
        run("oasis", "optimized", 3 * 4096, seed=1, chunk_blocks=1, checkpoint=tmp_path)
