"""Result files: atomic, valid JSON, and as the umask says."""

import json
import math
import os
import stat

from simulate._io import write_json, write_npz


def test_json_files_hold_no_nan(tmp_path):
    path = write_json(tmp_path / "x.json", {"a": math.nan, "b": [1.5, math.inf], "c": "text"})
    assert json.loads(path.read_text(), parse_constant=lambda c: 1 / 0) == {
        "a": None,
        "b": [1.5, None],
        "c": "text",
    }


def test_written_files_follow_the_umask(tmp_path):
    previous = os.umask(0o022)
    try:
        for path in (write_json(tmp_path / "x.json", {}), write_npz(tmp_path / "y.npz", a=[1])):
            assert stat.S_IMODE(path.stat().st_mode) == 0o644
    finally:
        os.umask(previous)
