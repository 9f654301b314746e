import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    pytest.importorskip("ruff")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_doctests():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--doctest-modules",
            "-q",
            "-p",
            "no:cacheprovider",
            str(ROOT / "simulate"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:]
