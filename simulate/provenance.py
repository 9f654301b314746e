"""Which build of studsim made an output: its version, commit and whether the source
tree had changes, recorded when the package was built or installed (never looked up at
run time, so a copy installed inside another repository states its own commit)."""

from __future__ import annotations

__all__ = ["__version__", "software"]

try:
    from ._version import __commit_id__, __version__
except ImportError:  # a source tree that was never installed
    __version__, __commit_id__ = "0+unknown", None


def software() -> dict:
    """The build, as outputs record it: ``studsim`` (the version), ``commit`` (None when
    not built from a git checkout) and ``tree_changed`` (whether the checkout had
    uncommitted changes then)."""
    local = __version__.partition("+")[2].split(".")  # "gHASH" and, if changed, "dDATE"
    return {
        "studsim": __version__,
        "commit": __commit_id__.removeprefix("g") if __commit_id__ else None,
        "tree_changed": None if __commit_id__ is None else any(p[:1] == "d" for p in local),
    }
