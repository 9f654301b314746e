import ast
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
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            str(ROOT / "simulate"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:]


def _imports_of_each_module() -> dict[str, set[str]]:
    """The package's modules each imports (at the top or inside a function)."""
    imports = {}
    for path in (ROOT / "simulate").glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                found |= {name.split(".")[0] for name in names}
        imports[path.stem] = found
    return imports


def test_no_module_imports_itself_through_others():
    imports = _imports_of_each_module()

    def reaches(start: str) -> set[str]:
        seen, todo = set(), list(imports[start])
        while todo:
            module = todo.pop()
            if module in imports and module not in seen:
                seen.add(module)
                todo.extend(imports[module])
        return seen

    circles = [module for module in imports if module in reaches(module)]
    assert not circles, f"import circles through {circles}"
