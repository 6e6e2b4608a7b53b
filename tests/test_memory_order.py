"""Memory order in a schedule: a store and a load of one memory at provably different
words need no order (a delay line ``d[5] = d[4]; d[4] = d[3]; ...`` runs a load beside
each store, not after it), in a block and inside a pipelined loop's iteration; two
stores may share a step only inside an iteration, and not where the RAMs take one write
a cycle.  Co-simulated against native
execution, on random stimulus."""

from __future__ import annotations

import pytest

from hls.flow import SynthOptions, synthesize
from hls.scheduling import _words
from hls.verify import cosim

DELAY_LINE = r"""
#include <stdint.h>
int32_t shift(int32_t *d, int32_t *a, int32_t x, int n) {
    d[7] = d[6]; d[6] = d[5]; d[5] = d[4]; d[4] = d[3];
    d[3] = d[2]; d[2] = d[1]; d[1] = d[0]; d[0] = x;
    for (int i = 0; i < n; i++) {            /* two words of a an iteration */
        a[2 * i + 1] = a[2 * i] + x;
        a[2 * i] = (a[2 * i + 1] >> 1) ^ i;
    }
    int32_t t[8];                          /* an array of the design's own */
    for (int k = 0; k < 8; k++)
        t[k] = d[k] ^ k;
    t[7] = t[6]; t[6] = t[5]; t[5] = t[4]; t[4] = t[3];
    t[3] = t[2]; t[2] = t[1]; t[1] = t[0]; t[0] = x;
    return d[3] + d[7] + a[1] + t[x & 7] + t[(x >> 3) & 7];
}
"""


def _stores_per_step(res, mem: str) -> list[int]:
    out = []
    for fs in res.schedules.values():
        for b, bs in fs.blocks.items():
            ops = [op for op in b.ops if op.kind != "phi"]
            steps: dict[int, int] = {}
            for i, op in enumerate(ops):
                if op.kind == "store" and op.mem.name == mem:
                    s = bs.schedule.steps[i]
                    steps[s] = steps.get(s, 0) + 1
            out += steps.values()
    return out


def _length(res) -> int:
    (fs,) = res.schedules.values()
    return sum(bs.schedule.length for bs in fs.blocks.values())


@pytest.mark.parametrize("target", ["generic", "ecp5"])
def test_different_words_need_no_order(tmp_path, monkeypatch, target):
    src = tmp_path / "dl.c"
    src.write_text(DELAY_LINE)
    opts = SynthOptions(top="shift", target=target, depth={"d": 8, "a": 16})
    res = synthesize(src, opts)
    r = cosim(src, "shift", synth=res, depth={"d": 8, "a": 16}, fixed={"n": 8}, runs=3)
    assert r.passed, r.summary()
    for mem in ("d", "shift_t"):      # in a block two stores keep their order
        assert max(_stores_per_step(res, mem)) == 1, mem
    # the same design with every access ordered, as before: longer
    monkeypatch.setattr(_words, "distinct_words", lambda a, b: False)
    ordered = synthesize(src, opts)
    assert _length(res) < _length(ordered)
    (loop,) = [lp for lp in res.report["loops"] if lp["source_line"] == 6]
    (loop0,) = [lp for lp in ordered.report["loops"] if lp["source_line"] == 6]
    assert loop["ii"] <= loop0["ii"]
