"""Search a family of rule-based strategies for the best one of a variant.

The family: bet on the dealt cards at or above a threshold; draw (exchange
one card, or buy a sixth) to the draws the variant allows; after a draw bet
at or above a second threshold; buy the dealer a game exactly. Candidates
are scored by simulation with common random numbers (every candidate plays
the same deals), one parameter at a time, until no change improves.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace

from .cluster import takes_client
from .exact import exact_game
from .simulation import DEFAULT_SEED, run
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = ["Family", "check_winner", "optimize"]

THRESHOLDS = [
    "Ac Kd 4h 3s 2c",  # ace-king
    "Ac Kd 8h 3s 2c",
    "Ac Kd Jh 8s 3c",
    "Ac Kd Qh 3s 2c",
    "2c 2d 3h 4s 5c",  # the lowest pair
    "4c 4d 2h 3s 5c",
    "6c 6d 2h 3s 4c",
    "8c 8d 2h 3s 4c",
    "2c 2d 3h 3s 4c",  # the lowest two pair
]
DRAWS = ["four-straight-flush", "four-flush", "open-straight", "inside-straight"]


@dataclass(frozen=True)
class Family:
    """One member of the family of strategies."""

    bet_at_least: str = "2c 2d 3h 4s 5c"
    draws: tuple[str, ...] = ()
    bet_after_draw: str = "2c 2d 3h 4s 5c"

    def toml(self, variant: Variant) -> str:
        lines = [
            f'name = "optimized"\nvariant = "{variant.name}"',
            'description = """' + self.describe(variant) + '"""',
        ]
        if variant.buy_game:
            lines.append('buy_game_decision = "exact"')
        lines.append(f'\n[[first]]\naction = "play"\nat_least = "{self.bet_at_least}"')
        draw_action = "exchange" if 1 in variant.exchange_fees else "buy"
        for draw in self.draws:
            keep = (
                "four-flush"
                if draw == "four-flush"
                else ("four-straight-flush" if draw == "four-straight-flush" else "four-straight")
            )
            extra = f'\nkeep = "{keep}"' if draw_action == "exchange" else ""
            lines.append(f'\n[[first]]\naction = "{draw_action}"\ndraw = "{draw}"{extra}')
        lines.append('\n[[first]]\naction = "fold"')
        if self.draws:
            point = "after_draw" if draw_action == "exchange" else "after_buy"
            lines.append(f'\n[[{point}]]\naction = "play"\nat_least = "{self.bet_after_draw}"')
            lines.append(f'\n[[{point}]]\naction = "fold"')
        return "\n".join(lines) + "\n"

    def strategy(self, variant: Variant) -> Strategy:
        """The member as a strategy of ``variant``."""
        return Strategy.from_dict(tomllib.loads(self.toml(variant)), variant, "optimized")

    def describe(self, variant: Variant) -> str:
        text = f"Bet {self.bet_at_least} or better as dealt"
        if self.draws:
            how = "exchange one card" if 1 in variant.exchange_fees else "buy a sixth card"
            text += (
                f"; {how} to {', '.join(self.draws)}; after it bet {self.bet_after_draw} or better"
            )
        return text + "; fold the rest. Found by studsim optimize."


def _draws_offered(variant: Variant) -> list[str]:
    return DRAWS if (1 in variant.exchange_fees or variant.buy_fee is not None) else []


@takes_client
def optimize(
    variant: Variant | str,
    rounds: int = 1_000_000,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str, float], None] | None = None,
) -> tuple[Family, Strategy, float]:
    """The best member of the family by simulated RTP on common deals: (member, its
    strategy, its RTP on those deals)."""
    variant = load_variant(variant)
    scores: dict[Family, float] = {}

    def score(member: Family) -> float:
        if member not in scores:
            rtp = run(variant, member.strategy(variant), rounds, seed=seed).summary["rtp"]
            scores[member] = rtp
            if progress:
                progress(member.describe(variant), rtp)
        return scores[member]

    best = Family()
    options = {"bet_at_least": [(t,) for t in THRESHOLDS]}
    offered = _draws_offered(variant)
    if offered:
        options["bet_after_draw"] = [(t,) for t in THRESHOLDS]
    improved = True
    while improved:
        improved = False
        for name, values in options.items():
            for (value,) in values:
                candidate = replace(best, **{name: value})
                if score(candidate) > score(best):
                    best, improved = candidate, True
        for draw in offered:
            toggled = tuple(d for d in DRAWS if (d in best.draws) != (d == draw))
            candidate = replace(best, draws=toggled)
            if score(candidate) > score(best):
                best, improved = candidate, True
    return best, best.strategy(variant), scores[best]


@takes_client
def check_winner(variant: Variant | str, strategy: Strategy, rounds: int, seed: int) -> dict:
    """The optimizer's winner played on other deals (``seed``) beside ``basic`` and the
    best fold-or-bet play on the same deals, and the exact RTP of the latter."""
    variant = load_variant(variant)
    check = run(variant, strategy, rounds, seed=seed).summary
    basic = run(variant, "basic", rounds, seed=seed).summary
    fold_or_bet = run(variant, "optimal-no-draws", rounds, seed=seed).summary
    return {
        "rounds": rounds,
        "seed": seed,
        "rtp": check["rtp"],
        "rtp_ci95": check["rtp_ci95"],
        "basic_rtp": basic["rtp"],
        "optimal_fold_or_bet_rtp": fold_or_bet["rtp"],
        "gap_to_optimal_fold_or_bet_same_deals": fold_or_bet["rtp"] - check["rtp"],
        "exact_optimal_fold_or_bet_rtp": exact_game(variant, "optimal-no-draws").summary["rtp"],
    }
