"""Rule strategies derived from the optimal decisions of a game with draws.

The first decision (fold, bet, buy a sixth card, or an exchange named by the cards
kept) is fitted on situations dealt at random, every option of each weighed exactly (the
decisions after the draw exact), but exchanges of more than ``SHORT_DRAWS`` cards
(Russian, 6 Card Poker 1-2-5, oasis-classic), weighed by the control of the sampled
optimum. Where a sixth card is sold, the decision after the buy (fold, bet, or a
replacement named by the cards kept) is fitted too, on every card bought in the
situations where optimal play or a rung buys. The decision after an exchange is fitted
the same way on ``DRAWS_PER_EXCHANGE`` draws of each exchange optimal play makes (its
rules may ask whether the player threw a card of the upcard's rank), the fewest rules
within ``AFTER_DRAW_COST`` of exact play there, and a rung's costs count what they lose
after its own exchanges; after a replacement (no exchanges sold) it is the fold-or-bet
ladder's rung within ``AFTER_DRAW_COST`` of the best (``derive.derive_ladder`` on the
dealt game). A ladder grows as for fold-or-bet games, one
rule at a time, each the rule that gains most over the sampled situations (at whichever
decision gains more), the rung's rules at that decision then refitted one by one. A
rung's RTP is the optimal RTP less its mean cost (what it loses to the best option),
with its standard error, over situations dealt after those fitted (held out); the
shipped rungs are the fewest rules within their targets at 95% confidence, and are also
played against ``optimal`` on the same deals, or where optimal play is
sampled, against the best play without draws, whose RTP is exact.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from statistics import NormalDist
from typing import ClassVar

import numpy as np
import pandas as pd

from . import _after_draw as after_draw_kernels
from . import _derive as kernels
from . import _strategy as k
from .catalog import load_strategy
from .codes import Action, Fee, GameMode, Point
from .compare import compare, paired_difference
from .derive import HOLDS_ANY, Ladder, Rule, _simplest, fold_or_bet_ladder, shipped_rungs
from .derive_situations import Situations, sampled_situations, weighed_situations
from .evaluator import evaluate
from .exact import NO_DRAWS, exact_game, first_options, value_lists
from .optimal_game import situation_tables, supports_exact_draws
from .optimal_sampled import SHORT_DRAWS
from .optimum import optimal_rtp
from .strategy import DRAWS, KEEPS, Strategy, StrategyError, _always_applies, hands_by_value
from .strategy_text import rule_words
from .variant import Variant, load_variant

__all__ = [
    "DrawLadder",
    "Situations",
    "derive_draw_ladder",
    "rung_losses",
    "sampled_situations",
    "weighed_situations",
]

AFTER_DRAW_COST = 0.0002
DRAWS_PER_EXCHANGE = 16
"""The draws of each exchange the decision after it is fitted and measured on."""
FITTED, HELD_OUT = 0, 1
"""The streams of the draws after an exchange, on the situations fitted and held out."""
SIMPLE_COST, EXPERT_COST = 0.005, 0.001
"""The most a shipped simple or expert strategy may return less than optimal play (as
estimated on the held-out situations)."""
Z_95 = NormalDist().inv_cdf(0.95)
"""A one-sided 95% bound: the shipped rungs' estimated costs are within their targets
by this many standard errors."""
CHECK_ROUNDS = 1 << 24
"""Against optimal play a paired standard error of about 0.00013 in Oasis (a minute)."""
SAMPLED_CHECK_ROUNDS = 1 << 27
"""Against the best play without draws (where optimal play is sampled) the paired
difference varies more: about 2.4 antes a round in Russian, a standard error of 0.0002
on 2^27 rounds."""
METHOD = (
    "Each rung adds the rule (put before any of the rules, or last before the default) that "
    "gains the most over situations dealt at random, every option of each weighed "
    "exactly{long_exchanges} (decisions "
    "after the draw exact), on the dealt cards or, where a sixth card is sold, after the buy "
    "(on every card bought), then each of the rung's rules at that decision is replaced by "
    "the best rule found with the others in place wherever that loses less (two sweeps at "
    "most); a rung's RTP is the optimal RTP less its mean cost over the situations dealt "
    "next, held out of the fit, decided by its rules (fitted_cost: over those fitted), and "
    "the shipped strategies are the fewest rules within their targets there at 95% "
    "confidence (one-sided). {after_draw} The shipped strategies are played against "
    "{check} on the same deals."
)
AFTER_EXCHANGE_METHOD = (
    "After an exchange the strategies fold or bet by rules grown the same way on "
    f"{DRAWS_PER_EXCHANGE} draws of each exchange optimal play makes on the situations "
    "fitted (betting weighed exactly, every card seen dead, the discards too; a rule may ask "
    "whether the player threw a card of the upcard's rank), the fewest within 0.0002 of "
    "exact play there; a rung's costs count what those rules lose after its own exchanges, "
    f"on {DRAWS_PER_EXCHANGE} draws of each."
)
AFTER_REPLACEMENT_METHOD = (
    "After a replacement the strategies fold or bet by the fold-or-bet ladder's rung within "
    "0.0002 of the best such play."
)
SAMPLED_METHOD = {
    "long_exchanges": f" but exchanges of more than {SHORT_DRAWS} cards, weighed by the "
    "control of the sampled optimum (every final hand's value, the discards' removal to "
    "first order, ramped below the fold line)",
    "check": "the best play without draws (its RTP exact), their cost taken against "
    "optimal play (sampled)",
}
DEFAULT_SAMPLES = 10_000
_DRAW_KEEPS = ("four-flush", "four-straight", "open-straight", "four-straight-flush")
_MADE_KEEPS = ("pair", "two-pair", "trips", "ace-king")
_NOT_OFFERED = Action.DECLINE  # the fallback of a one-rule strategy: its rule did not apply


AFTER_DRAW_OPTIONS = np.array([(Action.FOLD, 31), (Action.PLAY, 31)], dtype=np.int64)
"""The choices after an exchange: fold, bet (rows of kind, positions kept)."""
AFTER_BUY_OPTIONS = np.array(
    [(Action.FOLD, 63), (Action.PLAY, 63)]
    + [(Action.REPLACE, 63 & ~(1 << position)) for position in range(6)],
    dtype=np.int64,
)
"""The choices after a buy, as ``_derive.after_buy_evs_jit`` weighs them: fold, bet, and
replace the card at position 0..5 (rows of kind, positions kept)."""


@dataclass(frozen=True)
class Choices:
    """The decisions of one decision point met on sampled situations: per row the cards,
    the upcard, every option's exact EV, the situation it belongs to (of ``situations``)
    and its weight there (the weights of a situation's rows add up to at most 1)."""

    point: Point
    options: np.ndarray
    """Rows of (kind, positions kept), in the order of ``evs``' columns."""
    hands: np.ndarray
    upcards: np.ndarray
    evs: np.ndarray
    groups: np.ndarray
    weights: np.ndarray
    situations: int
    discards: np.ndarray | None = None
    """After an exchange: per row the cards thrown, a 52-bit mask."""

    @cached_property
    def best(self) -> np.ndarray:
        """Per row, the best option's EV."""
        return self.evs.max(axis=1)

    def losses(self, current: np.ndarray) -> np.ndarray:
        """Per situation, what choosing ``current`` (the EV chosen per row) loses to the
        best option."""
        lost = self.weights * (self.best - current)
        return np.bincount(self.groups, lost, minlength=self.situations)


def first_choices(variant: Variant, situations: Situations) -> Choices:
    """The first decision on every sampled situation."""
    n = len(situations.evs)
    return Choices(
        Point.FIRST, first_options(variant)[0], situations.hands, situations.upcards,
        situations.evs, np.arange(n), np.ones(n), n,
    )  # fmt: skip


def after_buy_choices(
    variant: Variant, situations: Situations, buying: np.ndarray | None = None
) -> Choices:
    """The decision after a buy, with every card it may buy (each weighing 1/46 of the
    situation), on the situations where ``buying`` (default: where buying a sixth card
    is the best first option)."""
    if buying is None:
        buying = situations.evs.argmax(axis=1) == _buy_option(variant)
    bought = np.flatnonzero(buying)
    n, unseen = len(bought), 46
    sixes = np.empty((n, unseen, 6), dtype=np.int64)
    evs = np.empty((n, unseen, len(AFTER_BUY_OPTIONS)))
    lists = value_lists()
    kernels.after_buy_evs_jit(
        variant.arrays(), situation_tables(lists, variant.arrays()), lists,
        situations.hands[bought], situations.upcards[bought],
        variant.draw_arrays()[0][Fee.REPLACE], sixes, evs,
    )  # fmt: skip
    offered = 2 if variant.replace_fee is None else len(AFTER_BUY_OPTIONS)  # fold, bet
    return Choices(
        Point.AFTER_BUY, AFTER_BUY_OPTIONS[:offered], sixes.reshape(-1, 6),
        np.repeat(situations.upcards[bought], unseen),
        evs.reshape(-1, len(AFTER_BUY_OPTIONS))[:, :offered], np.repeat(bought, unseen),
        np.full(n * unseen, 1 / unseen), len(situations.evs),
    )  # fmt: skip


def after_draw_choices(
    variant: Variant, situations: Situations, rows: np.ndarray, kept: np.ndarray, stream: int
) -> Choices:
    """The decision after an exchange (fold or bet), on ``DRAWS_PER_EXCHANGE`` draws of
    each exchange (``kept[i]``: the positions kept of situation ``rows[i]``), each
    weighing 1/``DRAWS_PER_EXCHANGE`` of the situation; its bet weighed exactly with every
    card seen dead, the discards too. The draws are ``stream``'s of the situations' seed,
    the same unseen cards for every exchange of a situation (common random numbers)."""
    draws = DRAWS_PER_EXCHANGE
    order = _draw_orders(len(situations.evs), situations.seed, stream)[rows]
    finals = np.empty((len(rows), draws, 5), dtype=np.int64)
    discards = np.empty(len(rows), dtype=np.int64)
    gains = np.empty((len(rows), draws))
    after_draw_kernels.draw_gains_jit(
        variant.arrays(), value_lists(), situations.hands[rows], situations.upcards[rows],
        kept, order, finals, discards, gains,
    )  # fmt: skip
    gains = gains.reshape(-1)
    return Choices(
        Point.AFTER_DRAW, AFTER_DRAW_OPTIONS, finals.reshape(-1, 5),
        np.repeat(situations.upcards[rows], draws), np.column_stack([np.zeros_like(gains), gains]),
        np.repeat(rows, draws), np.full(len(gains), 1 / draws), len(situations.evs),
        np.repeat(discards, draws),
    )  # fmt: skip


def _draw_orders(count: int, seed: int, stream: int) -> np.ndarray:
    """Per situation, ``DRAWS_PER_EXCHANGE`` random orders of its 46 unseen cards (the
    indices of the first five), drawn by ``(seed, stream)``."""
    keys = np.random.default_rng([seed, stream]).random((count, DRAWS_PER_EXCHANGE, 46))
    first = np.argpartition(keys, 5, axis=2)[:, :, :5]
    return np.take_along_axis(
        first, np.argsort(np.take_along_axis(keys, first, axis=2), axis=2), axis=2
    )


def _exchanges(variant: Variant, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The situations whose chosen first option (index of ``first_options``) is an
    exchange, and the positions each keeps."""
    options = first_options(variant)[0]
    rows = np.flatnonzero(options[chosen, 0] == Action.EXCHANGE)
    return rows, options[chosen[rows], 1]


def _buy_option(variant: Variant) -> int:
    return first_options(variant)[0][:, 0].tolist().index(Action.BUY)


def _candidate_actions(variant: Variant, point: Point) -> list[dict]:
    """Every action a rule can name at ``point``: fold, play, and (first) buying a sixth
    card and each exchange the variant offers by the cards it keeps, (after a buy) each
    replacement by the cards it keeps (those a strategy file accepts)."""
    candidates = [{"action": "fold"}, {"action": "play"}]
    if point == Point.AFTER_DRAW:
        return candidates
    if point == Point.FIRST and variant.buy_fee is not None:
        candidates.append({"action": "buy"})
    keeps = [*KEEPS, "highest 3", "highest 4"]
    if point == Point.AFTER_BUY:  # a draw kept with a made hand, or two draws
        keeps += [[draw, made] for draw in _DRAW_KEEPS for made in _MADE_KEEPS]
        keeps += [list(pair) for pair in itertools.combinations(_DRAW_KEEPS, 2)]
    throws = sorted(variant.exchange_fees) if point == Point.FIRST else [None]
    for thrown in throws:
        for keep in keeps:
            if thrown is None:
                rule = {"action": "replace", "keep": keep}
            else:
                rule = {"action": "exchange", "keep": keep, "throw": thrown}
            try:
                _one_rule(variant, point, rule)
            except StrategyError:
                continue
            candidates.append(rule)
    return candidates


def _one_rule(variant: Variant, point: Point, rule: dict) -> np.ndarray:
    """The rule array of one rule (without conditions) at ``point``, then, unless it
    always applies, a fallback no rule names (where its cards to keep are not there)."""
    draws = rule["action"] in ("exchange", "replace")
    always = not draws or _always_applies(rule)
    rules = [rule] if always else [rule, {"action": "fold"}]
    data = {"name": "one", "variant": variant.name, "first": rules}
    if point == Point.AFTER_BUY:
        data |= {"first": [{"action": "buy"}], "after_buy": rules}
    elif point == Point.AFTER_DRAW:
        data |= _exchanging(variant, rules)
    elif rule["action"] == "buy":
        data["after_buy"] = [{"action": "fold"}]
    if draws:
        data["after_draw"] = [{"action": "fold"}]
    compiled = Strategy.from_dict(data, variant).rules.copy()
    if not always:
        compiled[np.flatnonzero(compiled[:, k.POINT] == point)[-1], k.ACTION] = _NOT_OFFERED
    return compiled


def _exchanging(variant: Variant, after_draw: list[dict]) -> dict:
    """The rules of a strategy exchanging on every hand, then deciding by ``after_draw``."""
    exchange = {"action": "exchange", "keep": "none", "throw": max(variant.exchange_fees)}
    return {"first": [exchange], "after_draw": after_draw}


def _chosen_options(variant: Variant, rule: dict, choices: Choices) -> np.ndarray:
    """Per row of ``choices``, the option the rule chooses, or -1 where its cards to keep
    are not there."""
    return kernels.chosen_options_jit(
        _one_rule(variant, choices.point, rule), choices.point, choices.hands,
        choices.upcards, choices.options, _NOT_OFFERED,
    )  # fmt: skip


@dataclass(frozen=True)
class Found:
    """A rule found at one decision point: its conditions, action and the condition it
    adds to those on the hand's value and the upcard (a draw held, the cards of the
    upcard's rank thrown; {} for none)."""

    rule: Rule
    action: dict
    condition: dict

    def data(self) -> dict:
        """The rule as a strategy file writes it."""
        data = self.rule.data()
        data.pop("action")
        return self.action | data | self.condition


def _splits(choices: Choices) -> list[tuple[dict, np.ndarray]]:
    """The conditions a rule may add to those on the hand's value and the upcard, each
    with the rows it holds on: the draws held (first, and after a buy), or (after an
    exchange) whether the player threw a card of the upcard's rank."""
    every = np.ones(len(choices.evs), dtype=bool)
    if choices.point == Point.AFTER_DRAW:
        thrown = (choices.discards >> (4 * (choices.upcards >> 2))) & 15 > 0
        none, some = {"seen_upcard_rank": 0}, {"seen_upcard_rank": [1, 2, 3]}
        return [({}, every), (none, ~thrown), (some, thrown)]
    draws = kernels.draw_bits_jit(choices.hands)
    return [({}, every)] + [({"draw": name}, draws & bit > 0) for name, bit in DRAWS.items()]


@dataclass(frozen=True)
class Grown:
    """The rules found at one decision point, rung by rung, each rung's cost against the
    best option."""

    default: str
    rungs: list[list[Found]]
    """Per rung, its rules in the order a strategy reads them (the default aside)."""
    added: list[tuple[Found, int, int]]
    """Per rung after the first: the rule it added, where it was put (its index among the
    rung's rules before the refit), and how many of its rules the refit then replaced."""
    losses: np.ndarray
    """Per rung and sampled situation, what the rung's choices lose to the best."""

    @cached_property
    def costs(self) -> list[tuple[float, float]]:
        """Each rung's mean cost over the situations and its standard error."""
        return [_cost(lost) for lost in self.losses]

    def rung_rules(self, rules: int) -> list[dict]:
        """The rung with ``rules`` rules (the default included), in the order read."""
        return [*(found.data() for found in self.rungs[rules - 1]), {"action": self.default}]


class _RuleSearch:
    """The candidate rules of one decision point over ``choices``, and what a list of
    them chooses. On six cards (after a buy) rules read the hand's value, the upcard's
    rank and the draws, not the player's ranks (the groups by value would not tell
    them)."""

    def __init__(self, variant: Variant, choices: Choices):
        self.choices, self.evs, self.weights = choices, choices.evs, choices.weights
        self.values = evaluate(choices.hands)
        self.up_ranks = choices.upcards >> 2
        self.splits = _splits(choices)
        self.actions = _candidate_actions(variant, choices.point)
        self.chosen = [_chosen_options(variant, action, choices) for action in self.actions]
        _, masks, nth_ranks = hands_by_value()
        self.every_value = len(masks)
        self.present, self.rows_of = np.unique(self.values, return_inverse=True)
        self.masks = masks[self.present]
        self.nth_ranks = np.ascontiguousarray(nth_ranks[self.present])
        self.ranks_read = choices.hands.shape[1] == 5
        evs, weights = self.evs, self.weights
        self.default = 0 if weights @ evs[:, 0] >= weights @ evs[:, 1] else 1  # fold, play
        self.rows = np.arange(len(evs))

    def applies(self, found: Found, action: int) -> np.ndarray:
        covered = found.rule.covers()[self.values, self.up_ranks]
        conditions = [condition for condition, _ in self.splits]
        covered &= self.splits[conditions.index(found.condition)][1]
        return covered & (self.chosen[action] >= 0)

    def state(self, reading: list[tuple[Found, int]]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Per row, the EV the rules (read in order, the default last) choose, and for each
        place a rule can be put (before rule 1, .., last) whether the rules before it apply."""
        current = self.evs[:, self.default].copy()
        claimed = [np.zeros(len(current), dtype=bool)]
        for found, action in reading:
            applies = self.applies(found, action)
            new = applies & ~claimed[-1]
            current[new] = self.evs[self.rows[new], self.chosen[action][new]]
            claimed.append(claimed[-1] | applies)
        return current, claimed

    def lost(self, reading: list[tuple[Found, int]]) -> float:
        return float(self.weights @ (self.choices.best - self.state(reading)[0]))

    def best(
        self, current: np.ndarray, claimed: list[np.ndarray]
    ) -> tuple[Found, int, int] | None:
        """The rule that gains most put at one of the places of ``claimed`` (those the
        rules before each place apply to; the last: before the default), with its
        action's index and its place; None where none gains. A candidate whose gains
        summed over every row it could change cannot beat the best found is skipped."""
        evs, weights, rows = self.evs, self.weights, self.rows
        found, no_holds = None, np.zeros(1, dtype=np.int64)
        for a in range(len(self.actions)):
            applies = self.chosen[a] >= 0
            ev = np.where(applies, evs[rows, np.maximum(self.chosen[a], 0)], 0.0)
            for place, before in enumerate(claimed):
                if place == len(claimed) - 1 and a == self.default:
                    continue
                change = np.where(applies & ~before, weights * (ev - current), 0.0)
                gains = np.maximum(change, 0.0)
                for d, (_, held) in enumerate(self.splits):
                    if found is not None and gains[held].sum() <= found[0]:
                        continue
                    grid = np.zeros((len(self.present), 13))
                    np.add.at(grid, (self.rows_of[held], self.up_ranks[held]), change[held])
                    changed = np.flatnonzero(grid.any(axis=1))  # the others add nothing
                    if not len(changed):
                        continue
                    gain, *where = kernels.best_rule_jit(
                        grid[changed], self.masks[changed], self.nth_ranks[changed], no_holds,
                        self.ranks_read,
                    )  # fmt: skip
                    where[:2] = changed[where[:2]]
                    if found is None or gain > found[0]:
                        found = (gain, a, place, d, where, np.where(held, change, 0.0))
        gain, a, place, d, where, counted = found
        if gain <= 1e-12:
            return None
        first, last, low, high, match, nth, _ = where
        grid = np.zeros((self.every_value, 13))  # by value, as rules read them
        np.add.at(grid, (self.values, self.up_ranks), counted)
        rule = Rule(
            "", self.present[first], self.present[last], low, high, match, nth, HOLDS_ANY[0]
        )
        return Found(_simplest(rule, grid, gain), self.actions[a], self.splits[d][0]), a, place


def _placed(reading: list, item, place: int) -> list:
    return [*reading[:place], item, *reading[place:]]


def _place_name(place: int, before: int) -> str:
    """Where a rule was put among the ``before`` rules there: first, last (before the
    default) or its number."""
    return "first" if place == 0 else "last" if place == before else str(place + 1)


def grow_rules(
    variant: Variant, choices: Choices, max_rules: int, refits: int = 2, enough: float = 0.0
) -> Grown:
    """Grow rules at one decision point, one at a time, each the rule that gains most
    over ``choices`` (put before any of the rules, or last before the default); after each, up to
    ``refits`` sweeps over the rung's rules replace a rule by the best one found with the
    others in place, wherever that loses less. Stops at ``max_rules``, or at the first
    rung losing at most ``enough`` a situation."""
    search = _RuleSearch(variant, choices)
    reading: list[tuple[Found, int]] = []
    rungs, added = [[]], []
    state = search.state(reading)
    losses = [choices.losses(state[0])]
    while len(reading) < max_rules - 1 and losses[-1].mean() > enough:
        best = search.best(*state)
        if best is None:
            break
        found, action, place = best
        reading = _placed(reading, (found, action), place)
        lost, replaced = search.lost(reading), 0
        for _ in range(refits):
            swept = replaced
            for rule in list(reading):
                others = [item for item in reading if item is not rule]
                better = search.best(*search.state(others))
                if better is None:
                    continue
                candidate = _placed(others, better[:2], better[2])
                if (candidate_lost := search.lost(candidate)) < lost - 1e-12:
                    reading, lost, replaced = candidate, candidate_lost, replaced + 1
            if replaced == swept:
                break
        rungs.append([found for found, _ in reading])
        added.append((found, place, replaced))
        state = search.state(reading)
        losses.append(choices.losses(state[0]))
    return Grown(["fold", "play"][search.default], rungs, added, np.array(losses))


@dataclass
class DrawLadder:
    """Rule strategies of increasing size, each rung adding the rule that gains the most,
    on the dealt cards or (where the game sells a sixth card) after a buy, each rung's
    RTP from the sampled situations; the decision after an exchange or a replacement."""

    variant: Variant
    first: Grown
    after_buy: Grown | None
    """The rules after a buy, grown on the situations where optimal play or a rung of
    ``first`` buys."""
    buying: np.ndarray | None
    """Per rung of ``first`` and sampled situation, whether its rules buy."""
    rungs: list[tuple[int, int]]
    """Per rung, how many rules of ``first`` and of ``after_buy`` it reads (the defaults
    included; 0 after a buy where the game sells none)."""
    after_draw_losses: np.ndarray | None
    """Per rung of ``first`` and sampled situation, what deciding after its exchanges by
    ``after_draw`` loses to exact play (where the game exchanges; ``after_draw_loss``)."""
    optimal: dict
    """Optimal play's RTP and how it is known (``optimum.optimal_rtp``)."""
    after_draw: list[dict]
    samples: int
    seed: int
    held_out: np.ndarray | None = None
    """Per rung and situation held out of the fit (dealt after those fitted), what the
    rung's rules lose to the best play there (``rung_losses``)."""

    @property
    def optimal_rtp(self) -> float:
        return self.optimal["rtp"]

    def _buys(self, first: int) -> bool:
        return any(rule["action"] == "buy" for rule in self.first.rung_rules(first))

    def _rule_count(self, rung: int) -> int:
        """The rules the rung's strategy reads, at every decision it reaches."""
        first, after_buy = self.rungs[rung - 1]
        return first + after_buy * self._buys(first)

    def _fitted_losses(self, first: int, after_buy: int) -> np.ndarray:
        """Per situation fitted, what the rung of these rules loses."""
        lost = self.first.losses[first - 1]
        if self.after_draw_losses is not None:
            lost = lost + self.after_draw_losses[first - 1]
        if self.after_buy is not None:
            lost = lost + self.buying[first - 1] * self.after_buy.losses[after_buy - 1]
        return lost

    @cached_property
    def fitted_costs(self) -> list[tuple[float, float]]:
        """Each rung's cost and its standard error on the situations fitted: what its
        first decisions lose (the choices after them exact), plus, on the situations where
        they buy, what its rules after the buy lose."""
        return [_cost(self._fitted_losses(*rung)) for rung in self.rungs]

    @cached_property
    def costs(self) -> list[tuple[float, float]]:
        """Each rung's estimated cost and its standard error: on the situations held out
        of the fit where there are any, else on those fitted."""
        return [_cost(self._losses(rung)) for rung in range(1, len(self.rungs) + 1)]

    def _losses(self, rung: int) -> np.ndarray:
        """Per situation held out (else fitted), what the rung's rules lose."""
        if self.held_out is not None:
            return self.held_out[rung - 1]
        return self._fitted_losses(*self.rungs[rung - 1])

    @property
    def table(self) -> pd.DataFrame:
        """One row per rung: its rules in all, RTP, cost and its SE, the decision the
        added rule is for, where it was put, how many of that decision's rules the refit
        then replaced, and the rule."""
        rows = []
        for n, ((first, after_buy), (cost, se), (fitted, _)) in enumerate(
            zip(self.rungs, self.costs, self.fitted_costs, strict=True)
        ):
            grown, added = self.first, first
            if n and first == self.rungs[n - 1][0]:
                grown, added = self.after_buy, after_buy
            rule, put, replaced = {"action": grown.default}, "", 0
            if added > 1:
                found, place, replaced = grown.added[added - 2]
                rule, put = found.data(), _place_name(place, added - 2)
            rows.append(
                {
                    "rules": self._rule_count(n + 1),
                    "rtp": self.optimal_rtp - cost,
                    "cost": cost,
                    "cost_se": se,
                    "fitted_cost": fitted,
                    "decision": "first" if grown is self.first else "after a buy",
                    "put": put,
                    "replaced": replaced,
                    "added": rule_words(rule),
                }
            )
        table = pd.DataFrame(rows)
        unread = ([] if self.after_buy is not None else ["decision"]) + (
            [] if self.held_out is not None else ["fitted_cost"]
        )
        return table.drop(columns=unread)

    def within(self, rung: int, cost: float) -> bool:
        """Whether the rung's estimated cost is at most ``cost`` at 95% confidence (its
        one-sided upper bound)."""
        mean, se = self.costs[rung - 1]
        return mean + Z_95 * se <= cost

    def behind(self, rung: int, other: int, cost: float) -> bool:
        """Whether the rung loses at most ``cost`` more than rung ``other`` at 95%
        confidence (the paired difference's one-sided upper bound)."""
        mean, se = _cost(self._losses(rung) - self._losses(other))
        return mean + Z_95 * se <= cost

    within_words = " at 95% confidence"
    rung = Ladder.rung  # the fewest rules ``within`` a cost (or ``behind`` another rung)

    @property
    def held_out_samples(self) -> int:
        return 0 if self.held_out is None else self.held_out.shape[1]

    def strategy_data(self, rung: int, name: str = "derived", description: str = "") -> dict:
        first, after_buy = self.rungs[rung - 1]
        data = {"name": name, "variant": self.variant.name, "description": description}
        if self.variant.buy_game:
            data["buy_game_decision"] = "exact"
        data["first"] = self.first.rung_rules(first)
        draws = any(rule["action"] == "exchange" for rule in data["first"])
        if self._buys(first):
            data["after_buy"] = self.after_buy.rung_rules(after_buy)
            draws |= any(rule["action"] == "replace" for rule in data["after_buy"])
        if draws:
            data["after_draw"] = self.after_draw
        return data

    def strategy(self, rung: int, name: str = "derived", description: str = "") -> Strategy:
        return Strategy.from_dict(self.strategy_data(rung, name, description), self.variant)

    @property
    def method(self) -> str:
        after = AFTER_EXCHANGE_METHOD if self.variant.exchange_fees else AFTER_REPLACEMENT_METHOD
        if self.exact_draws:
            return METHOD.format(long_exchanges="", check="optimal", after_draw=after)
        return METHOD.format(**SAMPLED_METHOD, after_draw=after)

    named_costs: ClassVar[dict[str, float]] = {"simple": SIMPLE_COST, "expert": EXPERT_COST}

    @property
    def rtps(self) -> list[float]:
        return [self.optimal_rtp - cost for cost, _ in self.costs]

    def rules_text(self, rung: int) -> str:
        first, after_buy = self.rungs[rung - 1]
        if not self._buys(first):
            return f"{first} rules on the dealt cards"
        return (
            f"{self._rule_count(rung)} rules ({first} on the dealt cards, {after_buy} after a buy)"
        )

    def rung_note(self, rung: int) -> str:
        if self.held_out is None:
            return f" (SE {self.costs[rung - 1][1]:.6f}, {self.samples:,} sampled situations)"
        return (
            f" (SE {self.costs[rung - 1][1]:.6f}, on {self.held_out_samples:,} sampled "
            f"situations held out of the fit on {self.samples:,})"
        )

    @property
    def exact_draws(self) -> bool:
        """Whether every option is weighed exactly (else the long exchanges by the control,
        and optimal play is sampled)."""
        return supports_exact_draws(self.variant)

    def _check_by_no_draws(self, named: dict[str, Strategy], rounds: int) -> dict[str, dict]:
        """Each strategy played against the best play without draws (the dealer's game
        never bought) on the same ``rounds`` deals: its RTP, that play's exact RTP plus the
        paired difference (with the game bought exactly, and never), and what it returns
        less than optimal play (sampled; its own interval aside)."""
        base = _never_buying(load_strategy(NO_DRAWS, self.variant))
        base_rtp = exact_game(self.variant, NO_DRAWS).summary["rtp"]
        players = [base, *named.values()]
        if self.variant.buy_game:
            players += [_never_buying(strategy) for strategy in named.values()]
        played = compare(self.variant, players, rounds, seed=self.seed).results
        results = {result.strategy.name: result for result in played}
        with_game = self.optimal.get("with_game", {}).get("rtp")
        checked, rungs = {}, shipped_rungs(self)
        for name in named:
            rung = rungs[name]
            never = f"{name}-never" if self.variant.buy_game else name
            paired = {
                played: paired_difference(results[played], results[base.name])
                for played in {name, never}
            }
            rtp = {played: base_rtp + difference for played, (difference, _) in paired.items()}
            checked[name] = {
                "rules": self._rule_count(rung),
                "rtp": rtp[name],
                "rtp_se": paired[name][1],
                "cost": self.optimal_rtp - rtp[never],
                "cost_se": paired[never][1],
                "optimal_interval": self.optimal["interval"],
                "estimated_cost": self.costs[rung - 1][0],
                "method": (
                    f"played against the best play without draws on the same {rounds:,} deals "
                    "(its RTP exact), the game never bought; the cost against optimal play "
                    "(sampled), its error aside"
                ),
                "rounds": rounds,
            }
            if self.variant.buy_game and with_game is not None:
                checked[name] |= {
                    "rtp_game_never_bought": rtp[never],
                    "cost_with_game": with_game - rtp[name],
                }
        return checked

    def check_note(self, checked: dict) -> str:
        if not self.exact_draws:
            game = ""
            if "rtp_game_never_bought" in checked:
                game = (
                    f"; buying the dealer's game exactly it returns {checked['rtp']:.6f}, "
                    f"{checked['cost_with_game']:.6f} less than optimal play with the game "
                    "(sampled, a lower bound)"
                )
            low, high = checked["optimal_interval"]
            return (
                f" Exchanges of more than {SHORT_DRAWS} cards are weighed there by a control; "
                f"played against the best play without draws (its RTP exact) on the same "
                f"{checked['rounds']:,} deals it returns {checked['cost']:.6f} less than "
                f"optimal play (SE {checked['cost_se']:.6f}; optimal play's 99.9% interval "
                f"{low:.6f} to {high:.6f}){game}."
            )
        game = " (both buying the dealer's game exactly)" if self.variant.buy_game else ""
        never = ""
        if "cost_game_never_bought" in checked:
            never = (
                f"; with the game never bought, as the estimate weighs it, "
                f"{checked['cost_game_never_bought']:.6f} less "
                f"(SE {checked['cost_se_game_never_bought']:.6f})"
            )
        return (
            f" Its decisions are weighed there with exact play after the draw; played "
            f"against optimal on the same {checked['rounds']:,} deals{game} it returns "
            f"{checked['cost']:.6f} less (SE {checked['cost_se']:.6f}){never}."
        )

    def record(self) -> dict:
        return {
            "samples": self.samples,
            "held_out": self.held_out_samples,
            "seed": self.seed,
            "after_draw": self.after_draw,
        }

    @property
    def footer(self) -> str:
        never_bought = ", the dealer's game never bought" if self.variant.buy_game else ""
        bought = "; after a buy, on those where optimal play or a rung buys (every card bought)"
        how = "exact"
        if not self.exact_draws:
            low, high = self.optimal["interval"]
            how = (
                f"sampled, 99.9% interval {low:.6f} to {high:.6f}; exchanges of more than "
                f"{SHORT_DRAWS} cards weighed by the control"
            )
        held_out = ""
        if self.held_out is not None:
            held_out = (
                f"; cost: on the next {self.held_out_samples:,} situations dealt (held out), "
                "fitted_cost: on those fitted"
            )
        return (
            f"optimal play: {self.optimal_rtp:.6f} ({how}{never_bought}); rungs fitted on "
            f"{self.samples:,} situations (seed {self.seed}){bought if self.after_buy else ''}"
            f"{held_out}"
            "\nafter an exchange: " + "; ".join(rule_words(rule) for rule in self.after_draw)
        )

    def check(self, named: dict[str, Strategy], rounds: int | None = None) -> dict[str, dict]:
        """Each strategy (a rung named in ``named_costs``) played against ``optimal`` on
        the same ``rounds`` deals (default ``CHECK_ROUNDS``): its RTP and what it returns
        less, with the paired standard error; where the dealer's game is sold (both then
        buy it exactly), also what it returns less with the game never bought, as the
        estimate weighs it. Where optimal play is sampled (long exchanges), against the
        best play without draws instead, whose RTP is exact (``_check_by_no_draws``)."""
        if not self.exact_draws:
            return self._check_by_no_draws(named, rounds or SAMPLED_CHECK_ROUNDS)
        rounds = rounds or CHECK_ROUNDS
        players = [load_strategy("optimal", self.variant), *named.values()]
        if self.variant.buy_game:
            players += [_never_buying(strategy) for strategy in players]
        played = compare(self.variant, players, rounds, seed=self.seed).results
        results = {result.strategy.name: result for result in played}
        checked, rungs = {}, shipped_rungs(self)
        for name in named:
            rung = rungs[name]
            checked[name] = {
                "rules": self._rule_count(rung),
                "rtp": float(results[name].summary["rtp"]),
                **_paired(results, "optimal", name),
                "estimated_cost": self.costs[rung - 1][0],
                "method": f"simulated against optimal on the same {rounds:,} deals",
                "rounds": rounds,
            }
            if self.variant.buy_game:
                never = _paired(results, "optimal-never", f"{name}-never")
                checked[name] |= {
                    f"{key}_game_never_bought": value for key, value in never.items()
                } | {"rtp_game_never_bought": float(results[f"{name}-never"].summary["rtp"])}
        return checked


def derive_draw_ladder(
    variant: Variant | str,
    max_rules: int = 16,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 1,
    situations: Situations | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    held_out: int | None = None,
    checkpoint: Path | None = None,
) -> DrawLadder:
    """Grow rules over sampled situations, as ``derive_ladder`` does over every deal of
    a fold-or-bet game: where a sixth card is sold, rules on the dealt cards and after a
    buy, each rung taking the next rule of the two that gains more (at most
    ``max_rules`` at each). Each rung's cost is then measured on ``held_out`` more
    situations, dealt after the ``samples`` fitted (default: as many; given
    ``situations``, its last ``held_out`` rows, default none)."""
    variant = load_variant(variant)
    optimal = optimal_rtp(variant)
    if optimal["rtp"] is None:
        raise ValueError(
            f"{variant.name}: strategies are derived against optimal play, {optimal['method']}"
        )
    if situations is None:
        held_out = samples if held_out is None else held_out
        situations = sampled_situations(variant, samples + held_out, seed, progress, checkpoint)
    situations, fresh = situations.split(len(situations.evs) - (held_out or 0))
    first = grow_rules(variant, first_choices(variant, situations), max_rules)
    chosen = _first_chosen(variant, first, situations)
    after_buy = buying = None
    if variant.buy_fee is not None:
        buying = chosen == _buy_option(variant)
        optimal_buys = situations.evs.argmax(axis=1) == _buy_option(variant)
        choices = after_buy_choices(variant, situations, buying.any(axis=0) | optimal_buys)
        after_buy = grow_rules(variant, choices, max_rules)
    after_losses = None
    if variant.exchange_fees:
        rows, kept = _exchanges(variant, situations.evs.argmax(axis=1))
        choices = after_draw_choices(variant, situations, rows, kept, FITTED)
        grown = grow_rules(variant, choices, max_rules, enough=AFTER_DRAW_COST)
        after = grown.rung_rules(len(grown.rungs))
        after_losses = after_draw_loss(variant, after, situations, chosen, FITTED)
    else:  # replacements only: the dealt game's chart
        fold_or_bet = fold_or_bet_ladder(variant, cost=AFTER_DRAW_COST)
        after = fold_or_bet.strategy_data(fold_or_bet.rung(AFTER_DRAW_COST))["first"]
    ladder = DrawLadder(
        variant,
        first,
        after_buy,
        buying,
        _merged(first, after_buy),
        after_losses,
        optimal,
        after,
        len(situations.evs),
        situations.seed,
    )
    return ladder if not held_out else replace(ladder, held_out=rung_losses(ladder, fresh))


def rung_losses(ladder: DrawLadder, situations: Situations) -> np.ndarray:
    """Per rung of ``ladder`` and situation, what the rung's rules lose to the best play,
    decided as the engine decides them: the first decision, and where it buys a sixth
    card, the decision after the buy on every card bought (the choices after those
    exact)."""
    variant, rows = ladder.variant, np.arange(len(situations.evs))
    options, best = first_options(variant)[0], situations.evs.max(axis=1)
    rules = [ladder.strategy(rung).rules for rung in range(1, len(ladder.rungs) + 1)]
    chosen = np.array([
        kernels.chosen_options_jit(
            compiled, Point.FIRST, situations.hands, situations.upcards, options, _NOT_OFFERED
        ) for compiled in rules
    ])  # fmt: skip
    losses = best - situations.evs[rows, chosen]
    if variant.exchange_fees:
        losses += after_draw_loss(variant, ladder.after_draw, situations, chosen, HELD_OUT)
    buying = chosen == _buy_option(variant) if ladder.after_buy is not None else None
    if buying is not None and buying.any():
        after = after_buy_choices(variant, situations, buying.any(axis=0))
        for rung, compiled in enumerate(rules):
            if buying[rung].any():
                decided = kernels.chosen_options_jit(
                    compiled, Point.AFTER_BUY, after.hands, after.upcards, after.options,
                    _NOT_OFFERED,
                )  # fmt: skip
                lost = after.losses(after.evs[np.arange(len(decided)), decided])
                losses[rung] += buying[rung] * lost
    return losses


def _never_buying(strategy: Strategy) -> Strategy:
    """The strategy with the dealer's game never bought."""
    return replace(strategy, name=f"{strategy.name}-never", game_mode=GameMode.NEVER)


def _paired(results: dict, base: str, name: str) -> dict[str, float]:
    """What ``name`` returned less than ``base`` on the same deals, and the paired SE."""
    difference, se = paired_difference(results[name], results[base])
    return {"cost": -difference, "cost_se": se}


def _first_chosen(variant: Variant, first: Grown, situations: Situations) -> np.ndarray:
    """Per rung of ``first`` and situation, the first option its rules choose (index of
    ``first_options``)."""
    options = first_options(variant)[0]
    rows = []
    for rules in range(1, len(first.losses) + 1):
        data = {"name": "rung", "variant": variant.name, "first": first.rung_rules(rules)}
        if any(rule["action"] == "buy" for rule in data["first"]):
            data["after_buy"] = [{"action": "play"}]
        if any(rule["action"] == "exchange" for rule in data["first"]):
            data["after_draw"] = [{"action": "play"}]  # the first decision alone is read
        compiled = Strategy.from_dict(data, variant).rules
        chosen = kernels.chosen_options_jit(
            compiled, Point.FIRST, situations.hands, situations.upcards, options, _NOT_OFFERED
        )
        rows.append(chosen)
    return np.array(rows)


def after_draw_loss(
    variant: Variant,
    after_draw: list[dict],
    situations: Situations,
    chosen: np.ndarray,
    stream: int,
) -> np.ndarray:
    """Per row of ``chosen`` (first options chosen per situation) and situation, what the
    rules ``after_draw`` lose to exact play after the exchanges chosen, on the draws of
    ``after_draw_choices`` (each exchange weighed once for every row choosing it)."""
    exchanges = [_exchanges(variant, row) for row in chosen]
    keys = np.concatenate([rows * 32 + kept for rows, kept in exchanges])
    unique = np.unique(keys)
    choices = after_draw_choices(variant, situations, unique // 32, unique % 32, stream)
    data = {"name": "after", "variant": variant.name} | _exchanging(variant, after_draw)
    compiled = Strategy.from_dict(data, variant).rules
    bets = after_draw_kernels.bets_jit(compiled, choices.hands, choices.upcards, choices.discards)
    lost = choices.weights * (choices.best - choices.evs[np.arange(len(bets)), bets.astype(int)])
    per_exchange = lost.reshape(len(unique), DRAWS_PER_EXCHANGE).sum(axis=1)
    losses = np.zeros(chosen.shape)
    for row, (rows, kept) in enumerate(exchanges):
        losses[row, rows] = per_exchange[np.searchsorted(unique, rows * 32 + kept)]
    return losses


def _merged(first: Grown, after_buy: Grown | None) -> list[tuple[int, int]]:
    """The rungs: one more rule of whichever ladder's next rule gains more."""
    if after_buy is None:
        return [(n, 0) for n in range(1, len(first.costs) + 1)]
    firsts, afters = [cost for cost, _ in first.costs], [cost for cost, _ in after_buy.costs]
    rungs, i, j = [(1, 1)], 1, 1
    while i < len(firsts) or j < len(afters):
        gain_first = firsts[i - 1] - firsts[i] if i < len(firsts) else -1
        gain_after = afters[j - 1] - afters[j] if j < len(afters) else -1
        if gain_first >= gain_after:
            i += 1
        else:
            j += 1
        rungs.append((i, j))
    return rungs


def _cost(losses: np.ndarray) -> tuple[float, float]:
    return float(losses.mean()), float(losses.std(ddof=1) / math.sqrt(len(losses)))
