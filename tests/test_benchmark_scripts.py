"""The scripts in ``benchmarks/`` run outside CI (place and route, long campaigns), so a
renamed or removed pyhls name they import would only show months later, at the next
campaign (``area_ecp5.py`` imported ``hls.flow._external`` after it was gone).  Every
``from hls... import name`` in them, at module level or inside a function, must resolve."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(BENCH.glob("*.py"))


def _hls_imports(path: Path) -> list[tuple[int, str, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] == "hls":
            out += [(node.lineno, node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name, "") for a in node.names if a.name.split(".")[0] == "hls"]
    return out


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 10 and sum(len(_hls_imports(p)) for p in SCRIPTS) >= 20


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_imports_resolve(path):
    missing = []
    for line, module, name in _hls_imports(path):
        mod = importlib.import_module(module)
        if name and name != "*" and not hasattr(mod, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{path.name}:{line}: {module}.{name}")
    assert not missing, missing
