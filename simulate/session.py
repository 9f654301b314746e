"""Sessions: a bankroll played round after round, with a stop-loss and a stop-win.

>>> result = sessions("oasis", "basic", bankroll=100, boxes=(5, 5), rounds=50,
...                   count=500, seed=1)
>>> 0 <= result.summary["probability_of_ruin"] <= 1
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numba
import numpy as np
import pandas as pd

from . import _sessions as kernels
from ._exact_play import exact_options
from ._io import write_figure
from .catalog import load_strategy
from .provenance import software
from .simulation import DEFAULT_SEED, _key
from .stakes import StakePlan, stake_plan
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = ["SessionResult", "sessions"]

ENDINGS = ["played out", "ruined", "stop-loss", "stop-win"]
PATHS = 50  # sessions whose bankroll is kept round by round, for plots
CHUNK = 1024  # sessions per kernel call


def sessions(
    variant: Variant | str,
    strategy: Strategy | str | Callable = "basic",
    *,
    bankroll: float,
    boxes: int | Sequence[float] | StakePlan = 1,
    rounds: int = 100,
    count: int = 10_000,
    stop_loss: float | None = None,
    stop_win: float | None = None,
    share_seen: bool = True,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SessionResult:
    """Play ``count`` sessions of up to ``rounds`` rounds each from ``bankroll``.

    ``boxes``: the stake plan (the antes in currency). A session ends when its rounds
    are played, when the bankroll cannot pay a round's stakes (ruin), when it has lost
    ``stop_loss`` or won ``stop_win``. Within a round the bankroll rule holds: a buy or
    exchange after which the box's BET could not be paid is refused, and a BET that
    cannot be paid is a fold. The same seed gives the same sessions whatever
    ``threads``; Ctrl-C stops after the sessions under way.
    """
    variant = load_variant(variant)
    strategy = load_strategy(strategy, variant)
    plan = stake_plan(variant, boxes)
    stakes = plan.currency_arrays(variant)
    up_front = float(kernels.up_front_jit(variant.arrays(), stakes, plan.open_boxes(variant)))
    _check(bankroll, up_front, rounds, count, stop_loss, stop_win)
    bankroll = float(bankroll)  # one compiled kernel, whatever the numbers' types
    floor = -np.inf if stop_loss is None else bankroll - stop_loss
    target = np.inf if stop_win is None else bankroll + stop_win
    arrays, (fees, forced), key = variant.arrays(), variant.draw_arrays(), _key(seed)
    final, played = np.zeros(count), np.zeros(count, dtype=np.int64)
    ended, drawdown = np.zeros(count, dtype=np.int64), np.zeros(count)
    paths = np.full((min(PATHS, count), rounds), np.nan)
    done, interrupted = 0, False
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        while done < count:
            stop = min(done + CHUNK, count)
            exact = strategy.decisions(
                key, done * rounds, stop * rounds, None, plan.boxes, plan.open_boxes(variant)
            )
            kernels.play_sessions_jit(
                arrays, strategy.decider, int(strategy.game_mode), exact, exact_options(exact),
                fees, forced,
                plan.open_boxes(variant), int(share_seen), key, rounds, done, bankroll,
                floor, target, stakes, final[done:stop], played[done:stop],
                ended[done:stop], drawdown[done:stop], paths[done:stop],
            )  # fmt: skip
            done = stop
            if progress:
                progress(done)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        numba.set_num_threads(previous_threads)
    return SessionResult(
        variant, strategy, plan, bankroll, rounds, stop_loss, stop_win, seed, up_front,
        final[:done], played[:done], ended[:done], drawdown[:done], paths[:done], interrupted,
    )  # fmt: skip


def _check(bankroll, up_front, rounds, count, stop_loss, stop_win) -> None:
    if not (isinstance(bankroll, int | float) and math.isfinite(bankroll)):
        raise ValueError(f"the bankroll must be a number, not {bankroll!r}")
    if bankroll < up_front:
        raise ValueError(
            f"a bankroll of {bankroll:g} cannot pay the first round's stakes ({up_front:g})"
        )
    for name, value in [("rounds", rounds), ("count", count)]:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, not {value!r}")
    for name, value in [("stop_loss", stop_loss), ("stop_win", stop_win)]:
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a positive amount, not {value!r}")


@dataclass
class SessionResult:
    """What the sessions ended with; tables as pandas objects, everything as JSON."""

    variant: Variant
    strategy: Strategy
    plan: StakePlan
    bankroll: float
    rounds: int
    stop_loss: float | None
    stop_win: float | None
    seed: int
    up_front: float
    final: np.ndarray
    played: np.ndarray
    ended: np.ndarray
    drawdown: np.ndarray
    paths: np.ndarray
    interrupted: bool

    @property
    def count(self) -> int:
        """How many sessions were played."""
        return len(self.final)

    def _share(self, ending: int) -> float:
        return float((self.ended == ending).mean())

    @property
    def summary(self) -> dict:
        """The headline figures, amounts in currency."""
        n = self.count
        change = self.final - self.bankroll
        ruined = self.ended == kernels.RUINED
        return {
            "sessions": n,
            "bankroll": self.bankroll,
            "stakes_per_round": self.up_front,
            "mean_final_bankroll": float(self.final.mean()),
            "standard_error_of_the_mean": float(self.final.std(ddof=1) / math.sqrt(n))
            if n > 1
            else math.nan,
            "median_final_bankroll": float(np.median(self.final)),
            "mean_result": float(change.mean()),
            "probability_of_profit": float((change > 0).mean()),
            "probability_of_ruin": self._share(kernels.RUINED),
            "probability_of_stop_loss": self._share(kernels.STOP_LOSS),
            "probability_of_stop_win": self._share(kernels.STOP_WIN),
            "mean_rounds_played": float(self.played.mean()),
            "mean_rounds_to_ruin": float(self.played[ruined].mean()) if ruined.any() else None,
            "median_largest_drawdown": float(np.median(self.drawdown)),
            "largest_drawdown_95th_percentile": float(np.quantile(self.drawdown, 0.95)),
        }

    def final_distribution(self) -> pd.DataFrame:
        """Quantiles of the final bankroll and of the largest drawdown."""
        levels = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99]
        return pd.DataFrame(
            {
                "quantile": levels,
                "final_bankroll": np.quantile(self.final, levels),
                "largest_drawdown": np.quantile(self.drawdown, levels),
            }
        )

    def endings(self) -> pd.DataFrame:
        """How the sessions ended, and after how many rounds on average."""
        rows = []
        for code, name in enumerate(ENDINGS):
            mask = self.ended == code
            rows.append(
                {
                    "ending": name,
                    "sessions": int(mask.sum()),
                    "share": float(mask.mean()),
                    "mean_rounds": float(self.played[mask].mean()) if mask.any() else math.nan,
                }
            )
        return pd.DataFrame(rows)

    def plot(self, path: str | None = None):
        """The final bankroll's distribution and some sessions' bankroll round by round
        (a matplotlib figure; written to ``path`` when given)."""
        import matplotlib.pyplot as plt

        figure, (paths_axes, final_axes) = plt.subplots(1, 2, figsize=(11, 4))
        rounds = np.arange(self.rounds + 1)
        for row in self.paths:
            paths_axes.plot(rounds, [self.bankroll, *row], linewidth=0.7, alpha=0.6)
        paths_axes.axhline(self.bankroll, color="black", linewidth=0.8)
        paths_axes.set(
            xlabel="round",
            ylabel="bankroll",
            title=f"{len(self.paths)} of {self.count:,} sessions",
        )
        final_axes.hist(self.final, bins=60, color="tab:blue")
        final_axes.axvline(self.bankroll, color="black", linewidth=0.8)
        final_axes.set(xlabel="final bankroll", ylabel="sessions", title="final bankroll")
        figure.suptitle(
            f"{self.variant.title}, {self.strategy.name}: bankroll {self.bankroll:g}, "
            f"antes {', '.join(f'{a:g}' for a in self.plan.antes)}, up to {self.rounds} rounds"
        )
        figure.tight_layout()
        if path:
            write_figure(path, figure)
        return figure

    def to_json(self) -> dict:
        """Everything, with what is needed to reproduce it."""
        return {
            "software": software(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": self.variant.record(),
            "strategy": self.strategy.record(),
            "seed": self.seed,
            "generator": "SplitMix64 stream per round from numpy SeedSequence(seed); "
            "session s plays rounds s * R .. s * R + R - 1",
            "stake_plan": self.plan.record(),
            "bankroll": self.bankroll,
            "rounds_per_session": self.rounds,
            "stop_loss": self.stop_loss,
            "stop_win": self.stop_win,
            "interrupted": self.interrupted,
            "summary": self.summary,
            "endings": self.endings().to_dict(orient="records"),
            "final_distribution": self.final_distribution().to_dict(orient="records"),
        }
