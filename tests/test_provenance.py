"""What identifies the build: recorded when the package is installed, never looked up
at run time (a copy installed inside another git repository states its own commit)."""

import re
import subprocess
import sys
from pathlib import Path

from simulate.provenance import software

ROOT = Path(__file__).resolve().parents[1]


def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True).stdout


def test_an_install_inside_another_repository_records_its_own_commit(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    _git("init", "-q", cwd=other)
    (other / "a").write_text("a")
    _git("add", "a", cwd=other)
    _git("-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "a", cwd=other)
    target = other / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps",
         "--target", str(target), str(ROOT)],
        check=True, cwd=other, capture_output=True,
    )  # fmt: skip
    stamped = (target / "simulate" / "_version.py").read_text()
    commit = re.search(r"__commit_id__ = commit_id = 'g([0-9a-f]+)'", stamped).group(1)
    assert _git("rev-parse", "HEAD").startswith(commit)
    assert not _git("rev-parse", "HEAD", cwd=other).startswith(commit)
    changed = bool(_git("status", "--porcelain", "--untracked-files=no").strip())
    assert (".d" in stamped.split("+", 1)[1].split("'")[0]) == changed


def test_outputs_record_the_version_and_the_commit():
    build = software()
    assert set(build) == {"studsim", "commit", "tree_changed"}
    assert build["commit"] is None or re.fullmatch("[0-9a-f]{7,40}", build["commit"])
