"""Rule strategies a person can follow, derived from the exact optimal decisions.

In a game decided by folding or betting on the dealt cards, a rule strategy's decision
reads the hand's value, its ranks and the upcard's rank (``_strategy``), so what any
such strategy returns is a sum over (hand value, upcard rank) groups of what betting
gains over folding there, weighed exactly over every deal (``bet_gains``). A ladder of
strategies grows from the better of always folding and always betting by one rule at a
time, each time the rule (put first, or last before the default) that gains the most;
each rung's RTP is exact up to rounding of the sums, and its cost is what it returns
less than optimal play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import tomli_w

from . import _derive as kernels
from ._io import write_atomic, write_json
from ._tables import cached_arrays
from .cards import RANKS
from .codes import Category
from .evaluator import best_five, evaluate, threshold_value
from .exact import exact_game, hand_classes, value_lists
from .provenance import __version__, software
from .strategy import Strategy, hands_by_value
from .strategy_chart import write_chart
from .strategy_text import rule_words
from .variant import Variant, load_variant

__all__ = [
    "HOLDS_ANY", "Ladder", "bet_gains", "derive_ladder", "named_strategies", "save_derived",
    "value_text",
]  # fmt: skip

HOLDS_ANY = ("", "A", "K", "Q", "J", "QJ", "KQ", "KQJ")
"""The ranks a rule may ask the player to hold one of ('' : no such condition)."""
MAX_RULES = 24
SIMPLE_COST, EXPERT_COST = 0.005, 0.0002
"""The most RTP a shipped simple or expert strategy of a fold-or-bet game may return
less than optimal play."""
METHOD = (
    "Each rung adds the rule (put first, or last before the default) that gains the most "
    "over every deal, weighed exactly per hand value and upcard rank; RTPs exact (float "
    "sums of exact EVs), the shipped strategies enumerated again from their files."
)
_NAMED = [c for c in Category if c != Category.HIGH_CARD]
"""The categories a rule names as its lowest hand ('high-card' is every hand)."""
SITUATIONS = math.comb(52, 5) * 47
"""Every (player hand, upcard) situation, equally likely."""
_TOLERANCE = 1e-9  # gains (per situation) below this are rounding
GAINS_SOURCES = (
    "derive.py", "_derive.py", "_exact.py", "_evaluator.py", "_settlement.py", "_tables.py",
    "strategy.py", "codes.py",
)  # fmt: skip
"""The sources that weigh what betting gains per group."""


def bet_gains(variant: Variant | str) -> np.ndarray:
    """``gains[value, up_rank]``: what betting returns more than folding on every deal
    of a hand of that value against an upcard of that rank, summed, per situation (so
    the RTP of betting on a set of groups is the sum of their gains)."""
    variant = load_variant(variant)
    if variant.has_draws:
        raise ValueError(
            f"{variant.name} has draws: strategies are derived for games decided by "
            "folding or betting on the dealt cards (caribbean)"
        )
    return _bet_gains(variant)[0]


def _bet_gains(variant: Variant) -> tuple[np.ndarray, float]:
    """The gains by group, and the optimal RTP (betting on every situation where
    betting gains, the suits seen); kept in the cache (15 to 30 s each to weigh)."""
    saved = cached_arrays(
        f"bet-gains-{variant.rules_hash[:16]}", lambda: _weighed_gains(variant), GAINS_SOURCES
    )
    return saved["gains"], float(saved["rtp"])


def _weighed_gains(variant: Variant) -> dict[str, np.ndarray]:
    reps, weights = hand_classes()
    per_upcard = np.zeros((len(reps), 52))
    kernels.bet_gains_jit(variant.arrays(), value_lists(), reps, weights.astype(float), per_upcard)
    values = evaluate(reps)
    gains = np.zeros((len(hands_by_value()[0]), 13))
    np.add.at(gains, values, per_upcard.reshape(len(reps), 13, 4).sum(axis=2))
    rtp = np.maximum(per_upcard, 0).sum() / SITUATIONS
    return {"gains": gains / SITUATIONS, "rtp": np.array(rtp)}


@dataclass(frozen=True)
class Rule:
    """One rule: its action, the groups' value interval (inclusive) and its conditions."""

    action: str
    first: int
    last: int
    low: int  # upcard ranks low..high
    high: int
    match: int  # kernels.ANY, 0 or 1
    nth: int  # kernels.ANY or n - 1
    holds: str

    def covers(self) -> np.ndarray:
        """Which groups (value, upcard rank) the rule's conditions hold on."""
        hands, masks, nth_ranks = hands_by_value()
        values = np.arange(len(hands))
        ups = np.arange(13)
        held = (masks[:, None] >> ups[None, :]) & 1
        mask = ((values >= self.first) & (values <= self.last))[:, None] & (
            (ups >= self.low) & (ups <= self.high)
        )[None, :]
        if self.match != kernels.ANY:
            mask &= held == self.match
        if self.nth != kernels.ANY:
            mask &= ups[None, :] < nth_ranks[:, self.nth][:, None]
        if self.holds:
            wanted = sum(1 << RANKS.index(r) for r in self.holds)
            mask &= ((masks & wanted) != 0)[:, None]
        mask[0] = False  # no hand has value 0
        return mask

    def data(self) -> dict:
        """The rule as a strategy file writes it."""
        last_value = len(hands_by_value()[0]) - 1
        rule: dict = {"action": self.action}
        if self.first > 1:
            rule["at_least"] = value_text(self.first)
        if self.last < last_value:
            rule["below"] = value_text(self.last + 1)
        if (self.low, self.high) != (0, 12):
            rule["upcard"] = RANKS[self.low : self.high + 1]
        if self.match != kernels.ANY:
            rule["upcard_matches"] = bool(self.match)
        if self.nth != kernels.ANY:
            rule["upcard_below"] = self.nth + 1
        if self.holds:
            rule["holds_any"] = self.holds
        return rule


def value_text(value: int) -> str:
    """A hand value as a rule names it: a category where it is the category's lowest
    hand, else five cards (ranks as the hand ranks them, suits spread unless a flush)."""
    for category in _NAMED:
        if threshold_value(category.key) == value:
            return category.key
    five = best_five(hands_by_value()[0][value])
    flush = len({card & 3 for card in five.tolist()}) == 1
    return " ".join(
        RANKS[card >> 2] + ("s" if flush else "shdc"[i % 4])
        for i, card in enumerate(five.tolist())
    )


@dataclass
class Ladder:
    """Rule strategies of increasing size, each with its RTP and its cost: rung k reads
    the first k - 1 rules found (in the order they are read) and the default."""

    variant: Variant
    default: str
    rules: list[Rule]
    """In the order they were found."""
    order: list[int]
    """The rules' indexes in the order a strategy reads them."""
    put_first: list[bool]
    """Whether each rule was put first (else last before the default)."""
    rtps: list[float]
    optimal_rtp: float
    grouped_rtp: float
    """The most any strategy deciding by hand value and upcard rank returns."""

    @property
    def table(self) -> pd.DataFrame:
        """One row per rung: its number of rules, RTP, house edge, cost against optimal
        play, where it puts its rule and the rule."""
        added = [{"action": self.default}, *(rule.data() for rule in self.rules)]
        rows = [
            {
                "rules": n + 1,
                "rtp": rtp,
                "house_edge": 1 - rtp,
                "cost": self.optimal_rtp - rtp,
                "put": "" if n == 0 else ("first" if self.put_first[n - 1] else "last"),
                "added": rule_words(added[n]),
            }
            for n, rtp in enumerate(self.rtps)
        ]
        return pd.DataFrame(rows)

    def within(self, rung: int, cost: float) -> bool:
        """Whether the rung's cost is at most ``cost``."""
        return self.optimal_rtp - self.rtps[rung - 1] <= cost

    within_words = ""

    def behind(self, rung: int, other: int, cost: float) -> bool:
        """Whether the rung returns at most ``cost`` less than rung ``other``."""
        return self.rtps[other - 1] - self.rtps[rung - 1] <= cost

    def rung(self, cost: float, of: int | None = None) -> int:
        """The fewest rules whose cost is at most ``cost`` (else the largest rung); given
        ``of``, whose cost is at most ``cost`` more than rung ``of``'s (``behind``)."""
        for n in range(1, len(self.rtps) + 1):
            if self.within(n, cost) if of is None else self.behind(n, of, cost):
                return n
        return len(self.rtps)

    def strategy_data(self, rules: int, name: str = "derived", description: str = "") -> dict:
        """The rung with ``rules`` rules as strategy data (a strategy file's layout)."""
        kept = [self.rules[i].data() for i in self.order if i < rules - 1]
        return {
            "name": name,
            "variant": self.variant.name,
            "description": description,
            "first": [*kept, {"action": self.default}],
        }

    def strategy(self, rules: int, name: str = "derived", description: str = "") -> Strategy:
        """The rung with ``rules`` rules, validated as any strategy file."""
        return Strategy.from_dict(self.strategy_data(rules, name, description), self.variant)

    method: ClassVar[str] = METHOD
    named_costs: ClassVar[dict[str, float]] = {"simple": SIMPLE_COST, "expert": EXPERT_COST}
    """The most a shipped strategy may return less than optimal play, by name."""

    def rules_text(self, rules: int) -> str:
        return f"{rules} rules on the dealt cards"

    def rung_note(self, rules: int) -> str:
        return " (exact)"

    def check_note(self, checked: dict) -> str:
        return ""

    def record(self) -> dict:
        return {"best_by_value_and_upcard_rank": self.grouped_rtp}

    @property
    def footer(self) -> str:
        return (
            f"optimal play: {self.optimal_rtp:.6f}; the best play by hand value and upcard "
            f"rank: {self.grouped_rtp:.6f}"
        )

    def check(self, named: dict[str, Strategy]) -> dict[str, dict]:
        """Each strategy's RTP enumerated again from its rules (it must be its rung's)."""
        checked = {}
        for name, strategy in named.items():
            rules = len(strategy.data["first"])
            exact = exact_game(self.variant, strategy).summary
            if abs(exact["rtp"] - self.rtps[rules - 1]) > 1e-9:
                raise AssertionError(f"{name}: the enumerated RTP differs from the ladder's")
            checked[name] = {
                "rules": rules,
                "rtp": exact["rtp"],
                "house_edge_fraction": exact["house_edge_fraction"],
                "cost": self.optimal_rtp - exact["rtp"],
                "method": "exact",
            }
        return checked


def _simplest(rule: Rule, change: np.ndarray, gain: float) -> Rule:
    """The rule with its value interval widened to no bound, or to a category's edge,
    wherever that gains as much."""
    last_value = change.shape[0] - 1
    edges = sorted({threshold_value(c.key) for c in _NAMED})
    firsts = [1] + [e for e in edges if e <= rule.first]
    lasts = [last_value] + [e - 1 for e in edges if e - 1 >= rule.last]
    for first in firsts:
        for last in lasts:
            wider = replace(rule, first=first, last=last)
            if change[wider.covers()].sum() >= gain - _TOLERANCE:
                return wider
    for first in firsts:
        wider = replace(rule, first=first)
        if change[wider.covers()].sum() >= gain - _TOLERANCE:
            return wider
    for last in lasts:
        wider = replace(rule, last=last)
        if change[wider.covers()].sum() >= gain - _TOLERANCE:
            return wider
    return rule


def derive_ladder(variant: Variant | str, max_rules: int = MAX_RULES) -> Ladder:
    """Grow rule strategies one rule at a time, each the rule that gains the most put
    first or last before the default, until ``max_rules`` or no rule gains."""
    variant = load_variant(variant)
    bet_gains(variant)  # checks the variant
    return fold_or_bet_ladder(variant, max_rules)


def fold_or_bet_ladder(variant: Variant, max_rules: int = MAX_RULES, cost: float = 0.0) -> Ladder:
    """``derive_ladder`` for any variant: in one with draws, the ladder of folding or
    betting on five cards (the decision after a draw), against the best such play;
    it stops at the first rung within ``cost`` of optimal play."""
    gains, optimal = _bet_gains(variant)
    _, masks, nth_ranks = hands_by_value()
    holds = np.array([sum(1 << RANKS.index(r) for r in h) for h in HOLDS_ANY], dtype=np.int64)
    default = "play" if gains.sum() > 0 else "fold"
    plays = np.full(gains.shape, default == "play")
    claimed = np.zeros(gains.shape, dtype=bool)
    rules: list[Rule] = []
    order: list[int] = []
    put_first: list[bool] = []
    rtps = [float(gains[plays].sum())]
    while len(rules) < max_rules - 1 and optimal - rtps[-1] > cost:
        best = None
        for action in ("play", "fold"):
            current = np.where(plays, gains, 0.0)
            change = (gains if action == "play" else 0.0) - current
            for top in (True, False):
                if not top and action == default:
                    continue
                masked = change if top else np.where(claimed, 0.0, change)
                gain, first, last, low, high, match, nth, held = kernels.best_rule_jit(
                    np.ascontiguousarray(masked), masks, nth_ranks, holds
                )
                if best is None or gain > best[0]:
                    rule = Rule(action, first, last, low, high, match, nth, HOLDS_ANY[held])
                    best = (gain, rule, top, masked)
        gain, rule, top, masked = best
        if gain < _TOLERANCE:
            break
        rule = _simplest(rule, masked, gain)
        covered = rule.covers()
        decided = covered if top else covered & ~claimed
        plays[decided] = rule.action == "play"
        claimed |= covered
        order = [len(rules), *order] if top else [*order, len(rules)]
        put_first.append(top)
        rules.append(rule)
        rtps.append(float(gains[plays].sum()))
    return Ladder(
        variant,
        default,
        rules,
        order,
        put_first,
        rtps,
        optimal,
        float(np.maximum(gains, 0).sum()),
    )


def shipped_rungs(ladder) -> dict[str, int]:
    """The rungs shipped as ``simple`` and ``expert`` (``named_strategies``)."""
    (simple, simple_cost), (expert, expert_cost) = ladder.named_costs.items()
    rungs = {simple: ladder.rung(simple_cost), expert: ladder.rung(expert_cost)}
    if not ladder.within(rungs[simple], simple_cost):
        rungs[simple] = ladder.rung(simple_cost, of=rungs[expert])
    return rungs


def named_strategies(ladder, checked: dict | None = None) -> dict[str, Strategy]:
    """The rungs of a ``Ladder`` (or ``derive_draws.DrawLadder``) shipped as strategies:
    ``simple`` and ``expert``, the fewest rules within the ladder's ``named_costs`` of
    optimal play, each described with its RTP and cost (and, given ``checked``, the
    figures of ``ladder.check``). Where no rung is within the expert's cost, the expert
    is the last rung; where none is within the simple's, the simple is the fewest rules
    within that cost of the expert."""
    rungs = shipped_rungs(ladder)
    _, expert = ladder.named_costs  # the names: simple, expert
    named = {}
    for name, cost in ladder.named_costs.items():
        rung = rungs[name]
        rtp = ladder.rtps[rung - 1]
        if ladder.within(rung, cost):
            which = f"the fewest within {cost} RTP of optimal play{ladder.within_words}"
        elif name == expert:
            which = f"the ladder's last rung (none is within {cost} RTP of optimal play)"
        else:
            which = (
                f"none being within {cost} RTP of optimal play, the fewest within {cost} of "
                f"the {expert} strategy{ladder.within_words}"
            )
        description = (
            f"Derived from the exact optimal decisions (studsim derive): "
            f"{ladder.rules_text(rung)}, {which}; RTP "
            f"{rtp:.6f}{ladder.rung_note(rung)}, {ladder.optimal_rtp - rtp:.6f} below optimal "
            f"play ({ladder.optimal_rtp:.6f})."
            + (ladder.check_note(checked[name]) if checked else "")
        )
        named[name] = ladder.strategy(rung, name, description)
    return named


def _aligned(table: pd.DataFrame) -> str:
    """The ladder as text: figures to six decimals, the rules' words left-aligned."""
    width = table["added"].str.len().max()
    return table.to_string(
        index=False,
        float_format=lambda x: f"{x:.6f}",
        formatters={"added": lambda words: f"{words:<{width}}"},
        justify="left",
    )


def save_derived(
    ladder, results: str | Path, strategies: str | Path, title: str
) -> tuple[dict, dict]:
    """Write the ladder (``derived.json``, ``derived.txt``) and each named strategy's
    chart where it folds or bets (``NAME-chart.pdf``, printable) to ``results``, the
    strategy files to ``strategies``; each named strategy checked again from its rules
    (``ladder.check``). Returns what ``derived.json`` holds, and the files written by
    name."""
    results, strategies = Path(results), Path(strategies)
    shipped = ladder.check(named_strategies(ladder))
    named = named_strategies(ladder, shipped)
    for name in named:
        shipped[name]["file"] = str(strategies / f"{name}.toml")
    data = {
        "software": software(),
        "variant": ladder.variant.record(),
        "method": ladder.method,
        "optimal_rtp": ladder.optimal_rtp,
        **ladder.record(),
        "ladder": ladder.table.to_dict(orient="records"),
        "shipped": shipped,
    }
    text = (
        f"{title}: rule strategies derived from the exact optimal decisions "
        f"(studsim {__version__})\n\n{_aligned(ladder.table)}\n\n{ladder.footer}\n"
        f"{ladder.method}\n"
    )
    written = {
        "derived.json": write_json(results / "derived.json", data),
        "derived.txt": write_atomic(results / "derived.txt", text),
    }
    for name, strategy in named.items():
        written[f"{name}.toml"] = write_atomic(
            strategies / f"{name}.toml", tomli_w.dumps(strategy.data)
        )
        if not ladder.variant.has_draws:
            written[f"{name}-chart.pdf"] = write_chart(
                strategy,
                results / f"{name}-chart.pdf",
                f"{title}: {name} ({shipped[name]['rules']} rules)",
            )
    return data, written
