"""Writing result files: whole or not at all."""

from __future__ import annotations

import json
import math
import os
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np


@contextmanager
def _replaced(path: Path, mode: str = "wb", **options) -> Iterator:
    """A temporary file beside ``path`` that replaces it once written, so that a reader
    (or an interrupted run) never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        mode, dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix, delete=False,
        **options,
    ) as tmp:  # fmt: skip
        yield tmp
    os.chmod(tmp.name, 0o666 & ~_umask())  # as an ordinary file would be
    os.replace(tmp.name, path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path``, atomically."""
    path = Path(path)
    with _replaced(path, "w", encoding="utf-8") as tmp:
        tmp.write(text)
    return path


def write_json(path: str | Path, data) -> Path:
    """Write ``data`` as indented JSON, atomically; a number that is not finite (NaN,
    infinity) is written as null, which JSON readers accept."""
    return write_atomic(path, json.dumps(finite(data), indent=2) + "\n")


def finite(data):
    """``data`` with every float that is not finite replaced by None."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite(value) for value in data]
    return data


def write_npz(path: str | Path, compress: bool = True, **arrays) -> Path:
    """Write arrays to an ``.npz`` file (compressed unless not ``compress``), atomically."""
    path = Path(path)
    with _replaced(path) as tmp:
        (np.savez_compressed if compress else np.savez)(tmp, **arrays)
    return path


def write_figure(path: str | Path, figure, dpi: int = 120) -> Path:
    """Save a matplotlib figure, in the format its suffix names, atomically (a PDF
    without its creation date, so the same figure gives the same file)."""
    path = Path(path)
    kind = path.suffix.lstrip(".") or "png"
    metadata = {"CreationDate": None} if kind == "pdf" else None
    with _replaced(path) as tmp:
        figure.savefig(tmp, format=kind, dpi=dpi, metadata=metadata)
    return path


def read_npz(path: str | Path | None) -> dict | None:
    """The arrays of an ``.npz`` file, or None where there is no path, or the file is
    missing or unreadable."""
    if path is None:
        return None
    try:
        with np.load(path) as saved:
            return {name: saved[name] for name in saved.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None


def read_keyed_npz(path: str | Path, key: str) -> dict | None:
    """The arrays of an ``.npz`` file written with ``key=key`` (its key left out), or None
    where it is missing, unreadable or of another key."""
    saved = read_npz(path)
    if saved is None or "key" not in saved or str(saved.pop("key")) != key:
        return None
    return saved
