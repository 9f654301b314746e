"""The one-box figures the engine gave before it played several boxes (commit 592b872),
which every later engine must reproduce bit for bit.

``python -m tests.one_box_figures`` rewrites ``tests/data/one-box-figures.json``: only
ever from that commit's engine.
"""

from __future__ import annotations

import json
from pathlib import Path

from simulate.simulation import Stake, run

FIGURES = Path(__file__).parent / "data" / "one-box-figures.json"
RUNS = {
    "caribbean basic": ("caribbean", "basic", {}),
    "caribbean optimal": ("caribbean", "optimal", {}),
    "oasis basic capped": ("oasis", "basic", {"stake": Stake("LITE", 50, 5)}),
    "oasis optimal": ("oasis", "optimal", {}),
    "oasis-classic basic": ("oasis-classic", "basic", {}),
    "russian basic": ("russian", "basic", {}),
    "six-card basic": ("six-card", "basic", {}),
    "six-card optimal": ("six-card", "optimal", {}),
    "six-card-125 basic": ("six-card-125", "basic", {}),
}
ROUNDS = 20_000


def figures(name: str) -> dict:
    """What a user reads of one run: summary, outcomes, decisions, net distribution."""
    variant, strategy, options = RUNS[name]
    result = run(variant, strategy, ROUNDS, seed=11, **options)
    return {
        "summary": result.summary,
        "outcomes": result.outcomes.to_dict(orient="records"),
        "decisions": result.decisions.to_dict(orient="records"),
        "net_distribution": result.net_distribution().to_dict(orient="records"),
    }


if __name__ == "__main__":
    FIGURES.write_text(json.dumps({name: figures(name) for name in RUNS}) + "\n")
