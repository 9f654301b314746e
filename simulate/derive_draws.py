"""Rule strategies derived from the optimal decisions of a game with exchanges (Oasis).

The first decision (fold, bet, or an exchange named by the cards kept) is fitted on
situations dealt at random, every option of each weighed exactly (the decisions after
the draw exact too); the decision after an exchange is the fold-or-bet ladder's rung
within ``AFTER_DRAW_COST`` of the best (``derive.derive_ladder`` on the dealt game).
A ladder grows as for fold-or-bet games, one rule at a time, each the rule that gains
most over the sampled situations. A rung's RTP is the game's exact optimal RTP less its
mean cost over the situations (what it loses to the best option), with its standard
error; the shipped rungs are also played against ``optimal`` on the same deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from . import _derive as kernels
from . import _strategy as k
from .codes import Action, Point
from .compare import compare
from .derive import HOLDS_ANY, Rule, _simplest, fold_or_bet_ladder
from .evaluator import evaluate
from .exact import first_options, value_lists
from .optimal_game import situation_tables, supports_exact_draws
from .optimum import optimal_rtp
from .strategy import DRAWS, KEEPS, Strategy, StrategyError, _always_applies, hands_by_value
from .strategy_text import rule_words
from .variant import Variant, load_variant

__all__ = ["DrawLadder", "Situations", "derive_draw_ladder", "sampled_situations"]

AFTER_DRAW_COST = 0.0002
SIMPLE_COST, EXPERT_COST = 0.005, 0.001
"""The most a shipped simple or expert strategy may return less than optimal play (as
estimated on the sampled situations)."""
CHECK_ROUNDS = 4_000_000
METHOD = (
    "Each rung adds the first-decision rule (put first, or last before the default) that "
    "gains the most over situations dealt at random, every option of each weighed exactly "
    "(decisions after the draw exact); a rung's RTP is the exact optimal RTP less its mean "
    "cost over those situations. After an exchange the strategies fold or bet by the "
    "fold-or-bet ladder's rung within 0.0002 of the best such play. The shipped strategies "
    "are played against optimal on the same deals."
)
DEFAULT_SAMPLES = 10_000
_NOT_OFFERED = Action.DECLINE  # the fallback of a one-rule strategy: its rule did not apply


@dataclass(frozen=True)
class Situations:
    """Situations dealt at random: five increasing cards, the upcard, every first
    option's exact EV (``first_options`` order)."""

    hands: np.ndarray
    upcards: np.ndarray
    evs: np.ndarray
    seed: int


def sampled_situations(variant: Variant, samples: int, seed: int) -> Situations:
    """``samples`` situations dealt by ``seed``, each option weighed exactly."""
    rng = np.random.default_rng(seed)
    deals = np.argsort(rng.random((samples, 52)), axis=1)[:, :6]
    hands = np.sort(deals[:, :5], axis=1).astype(np.int64)
    upcards = deals[:, 5].astype(np.int64)
    options = first_options(variant)[0]
    fees, forced = variant.draw_arrays()
    lists = value_lists()
    evs = np.empty((samples, len(options)))
    kernels.option_evs_jit(
        variant.arrays(), situation_tables(lists, variant.arrays()), lists, hands, upcards,
        options, fees, forced, evs,
    )  # fmt: skip
    return Situations(hands, upcards, evs, seed)


def _candidate_actions(variant: Variant) -> list[dict]:
    """Every first action a rule can name: fold, play, and each exchange the variant
    offers by the cards it keeps (those a strategy file accepts)."""
    candidates = [{"action": "fold"}, {"action": "play"}]
    keeps = [*KEEPS, "highest 3", "highest 4"]
    for thrown in sorted(variant.exchange_fees):
        for keep in keeps:
            rule = {"action": "exchange", "keep": keep, "throw": thrown}
            try:
                _one_rule(variant, rule)
            except StrategyError:
                continue
            candidates.append(rule)
    return candidates


def _one_rule(variant: Variant, rule: dict) -> np.ndarray:
    """The rule array of one rule (without conditions), then, unless it always applies,
    a fallback no rule names (where its cards to keep are not there)."""
    always = rule["action"] != "exchange" or _always_applies(rule)
    data = {
        "name": "one",
        "variant": variant.name,
        "first": [rule] if always else [rule, {"action": "fold"}],
    }
    if rule["action"] == "exchange":
        data["after_draw"] = [{"action": "fold"}]
    rules = Strategy.from_dict(data, variant).rules.copy()
    if not always:
        rules[np.flatnonzero(rules[:, k.POINT] == Point.FIRST)[-1], k.ACTION] = _NOT_OFFERED
    return rules


def _chosen_options(variant: Variant, rule: dict, situations: Situations) -> np.ndarray:
    """Per situation, the option (index into ``first_options``) the rule chooses, or -1
    where its cards to keep are not there."""
    options = first_options(variant)[0]
    return kernels.chosen_options_jit(
        _one_rule(variant, rule), situations.hands, situations.upcards, options, _NOT_OFFERED
    )


@dataclass
class DrawLadder:
    """First-decision rules of increasing number, each rung's RTP from the sampled
    situations, and the decision after an exchange."""

    variant: Variant
    default: str
    rules: list[tuple[Rule, dict, str]]
    """(conditions, action, draw condition or ''), in the order found."""
    order: list[int]
    put_first: list[bool]
    costs: list[tuple[float, float]]
    """Each rung's mean cost against the best option, and its standard error."""
    optimal_rtp: float
    after_draw: list[dict]
    samples: int
    seed: int

    @property
    def table(self) -> pd.DataFrame:
        added = [{"action": self.default}] + [self._data(i) for i in range(len(self.rules))]
        return pd.DataFrame(
            [
                {
                    "rules": n + 1,
                    "rtp": self.optimal_rtp - cost,
                    "cost": cost,
                    "cost_se": se,
                    "put": "" if n == 0 else ("first" if self.put_first[n - 1] else "last"),
                    "added": rule_words(added[n]),
                }
                for n, (cost, se) in enumerate(self.costs)
            ]
        )

    def _data(self, index: int) -> dict:
        rule, action, draw = self.rules[index]
        data = rule.data()
        data.pop("action")
        return action | data | ({"draw": draw} if draw else {})

    def rung(self, cost: float) -> int:
        """The fewest rules whose estimated cost is at most ``cost`` (else the largest)."""
        for n, (mean, _) in enumerate(self.costs):
            if mean <= cost:
                return n + 1
        return len(self.costs)

    def strategy_data(self, rules: int, name: str = "derived", description: str = "") -> dict:
        first = [self._data(i) for i in self.order if i < rules - 1]
        data = {
            "name": name,
            "variant": self.variant.name,
            "description": description,
            "first": [*first, {"action": self.default}],
        }
        if any(rule["action"] == "exchange" for rule in first):
            data["after_draw"] = self.after_draw
        return data

    def strategy(self, rules: int, name: str = "derived", description: str = "") -> Strategy:
        return Strategy.from_dict(self.strategy_data(rules, name, description), self.variant)

    method: ClassVar[str] = METHOD
    named_costs: ClassVar[dict[str, float]] = {"simple": SIMPLE_COST, "expert": EXPERT_COST}

    @property
    def rtps(self) -> list[float]:
        return [self.optimal_rtp - cost for cost, _ in self.costs]

    def rung_note(self, rules: int) -> str:
        return f" (SE {self.costs[rules - 1][1]:.6f}, {self.samples:,} sampled situations)"

    def check_note(self, checked: dict) -> str:
        return (
            f" Its first decisions are weighed there with exact play after the draw; played "
            f"against optimal on the same {checked['rounds']:,} deals it returns "
            f"{checked['cost']:.6f} less (SE {checked['cost_se']:.6f})."
        )

    def record(self) -> dict:
        return {"samples": self.samples, "seed": self.seed, "after_draw": self.after_draw}

    @property
    def footer(self) -> str:
        return (
            f"optimal play: {self.optimal_rtp:.6f} (exact); rungs estimated on "
            f"{self.samples:,} situations (seed {self.seed}); after an exchange: "
            + "; ".join(rule_words(rule) for rule in self.after_draw)
        )

    def check(self, named: dict[str, Strategy], rounds: int = CHECK_ROUNDS) -> dict[str, dict]:
        """Each strategy played against ``optimal`` on the same ``rounds`` deals: its RTP
        and what it returns less, with the paired standard error."""
        table = compare(self.variant, ["optimal", *named.values()], rounds, seed=self.seed)
        rows = table.table.set_index("strategy")
        return {
            name: {
                "rules": len(strategy.data["first"]),
                "rtp": float(rows.loc[name, "rtp"]),
                "cost": -float(rows.loc[name, "difference"]),
                "cost_se": float(rows.loc[name, "difference_se"]),
                "estimated_cost": self.costs[len(strategy.data["first"]) - 1][0],
                "method": f"simulated against optimal on the same {rounds:,} deals",
                "rounds": rounds,
            }
            for name, strategy in named.items()
        }


def derive_draw_ladder(
    variant: Variant | str,
    max_rules: int = 16,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 1,
    situations: Situations | None = None,
) -> DrawLadder:
    """Grow first-decision rules over sampled situations, as ``derive_ladder`` does over
    every deal of a fold-or-bet game."""
    variant = load_variant(variant)
    if not supports_exact_draws(variant):
        raise ValueError(
            f"{variant.name}: strategies are derived where every first option of a "
            "situation is weighed exactly (oasis, and fold-or-bet games)"
        )
    if variant.buy_fee is not None:
        raise ValueError(f"{variant.name}: deriving strategies that buy a sixth card is not built")
    situations = situations or sampled_situations(variant, samples, seed)
    evs = situations.evs
    best = evs.max(axis=1)
    values = evaluate(situations.hands)
    up_ranks = situations.upcards >> 2
    draws = kernels.draw_bits_jit(situations.hands)
    actions = _candidate_actions(variant)
    chosen = [_chosen_options(variant, action, situations) for action in actions]
    _, masks, nth_ranks = hands_by_value()
    every_value = len(masks)
    present, rows_of = np.unique(values, return_inverse=True)  # the values dealt
    masks, nth_ranks = masks[present], np.ascontiguousarray(nth_ranks[present])
    no_holds = np.zeros(1, dtype=np.int64)
    default = 0 if evs[:, 0].mean() >= evs[:, 1].mean() else 1
    current = evs[:, default].copy()
    claimed = np.zeros(len(evs), dtype=bool)
    rows = np.arange(len(evs))
    draw_names = ["", *DRAWS]
    rules, order, put_first = [], [], []
    costs = [_cost(best - current)]
    while len(rules) < max_rules - 1:
        found = None
        for a in range(len(actions)):
            applies = chosen[a] >= 0
            ev = np.where(applies, evs[rows, np.maximum(chosen[a], 0)], 0.0)
            for top in (True, False):
                if not top and a == default:
                    continue
                change = np.where(applies & (top | ~claimed), ev - current, 0.0)
                for d, draw in enumerate(draw_names):
                    held = np.ones(len(evs), dtype=bool) if not draw else draws & DRAWS[draw] > 0
                    grid = np.zeros((len(present), 13))
                    np.add.at(grid, (rows_of[held], up_ranks[held]), change[held])
                    gain, *where = kernels.best_rule_jit(grid, masks, nth_ranks, no_holds)
                    if found is None or gain > found[0]:
                        found = (gain, a, top, d, where, np.where(held, change, 0.0))
        gain, a, top, d, where, counted = found
        if gain <= 1e-12:
            break
        first, last, low, high, match, nth, _ = where
        grid = np.zeros((every_value, 13))  # by value, as rules read them
        np.add.at(grid, (values, up_ranks), counted)
        rule = Rule("", present[first], present[last], low, high, match, nth, HOLDS_ANY[0])
        rule = _simplest(rule, grid, gain)
        covered = rule.covers()[values, up_ranks]
        if draw_names[d]:
            covered &= draws & DRAWS[draw_names[d]] > 0
        applies = covered & (chosen[a] >= 0)
        switched = applies & (top | ~claimed)
        current[switched] = evs[rows[switched], chosen[a][switched]]
        claimed |= applies
        order = [len(rules), *order] if top else [*order, len(rules)]
        put_first.append(top)
        rules.append((rule, actions[a], draw_names[d]))
        costs.append(_cost(best - current))
    fold_or_bet = fold_or_bet_ladder(variant, cost=AFTER_DRAW_COST)
    after = fold_or_bet.strategy_data(fold_or_bet.rung(AFTER_DRAW_COST))["first"]
    return DrawLadder(
        variant,
        ["fold", "play"][default],
        rules,
        order,
        put_first,
        costs,
        optimal_rtp(variant)["rtp"],
        after,
        len(evs),
        situations.seed,
    )


def _cost(losses: np.ndarray) -> tuple[float, float]:
    return float(losses.mean()), float(losses.std(ddof=1) / math.sqrt(len(losses)))
