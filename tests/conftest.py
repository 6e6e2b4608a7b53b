"""Test-suite configuration.

The floating-point unit tests sweep six formats at two pipelinings per unit; each case
is its own Verilator build.  The regular suite (CI) keeps a representative subset —
binary32 combinational and pipelined, binary64 and an odd format (with RTZ and FTZ)
pipelined — and marks the rest ``slow``: ``python -m pytest -m slow tests/test_fpu_units_*``
runs them, and ``benchmarks/bench_fpu_units.py`` checks every unit in every format on
100,000 cases.
"""

from __future__ import annotations

import pytest

# the pyhls pytest plugin (the hls fixture and marker), also where the installed package
# predates its pytest11 entry point; the entry point's name is the module's, so pytest
# registers it once either way
pytest_plugins = ["hls.pytest_plugin"]

_A_REGULAR = {("e8m23", 0), ("e8m23", None), ("e11m52", None), ("e6m9", None)}
_B_REGULAR = {("binary32", 0), ("binary32", None), ("binary64", None), ("e6m9", 0)}


def _key(params: dict, fmt_key: str):
    fmt = params.get(fmt_key)
    stages = params.get("stages")
    return fmt, (0 if stages == 0 else None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        cs = getattr(item, "callspec", None)
        if cs is None:
            continue
        mod = item.module.__name__.rsplit(".", 1)[-1]
        fn = item.originalname
        if mod == "test_fpu_units_a" and fn in ("test_add", "test_mul", "test_fma", "test_to_int",
                                                 "test_from_int"):
            if _key(cs.params, "name") not in _A_REGULAR:
                item.add_marker(pytest.mark.slow)
        elif mod == "test_fpu_units_a" and fn == "test_convert":
            if (cs.params.get("src"), cs.params.get("dst")) not in {("e8m23", "e11m52"),
                                                                    ("e11m52", "e8m23"),
                                                                    ("e6m9", "e5m10")}:
                item.add_marker(pytest.mark.slow)
        elif mod == "test_fpu_units_b" and fn in ("test_div_sqrt", "test_cmp_minmax_sign"):
            if _key(cs.params, "fmt_name") not in _B_REGULAR:
                item.add_marker(pytest.mark.slow)
