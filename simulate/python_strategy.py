"""Strategies written in Python: a numba-compiled function decides.

>>> import numba
>>> from simulate import run
>>> from simulate.codes import Action, Category, Point
>>> from simulate.python_strategy import category_jit, hand_value_jit
>>> @numba.njit
... def pair_or_better(point, cards, upcard):
...     category = category_jit(hand_value_jit(cards), False)
...     return (Action.PLAY if category >= Category.PAIR else Action.FOLD), 0
>>> result = run("caribbean", pair_or_better, 100_000)

The function is called at each decision point the strategy reaches, as
``decide(point, cards, upcard) -> (action, kept)`` (or ``decide(point, cards,
upcard, seen)``):

- ``point``: a :class:`~simulate.codes.Point`: ``FIRST`` on the five dealt
  cards, ``AFTER_BUY`` on six cards after buying one, ``AFTER_DRAW`` after an
  exchange or a replacement (five or six cards), ``BUY_GAME`` on the final
  cards when the dealer does not qualify (with ``buy_game="strategy"``);
- ``cards``: the player's cards, an int64 array (a copy), card = 4 x rank +
  suit, rank 0 (deuce) to 12 (ace), suits c d h s;
- ``upcard``: the dealer's upcard;
- ``seen`` (when the function takes it): the other cards the player has seen, a
  52-bit int64 mask (bit c: card c): his other boxes' cards and his discards (and
  at ``BUY_GAME`` the dealer's hand);
- it returns an :class:`~simulate.codes.Action` and, for ``EXCHANGE`` and
  ``REPLACE``, the positions of the cards kept as a bit mask (bit i: cards[i]).

Allowed: at ``FIRST`` fold, play, buy (where a sixth card is sold) or
exchange (the number of cards thrown offered by the variant); at
``AFTER_BUY`` fold, play or replace (keep five of the six, where offered); at
``AFTER_DRAW`` fold or play; at ``BUY_GAME`` buy the game or decline. The
function is checked on first use, on random deals at every point it can
reach; an action outside these is a :class:`StrategyError`. Inside it,
``hand_value_jit`` and ``category_jit`` value and classify the cards.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
from collections.abc import Callable

import numpy as np
from numba import carray, cfunc, njit
from numba.core.errors import NumbaError
from numba.core.registry import CPUDispatcher

from ._evaluator import category_jit, hand_value_jit
from ._strategy import DECIDER, decide, decision_code
from .cards import format_card, format_cards
from .codes import Action, GameMode, Point
from .strategy import Strategy, StrategyError, StrategyKind, offered_actions
from .variant import Variant, load_variant

__all__ = ["category_jit", "hand_value_jit", "python_strategy"]

GAME_DECISIONS = {"never": GameMode.NEVER, "strategy": GameMode.RULES, "exact": GameMode.EXACT}
CHECKED_DEALS = 4096  # random deals the function is called on, per decision point
CHECK_SEED = 20261130


@njit(cache=True)
def _answers(strategy, point, cards, upcards, out):
    for i in range(cards.shape[0]):
        out[i, 0], out[i, 1] = decide(strategy, point, cards[i], upcards[i], 0)


def _takes_seen(function: CPUDispatcher) -> bool:
    return function.py_func.__code__.co_argcount == 4


def _decider(function: CPUDispatcher, name: str):
    """The function compiled as a decider of the engine (``_strategy.DECIDER``), so one
    compiled engine, cached, serves every function; StrategyError when numba cannot
    compile it."""
    if _takes_seen(function):

        def decider(point, cards, size, upcard, seen):
            action, kept = function(point, carray(cards, size), upcard, seen)
            return decision_code(action, kept)

    else:

        def decider(point, cards, size, upcard, seen):
            action, kept = function(point, carray(cards, size), upcard)
            return decision_code(action, kept)

    try:
        return cfunc(DECIDER)(decider)
    except NumbaError as error:
        arguments = "point, cards, upcard" + (", seen" if _takes_seen(function) else "")
        raise StrategyError(
            f"strategy {name!r}: numba cannot compile it as decide({arguments}) "
            f"-> (action, kept): {_innermost(str(error))}"
        ) from None


def _innermost(message: str) -> str:
    """The innermost reason of a numba typing error (its last ``TypeError:`` or
    ``TypingError:`` that is not a pipeline's failure), else its first line."""
    reasons = [
        reason.strip().rstrip('".')
        for reason in re.findall(r"Typ(?:e|ing)Error: ([^\n]*)", message)
        if not reason.startswith("Failed in")
    ]
    return reasons[-1] if reasons else message.strip().splitlines()[0]


def _points(variant: Variant, game_mode: GameMode) -> list[tuple[Point, int]]:
    """The decision points a strategy can reach, with the number of cards held there."""
    points = [(Point.FIRST, 5)]
    if variant.buy_fee is not None:
        points.append((Point.AFTER_BUY, 6))
    if variant.exchange_fees:
        points.append((Point.AFTER_DRAW, 5))
    if variant.replace_fee is not None:
        points.append((Point.AFTER_DRAW, 6))
    if game_mode == GameMode.RULES:
        points.append((Point.BUY_GAME, 5))
        if variant.buy_fee is not None:
            points.append((Point.BUY_GAME, 6))
    return points


def _refusal(variant: Variant, point: Point, size: int, action: int, kept: int) -> str | None:
    """Why ``(action, kept)`` is not allowed at ``point`` with ``size`` cards, or None."""
    allowed = set(offered_actions(variant, point.name.lower()).values())
    names = ", ".join(a.name for a in sorted(allowed))
    if action not in allowed:
        name = Action(action).name if action in Action._value2member_map_ else str(action)
        return f"action {name} is not allowed there (allowed: {names})"
    if action == Action.EXCHANGE:
        if not 0 <= kept < 1 << size:
            return f"kept mask {kept} is not a set of positions of {size} cards"
        thrown = size - kept.bit_count()
        if thrown not in variant.exchange_fees:
            offered = ", ".join(str(k) for k in sorted(variant.exchange_fees)) or "none"
            return f"exchanging {thrown} cards is not offered (offered: {offered})"
    if action == Action.REPLACE and not (0 <= kept < 1 << size and kept.bit_count() == 5):
        return f"kept mask {kept} does not keep five of the six cards"
    return None


def _check(decider, name: str, variant: Variant, game_mode: GameMode) -> None:
    """Call the decider on random deals at every point it can reach; raise
    StrategyError on the first answer that is not allowed."""
    rng = np.random.default_rng(CHECK_SEED)
    for point, size in _points(variant, game_mode):
        deals = np.argsort(rng.random((CHECKED_DEALS, 52)), axis=1)[:, : size + 1]
        cards, upcards = np.ascontiguousarray(deals[:, :size]), deals[:, size].copy()
        out = np.zeros((CHECKED_DEALS, 2), dtype=np.int64)
        _answers(decider, int(point), cards, upcards, out)
        for i in range(CHECKED_DEALS):
            reason = _refusal(variant, point, size, int(out[i, 0]), int(out[i, 1]))
            if reason:
                raise StrategyError(
                    f"strategy {name!r} at {point.name} on {format_cards(cards[i])} "
                    f"(upcard {format_card(upcards[i])}): {reason}"
                )


def python_strategy(
    function: Callable,
    variant: Variant | str,
    *,
    name: str | None = None,
    buy_game: str = "never",
    description: str = "",
) -> Strategy:
    """A strategy of ``variant`` decided by a numba-compiled function (see the module's
    documentation), checked on random deals. ``buy_game``: ``"never"``, ``"strategy"``
    (the function decides at ``Point.BUY_GAME``) or ``"exact"`` (when worth it)."""
    variant = load_variant(variant)
    name = name or getattr(function, "__name__", "python")
    if not isinstance(function, CPUDispatcher):
        raise StrategyError(
            f"strategy {name!r}: a strategy function must be compiled by numba "
            "(decorate it with @numba.njit)"
        )
    if function.py_func.__code__.co_argcount not in (3, 4):
        raise StrategyError(
            f"strategy {name!r}: a strategy function takes (point, cards, upcard) or "
            "(point, cards, upcard, seen)"
        )
    if buy_game not in GAME_DECISIONS:
        raise StrategyError(
            f"strategy {name!r}: buy_game must be one of {', '.join(GAME_DECISIONS)}"
        )
    game_mode = GAME_DECISIONS[buy_game]
    if game_mode != GameMode.NEVER and variant.buy_game is None:
        raise StrategyError(f"{variant.name} offers no buying the dealer a game")
    decider = _decider(function, name)
    _check(decider, name, variant, game_mode)
    try:
        source = inspect.getsource(function.py_func)
    except (OSError, TypeError):
        source = ""
    data = {
        "name": name,
        "variant": variant.name,
        "kind": StrategyKind.PYTHON.value,
        "function": f"{function.py_func.__module__}.{function.py_func.__qualname__}",
        "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
        "source": source,
        "buy_game_decision": buy_game,
    }
    return Strategy(
        name=name,
        variant=variant.name,
        description=description or (inspect.getdoc(function.py_func) or ""),
        file="(python)",
        kind=StrategyKind.PYTHON,
        game_mode=game_mode,
        data=data,
        function=decider,
        rebuild=(
            functools.partial(
                python_strategy, name=name, buy_game=buy_game, description=description
            ),
            (function, variant),
        ),
    )
