"""The ``studsim`` command line."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import ClassVar

import click
import numba
import pandas as pd
import tomli_w
from click.core import ParameterSource
from tqdm import tqdm

from . import protection
from ._io import finite, write_atomic, write_json
from .analysis import analysis_files, exact_analysis
from .cards import CardError, format_cards, parse_cards
from .catalog import load_strategy, strategy_names
from .cluster import cluster_client
from .compare import compare, information_value
from .evaluator import best_five, hand_category, hand_value
from .exact import advise
from .game_buy import saved_game_gain, with_first_decisions, with_rounds
from .game_sampled import SITUATION_ROUNDS, sampled_game_gain
from .optimal_game import optimal_result, supports_exact_draws
from .optimal_sampled import SHORT_DRAWS, SampledOptimum, saved_sampled_optimum
from .optimize import check_winner, optimize
from .provenance import __version__, software
from .refine import check_refined, refine
from .report import build_report, write_report
from .results import SIZES, headline_markdown, regenerate_results
from .rules_text import describe_rules, pay_table_rows, rules_summary
from .session import sessions
from .simulation import (
    DEFAULT_SEED,
    PrecisionError,
    Stake,
    StakePlan,
    run,
    run_to_precision,
)
from .stakes import stake_plan
from .variant import load_variant, variant_names


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit status 2."""

    exit_code = 2


def reports_bad_input(command: Callable) -> Callable:
    """Turn the library's input errors into one-line CLI errors, and Ctrl-C into exit
    status 130."""

    @wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (CardError, ValueError) as error:
            raise InputError(str(error)) from None
        except KeyboardInterrupt:
            click.echo("interrupted: nothing written", err=True)
            sys.exit(130)

    return wrapper


def cluster_option(command: Callable) -> Callable:
    """The --cluster option: the command's simulations and exact analyses run on a Dask
    cluster (``simulate.cluster``), with the same figures."""

    @wraps(command)
    def wrapper(*args, cluster: str | None = None, **kwargs):
        with cluster_client(cluster) as client:
            if client is not None:
                workers = len(client.scheduler_info(n_workers=-1)["workers"])
                click.echo(
                    f"cluster: {workers} workers, dashboard {client.dashboard_link}", err=True
                )
            return command(*args, **kwargs)

    return click.option(
        "--cluster",
        metavar="SPEC",
        help="Run on Dask: local (a process per core), local:N, a scheduler address "
        "(tcp://host:8786) or a scheduler file; the same figures as without it.",
    )(wrapper)


def print_table(rows: Sequence[dict], columns: Sequence[str], right: Sequence[str] = ()) -> None:
    """Print rows as aligned columns under a header."""
    cells = [[str(row[column]) for column in columns] for row in rows]
    widths = [
        max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)
    ]

    def line(values):
        return "  ".join(
            value.rjust(width) if column in right else value.ljust(width)
            for value, width, column in zip(values, widths, columns, strict=True)
        ).rstrip()

    click.echo(line(columns))
    for values in cells:
        click.echo(line(values))


def print_json(data) -> None:
    click.echo(json.dumps(finite(data), indent=2))


def _show_warning(message, *_) -> None:
    """A warning as one line on stderr: ``Warning: ...``."""
    click.echo(f"Warning: {message}", err=True)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM (``kill``, a batch system's time limit) taken as Ctrl-C while a command
    runs: a long run keeps what finished and says so. A shell starts background jobs
    deaf to Ctrl-C's signal, so this is how those are stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class StudsimGroup(click.Group):
    """A command group whose errors are one line on stderr: ``Error: ...``, exit status 2."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            with warnings.catch_warnings(), _terminate_as_interrupt():
                warnings.showwarning = _show_warning
                code = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except click.exceptions.Abort:
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=StudsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="studsim")
def main() -> None:
    """Strategy and house-edge analyzer for casino stud poker against the dealer."""


@main.command("eval")
@click.argument("hands", nargs=-1, required=True)
@click.option("--ace-king", is_flag=True, help="Rank ace-king high as its own category.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def eval_command(hands: tuple[str, ...], ace_king: bool, as_json: bool) -> None:
    """Value and category of each HAND (5 or 6 cards, e.g. "As Ks Qs Js Ts").

    Values run from 1 to 7462, higher is better; a 6-card hand is valued by
    its best five cards.
    """
    rows = []
    for text in hands:
        cards = parse_cards(text)
        value, category = hand_value(cards), hand_category(cards, ace_king=ace_king)
        rows.append(
            {
                "hand": format_cards(cards),
                "value": value,
                "category": category.label,
                "best five": format_cards(best_five(cards)) if len(cards) == 6 else None,
            }
        )
    if as_json:
        print_json([{key.replace(" ", "_"): value for key, value in row.items()} for row in rows])
        return
    for row in rows:
        row["best five"] = row["best five"] or ""
    print_table(rows, ["hand", "value", "category", "best five"], right=["value"])


@main.command("variants")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def variants_command(as_json: bool) -> None:
    """List the shipped variants."""
    rows = [rules_summary(load_variant(name)) for name in variant_names()]
    if as_json:
        print_json(rows)
    else:
        print_table(rows, list(rows[0]), right=["categories", "boxes"])


@main.command("rules")
@click.argument("variant")
@click.option("--json", "as_json", is_flag=True, help="Print the variant's data as JSON.")
@reports_bad_input
def rules_command(variant: str, as_json: bool) -> None:
    """Print the rules and pay tables of VARIANT (a name or a .toml file)."""
    game = load_variant(variant)
    if as_json:
        print_json(
            {
                "variant": game.name,
                "file": game.file,
                "rules_hash": game.rules_hash,
                "rules": game.data,
            }
        )
        return
    click.echo(f"{game.title} ({game.name})")
    click.echo(f"file: {game.file}\nrules hash: {game.rules_hash}\n")
    for line in describe_rules(game):
        click.echo(f"- {line}")
    for title, pays in (("BET pay table", game.bet_pays), ("bonus pay table", game.bonus_pays)):
        if pays:
            click.echo(f"\n{title}")
            print_table(pay_table_rows(pays), ["hand", "pays"], right=["pays"])


MAX_ROUNDS = 10**15  # a year of this machine's fastest simulation, and far inside int64


class RoundCount(click.ParamType):
    """A positive number of rounds (or sessions): 1000000, 1_000_000, 1e6, 250k, 10M."""

    name = "rounds"

    def __init__(self, noun: str = "rounds"):
        self.noun = noun

    _suffixes: ClassVar[dict[str, int]] = {
        "k": 1_000,
        "m": 1_000_000,
        "g": 1_000_000_000,
        "b": 1_000_000_000,
    }

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            number = value
        else:
            text = str(value).strip().lower().replace("_", "").replace(",", "")
            scale = self._suffixes.get(text[-1:], 1)
            try:
                number = float(text[:-1] if scale > 1 else text) * scale
            except ValueError:
                self.fail(f"{value!r} is not a number of {self.noun} (e.g. 1000000, 1e6, 250k)")
            if not math.isfinite(number) or number != int(number):
                self.fail(f"{value!r} is not a whole number of {self.noun}")
        if not 1 <= number <= MAX_ROUNDS:
            self.fail(f"{value!r}: the {self.noun} must be from 1 to {MAX_ROUNDS:.0e}")
        return int(number)


class BoxAntes(click.ParamType):
    """Boxes per round: how many (equal antes), or their antes in the order played."""

    name = "boxes"

    def convert(self, value, param, ctx):
        if isinstance(value, int | tuple):
            return value
        parts = [part.strip() for part in str(value).split(",")]
        try:
            if len(parts) == 1 and parts[0].isdigit():
                return int(parts[0])
            return tuple(float(part) for part in parts)
        except ValueError:
            self.fail(f"{value!r} is not a number of boxes (3) or their antes (10,10,5)")


target_se_option = click.option(
    "--target-se",
    type=click.FloatRange(min=0, min_open=True),
    help="Play until the RTP's standard error is at most this (then --rounds, if given, "
    "is the most it may play).",
)


@contextlib.contextmanager
def _to_precision(ctx: click.Context, rounds: int, target_se: float | None):
    """With ``--target-se``, the most rounds allowed (``--rounds`` if given, else as many
    as the target needs); a target needing more is an error naming the option."""
    given = ctx.get_parameter_source("rounds") is not ParameterSource.DEFAULT
    try:
        yield rounds if given or not target_se else 10**10
    except PrecisionError as error:
        raise InputError(f"--target-se {target_se:g}: {error}") from None


def _number(value: float) -> str:
    """At least four significant decimals, small numbers included."""
    if value != 0 and abs(value) < 1e-3:
        return f"{value:.4e}"
    return f"{value:,.6f}"


def _print_figures(figures: dict) -> None:
    rows = []
    for name, value in figures.items():
        label = name.replace("_", " ")
        if isinstance(value, dict):
            rows += [
                {"figure": f"{label}: {key.replace('_', ' ')}", "value": _shown(inner)}
                for key, inner in value.items()
            ]
        else:
            rows.append({"figure": label, "value": _shown(value)})
    print_table(rows, ["figure", "value"], right=["value"])


def _shown(value) -> str:
    """A figure as the tables print it: numbers to at least four significant decimals."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(x) for x in value) + "]"
    if isinstance(value, float):
        return _number(value)
    return str(value)


def _print_frame(frame, title: str) -> None:
    click.echo(f"\n{title}")
    rows = [
        {k: (_number(v) if isinstance(v, float) else v) for k, v in row.items()}
        for row in frame.to_dict(orient="records")
    ]
    numeric = [c for c in frame.columns if frame[c].dtype.kind in "if"]
    print_table(rows, list(frame.columns), right=numeric)


@main.command("strategies")
@click.argument("variant")
@click.option("--explain", is_flag=True, help="Each strategy's rules in words, and its chart.")
@click.option(
    "--charts",
    type=click.Path(file_okay=False),
    help="Write each fold-or-bet strategy's chart to this folder (NAME.png).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def strategies_command(variant: str, explain: bool, charts: str | None, as_json: bool) -> None:
    """List the strategies shipped for VARIANT; with --explain, say what each does."""
    from .strategy import StrategyKind
    from .strategy_chart import fold_or_bet_chart, write_chart
    from .strategy_text import describe_strategy

    game = load_variant(variant)
    rows, explained = [], []
    for name in strategy_names(game.name):
        strategy = load_strategy(name, game)
        rows.append({"strategy": name, "description": " ".join(strategy.description.split())})
        if not (explain or charts) or strategy.kind is not StrategyKind.RULES:
            continue
        try:
            chart = fold_or_bet_chart(strategy)
        except ValueError:
            chart = None  # draws: the words say it all
        if charts and chart is not None:
            write_chart(strategy, Path(charts) / f"{name}.png", f"{game.title}: {name}")
        rows[-1]["words"] = describe_strategy(strategy)
        if chart is not None:
            rows[-1]["chart"] = chart.to_dict(orient="index")
        explained.append((rows[-1], chart))
    if as_json:
        print_json(rows)
    elif not explain:
        print_table(rows, ["strategy", "description"])
    else:
        for row, chart in explained:
            click.echo("\n" + "\n".join(row["words"]))
            if chart is not None:
                click.echo(chart.to_string())


@main.command("simulate")
@click.argument("variant")
@click.option(
    "--strategy",
    "-s",
    default="basic",
    show_default=True,
    help="A strategy name (see `studsim strategies VARIANT`) or a .toml file.",
)
@click.option(
    "--rounds",
    "-n",
    default="1M",
    show_default=True,
    type=RoundCount(),
    help="Rounds to play: 1000000, 1e6, 250k, 10M.",
)
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option("--threads", type=click.IntRange(1), help="numba threads (default: all).")
@click.option("--account", help="Account type whose maximum payout applies (with --ante).")
@click.option("--ante", type=click.FloatRange(min=0, min_open=True), help="Ante in currency.")
@click.option(
    "--bonus-bet",
    type=click.FloatRange(min=0),
    default=0.0,
    help="Bonus bet in currency (with --account and --ante).",
)
@click.option(
    "--boxes",
    type=BoxAntes(),
    help="Boxes per round against one dealer: how many (3), or their antes in the order "
    "played (10,10,5; in currency with --account). The variant's open boxes come first.",
)
@click.option(
    "--share-cards/--no-share-cards",
    default=True,
    show_default=True,
    help="Whether each box is decided seeing the cards of the boxes before it.",
)
@click.option(
    "--information",
    is_flag=True,
    help="Also play every box without the earlier boxes' cards, on the same deals, and "
    "report what seeing them is worth.",
)
@target_se_option
@click.option(
    "--checkpoint",
    type=click.Path(file_okay=False),
    help="Keep each finished chunk of rounds in this folder; the same command run again "
    "with it resumes where it stopped (here or on any cluster), with the same figures.",
)
@click.option("--out", type=click.Path(dir_okay=False), help="Write the full result as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@click.pass_context
@reports_bad_input
@cluster_option
def simulate_command(
    ctx, variant, strategy, rounds, seed, threads, account, ante, bonus_bet, boxes,
    share_cards, information, target_se, checkpoint, out, as_json, progress,
) -> None:  # fmt: skip
    """Play ROUNDS rounds of VARIANT under a strategy; report RTP, house edge and variance
    (with several boxes: per box, for the round, and how the boxes move together).

    Ctrl-C stops the run after the rounds under way and reports those.
    """
    if account is not None and ante is None and boxes is None:
        raise InputError("--account needs --ante (one box) or --boxes with the antes")
    if ante is not None and account is None:
        raise InputError("--ante needs --account")
    if ante is not None and boxes is not None:
        raise InputError("--ante is one box's stake: give several boxes' antes with --boxes")
    if bonus_bet and account is None:
        raise InputError("--bonus-bet needs --account")
    if checkpoint and target_se:
        raise InputError("--checkpoint keeps a run of a set number of rounds, not --target-se")
    if information and (boxes is None or boxes == 1):
        raise InputError("--information needs --boxes with two boxes or more")
    if threads is not None and threads > numba.config.NUMBA_NUM_THREADS:
        raise InputError(f"--threads {threads}: this machine has {numba.config.NUMBA_NUM_THREADS}")
    if out:
        _check_writable(out)
    game = load_variant(variant)
    plan = load_strategy(strategy, game)
    stake = Stake(account, ante, bonus_bet) if ante is not None else None
    if account is not None and boxes is not None:
        antes = (1.0,) * boxes if isinstance(boxes, int) else boxes
        boxes = StakePlan(antes, (bonus_bet,) * len(antes) if bonus_bet else (), account)
    show = sys.stderr.isatty() if progress is None else progress
    options = {"seed": seed, "threads": threads, "stake": stake, "boxes": boxes}
    with tqdm(
        total=None if target_se else rounds,
        unit=" rounds",
        unit_scale=True,
        disable=not show,
        file=sys.stderr,
    ) as bar:
        options |= {"share_seen": share_cards, "progress": lambda done: bar.update(done - bar.n)}
        with _to_precision(ctx, rounds, target_se) as most:
            if target_se:
                result = run_to_precision(game, plan, target_se, max_rounds=most, **options)
            else:
                result = run(game, plan, rounds, checkpoint=checkpoint, **options)
    if result.rounds == 0:
        click.echo("interrupted before any round finished", err=True)
        sys.exit(130)
    data = result.to_json()
    worth = None
    if information and not result.interrupted:
        worth = information_value(
            game, plan, rounds, boxes=result.plan, seed=seed, threads=threads
        )
        data["information_value"] = worth.to_dict(orient="records")
    if out:
        write_json(out, data)
    if result.interrupted:
        kept = f"; chunks kept in {checkpoint}: run it again to go on" if checkpoint else ""
        click.echo(f"interrupted: {result.rounds:,} of {rounds:,} rounds played{kept}", err=True)
    if as_json:
        print_json(data)
    else:
        boxes_text = f", {result.boxes} boxes" if result.boxes > 1 else ""
        click.echo(
            f"{game.title} ({game.name}), strategy {plan.name}, seed {seed}, "
            f"{result.rounds:,} rounds{boxes_text}"
        )
        _print_figures(result.summary)
        if result.boxes > 1:
            _print_frame(result.box_figures, "per box (per ante of the box)")
            _print_frame(result.correlation.reset_index(names=""), "correlation of the boxes")
        if worth is not None:
            _print_frame(worth, "what seeing the earlier boxes' cards is worth (same deals)")
        per_box = " (per box played)" if result.boxes > 1 else ""
        _print_frame(result.outcomes, f"outcomes{per_box}")
        _print_frame(result.decisions, f"decisions{per_box}")
    if result.interrupted:
        sys.exit(130)


@main.command("session")
@click.argument("variant")
@click.option("--strategy", "-s", default="basic", show_default=True, help="A strategy.")
@click.option(
    "--bankroll",
    required=True,
    type=click.FloatRange(min=0, min_open=True),
    help="What the player starts each session with, in currency.",
)
@click.option(
    "--boxes",
    type=BoxAntes(),
    default="1",
    show_default=True,
    help="The antes of the boxes, in currency, in the order played (10,10,5); a number: "
    "that many boxes of ante 1.",
)
@click.option("--account", help="Account type whose limits and maximum payout apply.")
@click.option("--bonus-bet", type=click.FloatRange(min=0), default=0.0, help="On every box.")
@click.option("--rounds", "-n", default="100", show_default=True, type=RoundCount())
@click.option("--sessions", "count", default="10k", show_default=True, type=RoundCount("sessions"))
@click.option(
    "--stop-loss", type=click.FloatRange(min=0, min_open=True), help="Stop on losing this."
)
@click.option(
    "--stop-win", type=click.FloatRange(min=0, min_open=True), help="Stop on winning this."
)
@click.option("--share-cards/--no-share-cards", default=True, show_default=True)
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option("--threads", type=click.IntRange(1), help="numba threads (default: all).")
@click.option("--plot", type=click.Path(dir_okay=False), help="Write the plots (PNG, PDF, SVG).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the result as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@reports_bad_input
def session_command(
    variant, strategy, bankroll, boxes, account, bonus_bet, rounds, count, stop_loss,
    stop_win, share_cards, seed, threads, plot, out, as_json, progress,
) -> None:  # fmt: skip
    """Play SESSIONS sessions of VARIANT from a bankroll, up to ROUNDS rounds each, with a
    stop-loss and a stop-win: the final bankroll's distribution, the probability of
    ruin, the time to ruin, the largest drawdown. The bankroll rule holds within each
    round (a draw the BET could not follow is refused, an unpaid BET is a fold).
    """
    if bonus_bet and account is None:
        raise InputError("--bonus-bet needs --account")
    for path in (plot, out):
        if path:
            _check_writable(path)
    game = load_variant(variant)
    antes = (1.0,) * boxes if isinstance(boxes, int) else boxes
    plan = StakePlan(antes, (bonus_bet,) * len(antes) if bonus_bet else (), account)
    show = sys.stderr.isatty() if progress is None else progress
    with tqdm(total=count, unit=" sessions", disable=not show, file=sys.stderr) as bar:
        result = sessions(
            game, strategy, bankroll=bankroll, boxes=plan, rounds=rounds, count=count,
            stop_loss=stop_loss, stop_win=stop_win, share_seen=share_cards, seed=seed,
            threads=threads, progress=lambda done: bar.update(done - bar.n),
        )  # fmt: skip
    if result.count == 0:
        click.echo("interrupted before any session finished", err=True)
        sys.exit(130)
    data = result.to_json()
    if out:
        write_json(out, data)
    if plot:
        result.plot(plot)
    if result.interrupted:
        click.echo(f"interrupted: {result.count:,} of {count:,} sessions played", err=True)
    if as_json:
        print_json(data)
    else:
        click.echo(
            f"{game.title} ({game.name}), strategy {result.strategy.name}, seed {seed}: "
            f"{result.count:,} sessions of up to {rounds:,} rounds from {bankroll:g}"
        )
        _print_figures(result.summary)
        _print_frame(result.endings(), "how the sessions ended")
        _print_frame(result.final_distribution(), "quantiles")
    if result.interrupted:
        sys.exit(130)


@main.command("compare")
@click.argument("variant")
@click.option(
    "--strategy",
    "-s",
    "strategies",
    multiple=True,
    required=True,
    help="Two or more strategies (names or .toml files); differences are from the first.",
)
@click.option("--rounds", "-n", default="1M", show_default=True, type=RoundCount())
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option("--threads", type=click.IntRange(1), help="numba threads (default: all).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the comparison as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
@cluster_option
def compare_command(variant, strategies, rounds, seed, threads, out, as_json) -> None:
    """Play every strategy on the same ROUNDS deals of VARIANT: each one's RTP and its
    difference from the first one's, with a standard error from paired blocks."""
    if out:
        _check_writable(out)
    comparison = compare(variant, list(strategies), rounds, seed=seed, threads=threads)
    data = comparison.to_json()
    if out:
        write_json(out, data)
    if as_json:
        print_json(data)
        return
    click.echo(f"{variant}: {rounds:,} deals of seed {seed}, differences from {strategies[0]}")
    _print_frame(comparison.table, "strategies on the same deals")


def _check_writable(path: str) -> None:
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise InputError(f"--out {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK):
        raise InputError(f"--out {path}: cannot write in {folder}")


def seed_option(text: str) -> Callable:
    """The --seed option of a command that samples."""
    return click.option(
        "--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0), help=text
    )


@main.command("advise")
@click.argument("variant")
@click.argument("hand")
@click.option("--up", "upcard", required=True, help="The dealer's upcard, e.g. Qh.")
@click.option("--dealer", help="The dealer's five cards (not qualifying): buy him a game?")
@click.option(
    "--seen",
    help="Other cards the player has seen (his other boxes, his discards), dead for his "
    "draws and for the dealer.",
)
@click.option(
    "--game/--no-game",
    "count_game",
    default=True,
    help="Count buying the non-qualifying dealer a game in every option's EV, where the "
    "game offers it (default; minutes for the long exchanges of russian and "
    "six-card-125).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def advise_command(variant, hand, upcard, dealer, seen, count_game, as_json) -> None:
    """Exact EV of every option for HAND (5 cards, or 6 after a buy) against the upcard,
    and what each costs against the best (ev lost).

    EVs are in antes per initial ante, fees included. Where the dealer may be bought
    a game, it is bought exactly when worth it on his whole hand, and the column game
    gives what that adds to the EV (ask with --dealer for the decision itself).
    """
    game = load_variant(variant)
    with tqdm(
        total=1, disable=not sys.stderr.isatty(), desc="final hands", unit_scale=True
    ) as bar:

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        frame = advise(game, hand, upcard, dealer, seen, count_game, progress)
    if as_json:
        print_json(
            {
                "variant": game.name,
                "hand": format_cards(parse_cards(hand)),
                "upcard": format_cards(parse_cards(upcard)),
                "dealer": format_cards(parse_cards(dealer)) if dealer else None,
                "seen": format_cards(parse_cards(seen)) if seen else None,
                "options": frame.to_dict(orient="records"),
            }
        )
        return
    frame["best"] = frame["best"].map({True: "<- best", False: ""})
    _print_frame(
        frame,
        f"{variant}: {format_cards(parse_cards(hand))}, upcard "
        f"{format_cards(parse_cards(upcard))}"
        + (f", seen {format_cards(parse_cards(seen))}" if seen else ""),
    )


@main.command("exact")
@click.argument("variant")
@click.option(
    "--strategy",
    "-s",
    help="optimal (the default; with draws where at most two cards are drawn), "
    "optimal-no-draws (the default where more may be exchanged), or a strategy without "
    "draws (name or .toml file).",
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    help="Write the table, summary and chart here (default: results/VARIANT); a long "
    "analysis keeps its finished ranges in its optimal-ranges folder meanwhile.",
)
@click.option(
    "--restart",
    is_flag=True,
    help="Discard the finished ranges of an earlier, interrupted run (by default it is resumed).",
)
@click.option(
    "--table",
    type=click.Path(dir_okay=False),
    help="Also write the table of best first options (optimal play with draws) here.",
)
@click.option(
    "--classes",
    type=click.IntRange(min=1),
    help="Optimal play with draws: weigh only the deals of the first N classes of hands "
    "(a partial analysis, for checks; no table is kept).",
)
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    help="Optimal play where more than two cards may be exchanged: situations weighed "
    "to measure what the longer exchanges add (default 2000; 1 to 2 s each here).",
)
@click.option(
    "--short-draws",
    type=int,
    help="Optimal play where more than two cards may be exchanged: the longest exchange "
    f"of the enumerated game, 0 to {SHORT_DRAWS} (default {SHORT_DRAWS}); with 0 only "
    "folding, playing and buying are enumerated and every exchange is measured on the "
    "samples, which is faster where exchanges matter most (Russian).",
)
@click.option(
    "--thin",
    type=int,
    help="Optimal play where more than two cards may be exchanged: of the situations drawn "
    "whose proxy gain is zero, weigh one in K (default 1: all). Their difference to the "
    "proxy varies least, so with 8 an interval takes about half the samples in Russian, "
    "a twentieth in 6 Card Poker 1-2-5 and oasis-classic.",
    metavar="K",
)
@click.option(
    "--control",
    is_flag=True,
    help="Optimal play where more than two cards may be exchanged: measure the samples "
    "against the control (the proxy with the discards' removal ramped past the fold "
    "line; a second pass over every situation, about as long as the proxy's), whose "
    "difference varies about three times less in Russian.",
)
@click.option(
    "--by-bound",
    is_flag=True,
    help="Optimal play where more than two cards may be exchanged: draw the situations as "
    "often as they are dealt times their proven bound, each weighed back (never those "
    "bounded to no gain): the interval that needs no normal approximation narrows 3 to "
    "17 times for as many samples.",
)
@seed_option("Seed of the samples.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
@cluster_option
def exact_command(
    variant,
    strategy,
    out_dir,
    restart,
    table,
    classes,
    samples,
    short_draws,
    thin,
    control,
    by_bound,
    seed,
    as_json,
) -> None:
    """Weigh every deal of VARIANT exactly: integer counts per outcome, house edge,
    element of risk, standard deviation, and for optimal play the strategy.

    Where more than two cards may be exchanged, ``-s optimal`` enumerates the game
    with draws of at most two cards (a lower bound) and measures what the longer
    exchanges add on sampled situations, against a proxy weighed on every situation;
    it gives a 99.9% interval by the normal approximation and one without it."""
    game = load_variant(variant)
    folder = Path(out_dir or Path("results") / game.name)
    bar, progress = _stages_bar(game.name)

    try:
        result = exact_analysis(
            game,
            strategy,
            folder=folder,
            restart=restart,
            table=Path(table) if table else None,
            classes=classes,
            samples=samples,
            short_draws=short_draws,
            thin=thin,
            control=control,
            by_bound=by_bound,
            seed=seed,
            progress=progress,
        )
    except KeyboardInterrupt:
        bar.close()
        click.echo(
            f"interrupted: what finished is kept in {folder}; run the same command to resume",
            err=True,
        )
        sys.exit(130)
    except OSError as error:
        raise InputError(f"cannot write {error.filename}: {error.strerror}") from None
    finally:
        bar.close()
    _write_files(folder, analysis_files(result))
    if as_json:
        print_json(result.to_json())
    elif isinstance(result, SampledOptimum):
        _print_sampled(game, result)
    else:
        click.echo(
            f"{game.title} ({game.name}), strategy {result.strategy}: every deal weighed "
            f"({result.seconds:.1f} s)"
        )
        _print_figures(result.summary)
        _print_frame(result.table, "return table")


def _stages_bar(name: str) -> tuple[tqdm, Callable[[str, int, int], None]]:
    """A progress bar on a terminal, and its ``progress(stage, done, total)``: each new
    stage starts the bar again."""
    bar = tqdm(total=1, disable=not sys.stderr.isatty(), desc=name)
    stages = []

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in stages:
            stages.append(stage)
            bar.reset(total)
            bar.set_description(f"{name}, {stage}")
        bar.update(done - bar.n)

    return bar, progress


def _write_files(folder: Path, files: dict[str, dict | str]) -> None:
    """Write each file into ``folder``: JSON for a dict, else the text."""
    try:
        for name, content in files.items():
            if isinstance(content, dict):
                write_json(folder / name, content)
            else:
                write_atomic(folder / name, content)
    except OSError as error:
        raise InputError(f"cannot write to {folder}: {error.strerror}") from None


def _print_sampled(game, result: SampledOptimum) -> None:
    short = result.short_game
    click.echo(
        f"{game.title} ({game.name}), optimal play: the game with {short} enumerated, "
        f"{result.samples:,} situations sampled ({result.seconds:.1f} s)"
    )
    _print_figures(result.summary())
    click.echo(f"\nthe game with {short}, every deal weighed")
    _print_figures(result.short.summary)
    _print_frame(result.short.table, "its return table")


@main.command("protect")
@click.argument("variant")
@click.option(
    "--hole",
    type=click.IntRange(0, 4),
    help="Only this many of the dealer's hole cards seen (nothing written).",
)
@click.option(
    "--shared",
    type=click.IntRange(0, 4),
    help="Only this many other players' hands seen (nothing written).",
)
@click.option(
    "--next-card",
    is_flag=True,
    help="Only the next card of the deck seen before the draw, in games with exchanges "
    "(nothing written).",
)
@click.option(
    "--exchange-card",
    is_flag=True,
    help="Only the card the dealer's exchange brings seen before buying his game, in "
    "games that sell it (nothing written).",
)
@click.option(
    "--exchange-rounds",
    default=protection.EXCHANGE_ROUNDS,
    show_default=True,
    type=click.IntRange(min=2 * 4096),
    help="Rounds played each way, seeing the dealer's exchange card and not (Six-Card's "
    "optimal play: about 35 s a side here); where optimal play is sampled (Russian, "
    "1-2-5), the control's paired rounds.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    help="Situations sampled where 2 or 3 hole cards are seen (default 1,000,000; about "
    "50 s per million here), or for any --hole given it; in games with exchanges for 1 "
    "to 4 and the next card (default 100,000: 1 to 3 minutes each); where exchanges "
    "reach five cards (Russian, 1-2-5, oasis-classic) for every row at once, hole cards, "
    "other hands and the next card (default 1,000: 5 to 9 s each here, measured on 150).",
)
@click.option(
    "--shared-samples",
    type=click.IntRange(min=2),
    help="Situations sampled per number of other hands seen (default 200,000: about 4 "
    "minutes with four hands; in games with exchanges 20,000: 1 to 6 minutes).",
)
@seed_option("Seed of the sampled situations.")
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    help="Where protection.json and .txt go (default: results/VARIANT); where exchanges "
    "reach five cards, also the situations weighed (protection-samples-seedS.npz), which a "
    "later run with more --samples extends.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def protect_command(
    variant, hole, shared, next_card, exchange_card, exchange_rounds, samples, shared_samples,
    seed, out_dir, as_json,
):  # fmt: skip
    """What leaked and shared cards are worth in VARIANT: the RTP under optimal play when
    the player also sees 0 to 4 of the dealer's hole cards (a flashed or marked card, a
    hand seen whole), when he sees 0 to 4 other players' hands and, in games with
    draws, the next card of the deck before he decides; where the dealer's game is sold,
    the RTP when the card his exchange brings is seen before buying it. Without a
    table's option, every table, written to results/VARIANT/protection.json and .txt."""
    if (hole is not None) + (shared is not None) + next_card + exchange_card > 1:
        raise InputError("give one of --hole, --shared, --next-card and --exchange-card, not more")
    game = load_variant(variant)
    folder = Path(out_dir or Path("results") / game.name)
    bar, progress = _stages_bar(game.name)
    with bar:
        if hole is not None:
            stage = functools.partial(progress, f"{hole} hole cards seen")
            row = protection.hole_card_rtp(game, hole, samples=samples, seed=seed, progress=stage)
            tables = {"hole_cards": pd.DataFrame([row])}
        elif shared is not None:
            stage = functools.partial(progress, f"{shared} other hands seen")
            row = protection.shared_hands_rtp(
                game, shared, samples=shared_samples, seed=seed, progress=stage
            )
            tables = {"shared_hands": pd.DataFrame([row])}
        elif next_card:
            stage = functools.partial(progress, "next card seen")
            row = protection.flashed_card_rtp(game, 1, samples=samples, seed=seed, progress=stage)
            tables = {"next_card": pd.DataFrame([row])}
        elif exchange_card:
            stage = functools.partial(progress, "exchange card seen")
            rows = protection.exchange_card_rtp(
                game, rounds=exchange_rounds, seed=seed, progress=stage
            )
            tables = {"dealer_exchange": pd.DataFrame(rows)}
        else:
            tables = protection.protection_tables(
                game, samples=samples, shared_samples=shared_samples, seed=seed,
                progress=progress, exchange_rounds=exchange_rounds, folder=folder,
            )  # fmt: skip
    shown = {name: protection.shown(name, table) for name, table in tables.items()}
    data = {
        "software": software(),
        "variant": game.record(),
        "what": "RTP when the player also sees more cards, under optimal play unless a "
        "table's rows name their strategy",
        "methods": protection.methods(game),
        "seed": seed,
    } | {name: table.to_dict(orient="records") for name, table in tables.items()}
    if hole is None and shared is None and not next_card and not exchange_card:
        text = "".join(
            f"{game.title} ({game.name}), {_played(table)} play, {protection.TABLES[name][1]} "
            f"(studsim {__version__}, seed {seed})\n\n"
            + table.to_string(index=False, float_format=lambda x: f"{x:.6f}")
            + "\n\n"
            for name, table in shown.items()
        ) + "".join(f"{name}: {text}\n" for name, text in protection.methods(game).items())
        _write_files(folder, {"protection.json": data, "protection.txt": text})
    if as_json:
        print_json(data)
        return
    click.echo(f"{game.title} ({game.name}): play seeing more cards")
    for name, table in shown.items():
        _print_frame(table, protection.TABLES[name][1])


def _played(table: pd.DataFrame) -> str:
    """The strategy of a protection table: optimal, or the one its rows name."""
    return table["strategy"].iloc[0] if "strategy" in table else "optimal"


@main.command("game-buy")
@click.argument("variant")
@click.option(
    "--samples",
    type=click.IntRange(min=0),
    help="Where the whole game is weighed (Six-Card): situations on which the first "
    "decisions are weighed again for the game, in all (those already measured with the "
    "seed are kept, the rest dealt within strata of the five cards' category; 1 to 15 s "
    "each here; default: those kept).",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=2),
    help="Where optimal play is sampled (Russian, 1-2-5): rounds dealt for each sampled "
    f"situation (default {SITUATION_ROUNDS:,}). Where the whole game is weighed: paired "
    "rounds of the game's measurement, played again if they differ from the kept one's.",
)
@seed_option("Seed of the sampled situations, or of the rounds dealt for them.")
@click.option(
    "--table",
    type=click.Path(dir_okay=False),
    help="Also keep the measurement in this file (the shipped copy of its table).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def game_buy_command(variant, samples, rounds, seed, table, as_json) -> None:
    """What buying the non-qualifying dealer a game adds to optimal play in VARIANT.

    Where the whole game is weighed (Six-Card): optimal play simulated on paired deals
    (kept with the table of the whole game) and, on --samples situations, the first
    decisions and the choices after a buy weighed again for the game (every EV exact),
    which turns the lower bound into an estimate. Where optimal play is sampled
    (Russian, 1-2-5): each sampled situation played again on --rounds rounds with its
    best option, the game bought exactly (a lower bound). Blocks are kept as they
    finish; an interrupted run resumes where it stopped."""
    game = load_variant(variant)
    path = Path(table) if table else None
    if game.buy_game is None:
        raise InputError(f"{game.name}: the dealer's game cannot be bought")
    if supports_exact_draws(game):
        record = _game_buy_weighed(game, samples, seed, path, rounds)
    elif samples:
        raise InputError(
            f"--samples: {game.name}'s first decisions are sampled already; --rounds sets "
            "the rounds of each sampled situation"
        )
    else:
        bar, progress = _stages_bar(game.name)
        try:
            stage = functools.partial(progress, "situations")
            sampled = saved_sampled_optimum(game)
            if sampled is None:
                raise InputError(
                    f"{game.name}: no sampled optimum to measure the game on (studsim exact "
                    f"{game.name} -s optimal)"
                )
            gain = sampled_game_gain(
                sampled, rounds or SITUATION_ROUNDS, seed=seed, path=path, progress=stage
            )
        except KeyboardInterrupt:
            click.echo("interrupted: the finished blocks are kept; run again to resume", err=True)
            sys.exit(130)
        finally:
            bar.close()
        record = {"rtp_without_game": sampled.summary()["rtp"], **gain.record(sampled)}
    if as_json:
        print_json({"variant": game.record(), "software": __version__, **record})
        return
    click.echo(f"{game.title} ({game.name}), optimal play and the dealer's game")
    rows = [{"figure": figure, "value": _shown(value)} for figure, value in _game_rows(record)]
    print_table(rows, ["figure", "value"], right=["value"])
    if strata := record.get("first_decisions", {}).get("strata"):
        _print_frame(pd.DataFrame(strata), "first decisions weighed for the game, by stratum")


def _game_buy_weighed(game, samples: int, seed: int, path: Path | None, rounds) -> dict:
    """The game's gain where the whole game is weighed: played again on ``rounds``
    paired rounds if given and not those kept, its first decisions weighed again on
    ``samples`` situations."""
    exact = optimal_result(game)
    gain = saved_game_gain(game)
    if exact is None or gain is None:
        raise InputError(
            f"{game.name}: no measured game buy with a table of the whole game (studsim "
            f"exact {game.name} -s optimal)"
        )
    try:
        if rounds is not None and rounds != gain.rounds:
            with tqdm(total=2 * rounds, disable=not sys.stderr.isatty(), desc="rounds") as bar:
                gain = with_rounds(
                    game, gain, rounds, path=path,
                    progress=lambda done, total: bar.update(done - bar.n),
                )  # fmt: skip
        if samples is None:
            kept = gain.decisions
            samples, seed = (0, seed) if kept is None else (len(kept), kept.seed)
        with tqdm(total=samples, disable=not sys.stderr.isatty(), desc="situations") as bar:
            gain = with_first_decisions(
                game, gain, samples, seed=seed, path=path,
                progress=lambda done, total: bar.update(done - bar.n),
            )  # fmt: skip
    except KeyboardInterrupt:
        click.echo("interrupted: the finished blocks are kept; run again to resume", err=True)
        sys.exit(130)
    return {"rtp_without_game": exact.summary["rtp"], **gain.record(exact.summary["rtp"])}


def _game_rows(record: dict) -> list[tuple[str, object]]:
    """The rows of ``game-buy``'s table."""
    sampled = "situations" in record
    rows = [
        (
            "rtp, the game never bought" + (" (sampled)" if sampled else " (exact)"),
            record["rtp_without_game"],
        ),
        ("gain, the game bought exactly (simulated)", record["gain"]),
        ("  its standard error", record["gain_standard_error"]),
    ]
    if sampled:
        rows += [
            ("  of it, betting or folding the five cards (whole game)", record["control_gain"]),
            ("  situations", f"{record['situations']:,}"),
            ("  rounds per situation", f"{record['rounds_per_situation']:,}"),
            ("  share of rounds the game is bought", record["game_bought"]),
        ]
    else:
        rows.append(("  paired rounds", f"{record['rounds']:,}"))
    if decisions := record.get("first_decisions"):
        changed = f"{decisions['samples']:,} ({decisions['situations_changed']:,})"
        if decisions["strata"]:
            changed += ", in strata"
        rows += [
            ("gain, first decisions weighed for it (sampled)", decisions["gain"]),
            ("  its standard error", decisions["gain_standard_error"]),
            ("  situations (where the choice changes)", changed),
        ]
    low, high = record["rtp_interval_999"]
    bound = " (a lower bound)" if record["lower_bound"] else ""
    return [
        *rows,
        (f"rtp, optimal play with the game{bound}", record["rtp"]),
        ("  99.9% interval (normal approximation)", f"{low:.6f} to {high:.6f}"),
    ]


@main.command("derive")
@click.argument("variant")
@click.option(
    "--rules",
    "max_rules",
    default=24,
    show_default=True,
    type=click.IntRange(2, 60),
    help="The most rules of the ladder's last rung (the default rule included); in "
    "Six-Card, at each of the two decisions.",
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    help="Where derived.json, .txt and the charts go (default: results/VARIANT).",
)
@click.option(
    "--strategies-dir",
    type=click.Path(file_okay=False),
    help="Where simple.toml and expert.toml go (default: strategies/VARIANT).",
)
@click.option(
    "--samples",
    default=10_000,
    show_default=True,
    type=click.IntRange(min=100),
    help="Situations dealt at random in a game with exchanges (about 7 ms each here on 2 "
    "threads; where more than two cards may be exchanged, about 17 minutes more for the "
    "control); weighed in parts kept in OUT_DIR/derive-situations-seedSEED.npz as they "
    "finish, so an interrupted run resumes.",
)
@click.option(
    "--held-out",
    type=click.IntRange(min=0),
    help="Situations dealt after those fitted on which each rung's cost is measured, and "
    "the simple and expert rungs chosen (default: as many as --samples).",
)
@seed_option("Seed of the sampled situations and of the check against optimal play.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def derive_command(
    variant, max_rules, out_dir, strategies_dir, samples, held_out, seed, as_json
) -> None:
    """Derive rule strategies a person can follow from VARIANT's exact optimal decisions:
    a ladder from one rule up, each rung with its RTP and its cost against optimal play
    (exact in games of folding or betting; in games with draws, on sampled situations
    each weighed exactly, but exchanges of three or more cards, weighed by the control of
    the sampled optimum); the simple and expert rungs written as strategy files (and
    charts). ``--rules``: the most rules of a decision's ladder."""
    from .derive import derive_ladder, save_derived
    from .derive_draws import derive_draw_ladder

    game = load_variant(variant)
    out_dir = Path(out_dir or Path("results") / game.name)
    if game.has_draws:
        checkpoint = out_dir / f"derive-situations-seed{seed}.npz"
        bar, progress = _stages_bar(game.name)
        try:
            with bar:
                ladder = derive_draw_ladder(
                    game, max_rules, samples, seed, progress=progress, held_out=held_out,
                    checkpoint=checkpoint,
                )  # fmt: skip
        except KeyboardInterrupt:
            click.echo(
                f"interrupted: the situations weighed are kept in {checkpoint}; "
                "run the same command to resume",
                err=True,
            )
            sys.exit(130)
    else:
        ladder = derive_ladder(game, max_rules)
    data, written = save_derived(
        ladder,
        out_dir,
        Path(strategies_dir or Path("strategies") / game.name),
        f"{game.title} ({game.name})",
    )
    if as_json:
        print_json(data)
        return
    click.echo(f"{game.title} ({game.name}): rule strategies from the optimal decisions")
    _print_frame(ladder.table, "the ladder (each rung adds a rule)")
    _print_figures(_derived_figures(data, game.buy_game is not None))
    click.echo("written: " + ", ".join(str(path) for path in written.values()))


def _derived_figures(data: dict, game_sold: bool) -> dict[str, float]:
    """Optimal play's RTP and each shipped rung's, like for like: where the dealer's game
    is sold, the ladder weighs it never bought, and the rungs are also played buying it."""
    never = ", game never bought" if game_sold else ""
    figures = {f"optimal rtp{never}": data["optimal_rtp"]}
    for name, row in data["shipped"].items():
        label = f"{name} ({row['rules']} rules)"
        if game_sold:
            figures[f"{label} rtp{never}"] = row["rtp_game_never_bought"]
        figures[f"{label} rtp" + (", game bought exactly" if game_sold else "")] = row["rtp"]
    return figures


@main.command("optimize")
@click.argument("variant")
@click.option(
    "--from",
    "start",
    metavar="STRATEGY",
    help="Refine this rule strategy (a name or .toml file, e.g. expert) over the whole "
    "strategy language: moves of its rules kept where they gain on the same deals.",
)
@click.option(
    "--rounds",
    "-n",
    default="400k",
    show_default=True,
    type=RoundCount(),
    help="Rounds per candidate (the same deals for every candidate).",
)
@click.option(
    "--check-rounds",
    default="4M",
    show_default=True,
    type=RoundCount(),
    help="Rounds of the check of the winner, on other deals.",
)
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option(
    "--z",
    default=3.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="With --from: a move is kept where it gains more than z paired standard errors.",
)
@click.option(
    "--sweeps",
    default=3,
    show_default=True,
    type=click.IntRange(min=1),
    help="With --from: passes over the moves at most.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Where the winner is written (default: strategies/VARIANT/optimized.toml, with "
    "--from strategies/VARIANT/refined.toml).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
@cluster_option
def optimize_command(variant, start, rounds, check_rounds, seed, z, sweeps, out, as_json) -> None:
    """Search a family of rule-based strategies for VARIANT's best; write it and compare
    it with the exact optimal fold-or-bet play. With --from, refine a rule strategy by
    play instead, and compare the result with it and the shipped strategies."""
    context = click.get_current_context()
    for name in ("z", "sweeps"):
        if not start and context.get_parameter_source(name) is not ParameterSource.DEFAULT:
            raise InputError(f"--{name} goes with --from (a rule strategy to refine)")
    game = load_variant(variant)
    default = "refined.toml" if start else "optimized.toml"
    path = Path(out or Path("strategies") / game.name / default)
    if not path.resolve().parent.is_dir():
        raise InputError(f"--out {path}: no such folder {path.resolve().parent}")
    if start:
        _refine(game, start, rounds, check_rounds, seed, z, sweeps, path, as_json)
        return
    best, strategy, search_rtp = optimize(game, rounds, seed)
    write_atomic(path, best.toml(game))
    check = check_winner(game, strategy, check_rounds, seed + 1)
    gap = check.pop("gap_to_optimal_fold_or_bet_same_deals")
    exact = check.pop("exact_optimal_fold_or_bet_rtp")
    data = {
        "variant": game.name,
        "strategy_file": str(path),
        "strategy": best.describe(game),
        "search": {"rounds": rounds, "seed": seed, "rtp": search_rtp},
        "check": check,
        "gap_to_optimal_fold_or_bet_same_deals": gap,
        "exact_optimal_fold_or_bet_rtp": exact,
    }
    if as_json:
        print_json(data)
        return
    click.echo(f"{game.name}: {best.describe(game)}\nwritten to {path}")
    _print_figures(
        {
            "rtp (check run)": check["rtp"],
            "rtp ci95": check["rtp_ci95"],
            "basic rtp (same deals)": check["basic_rtp"],
            "optimal fold-or-bet rtp (same deals)": check["optimal_fold_or_bet_rtp"],
            "gap to it (same deals)": gap,
            "exact optimal fold-or-bet rtp": exact,
        }
    )


def _refine(game, start, rounds, check_rounds, seed, z, sweeps, path, as_json) -> None:
    """``optimize --from``: the refined strategy written to ``path``, then checked on
    other deals beside its start and the shipped strategies."""
    with tqdm(total=1, disable=not sys.stderr.isatty(), desc="refining") as bar:

        def progress(done: int, total: int, move: str) -> None:
            bar.total = total
            bar.set_postfix_str(move[:40])
            bar.update(done - bar.n)

        refined = refine(game, start, rounds, seed, z, sweeps, progress)
    write_atomic(path, tomli_w.dumps(refined.strategy.data))  # kept should the check stop
    if refined.interrupted:
        click.echo(
            f"interrupted: the best of {refined.tried} candidates ({len(refined.steps)} moves "
            f"kept) written to {path}, not checked",
            err=True,
        )
        sys.exit(130)
    check = check_refined(game, refined, check_rounds, seed + 1)
    write_atomic(path, tomli_w.dumps(refined.checked_data(check)))
    data = {
        "variant": game.name,
        "strategy_file": str(path),
        "search": refined.record(),
        "check": check.to_json(),
    }
    if as_json:
        print_json(data)
        return
    click.echo(
        f"{game.name}: {len(refined.steps)} moves kept from {refined.start.name} "
        f"({refined.tried} candidates played on {rounds:,} deals of seed {seed}); "
        f"written to {path}"
    )
    for step in refined.steps:
        click.echo(f"  {step.gain:+.6f} (SE {step.se:.6f})  {step.move}")
    click.echo(f"check: {check_rounds:,} other deals (seed {seed + 1}), differences from it")
    _print_frame(check.table, "strategies on the same deals")


@main.command("report")
@click.argument("variant")
@click.option("--strategy", "-s", default="basic", show_default=True)
@click.option("--rounds", "-n", default="1M", show_default=True, type=RoundCount())
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder of report.pdf, report.html, report.json and the plots.",
)
@click.option(
    "--boxes",
    type=BoxAntes(),
    help="Add rounds of several boxes: how many, or their antes (10,10,5).",
)
@target_se_option
@click.option(
    "--protection",
    is_flag=True,
    help="Add a section on what seeing the dealer's hole cards or other players' hands is "
    "worth (a few minutes; where exchanges reach five cards about 10 to 15 here).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report's figures as JSON.")
@click.pass_context
@reports_bad_input
@cluster_option
def report_command(
    ctx, variant, strategy, rounds, seed, out_dir, boxes, target_se, protection, as_json
):
    """Write the RTP report of VARIANT under a strategy: PDF and HTML (with --boxes, a
    section on several boxes against one dealer)."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a folder")
    if not out.resolve().parent.is_dir():
        raise InputError(f"--out {out}: no such folder {out.resolve().parent}")
    if not os.access(out.resolve().parent, os.W_OK):
        raise InputError(f"--out {out}: cannot write in {out.resolve().parent}")
    game = load_variant(variant)
    plan = load_strategy(strategy, game)
    if boxes is not None:
        stake_plan(game, boxes)  # a plan breaking the rules fails before any round is played
    with _to_precision(ctx, rounds, target_se) as most:
        report = build_report(
            game, plan, most, seed, boxes=boxes, target_se=target_se, protection=protection
        )
    write_report(report, out)
    if as_json:
        print_json(report.figures)
        return
    click.echo(f"{game.title}, strategy {plan.name}: report written to {out}")
    _print_figures(
        {
            k: v
            for k, v in report.figures.items()
            if isinstance(v, float | int | list)
            and k not in ("rtp_by_stake", "jurisdictions", "boxes", "protection")
        }
    )


@main.command("results")
@click.option(
    "--size",
    type=click.Choice(sorted(SIZES)),
    default="full",
    show_default=True,
    help="Rounds per run: small (CI) or full.",
)
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option("--out-dir", default="results", show_default=True, type=click.Path(file_okay=False))
@click.option(
    "--readme",
    default="README.md",
    show_default=True,
    help="README whose results table is rewritten ('' for none).",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    help="Only this variant (repeatable); the other variants' rows of the table are kept.",
)
@reports_bad_input
def results_command(size, seed, out_dir, readme, variants) -> None:
    """Regenerate the results folder: every variant's report, summary and plots."""
    names = [load_variant(name).name for name in variants]  # checked before any work
    summary = regenerate_results(
        out_dir,
        size,
        seed,
        readme or None,
        variants=names or None,
        progress=lambda name: click.echo(f"{name}...", err=True),
    )
    click.echo(headline_markdown(summary), nl=False)


@main.group()
def bench() -> None:
    """Benchmarks, measured beside peer libraries in the same run."""


@bench.command("eval")
@click.option("--hands", default=2_000_000, show_default=True, type=click.IntRange(1_000))
@click.option("--peer-hands", default=100_000, show_default=True, type=click.IntRange(100))
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option("--repeats", default=3, show_default=True, type=click.IntRange(1))
@click.option(
    "--out-dir",
    default="results/benchmarks",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where eval.json and eval.txt are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bench_eval_command(hands, peer_hands, seed, repeats, out_dir, as_json) -> None:
    """Hand evaluations per second: studsim, eval7, treys, phevaluator."""
    from .bench import bench_eval, format_eval_report

    result = bench_eval(hands, min(peer_hands, hands), seed, repeats)
    _write_benchmark(out_dir, "eval", result, format_eval_report(result), as_json)


@bench.command("simulate")
@click.option("--rounds", default="2M", show_default=True, type=RoundCount())
@click.option("--repeats", default=3, show_default=True, type=click.IntRange(1))
@click.option("--python-rounds", default="100k", show_default=True, type=RoundCount())
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0))
@click.option(
    "--out-dir",
    default="results/benchmarks",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where simulate.json and .txt are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bench_simulate_command(rounds, repeats, python_rounds, seed, out_dir, as_json) -> None:
    """Rounds per second of every variant, beside a plain Python loop over eval7."""
    from .bench import bench_simulate, format_simulate_report

    result = bench_simulate(rounds, python_rounds, seed, repeats)
    _write_benchmark(out_dir, "simulate", result, format_simulate_report(result), as_json)


@bench.command("cluster")
@click.option("--rounds", default="8M", show_default=True, type=RoundCount())
@click.option(
    "--exact-classes",
    default=2048,
    show_default=True,
    type=click.IntRange(1, 134_459),
    help="Hand classes of Oasis weighed exactly per setup (ranges of 1,024).",
)
@click.option("--repeats", default=3, show_default=True, type=click.IntRange(1))
@seed_option("Seed of the simulated rounds.")
@click.option(
    "--out-dir",
    default="results/benchmarks",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where cluster.json and .txt are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def bench_cluster_command(rounds, exact_classes, repeats, seed, out_dir, as_json) -> None:
    """Rounds and exact situations per second here and on 1 and 2 Dask worker processes,
    the scheduler's cost per unit, and a projection of wall time on N machines."""
    from .bench_cluster import bench_cluster, format_cluster_report

    result = bench_cluster(rounds, exact_classes, repeats, seed)
    _write_benchmark(out_dir, "cluster", result, format_cluster_report(result), as_json)


def _write_benchmark(out_dir: str, name: str, result: dict, text: str, as_json: bool) -> None:
    try:
        write_json(Path(out_dir) / f"{name}.json", result)
        write_atomic(Path(out_dir) / f"{name}.txt", text)
    except OSError as error:
        raise InputError(f"cannot write to {out_dir}: {error.strerror}") from None
    if as_json:
        print_json(result)
    else:
        click.echo(text, nl=False)


@bench.command("exact")
@click.option(
    "--variant", "variants", multiple=True, help="Advise and optimal play for these only."
)
@click.option(
    "--out-dir",
    default="results/benchmarks",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where exact.json and .txt are written.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def bench_exact_command(variants, out_dir, as_json) -> None:
    """Time of the full exact caribbean analysis, advise latency per variant and the
    optimal strategy's throughput per variant with draws."""
    from .bench import bench_exact, format_exact_report

    for name in variants:
        load_variant(name)
    result = bench_exact(list(variants) or None)
    _write_benchmark(out_dir, "exact", result, format_exact_report(result), as_json)
