"""studsim: strategy and house-edge analyzer for casino stud poker against the dealer."""

from . import _numba_cache  # noqa: F401  (first: locks numba's cache before any kernel loads)
from .catalog import load_strategy, strategy_names
from .compare import compare, information_value
from .provenance import __version__
from .session import SessionResult, sessions
from .simulation import SimulationResult, Stake, StakePlan, run
from .variant import load_variant, variant_names

__all__ = [
    "SessionResult",
    "SimulationResult",
    "Stake",
    "StakePlan",
    "__version__",
    "compare",
    "information_value",
    "load_strategy",
    "load_variant",
    "run",
    "sessions",
    "strategy_names",
    "variant_names",
]
