"""The RTP report a test lab or regulator can file: PDF and HTML, from one run.

``build_report`` gathers every figure (exact where the game allows full
enumeration, simulated as the check); ``write_report`` renders it into a
folder atomically: the files appear whole, or not at all.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import os
import shutil
import tempfile
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from fpdf import FPDF

from ._datafile import file_record
from ._engine import BLOCK
from .catalog import load_strategy
from .cluster import takes_client
from .compare import compare
from .evaluator import count_categories
from .exact import exact_covers, exact_game
from .optimal_game import optimal_result, sampled_optimum
from .optimum import optimal_rtp
from .protection import (
    COVERED,
    HOLE_CARDS,
    TABLES,
    methods,
    protection_tables,
    shown,
    weighs,
)
from .provenance import __version__, software
from .rules_text import describe_rules, pay_table_rows
from .simulation import SimulationResult, Stake, run, run_to_precision
from .stakes import StakePlan
from .strategy import Strategy, StrategyKind, rule_strategy_names
from .strategy_chart import fold_or_bet_chart
from .strategy_text import describe_strategy
from .variant import Variant, load_variant

__all__ = ["Report", "build_report", "write_report"]

SECTIONS = [
    "1. Summary",
    "2. Identification",
    "3. Rules of play and wagers",
    "4. Method",
    "5. Player strategy",
    "6. Outcome tables",
    "7. Simulation check",
    "8. Minimum RTP by jurisdiction",
    "9. RTP by stake under the maximum payout",
    "10. Plots",
    "11. Several boxes against one dealer",
]
VOLATILITY_Z = 1.6448536269514722
"""The volatility index is this normal quantile (90%, two-sided) times the standard
deviation per round."""


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    images: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Every figure of a report, and its sections."""

    variant: Variant
    strategy: Strategy
    simulation: SimulationResult
    figures: dict
    sections: list[Section]
    plots: dict[str, plt.Figure]

    def to_json(self) -> dict:
        return {"figures": self.figures, "simulation": self.simulation.to_json()}


def report_id(variant: Variant, plan: Strategy, rounds: int, seed: int, **inputs) -> str:
    """An ID derived from everything a report's figures depend on: the rules, the
    strategy, the rounds, the seed, the other ``inputs`` and the build of studsim."""
    made_of = {
        "variant": variant.rules_hash,
        "strategy": plan.rules_hash,
        "rounds": rounds,
        "seed": seed,
        "software": software(),
        **{name: repr(value) for name, value in inputs.items()},
    }
    return hashlib.sha256(json.dumps(made_of, sort_keys=True).encode()).hexdigest()[:16]


BASES = ("per amount wagered", "per ante")


@dataclass(frozen=True)
class Jurisdiction:
    """A minimum RTP, its basis, what it applies to and its source (None: an example)."""

    minimum: float
    basis: str
    applies_to: str
    source: str | None = None


def jurisdictions() -> dict[str, Jurisdiction]:
    """Minimum RTP by jurisdiction (``simulate/jurisdictions.toml``)."""
    text = (resources.files("simulate") / "jurisdictions.toml").read_text()
    entries = {name: Jurisdiction(**entry) for name, entry in tomllib.loads(text).items()}
    for name, entry in entries.items():
        if entry.basis not in BASES or not 0 < entry.minimum <= 1:
            raise ValueError(f"jurisdictions.toml, {name}: basis or minimum out of range")
    return entries


def compared_rtp(figures: dict, basis: str, exact: bool) -> float:
    """The RTP a minimum on ``basis`` is checked against: exact as it is, simulated by the
    lower end of its 99% interval; per amount wagered, the house edge spread over the
    average total bet."""
    rtp = figures["rtp"] if exact else figures["simulated_rtp_ci99"][0]
    if basis == "per amount wagered":
        return 1 - (1 - rtp) / figures["average_total_bet"]
    return rtp


def _jurisdiction_checks(figures: dict, exact: bool) -> pd.DataFrame:
    rows = []
    bound = "exact RTP" if exact else "99% lower bound of the RTP"
    for name, entry in jurisdictions().items():
        rtp = compared_rtp(figures, entry.basis, exact)
        rows.append(
            {
                "jurisdiction": name,
                "minimum RTP": entry.minimum,
                "applies to": entry.applies_to,
                "source": entry.source or "none: an example",
                "compared": f"{bound}, {entry.basis}",
                "RTP compared": rtp,
                "verdict": "meets" if rtp >= entry.minimum else "fails",
            }
        )
    return pd.DataFrame(rows)


def _bonus_table(variant: Variant) -> pd.DataFrame | None:
    if not variant.bonus_pays:
        return None
    counts = count_categories(5, ace_king=variant.ace_king)
    total = math.comb(52, 5)
    rows, lost = [], 0
    for category in sorted(counts, reverse=True):
        if category in variant.bonus_pays:
            pays = variant.bonus_pays[category]
            rows.append(
                {
                    "outcome": category.label,
                    "combinations": counts[category],
                    "probability": counts[category] / total,
                    "payout": pays,
                    "contribution": counts[category] * pays / total,
                }
            )
        else:
            lost += counts[category]
    rows.append(
        {
            "outcome": "lost",
            "combinations": lost,
            "probability": lost / total,
            "payout": -1.0,
            "contribution": -lost / total,
        }
    )
    frame = pd.DataFrame(rows)
    frame.attrs["rtp"] = 1 + frame["contribution"].sum()
    return frame


MIN_ROUNDS = 2 * BLOCK
"""The fewest rounds a report is written from: two blocks give a standard error."""


@takes_client
def build_report(
    variant: Variant | str,
    strategy: Strategy | str | Callable,
    rounds: int,
    seed: int,
    threads: int | None = None,
    stake_rounds: int | None = None,
    boxes: int | Sequence[float] | StakePlan | None = None,
    target_se: float | None = None,
    protection: bool = False,
) -> Report:
    """Run and gather everything the report says; with ``boxes`` (as
    :func:`simulate.simulation.run` takes them), rounds of those boxes too. With
    ``target_se``, the rounds are played until the RTP's standard error is at most that
    (``rounds`` being the most allowed). With ``protection``, a section on what seeing
    the dealer's hole cards, other players' hands, the next card of the deck or the card
    the dealer's exchange brings is worth (``simulate.protection``)."""
    if rounds < MIN_ROUNDS:
        raise ValueError(
            f"a report needs at least {MIN_ROUNDS:,} rounds (two blocks) for the intervals "
            f"it states, got {rounds:,}"
        )
    variant = load_variant(variant)
    if protection and not weighs(variant):
        raise ValueError(
            f"{variant.name}: the protection section covers {COVERED}, and games selling "
            "the dealer's game"
        )
    plan = load_strategy(strategy, variant)
    if target_se is None:
        simulation = run(variant, plan, rounds, seed=seed, threads=threads)
    else:
        simulation = run_to_precision(
            variant, plan, target_se, seed=seed, threads=threads, max_rounds=rounds
        )
        rounds = simulation.rounds
    if simulation.interrupted:
        raise KeyboardInterrupt  # a report of fewer rounds than it says is never written
    sim = simulation.summary
    exact = exact_game(variant, plan) if exact_covers(variant, plan) else None
    if exact is None and _weighed_optimal_play(variant, plan):
        exact = optimal_result(variant)
    chart = None
    if plan.kind is StrategyKind.TABLE and not plan.exact_play.draws:
        chart = (exact or exact_game(variant, plan.name)).strategy_chart
    elif exact_covers(variant, plan) and plan.kind is StrategyKind.RULES:
        chart = fold_or_bet_chart(plan)
    reported = exact.summary if exact else sim
    bonus = _bonus_table(variant)
    stake_rounds = stake_rounds or max(rounds // 4, 4096)
    figures = {
        "report_id": report_id(
            variant, plan, rounds, seed, stake_rounds=stake_rounds, boxes=boxes, target=target_se
        ),
        "target_standard_error": target_se,
        "variant": variant.name,
        "strategy": plan.name,
        "seed": seed,
        "rounds": rounds,
        "method": "exact enumeration" if exact else "simulation",
        "rtp": reported["rtp"],
        "house_edge": reported["house_edge"],
        "element_of_risk": reported["element_of_risk"],
        "average_total_bet": reported["average_total_bet"],
        "standard_deviation": reported["standard_deviation"],
        "hit_frequency": reported["hit_frequency"],
        "simulated_rtp": sim["rtp"],
        "simulated_rtp_ci95": sim["rtp_ci95"],
        "simulated_rtp_ci99": sim["rtp_ci99"],
        "simulated_standard_error": sim["standard_error"],
        "bonus_rtp": bonus.attrs["rtp"] if bonus is not None else None,
    }
    optimal = optimal_rtp(variant)
    figures["optimal_rtp"] = optimal["rtp"]
    figures["optimal_rtp_method"] = optimal["method"]
    figures["optimal_rtp_interval_999"] = optimal.get("interval")
    figures["optimal_rtp_interval_999_distribution_free"] = optimal.get(
        "interval_distribution_free"
    )
    figures["optimal_rtp_by_bound"] = optimal.get("by_bound")
    figures["optimal_rtp_with_game"] = optimal.get("with_game")
    if exact:
        figures["deviation_in_standard_errors"] = (sim["rtp"] - exact.summary["rtp"]) / (
            exact.summary["standard_deviation"] / math.sqrt(simulation.rounds)
        )
        wins = exact.table[exact.table["net"].notna()]
        top = wins.loc[wins["net"].idxmax()]
        figures["largest_win"] = float(top["net"])
        figures["largest_win_probability"] = float(top["probability"])
    else:
        outcomes = simulation.outcomes
        top = outcomes[outcomes["average_net"] == outcomes["average_net"].max()]
        figures["largest_win"] = sim["largest_win"]
        figures["largest_win_probability"] = float(top["frequency"].sum())
    stakes = _stakes(variant, plan, stake_rounds, seed)
    figures["rtp_by_stake"] = stakes.to_dict(orient="records") if stakes is not None else []
    returns = _strategy_returns(variant, stake_rounds, seed)
    lowest = returns.loc[returns["rtp"].idxmin()]
    with_game = figures["optimal_rtp_with_game"]
    figures["rtp_range"] = {
        "lowest_strategy": lowest["strategy"],
        "lowest_rtp": float(lowest["rtp"]),
        "lowest_rtp_ci99": [float(lowest["ci99 low"]), float(lowest["ci99 high"])],
        "highest_strategy": "optimal" + (", the dealer's game bought" if with_game else ""),
        "highest_rtp": with_game["rtp"] if with_game else figures["optimal_rtp"],
        "rounds": stake_rounds,
        "by_strategy": returns.to_dict(orient="records"),
    }
    checks = _jurisdiction_checks(figures, exact is not None)
    figures["jurisdictions"] = checks.to_dict(orient="records")
    plots = _plots(simulation, exact)
    sections = _sections(variant, plan, simulation, exact, chart, bonus, figures, checks, stakes)
    if boxes is not None:
        several = run(variant, plan, rounds, seed=seed, threads=threads, boxes=boxes)
        if several.interrupted:
            raise KeyboardInterrupt
        figures["boxes"] = {
            "stake_plan": several.plan.record(),
            "round": several.summary,
            "per_box": several.box_figures.to_dict(orient="records"),
            "correlation": several.correlation.to_numpy().tolist(),
        }
        sections.append(_boxes_section(several))
    if protection:
        samples = PROTECTION_DRAW_SAMPLES if variant.has_draws else PROTECTION_SAMPLES
        if sampled_optimum(variant):
            samples = PROTECTION_LONG_SAMPLES  # every row from the same situations
        tables = protection_tables(
            variant, samples=samples, shared_samples=samples // 4, seed=seed,
            enumerated=(0, HOLE_CARDS),
        )  # fmt: skip
        figures["protection"] = {
            name: table.to_dict(orient="records") for name, table in tables.items()
        }
        sections.append(_protection_section(len(sections) + 1, tables, methods(variant)))
    return Report(variant, plan, simulation, figures, sections, plots)


PROTECTION_SAMPLES, PROTECTION_DRAW_SAMPLES, PROTECTION_LONG_SAMPLES = 200_000, 100_000, 100
"""Situations sampled per hole-card figure of the protection section (a quarter of them
per other-hands figure); in games with exchanges each costs about 100 times more; where
exchanges reach five cards, for all figures at once (5 to 9 s each here)."""


def _protection_section(
    number: int, tables: dict[str, pd.DataFrame], notes: dict[str, str]
) -> Section:
    """The RTP under optimal play when the player sees more cards than the rules allow."""
    seen = [TABLES[name][1] for name in tables]  # what the player sees beyond the rules
    listed = seen[0] if len(seen) == 1 else "; ".join(seen[:-1]) + "; and " + seen[-1]
    return Section(
        f"{number}. Game protection",
        [
            f"The RTP under optimal play with {listed}: what a flashed or marked card, a "
            "hand seen or shared across seats is worth to a player. "
            + " ".join(f"{name.capitalize()}: {text}." for name, text in notes.items()),
        ],
        [(TABLES[name][1].capitalize(), shown(name, table)) for name, table in tables.items()],
    )


def _boxes_section(result: SimulationResult) -> Section:
    """Per-box figures, the round as a whole, and how the boxes move together."""
    round_summary = {
        k: result.summary[k]
        for k in (
            "rtp", "house_edge", "element_of_risk", "average_total_bet", "standard_deviation",
            "standard_error", "rtp_ci95", "hit_frequency",
        )
    }  # fmt: skip
    per_box = result.box_figures[
        ["box", "kind", "ante", "rtp", "house_edge", "element_of_risk", "standard_deviation",
         "rtp_ci95_low", "rtp_ci95_high", "hit_frequency"]
    ]  # fmt: skip
    antes = ", ".join(f"{ante:g}" for ante in result.plan.antes)
    return Section(
        SECTIONS[10],
        [
            f"{result.rounds:,} rounds of {result.boxes} boxes (antes {antes}; "
            f"{result.open_boxes} open, decided in order, each seeing the earlier boxes' "
            f"cards), seed {result.seed}. The round's figures are per ante of the round (the "
            "boxes weighed by their antes); each box's per its own ante."
        ],
        [
            ("The round", _figures_table(round_summary)),
            ("Per box", per_box),
            ("Correlation of the boxes' results", result.correlation.reset_index(names="")),
        ],
    )


def _strategy_returns(variant: Variant, rounds: int, seed: int) -> pd.DataFrame:
    """The RTP of every strategy shipped for the variant, simulated on the same deals."""
    names = rule_strategy_names(variant.name)
    results = compare(variant, names, rounds, seed=seed).results
    return pd.DataFrame(
        [
            {
                "strategy": result.strategy.name,
                "description": " ".join(result.strategy.description.split()),
                "rtp": result.summary["rtp"],
                "ci99 low": result.summary["rtp_ci99"][0],
                "ci99 high": result.summary["rtp_ci99"][1],
            }
            for result in results
        ]
    )


def _stakes(variant: Variant, plan: Strategy, rounds: int, seed: int) -> pd.DataFrame | None:
    rows = []
    for account in variant.accounts.values():
        if account.max_payout is None:
            continue
        bonus_bet = account.bonus[1] if account.bonus else 0.0
        for ante in sorted({account.ante[0], account.ante[1]}):
            summary = run(
                variant, plan, rounds, seed=seed, stake=Stake(account.name, ante, bonus_bet)
            ).summary
            rows.append(
                {
                    "account": account.name,
                    "ante": ante,
                    "bonus bet": bonus_bet,
                    "maximum payout": account.max_payout,
                    "rounds": rounds,
                    "capped RTP": summary["capped_rtp"],
                    "ci95 low": summary["capped_rtp_ci95"][0],
                    "ci95 high": summary["capped_rtp_ci95"][1],
                }
            )
    return pd.DataFrame(rows) if rows else None


def _plots(simulation: SimulationResult, exact) -> dict[str, plt.Figure]:
    curve = simulation.convergence()
    convergence, axes = plt.subplots(figsize=(7, 3.5))
    axes.plot(curve["rounds"], curve["rtp"], label="simulated RTP")
    if exact:
        axes.axhline(exact.summary["rtp"], color="black", linestyle="--", label="exact RTP")
    axes.set_xlabel("rounds")
    axes.set_ylabel("RTP")
    axes.set_title("Convergence of the simulated RTP")
    axes.legend()
    convergence.tight_layout()
    distribution_table = simulation.net_distribution()
    distribution, axes = plt.subplots(figsize=(7, 3.5))
    axes.bar([f"{x:g}" for x in distribution_table["net"]], distribution_table["frequency"])
    axes.set_yscale("log")
    axes.set_xlabel("round result (antes)")
    axes.set_ylabel("frequency")
    axes.set_title("Distribution of the round result")
    axes.tick_params(axis="x", labelrotation=90)
    distribution.tight_layout()
    return {"convergence.png": convergence, "distribution.png": distribution}


def _percent(fraction: float | None) -> str:
    return "not known" if fraction is None else f"{100 * fraction:.4f}%"


def interval_text(interval: list[float] | None, number, distribution_free=None) -> str:
    """ "; 99.9% interval a to b (normal approximation)" and, where given, the interval
    that needs no normal approximation, ", c to d (distribution-free)", each end written
    by ``number``; nothing without an interval."""
    if not isinstance(interval, list | tuple):
        return ""
    text = "; 99.9% interval {} to {} (normal approximation)".format(*map(number, interval))
    if isinstance(distribution_free, list | tuple):
        text += ", {} to {} (distribution-free)".format(*map(number, distribution_free))
    return text


def by_bound_text(by_bound: dict | None, number) -> str:
    """The figures of optimal play from situations drawn by their proven bound, where
    shipped, as a clause; nothing otherwise."""
    if not isinstance(by_bound, dict):
        return ""
    intervals = interval_text(by_bound["interval"], number, by_bound["interval_distribution_free"])
    return f"; drawn by the bound ({by_bound['how']}): {number(by_bound['rtp'])}{intervals}"


def _summary_rows(strategy: str, figures: dict, exact: bool) -> pd.DataFrame:
    """The summary page: labels in words, percentages to four decimals, antes to four."""
    how = (
        "exact"
        if exact
        else "simulated, 99% interval {} to {}".format(
            *(_percent(x) for x in figures["simulated_rtp_ci99"])
        )
    )
    chance = figures["largest_win_probability"]
    span = figures["rtp_range"]
    rows = {
        f"Return to player, strategy {strategy}": f"{_percent(figures['rtp'])} ({how})",
        "Return to player, optimal play": (
            f"{_percent(figures['optimal_rtp'])} ({figures['optimal_rtp_method']}"
            + interval_text(
                figures["optimal_rtp_interval_999"],
                _percent,
                figures["optimal_rtp_interval_999_distribution_free"],
            )
            + by_bound_text(figures["optimal_rtp_by_bound"], _percent)
            + ")"
        ),
        **_with_game_row(figures["optimal_rtp_with_game"]),
        "Range of return, shipped strategies to optimal play": (
            f"{_percent(span['lowest_rtp'])} ({span['lowest_strategy']}, simulated) to "
            f"{_percent(span['highest_rtp'])} ({span['highest_strategy']})"
        ),
        "House edge": _percent(figures["house_edge"]),
        "Element of risk (per amount wagered)": _percent(figures["element_of_risk"]),
        "Average total bet": f"{figures['average_total_bet']:.4f} antes",
        "Hit frequency (rounds won)": _percent(figures["hit_frequency"]),
        "Standard deviation per round": f"{figures['standard_deviation']:.4f} antes",
        "Volatility index (90%)": f"{VOLATILITY_Z * figures['standard_deviation']:.4f} antes",
        "Largest win": (
            f"{figures['largest_win']:.4f} antes, "
            + (f"1 in {1 / chance:,.0f}" if chance else "never seen")
            + (" (exact)" if exact else " of the simulated rounds")
        ),
    }
    if figures["bonus_rtp"] is not None:
        rows["Return to player of the bonus bet (exact)"] = _percent(figures["bonus_rtp"])
    return pd.DataFrame({"figure": list(rows), "value": list(rows.values())})


def _with_game_row(with_game: dict | None) -> dict:
    """The summary's row of optimal play with the dealer's game bought, where measured."""
    if not with_game:
        return {}
    low, high = (_percent(x) for x in with_game["rtp_interval_999"])
    return {
        "Return to player, optimal play, the dealer's game bought": (
            f"{_percent(with_game['rtp'])} ({with_game['how']}; 99.9% interval {low} to {high})"
        )
    }


def _figures_table(items: dict) -> pd.DataFrame:
    return pd.DataFrame([{"figure": k, "value": v} for k, v in items.items()])


def _weighed_optimal_play(variant: Variant, plan: Strategy) -> bool:
    """Whether the strategy is optimal play with draws as the whole-game analysis weighed
    it (there, the dealer's game is never bought)."""
    play = plan.exact_play
    return (
        plan.kind is StrategyKind.TABLE
        and play.draws
        and play.table is not None
        and variant.buy_game is None
    )


def _sections(variant, plan, simulation, exact, chart, bonus, figures, checks, stakes):
    sim = simulation.summary
    game_tables = [("BET pay table", pd.DataFrame(pay_table_rows(variant.bet_pays)))]
    if variant.bonus_pays:
        game_tables.append(("Bonus pay table", pd.DataFrame(pay_table_rows(variant.bonus_pays))))
    variant_file, strategy_file = file_record(variant.file), file_record(plan.file)
    build = software()
    tree = {True: "had uncommitted changes", False: "clean", None: "unknown"}
    identification = _figures_table(
        {
            "report ID": figures["report_id"],
            "game": variant.title,
            "variant": variant.name,
            "variant file": variant_file["file"],
            "variant file SHA-256": variant_file["file_sha256"] or "(not read from a file)",
            "rules hash (SHA-256)": variant.rules_hash,
            "strategy": plan.name,
            "strategy file": strategy_file["file"],
            "strategy file SHA-256": strategy_file["file_sha256"] or "(not read from a file)",
            "strategy hash (SHA-256)": plan.rules_hash,
            "software": f"studsim {build['studsim']}",
            "commit": build["commit"] or "unknown (not installed from a git checkout)",
            "source tree when installed": tree[build["tree_changed"]],
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    )
    method = [
        "Exact enumeration: every deal (the player's five cards, the dealer's upcard and his "
        "four other cards; 19,933,230,517,200 deals) is weighed with full card removal. Player "
        "hands are taken by suit-symmetry class; dealer hands are counted by inclusion-"
        "exclusion over the player's cards. The counts are integers."
        if exact
        else "The strategy draws cards or buys the dealer games, beyond what the exact engine "
        "enumerates in full: the figures are simulated, with their confidence intervals.",
        (
            f"Precision: rounds were played until the RTP's standard error was at most "
            f"{figures['target_standard_error']:.6f}; it is {sim['standard_error']:.6f}."
            if figures["target_standard_error"]
            else f"Precision: the RTP's standard error is {sim['standard_error']:.6f}."
        ),
        f"Simulation: {simulation.rounds:,} rounds, seed {simulation.seed}; each round draws "
        "its cards from a SplitMix64 stream started from numpy's SeedSequence(seed) and the "
        "round's index, so the figures do not depend on threads or chunks.",
    ]
    outcome_tables = []
    if exact:
        table = exact.table.rename(columns={"net": "payout"})
        outcome_tables.append(("Main game (exact, combinations)", table))
    else:
        table = simulation.outcomes.rename(columns={"average_net": "payout"})
        outcome_tables.append(("Main game (simulated, rounds)", table))
    if bonus is not None:
        outcome_tables.append(("Bonus bet (exact, combinations of the first five cards)", bonus))
    summary = _summary_rows(plan.name, figures, exact is not None)
    check = {
        "generator": "SplitMix64 per round from numpy SeedSequence",
        "seed": simulation.seed,
        "rounds": simulation.rounds,
        "simulated RTP": sim["rtp"],
        "95% interval": sim["rtp_ci95"],
        "99% interval": sim["rtp_ci99"],
        "standard error": sim["standard_error"],
    }
    if exact:
        check["exact RTP"] = exact.summary["rtp"]
        check["deviation (standard errors)"] = figures["deviation_in_standard_errors"]
    strategy_section = Section(SECTIONS[4], describe_strategy(plan))
    span = figures["rtp_range"]
    strategy_section.tables.append(
        (
            f"Return of each shipped strategy (simulated on the same {span['rounds']:,} deals)",
            pd.DataFrame(span["by_strategy"]),
        )
    )
    if chart is not None:
        title = (
            "Share of deals on which the optimal strategy bets, by hand and upcard"
            if plan.kind is StrategyKind.TABLE
            else "The strategy as a chart: what each hand group is told against each "
            "upcard (bet, fold, or the lowest hand bet: 8 3 in the row A K Q is A K Q 8 3 "
            "or better)"
        )
        strategy_section.tables.append((title, chart))
    return [
        Section(
            SECTIONS[0],
            [
                "Per initial wager (the ante) unless said otherwise; percentages of it, "
                "amounts in antes."
            ],
            [("", summary)],
        ),
        Section(SECTIONS[1], tables=[("", identification)]),
        Section(SECTIONS[2], describe_rules(variant), game_tables),
        Section(SECTIONS[3], method),
        strategy_section,
        Section(
            SECTIONS[5],
            [
                "Payouts are the net result of the box in antes (bonus: in "
                "bonus bets); contribution = probability x payout."
            ],
            outcome_tables,
        ),
        Section(SECTIONS[6], tables=[("", _figures_table(check))]),
        Section(
            SECTIONS[7],
            [
                "Each minimum is checked on its own basis: per ante, the RTP as reported; "
                "per amount wagered, one less the house edge over the average total bet "
                "(one less the element of risk). Exact RTPs are compared as they are, "
                "simulated ones by the lower end of their 99% interval. Entries without a "
                "source are examples of the form, not rules to rely on."
            ],
            [("", checks)],
        ),
        Section(
            SECTIONS[8],
            []
            if stakes is not None
            else ["The variant sets no maximum payout: the RTP does not depend on the stake."],
            [("", stakes)] if stakes is not None else [],
        ),
        Section(SECTIONS[9], images=list(_plots_names())),
    ]


def _plots_names():
    return ("convergence.png", "distribution.png")


def _cell(value) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.4e}" if value != 0 and abs(value) < 1e-3 else f"{value:,.6f}"
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    return "" if value is None else str(value)


def _html(report: Report) -> str:
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>RTP report: "
        f"{html.escape(report.variant.title)}</title><style>body{{font-family:sans-serif;"
        "max-width:60em;margin:auto}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #999;padding:2px 6px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style></head><body>",
        f"<h1>RTP report: {html.escape(report.variant.title)}, strategy "
        f"{html.escape(report.strategy.name)}</h1>",
    ]
    for section in report.sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts += [f"<p>{html.escape(p)}</p>" for p in section.paragraphs]
        for caption, table in section.tables:
            if caption:
                parts.append(f"<h3>{html.escape(caption)}</h3>")
            index = table.index.name is not None
            parts.append(
                table.to_html(
                    index=index,
                    na_rep="",
                    formatters={c: _cell for c in table.columns},
                    escape=True,
                )
            )
        parts += [f"<p><img src='{name}' alt='{name}' width='640'></p>" for name in section.images]
    parts.append("</body></html>")
    return "\n".join(parts)


class _Pdf(FPDF):
    report_id = ""

    def footer(self):
        self.set_y(-12)
        self.set_font("Helvetica", size=8)
        page = f"page {self.page_no()} of {{nb}}"
        text = f"studsim {__version__} RTP report {self.report_id}: {page}"
        self.cell(0, 8, text, align="C")


def _latin(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def _pdf(report: Report, folder: Path) -> None:
    pdf = _Pdf(orientation="P", unit="mm", format="A4")
    pdf.report_id = report.figures["report_id"]
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 15)
    title = f"RTP report: {report.variant.title}, strategy {report.strategy.name}"
    pdf.multi_cell(0, 8, _latin(title), new_x="LMARGIN", new_y="NEXT")
    for section in report.sections:
        pdf.ln(3)
        pdf.set_font("Helvetica", "B", 12)
        pdf.multi_cell(0, 7, _latin(section.title), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=9)
        for paragraph in section.paragraphs:
            pdf.multi_cell(0, 4.5, _latin(paragraph), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        for caption, table in section.tables:
            if caption:
                pdf.set_font("Helvetica", "I", 9)
                pdf.multi_cell(0, 5, _latin(caption), new_x="LMARGIN", new_y="NEXT")
            frame = table.reset_index() if table.index.name is not None else table
            size = 6 if len(frame.columns) > 7 else 7.5
            pdf.set_font("Helvetica", size=size)
            with pdf.table(text_align="LEFT", line_height=size * 0.5) as grid:
                grid.row([_latin(str(c)) for c in frame.columns])
                for values in frame.itertuples(index=False):
                    grid.row([_latin(_cell(v)) for v in values])
            pdf.set_font("Helvetica", size=9)
        for name in section.images:
            pdf.image(str(folder / name), w=170)
    pdf.output(str(folder / "report.pdf"))


def write_report(report: Report, out: str | Path) -> Path:
    """Write report.pdf, report.html, report.json and the plots into ``out``, atomically."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    parent = out.resolve().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise ValueError(f"cannot write the report in {parent}")
    staging = Path(tempfile.mkdtemp(prefix=".report-", dir=parent))
    try:
        for name, figure in report.plots.items():
            figure.savefig(staging / name, dpi=120)
        (staging / "report.html").write_text(_html(report), encoding="utf-8")
        (staging / "report.json").write_text(json.dumps(report.to_json(), indent=2) + "\n")
        _pdf(report, staging)
        out.mkdir(exist_ok=True)
        for item in staging.iterdir():
            os.replace(item, out / item.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        for figure in report.plots.values():
            plt.close(figure)
    return out
