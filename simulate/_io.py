"""Writing result files: whole or not at all."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file, so that a reader
    (or an interrupted run) never sees half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", dir=path.parent, prefix=f".{path.name}.", delete=False, encoding="utf-8"
    ) as tmp:
        tmp.write(text)
    os.replace(tmp.name, path)
    return path


def write_json(path: str | Path, data) -> Path:
    """Write ``data`` as indented JSON, atomically."""
    return write_atomic(path, json.dumps(data, indent=2) + "\n")


def write_npz(path: str | Path, **arrays) -> Path:
    """Write arrays to a compressed ``.npz`` file, atomically."""
    import numpy as np

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", suffix=".npz", delete=False
    ) as tmp:
        np.savez_compressed(tmp, **arrays)
    os.replace(tmp.name, path)
    return path
