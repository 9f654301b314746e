"""Rule strategies refined by play: a coordinate search around a rule strategy (a
derived one, say) over the whole strategy language. Each candidate is one move from the
best so far (a rule dropped, a hand threshold moved, the upcard ranks widened or
narrowed by one, a condition dropped), played on the same deals; a move is kept where it
gains more than ``z`` paired standard errors there. The search plays the strategies as
the engine does, so it also mends what the situations a strategy was derived on
misjudged (the proxy's error on long exchanges)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ._engine import BLOCK
from .cards import RANKS
from .catalog import load_strategy
from .cluster import takes_client
from .compare import Comparison, compare, paired_difference
from .derive import value_text
from .evaluator import threshold_value
from .simulation import DEFAULT_SEED, SimulationResult, run
from .strategy import (
    POINTS,
    Strategy,
    StrategyError,
    hands_by_value,
    points_reached,
    rule_strategy_names,
)
from .variant import Variant, load_variant

__all__ = ["Refined", "check_refined", "neighbours", "refine"]

THRESHOLD_STEPS = (1, 8, 64, 512)
"""How many hand values a threshold moves by, either way."""
DROPPABLE = ("upcard_matches", "upcard_below", "draw", "holds", "holds_any", "category")


@dataclass(frozen=True)
class Step:
    """A move kept: its words, what it gained on the search's deals and the paired
    standard error of that gain."""

    move: str
    gain: float
    se: float


@dataclass(frozen=True)
class Refined:
    """The result of a search: the strategy found, where it started, the moves kept."""

    strategy: Strategy
    start: Strategy
    steps: list[Step]
    rtp: float
    """The found strategy's RTP on the search's deals."""
    start_rtp: float
    tried: int
    rounds: int
    seed: int
    z: float
    interrupted: bool = False
    """Stopped by Ctrl-C: the best found before it."""

    def checked_data(self, check: Comparison) -> dict:
        """The refined strategy's data, its description saying what ``check``
        (``check_refined``) found against its start."""
        row = check.table.iloc[1]
        played = check.results[0]
        words = (
            f" On {played.rounds:,} other deals (seed {played.seed}) it returns "
            f"{-row['difference']:+.6f} against {self.start.name} (paired SE "
            f"{row['difference_se']:.6f})."
        )
        return self.strategy.data | {"description": self.strategy.description + words}

    def record(self) -> dict:
        return {
            "start": self.start.name,
            "rounds": self.rounds,
            "seed": self.seed,
            "z": self.z,
            "candidates_played": self.tried,
            "start_rtp": self.start_rtp,
            "rtp": self.rtp,
            "steps": [vars(step) for step in self.steps],
            "interrupted": self.interrupted,
        }


def neighbours(data: dict) -> Iterator[tuple[str, dict]]:
    """Every strategy (as data) one move from ``data``, with the move in words: at each
    decision point, each rule dropped (not the only one), its ``at_least`` and ``below``
    moved up or down by ``THRESHOLD_STEPS`` hand values, its upcard ranks (one run of
    ranks) widened or narrowed by one at either end, each condition of
    ``DROPPABLE`` dropped."""
    last_value = len(hands_by_value()[0]) - 1
    for point in POINTS:
        rules = data.get(point, [])
        for index, rule in enumerate(rules):
            where = f"{point} rule {index + 1}"

            def changed(new_rule: dict | None, point=point, index=index) -> dict:
                new = json.loads(json.dumps(data))
                if new_rule is None:  # dropped, and the decisions it alone led to
                    del new[point][index]
                    left = {key: new[key] for key in POINTS if key in new}
                    reached = points_reached(left, new.get("buy_game_decision", "never"))
                    new = {key: value for key, value in new.items() if reached.get(key, True)}
                else:
                    new[point][index] = new_rule
                return new

            if len(rules) > 1:
                yield f"{where} dropped", changed(None)
            for key in ("at_least", "below"):
                if key not in rule:
                    continue
                value = threshold_value(rule[key])
                for step in THRESHOLD_STEPS:
                    for moved in (value - step, value + step):
                        if 1 <= moved <= last_value:
                            text = value_text(moved)
                            yield (
                                f"{where}: {key} {rule[key]} to {text}",
                                changed(rule | {key: text}),
                            )
            for ranks in _upcard_moves(rule.get("upcard", RANKS)):
                yield (
                    f"{where}: upcard {rule.get('upcard', RANKS)} to {ranks}",
                    changed(rule | {"upcard": ranks}),
                )
            for key in DROPPABLE:
                if key in rule:
                    shorter = {k: v for k, v in rule.items() if k != key}
                    yield f"{where}: {key} dropped", changed(shorter)


def _upcard_moves(ranks: str) -> list[str]:
    """The runs of ranks one rank wider or narrower at either end (none unless ``ranks``
    is one run)."""
    if not isinstance(ranks, str) or ranks not in RANKS:
        return []
    low, high = RANKS.index(ranks[0]), RANKS.index(ranks[-1])
    runs = [(low - 1, high), (low, high + 1), (low + 1, high), (low, high - 1)]
    return [RANKS[a : b + 1] for a, b in runs if 0 <= a <= b <= 12 and (a, b) != (0, 12)]


@takes_client
def refine(
    variant: Variant | str,
    start: Strategy | str,
    rounds: int = 1_000_000,
    seed: int = DEFAULT_SEED,
    z: float = 3.0,
    sweeps: int = 3,
    progress: Callable[[int, int, str], None] | None = None,
) -> Refined:
    """Search the rule strategies around ``start``: every neighbour of the best so far
    (``neighbours``) played on the same ``rounds`` deals of ``seed``; one whose RTP
    there exceeds the best's by more than ``z`` paired standard errors becomes the best,
    and the search goes on from the next move; at most ``sweeps`` passes over the moves,
    fewer where a pass keeps none. ``progress(done, total, move)`` after each candidate
    of a pass. Ctrl-C stops the search with the best found so far (``interrupted``)."""
    if rounds < 2 * BLOCK:
        raise ValueError(
            f"refining needs at least {2 * BLOCK:,} rounds a candidate (paired standard "
            f"errors from blocks of {BLOCK:,}), got {rounds:,}"
        )
    variant = load_variant(variant)
    start = load_strategy(start, variant)
    if not start.rules.size:
        raise ValueError(f"{start.name} is not a list of rules: nothing to refine")
    played: dict[str, SimulationResult] = {}

    def result(data: dict) -> SimulationResult | None:
        key = json.dumps(data, sort_keys=True)
        if key not in played:
            try:
                strategy = Strategy.from_dict(data, variant)
            except StrategyError:
                return None
            outcome = run(variant, strategy, rounds, seed=seed)
            if outcome.interrupted:
                raise KeyboardInterrupt
            played[key] = outcome
        return played[key]

    best = {k: v for k, v in start.data.items() if k != "description"}
    best_result = start_result = result(best)
    steps: list[Step] = []
    interrupted = False
    try:
        for _ in range(sweeps):
            kept, position, moves = len(steps), 0, list(neighbours(best))
            while position < len(moves):
                move, data = moves[position]
                position += 1
                if progress:
                    progress(position, len(moves), move)
                candidate = result(data)
                if candidate is None:
                    continue
                gain, se = paired_difference(candidate, best_result)
                if gain > z * se:
                    best, best_result = data, candidate
                    steps.append(Step(move, gain, se))
                    moves = list(neighbours(best))
            if len(steps) == kept:
                break
    except KeyboardInterrupt:
        interrupted = True
    rtp, start_rtp = best_result.summary["rtp"], start_result.summary["rtp"]
    words = (
        f"Refined by play from {start.name} (studsim optimize --from): {len(steps)} moves "
        f"kept, each gaining more than {z:g} paired standard errors on the same {rounds:,} "
        f"deals (seed {seed}), {rtp - start_rtp:+.6f} RTP in all there."
    )
    found = Strategy.from_dict(best | {"name": "refined", "description": words}, variant)
    return Refined(found, start, steps, rtp, start_rtp, len(played), rounds, seed, z, interrupted)


@takes_client
def check_refined(
    variant: Variant | str,
    refined: Refined,
    rounds: int,
    seed: int,
    against: tuple[str, ...] = ("expert", "simple", "basic"),
) -> Comparison:
    """The refined strategy played on other deals (``seed``) beside the one it started
    from and the variant's ``against`` strategies it ships, on the same deals."""
    variant = load_variant(variant)
    shipped = rule_strategy_names(variant.name)
    names = [name for name in against if name in shipped and name != refined.start.name]
    strategies = [refined.strategy, refined.start, *(load_strategy(n, variant) for n in names)]
    return compare(variant, strategies, rounds, seed=seed)
