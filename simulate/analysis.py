"""The exact analysis of a variant under a strategy: which method weighs it, the run
(resumed from its checkpoints), and the files it leaves in its folder.

>>> [analysis_method(load_variant(name), "optimal") for name in ("caribbean", "oasis", "russian")]
['no-draws', 'with-draws', 'sampled']

Three methods: every deal enumerated without draws (a strategy that folds or
bets, or ``optimal-no-draws``); the whole game with every draw weighed
(``optimal`` where at most two cards are exchanged); and where more may be
exchanged, the game with draws of at most two cards enumerated plus sampled
situations (``optimal``). The last two keep finished work in the folder, so an
interrupted run resumes.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from .cluster import takes_client
from .exact import ExactResult, exact_game
from .game_buy import game_buy_gain, save_game_gain
from .optimal_game import (
    after_buy_table,
    default_exact_strategy,
    exact_optimal_game,
    save_table,
    supports_exact_draws,
)
from .optimal_sampled import (
    SHORT_DRAWS,
    THIN,
    SampledOptimum,
    discard_sampled,
    run_suffix,
    sampled_optimum,
    save_sampled_optimum,
)
from .simulation import DEFAULT_SEED
from .variant import Variant, load_variant

__all__ = ["DEFAULT_SAMPLES", "analysis_files", "analysis_method", "exact_analysis"]

DEFAULT_SAMPLES = 2000
Progress = Callable[[str, int, int], None]
"""Called with (stage, done, total) as an analysis advances."""


def analysis_method(variant: Variant, strategy: str) -> str:
    """``"sampled"``, ``"with-draws"`` or ``"no-draws"``: how ``exact_analysis`` weighs
    the strategy (a strategy file or ``optimal-no-draws`` is weighed without draws)."""
    if strategy == "optimal" and variant.has_draws:
        return "with-draws" if supports_exact_draws(variant) else "sampled"
    return "no-draws"


@takes_client
def exact_analysis(
    variant: Variant | str,
    strategy: str | None = None,
    *,
    folder: Path | None = None,
    restart: bool = False,
    table: Path | None = None,
    classes: int | None = None,
    samples: int | None = None,
    short_draws: int | None = None,
    thin: int | None = None,
    control: bool = False,
    by_bound: bool = False,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
) -> ExactResult | SampledOptimum:
    """Weigh ``strategy`` (default: optimal play, with draws where they can be
    enumerated) exactly. Finished ranges and samples are kept in ``folder`` (default
    ``results/VARIANT``) as they finish; a run resumes them unless ``restart``.
    ``table``: also write the shipped table there; ``classes``: only the first N hand
    classes (a partial check, no table); ``samples``: situations sampled where more
    than two cards are exchanged; ``short_draws``: there, the longest exchange of the
    enumerated game (default ``SHORT_DRAWS``; 0 to 2); ``thin``: there, weigh one in
    ``thin`` of the situations drawn whose proxy gain is zero (default all);
    ``control``: there, measure the samples against the control, not the proxy;
    ``by_bound``: there, draw the situations by their proven bound (not with ``thin``).
    Raises ValueError on an impossible combination."""
    variant = load_variant(variant)
    folder = Path(folder or Path("results") / variant.name)
    strategy = strategy or default_exact_strategy(variant)
    method = analysis_method(variant, strategy)
    sampling = samples or short_draws is not None or thin is not None or control or by_bound
    if sampling and method != "sampled":
        raise ValueError(
            "samples, short draws, thinning, the control and sampling by the bound go with "
            "optimal play where 3 or more cards are exchanged"
        )
    if thin is not None and thin < 1:
        raise ValueError(f"thin: one in 1 or more situations is weighed, not {thin}")
    if by_bound and (thin or THIN) != THIN:
        raise ValueError("thin: situations sampled by the bound are never thinned")
    if short_draws is not None and not 0 <= short_draws <= SHORT_DRAWS:
        raise ValueError(
            f"short draws: 0 to {SHORT_DRAWS} cards can be enumerated, not {short_draws}"
        )
    if method == "no-draws" and (classes or table):
        raise ValueError(
            "classes and a table go with optimal play with draws (Oasis, Six-Card, and "
            "the sampled analyses)"
        )
    if classes and table:
        raise ValueError("a partial analysis (classes) keeps no table")
    if method == "sampled":
        split = SHORT_DRAWS if short_draws is None else short_draws
        run = (samples or DEFAULT_SAMPLES, split, thin or THIN, control, by_bound, seed)
        return _sampled(variant, folder, restart, table, classes, run, progress)
    if method == "with-draws":
        return _with_draws(variant, folder, restart, table, classes, progress)
    return exact_game(variant, strategy)


def _with_draws(variant, folder, restart, table, classes, progress) -> ExactResult:
    checkpoints = folder / "optimal-ranges"
    if restart:
        shutil.rmtree(checkpoints, ignore_errors=True)
    report = _stage(progress, "hand classes")
    analysis = exact_optimal_game(variant, checkpoints, progress=report, classes=classes)
    if not classes:
        report = _stage(progress, "choices after a buy")
        after_buy = after_buy_table(variant, analysis.choices, progress=report)
        save_table(variant, analysis, table, after_buy)
        if variant.buy_game:
            gain = game_buy_gain(variant, progress=_stage(progress, "rounds, the dealer's game"))
            save_game_gain(variant, gain, table)
            analysis.result.summary["dealer_game_bought"] = gain.record(
                analysis.result.summary["rtp"]
            )
    shutil.rmtree(checkpoints, ignore_errors=True)
    return analysis.result


def _stage(progress: Progress | None, stage: str) -> Callable[[int, int], None] | None:
    """``progress`` of one stage, called with (done, total)."""
    return (lambda done, total: progress(stage, done, total)) if progress else None


def _sampled(variant, folder, restart, table, classes, run, progress):
    samples, short_draws, thin, control, by_bound, seed = run
    if restart:
        discard_sampled(folder, short_draws, thin, by_bound)
    result = sampled_optimum(
        variant,
        folder,
        samples,
        seed=seed,
        progress=progress,
        short_draws=short_draws,
        classes=classes,
        thin=thin,
        control=control,
        by_bound=by_bound,
    )
    if not classes:
        save_sampled_optimum(result, table)
    return result


def analysis_files(result: ExactResult | SampledOptimum) -> dict[str, dict | str]:
    """The files an analysis leaves in its folder, by name: its JSON record (a dict) and
    its tables (CSV text)."""
    if isinstance(result, SampledOptimum):
        return {
            f"exact-optimal{run_suffix(result.short_draws, result.thin, result.by_bound)}.json": (
                result.to_json()
            ),
            f"exact-optimal-draws{result.short_draws}-table.csv": result.short.table.to_csv(
                index=False
            ),
        }
    stem = f"exact-{result.strategy}"
    files = {
        f"{stem}.json": result.to_json(),
        f"{stem}-table.csv": result.table.to_csv(index=False),
    }
    if result.strategy_chart is not None:
        files[f"{stem}-strategy.csv"] = result.strategy_chart.to_csv()
    return files
