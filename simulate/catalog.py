"""Every strategy of a variant, by name: its shipped strategy files and the strategies
computed from its rules. ``load_strategy`` and ``strategy_names`` read this one registry.

>>> strategy_names("russian")[:6]
['always-play', 'basic', 'expert', 'optimal', 'optimal-no-draws', 'optimized']
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .optimal import optimal_strategy
from .python_strategy import python_strategy
from .strategy import Strategy, StrategyError, load_rule_strategy, rule_strategy_names
from .variant import Variant, load_variant

__all__ = ["COMPUTED", "load_strategy", "strategy_names"]


class Computed(NamedTuple):
    """A strategy computed from a variant's rules."""

    build: Callable[[Variant], Strategy]
    listed: Callable[[Variant], bool]
    """Whether ``strategy_names`` lists it for a variant (all can be built)."""


COMPUTED = {
    "optimal": Computed(lambda v: optimal_strategy(v, draws=True), lambda v: True),
    "optimal-no-draws": Computed(
        lambda v: optimal_strategy(v, draws=False), lambda v: v.has_draws
    ),
}


def strategy_names(variant: Variant | str) -> list[str]:
    """Names of the strategies of a variant: its shipped files and the computed ones
    (``optimal``, and with draws ``optimal-no-draws``)."""
    variant = load_variant(variant)
    computed = [name for name, entry in COMPUTED.items() if entry.listed(variant)]
    return sorted([*rule_strategy_names(variant.name), *computed])


def load_strategy(strategy: Strategy | str | Path | Callable, variant: Variant | str) -> Strategy:
    """A strategy of the variant: by name (``basic``, ``optimal``), a strategy file by
    path, a numba-compiled function (see ``simulate.python_strategy``), or a
    :class:`Strategy` (returned as it is)."""
    variant = load_variant(variant)
    if isinstance(strategy, Strategy):
        return strategy
    if callable(strategy):
        return python_strategy(strategy, variant)
    entry = COMPUTED.get(str(strategy))
    if entry is not None:
        return entry.build(variant)
    path = Path(strategy)
    if (
        path.suffix == ".toml"
        or path.exists()
        or str(strategy) in rule_strategy_names(variant.name)
    ):
        return load_rule_strategy(strategy, variant)
    known = ", ".join(strategy_names(variant)) or "none"
    raise StrategyError(
        f"unknown strategy {str(strategy)!r} for {variant.name} (known: {known}; or a .toml path)"
    )
