"""Reading validated TOML data files: every error names the file, the key and the reason."""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from pathlib import Path
from typing import Any


def data_hash(data: dict) -> str:
    """SHA-256 of a file's content as data: independent of layout, order and comments."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def file_record(file: str) -> dict:
    """A data file as an output names it: its file name (never the machine's folders) and
    the SHA-256 of its bytes (None for data not read from a file)."""
    path = Path(file)
    try:
        return {"file": path.name, "file_sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    except OSError:
        return {"file": file, "file_sha256": None}


def data_record(name: str, file: str, data: dict) -> dict:
    """What identifies a data file's content in an output: name, file, hashes, the data."""
    return {"name": name, **file_record(file), "rules_hash": data_hash(data), "rules": data}


class DataFileError(ValueError):
    """A data file that cannot be read or does not say what it must."""


def read_text(file: Path, label: str) -> str:
    """A data file's text; its problem as a one-line ``DataFileError``."""
    try:
        return Path(file).read_text(encoding="utf-8")
    except OSError as error:
        raise DataFileError(f"{label}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise DataFileError(f"{label}: not valid TOML: not UTF-8 text") from None


class Table:
    """A TOML table read key by key; keys left unread at :meth:`done` are errors."""

    def __init__(self, data: dict, source: str, path: str = ""):
        self.data = dict(data)
        self.source = source
        self.path = path

    @classmethod
    def load(cls, file: Path, label: str | None = None) -> Table:
        label = label or str(file)
        return cls.parse(read_text(file, label), label)

    @classmethod
    def parse(cls, text: str, label: str) -> Table:
        """The table of a TOML text."""
        try:
            return cls(tomllib.loads(text), label)
        except tomllib.TOMLDecodeError as error:
            raise DataFileError(f"{label}: not valid TOML: {error}") from None

    def key_path(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str, reason: str) -> DataFileError:
        return DataFileError(f"{self.source}: {self.key_path(key)}: {reason}")

    def has(self, key: str) -> bool:
        return key in self.data

    def _take(self, key: str, required: bool, default: Any) -> Any:
        if key not in self.data:
            if required:
                raise self.error(key, "missing")
            return default
        return self.data.pop(key)

    def text(self, key: str, default: str | None = None, *, required: bool = True) -> str:
        value = self._take(key, required and default is None, default)
        if value is not None and not isinstance(value, str):
            raise self.error(key, f"must be text, got {value!r}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._take(key, False, default)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {value!r}")
        return value

    def number(
        self, key: str, default: float | None = None, *, required: bool = True, minimum: float = 0
    ) -> float | None:
        value = self._take(key, required and default is None, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"must be a number, got {value!r}")
        if not math.isfinite(value):
            raise self.error(key, f"must be a finite number, got {value!r}")
        if value < minimum:
            raise self.error(key, f"must be at least {minimum:g}, got {value!r}")
        return float(value)

    def integer(self, key: str, default: int | None = None, *, minimum: int = 0) -> int:
        value = self._take(key, default is None, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be a whole number, got {value!r}")
        if value < minimum:
            raise self.error(key, f"must be at least {minimum}, got {value!r}")
        return value

    def numbers(self, key: str, count: int | None = None) -> list[float] | None:
        value = self._take(key, False, None)
        if value is None:
            return None
        if not isinstance(value, list) or not all(
            isinstance(item, int | float) and not isinstance(item, bool) and math.isfinite(item)
            for item in value
        ):
            raise self.error(key, f"must be a list of finite numbers, got {value!r}")
        if count is not None and len(value) != count:
            raise self.error(key, f"must hold {count} numbers, got {len(value)}")
        return [float(item) for item in value]

    def table(self, key: str, *, required: bool = False) -> Table | None:
        value = self._take(key, required, None)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.error(key, f"must be a table, got {value!r}")
        return Table(value, self.source, self.key_path(key))

    def items(self) -> list[tuple[str, Any]]:
        """Take every remaining key."""
        items = list(self.data.items())
        self.data.clear()
        return items

    def done(self) -> None:
        """Reject the keys nobody read."""
        for key in self.data:
            raise self.error(key, "unknown key")
