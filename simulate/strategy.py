"""Player strategies as data: ordered rules, first match wins, compiled to arrays.

A strategy file (TOML) names its variant and lists rules per decision point:
``first`` (on the five dealt cards), ``after_buy`` (six cards, after buying
one), ``after_draw`` (after an exchange or a replacement) and ``buy_game``
(the dealer does not qualify). The last rule of each point has no
condition: it says what to do otherwise. See ``strategies/README.md``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from . import _evaluator
from . import _strategy as k
from ._datafile import DataFileError, Table, data_hash, data_record
from ._exact_play import ExactDecisions, no_decisions
from .cards import RANKS
from .codes import Action, Category, GameMode, Point
from .evaluator import threshold_value
from .variant import Variant, load_variant

__all__ = [
    "Strategy",
    "StrategyError",
    "StrategyKind",
    "load_rule_strategy",
    "rule_strategy_names",
]

POINTS = {
    "first": Point.FIRST,
    "after_buy": Point.AFTER_BUY,
    "after_draw": Point.AFTER_DRAW,
    "buy_game": Point.BUY_GAME,
}
ACTIONS = {
    "first": {
        "fold": Action.FOLD,
        "play": Action.PLAY,
        "buy": Action.BUY,
        "exchange": Action.EXCHANGE,
    },
    "after_buy": {"fold": Action.FOLD, "play": Action.PLAY, "replace": Action.REPLACE},
    "after_draw": {"fold": Action.FOLD, "play": Action.PLAY},
    "buy_game": {"buy": Action.BUY_THE_GAME, "decline": Action.DECLINE},
}
DRAWS = {
    "four-flush": k.FOUR_FLUSH,
    "four-straight": k.FOUR_STRAIGHT,
    "open-straight": k.OPEN_STRAIGHT,
    "inside-straight": k.INSIDE_STRAIGHT,
    "four-straight-flush": k.FOUR_STRAIGHT_FLUSH,
    "three-flush": k.THREE_FLUSH,
    "suited-high": k.SUITED_HIGH,
    "three-straight-flush": k.THREE_STRAIGHT_FLUSH,
    "high-three-straight-flush": k.HIGH_THREE_STRAIGHT_FLUSH,
}
KEEPS = {
    "none": (k.KEEP_NONE, 0),
    "made": (k.KEEP_MADE, None),
    "pair": (k.KEEP_PAIR, 2),
    "two-pair": (k.KEEP_TWO_PAIR, 4),
    "trips": (k.KEEP_TRIPS, 3),
    "four-flush": (k.KEEP_FOUR_FLUSH, 4),
    "four-straight": (k.KEEP_FOUR_STRAIGHT, 4),
    "open-straight": (k.KEEP_OPEN_STRAIGHT, 4),
    "four-straight-flush": (k.KEEP_FOUR_STRAIGHT_FLUSH, 4),
    "ace-king": (k.KEEP_ACE_KING, 2),
    "best-five": (k.KEEP_BEST_FIVE, 5),
    "three-flush": (k.KEEP_THREE_FLUSH, 3),
    "suited-high": (k.KEEP_SUITED_HIGH, 2),
    "three-straight-flush": (k.KEEP_THREE_STRAIGHT_FLUSH, 3),
    "high-three-straight-flush": (k.KEEP_HIGH_THREE_STRAIGHT_FLUSH, 3),
}
GAME_MODES = tuple(mode.key for mode in GameMode)
CONDITIONS = (
    "at_least",
    "below",
    "category",
    "draw",
    "holds",
    "holds_any",
    "upcard",
    "upcard_matches",
    "upcard_below",
    "seen_upcard_rank",
)


@functools.cache
def hands_by_value() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A five-card hand of every value (row ``value``, row 0 unused; what rules read of
    a hand is alike for every hand of a value), its ranks as a 13-bit mask, and its
    ranks highest first."""
    hands = k.hand_per_value_jit()
    ranks = np.sort(hands >> 2, axis=1)[:, ::-1]
    masks = np.bitwise_or.reduce(np.int64(1) << ranks, axis=1)
    return hands, masks, np.ascontiguousarray(ranks)


@functools.lru_cache(maxsize=64)
def _first_actions(rules: bytes) -> np.ndarray:
    """``Strategy.first_actions`` of the rule array whose bytes are ``rules``."""
    array = np.frombuffer(rules, dtype=np.int64).reshape(-1, k.RULE_COLUMNS).copy()
    return k.first_actions_jit(array, hands_by_value()[0])


def no_rules() -> np.ndarray:
    """The empty rule array of a strategy that is not a list of rules."""
    return np.zeros((0, k.RULE_COLUMNS), dtype=np.int64)


class StrategyError(DataFileError):
    """A strategy that cannot be found, read or validated."""


class StrategyKind(Enum):
    """How a strategy decides."""

    RULES = "rules"
    """A list of rules, read in order (a strategy file, or its data)."""
    TABLE = "table"
    """Decisions computed from the rules of the game (``optimal``): a table or a memo of
    the best first options, exact decisions after a draw."""
    PYTHON = "python"
    """A numba-compiled function ``decide(point, cards, upcard) -> (action, kept)``."""


@dataclass(frozen=True)
class Strategy:
    """A validated strategy for one variant, as the kernels read it."""

    name: str
    variant: str
    description: str
    file: str
    kind: StrategyKind
    game_mode: GameMode
    """Buying the dealer a game: never, by the strategy (its ``buy_game`` rules or its
    function), or exactly when it is worth more than declining."""
    data: dict = field(repr=False, compare=False)
    rules: np.ndarray = field(default_factory=lambda: no_rules(), repr=False, compare=False)
    """The rule array (``RULES``); empty otherwise."""
    exact_play: Any = field(default=None, repr=False, compare=False)
    """The computed decisions (``TABLE``): a ``simulate.optimal.OptimalPlay``."""
    function: Callable | None = field(default=None, repr=False, compare=False)
    """The function compiled as the engine's decider (``PYTHON``)."""
    rebuild: tuple | None = field(default=None, repr=False, compare=False)
    """How another process builds it, (a callable, its arguments), where its compiled
    decider cannot be pickled (``PYTHON``)."""

    def __reduce_ex__(self, protocol):
        if self.rebuild is not None:
            return self.rebuild
        return super().__reduce_ex__(protocol)

    @classmethod
    def from_dict(
        cls, data: dict, variant: Variant | str, source: str = "(in memory)"
    ) -> Strategy:
        """A strategy of ``variant`` from its rules as data, laid out as in a strategy file."""
        root = Table(json.loads(json.dumps(data)), source)
        try:
            return _parse(root, load_variant(variant), source)
        except DataFileError as error:
            raise StrategyError(str(error)) from None

    @property
    def decider(self) -> np.ndarray | Callable:
        """What the engine's ``strategy`` argument is: the rule array or the decider."""
        return self.function if self.kind is StrategyKind.PYTHON else self.rules

    @property
    def memoized(self) -> bool:
        """Whether the strategy computes situations as rounds meet them (a memo that
        grows as the rounds are played)."""
        return self.exact_play is not None and self.exact_play.memoized

    def decisions(
        self,
        key: np.uint64,
        start: int,
        stop: int,
        progress: Callable | None = None,
        boxes: int = 1,
        open_boxes: int = 1,
    ) -> ExactDecisions:
        """What the engine reads to play rounds ``start .. stop`` of the seed ``key``
        (rounds of ``boxes`` boxes, the first ``open_boxes`` decided): a ``TABLE``'s exact
        decisions, a ``RULES`` strategy's first actions by value and upcard rank; else
        empty."""
        if self.kind is StrategyKind.RULES:
            return no_decisions()._replace(first_actions=self.first_actions)
        if self.exact_play is None:
            return no_decisions()
        return self.exact_play.decisions(key, start, stop, progress, boxes, open_boxes)

    @property
    def first_actions(self) -> np.ndarray:
        """A rule strategy's first action by the hand's value and the upcard's rank
        (``_strategy.first_actions_jit``), computed once per rule array."""
        return _first_actions(self.rules.tobytes())

    def record(self) -> dict:
        """What identifies the strategy in an output: name, file, rules hash and rules."""
        return data_record(self.name, self.file, self.data)

    @property
    def rules_hash(self) -> str:
        return data_hash(self.data)


def _folder(variant: str):
    return resources.files("simulate") / "strategies" / variant


def rule_strategy_names(variant: str) -> list[str]:
    """Names of the shipped strategy files of a variant."""
    folder = _folder(variant)
    if not folder.is_dir():
        return []
    return sorted(
        f.name.removesuffix(".toml") for f in folder.iterdir() if f.name.endswith(".toml")
    )


def load_rule_strategy(name_or_path: str | Path, variant: Variant | str) -> Strategy:
    """A shipped strategy file of the variant by name (``basic``), or one by path."""
    variant = load_variant(variant)
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise StrategyError(f"{path}: no such strategy file")
        label = str(path)
    else:
        if str(name_or_path) not in rule_strategy_names(variant.name):
            raise StrategyError(f"no strategy file {str(name_or_path)!r} for {variant.name}")
        label = f"{variant.name}/{name_or_path}.toml"
    try:
        if label == str(path):
            return _parse(Table.load(path), variant, label)
        with resources.as_file(_folder(variant.name) / f"{name_or_path}.toml") as real:
            return _parse(Table.load(real, label), variant, label)
    except DataFileError as error:
        raise StrategyError(str(error)) from None


def _ranks(rule: Table, key: str) -> int:
    text = rule.text(key, required=False)
    if text is None:
        return 0
    mask = 0
    for char in text.upper().replace("10", "T").replace(" ", ""):
        if char not in RANKS:
            raise rule.error(key, f"{char!r} is not a rank ({RANKS})")
        mask |= 1 << RANKS.index(char)
    return mask


def _hand_threshold(rule: Table, key: str) -> int | None:
    text = rule.text(key, required=False)
    if text is None:
        return None
    try:
        return threshold_value(text)
    except ValueError as error:
        raise rule.error(key, str(error)) from None


def _counts(rule: Table, key: str, most: int) -> int:
    """A count or a list of counts from 0 to ``most``, as a mask (0: not given)."""
    value = rule.data.get(key)
    if value is None:
        return 0
    rule.data.pop(key)
    counts = [value] if isinstance(value, int) else value
    if not (
        isinstance(counts, list)
        and counts
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= most for c in counts)
    ):
        raise rule.error(key, f"must be a count from 0 to {most} or a list of them, got {value!r}")
    return sum(1 << c for c in set(counts))


def _names(rule: Table, key: str, allowed) -> list[str]:
    value = rule.data.get(key)
    if value is None:
        return []
    rule.data.pop(key)
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise rule.error(key, f"must be a name or a list of names, got {value!r}")
    for name in names:
        if name not in allowed:
            raise rule.error(key, f"{name!r} is not one of {', '.join(allowed)}")
    return names


def offered_actions(variant: Variant, point: str) -> dict[str, Action]:
    """The actions of a decision point (named as in strategy files) the variant offers:
    buying a sixth card, replacing a card and exchanging only where it sells them."""
    sold = {
        Action.BUY: variant.buy_fee,
        Action.REPLACE: variant.replace_fee,
        Action.EXCHANGE: variant.exchange_fees or None,
    }
    return {
        name: action
        for name, action in ACTIONS[point].items()
        if action not in sold or sold[action] is not None
    }


def _rule(rule: Table, point: str, variant: Variant) -> list[int]:
    row = [0] * k.RULE_COLUMNS
    row[k.POINT] = POINTS[point]
    action = rule.text("action")
    if action not in ACTIONS[point]:
        raise rule.error("action", f"must be one of {', '.join(ACTIONS[point])} here")
    row[k.ACTION] = ACTIONS[point][action]
    if action not in offered_actions(variant, point):
        raise rule.error("action", f"{variant.name} offers no {action}")
    at_least, below = _hand_threshold(rule, "at_least"), _hand_threshold(rule, "below")
    row[k.VALUE_MIN] = at_least or 0
    row[k.VALUE_MAX] = (below - 1) if below else _evaluator.CATEGORY.shape[0] - 1
    categories = _names(rule, "category", [c.key for c in Category])
    mask = 0
    for name in categories:
        mask |= 1 << Category.from_key(name)
        if name == "high-card":
            mask |= 1 << Category.ACE_KING  # A-K high is high card where AK is no category
    row[k.CATEGORIES] = mask or (1 << len(Category)) - 1
    for name in _names(rule, "draw", DRAWS):
        row[k.DRAWS] |= DRAWS[name]
    row[k.HOLDS_ALL] = _ranks(rule, "holds")
    row[k.HOLDS_ANY] = _ranks(rule, "holds_any")
    row[k.UPCARD] = _ranks(rule, "upcard") or (1 << 13) - 1
    matches = rule.data.get("upcard_matches")
    row[k.UPCARD_MATCHES] = -1 if matches is None else int(rule.flag("upcard_matches"))
    row[k.SEEN_UPCARD_RANK] = _counts(rule, "seen_upcard_rank", 3) or k.ANY_COUNT
    if rule.has("upcard_below"):
        row[k.UPCARD_BELOW] = rule.integer("upcard_below", 0)
        if not 1 <= row[k.UPCARD_BELOW] <= 5:
            raise rule.error("upcard_below", "must be a card of the hand, 1 (its highest) to 5")
    row[k.KEEP], row[k.KEEP_COUNT], row[k.THROW] = k.KEEP_NONE, 0, 0
    if action in ("exchange", "replace"):
        _keep(rule, row, action, variant)
    return row


def _keep(rule: Table, row: list[int], action: str, variant: Variant) -> None:
    if isinstance(rule.data.get("keep"), list):  # the cards of two patterns, both there
        keeps = _names(rule, "keep", [name for name in KEEPS if name != "none"])
        if len(keeps) != 2 or keeps[0] == keeps[1]:
            raise rule.error("keep", f"a list names two patterns, e.g. ['four-flush', 'pair'], "
                             f"got {keeps!r}")  # fmt: skip
        keep, size = " and ".join(keeps), None  # they may share cards
        row[k.KEEP], row[k.KEEP_ALSO] = KEEPS[keeps[0]][0], KEEPS[keeps[1]][0]
    else:
        keep = rule.text("keep")
        words = keep.split()
        if words[0] == "highest" and len(words) == 2 and words[1].isdigit():
            code, size = k.KEEP_HIGHEST, int(words[1])
            row[k.KEEP_COUNT] = size
        elif keep in KEEPS:
            code, size = KEEPS[keep]
        else:
            raise rule.error("keep", f"{keep!r} is not one of {', '.join(KEEPS)}, highest N")
        row[k.KEEP] = code
    if action == "replace":
        if size is not None and size > 5:
            raise rule.error("keep", "a replacement keeps five of six cards")
        return
    throw = rule.integer("throw", 0) if rule.has("throw") else None
    if throw is None and size is None:
        raise rule.error("throw", f"missing: keep = {keep!r} keeps a varying number of cards")
    thrown = throw if throw is not None else 5 - size
    if thrown not in variant.exchange_fees:
        offered = ", ".join(map(str, variant.exchange_fees)) or "none"
        raise rule.error(
            "keep" if throw is None else "throw",
            f"exchanges {thrown} cards; {variant.name} offers {offered}",
        )
    if size is not None and size > 5 - thrown:
        raise rule.error("throw", f"keep = {keep!r} holds {size} cards, more than {5 - thrown}")
    row[k.THROW] = throw or 0


def _always_applies(rule: dict) -> bool:
    """Whether a rule without conditions always applies: its cards to keep are always there."""
    keep = str(rule.get("keep", "none"))
    return keep in ("none", "best-five") or keep.startswith("highest ")


def points_reached(rules: dict[str, list[dict]], game: str = "never") -> dict[str, bool]:
    """Per decision point, whether a strategy reaches it: its rules per point (as in a
    strategy file) lead there, or (``buy_game``) ``game`` is ``rules``."""
    actions = {point: {rule.get("action") for rule in listed} for point, listed in rules.items()}
    return {
        "first": True,
        "after_buy": "buy" in actions.get("first", ()),
        "after_draw": "exchange" in actions.get("first", ())
        or "replace" in actions.get("after_buy", ()),
        "buy_game": game == "rules",
    }


def _parse(root: Table, variant: Variant, file: str) -> Strategy:
    data = json.loads(json.dumps(root.data))
    name = root.text("name")
    for_variant = root.text("variant")
    if for_variant != variant.name:
        raise root.error("variant", f"the strategy is for {for_variant!r}, not {variant.name!r}")
    description = root.text("description", "")
    game = root.text("buy_game_decision", "never")
    if game not in GAME_MODES:
        raise root.error("buy_game_decision", "must be never, rules or exact")
    if game != "never" and variant.buy_game is None:
        raise root.error("buy_game_decision", f"{variant.name} offers no buying the dealer a game")
    rules = {}
    for point in POINTS:
        listed = root.data.pop(point, None)
        if listed is None:
            continue
        if (
            not isinstance(listed, list)
            or not listed
            or not all(isinstance(r, dict) for r in listed)
        ):
            raise root.error(point, f"must be a list of rules ([[{point}]] tables)")
        rules[point] = listed
    needed = points_reached(rules, game)
    rows = []
    for point in rules:
        if not needed[point]:
            raise root.error(point, "never reached: no rule leads to this decision")
    for point in POINTS:
        if needed[point] and point not in rules:
            raise root.error(point, "missing: the strategy reaches this decision")
        for number, data_rule in enumerate(rules.get(point, []), start=1):
            rule = Table(data_rule, root.source, f"{point} rule {number}")
            rows.append(_rule(rule, point, variant))
            always = not any(key in data_rule for key in CONDITIONS) and _always_applies(data_rule)
            rule.done()
            if always and number < len(rules[point]):
                raise rule.error(
                    "action", "always applies, so the rules after it never do: remove them"
                )
            if number == len(rules[point]) and not always:
                raise rule.error(
                    "action",
                    "the last rule must have no condition (and keep none, highest N or "
                    "best-five): what to do otherwise",
                )
    root.done()
    return Strategy(
        name,
        variant.name,
        description,
        file,
        StrategyKind.RULES,
        GameMode[game.upper()],
        data,
        rules=np.array(rows, dtype=np.int64).reshape(-1, k.RULE_COLUMNS),
    )
