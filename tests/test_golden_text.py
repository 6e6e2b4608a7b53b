"""Golden-text tests (tier 2): the CDFG and the schedules of small kernels, printed in
their stable text forms, compared with files in tests/golden/.

Regenerate after an intended change with ``PYHLS_UPDATE_GOLDEN=1 python -m pytest
tests/test_golden_text.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize
from hls.ir import print_ir

ROOT = Path(__file__).resolve().parent
KERNELS = ROOT.parent / "examples" / "kernels"
CASES = [
    ("adler32_bytes", KERNELS / "adler32_bytes.c", "adler32_bytes", {"buf": 400}),
    ("mat_atb_i16", KERNELS / "mat_atb_i16.c", "mat_atb_i16", {"A": 96, "B": 120, "C": 80}),
    ("call_chain", ROOT / "kernels" / "call_chain.c", "call_chain", {"buf": 16}),
]


@pytest.mark.parametrize("name,src,top,depth", CASES, ids=[c[0] for c in CASES])
def test_golden_text(name, src, top, depth):
    res = synthesize(src, SynthOptions(top=top, depth=depth))
    text = ""
    for f in res.module.functions:
        text += print_ir(f) + "\n" + res.schedules[f].to_text() + "\n"
    golden = ROOT / "golden" / f"{name}.txt"
    if os.environ.get("PYHLS_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert golden.exists(), f"missing {golden}; set PYHLS_UPDATE_GOLDEN=1 to create it"
    assert text == golden.read_text()
