"""The RTP of a variant under optimal play, and how it is known.

Exact where the whole game is weighed (without draws, or with every draw in Oasis
and Six-Card), sampled where exchanges of up to five cards are measured on sampled
situations (``optimal_sampled``); beside it, where the dealer's game can be bought
and was measured, optimal play with the game (``game_buy``, ``game_sampled``).
"""

from __future__ import annotations

__all__ = ["optimal_rtp"]

from .exact import exact_game
from .game_buy import saved_game_gain
from .game_sampled import saved_sampled_game_gain
from .optimal_game import optimal_result, supports_exact_draws
from .optimal_sampled import SHORT_DRAWS, saved_sampled_optimum
from .variant import Variant

_EXACT_RTPS: dict[str, float] = {}


def optimal_rtp(variant: Variant) -> dict:
    """The RTP under optimal play and how it is known: exact enumeration where the game
    is weighed (without draws, or with draws from the saved counts), sampled where
    longer exchanges were measured (with its 99.9% interval, the normal
    approximation's), else None; where the dealer's game was bought on paired deals,
    ``with_game``: that measurement (``game_buy.GameBuyGain.record``, or on the sampled
    situations ``game_sampled.SampledGameGain.record``)."""
    if not variant.has_draws:
        if variant.rules_hash not in _EXACT_RTPS:  # seconds each: kept for the process
            _EXACT_RTPS[variant.rules_hash] = exact_game(variant, "optimal").summary["rtp"]
        return {"rtp": _EXACT_RTPS[variant.rules_hash], "method": "exact"}
    never_bought = "; the dealer's game never bought" if variant.buy_game else ""
    if supports_exact_draws(variant):
        result = optimal_result(variant)
        if result is None:
            return {"rtp": None, "method": "not weighed yet"}
        bound = " (a lower bound)" if variant.buy_game else ""
        method = f"exact, every draw{never_bought}{bound}"
        optimal = {"rtp": result.summary["rtp"], "method": method}
        if gain := saved_game_gain(variant):
            optimal["with_game"] = gain.record(result.summary["rtp"])
        return optimal
    sampled = saved_sampled_optimum(variant)
    if sampled is None:
        return {
            "rtp": None,
            "method": f"not weighed yet (studsim exact {variant.name} -s optimal)",
        }
    figures = sampled.summary()
    optimal = {
        "rtp": figures["rtp"],
        "method": f"{_enumerated(sampled.short_draws)} + {figures['samples']:,} "
        f"situations sampled against a proxy{never_bought}",
        "interval": figures["rtp_interval_999"],
        "interval_distribution_free": figures["rtp_interval_999_distribution_free"],
    }
    if by_bound := _drawn_by_bound(variant):
        optimal["by_bound"] = by_bound
    game = saved_sampled_game_gain(variant) if variant.buy_game else None
    if game is not None and game.sample_seed == sampled.seed and len(game.gains) > 1:
        optimal["with_game"] = game.record(sampled)
    return optimal


def _drawn_by_bound(variant: Variant) -> dict | None:
    """The shipped run drawing situations by their proven bound whose interval that needs
    no normal approximation is the narrowest, as JSON-ready figures; None if none is."""
    runs = [
        (run.summary(), run)
        for split in (SHORT_DRAWS, 0)
        if (run := saved_sampled_optimum(variant, split, by_bound=True)) is not None
    ]
    if not runs:
        return None
    figures, best = min(runs, key=lambda pair: _width(pair[0]))
    return {
        "rtp": figures["rtp"],
        "how": f"{_enumerated(best.short_draws)} + {figures['samples']:,} situations drawn "
        "by their proven bound against a proxy",
        "interval": figures["rtp_interval_999"],
        "interval_distribution_free": figures["rtp_interval_999_distribution_free"],
    }


def _enumerated(short_draws: int) -> str:
    return f"exact to {short_draws}-card draws" if short_draws else "exact without exchanges"


def _width(figures: dict) -> float:
    low, high = figures["rtp_interval_999_distribution_free"]
    return high - low
