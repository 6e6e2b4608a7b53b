"""A characterised operator library: delays and areas measured by place and route.

The data (``data/ecp5.json``) is written by ``benchmarks/characterise_ecp5.py`` (see
:mod:`hls.pnr._characterise`): for every timing class and sampled width, nextpnr's
register-to-register path around the operation alone (``path_ns``) and Yosys's cell
counts.  An operation's chained delay is its path minus the path of the same harness
around a wire (clock-to-out, one net, setup: that part belongs to every cycle and is in
the target's step overhead instead).  Between sampled widths the delay and LUTs are
interpolated linearly; a class's delays are made non-decreasing in the width (the
placer's noise can make a wider sample faster); DSP blocks are those of the nearest
sampled width at or above.

Above the largest sample (64 bits: the 65..128-bit multiplies and divisions of wide
ap_int/ap_fixed values, ``hls.targets.MAX_WIDTH``) nothing is measured: delays, LUTs and
FFs continue the last segment's slope (linear, the shape of a carry chain and of the
sampled classes between 48 and 64 bits), DSP blocks grow with the square of the width
(an ``n``-tile multiply has about ``n * n`` partial products).  These are estimates,
not measurements; the ECP5 multiply over several tiles is timed by its tiles
(``hls.targets._model.mul_tiles``) at any width anyway.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["CharLibrary", "ClassData", "load_library"]


@dataclass(frozen=True)
class ClassData:
    """One timing class: sorted widths with their delay (ns, without the harness) and area."""

    widths: tuple[int, ...]
    delay_ns: tuple[float, ...]
    lut: tuple[int, ...]
    ff: tuple[int, ...]
    dsp: tuple[int, ...]

    def _interp(self, values, w: int) -> float:
        ws = self.widths
        if w <= ws[0]:
            return values[0]
        for k in range(1, len(ws)):
            if w <= ws[k]:
                lo, hi = ws[k - 1], ws[k]
                f = (w - lo) / (hi - lo)
                return values[k - 1] + f * (values[k] - values[k - 1])
        # beyond the last sample: extrapolate the last segment's slope
        lo, hi = ws[-2], ws[-1]
        return values[-1] + (w - hi) * (values[-1] - values[-2]) / (hi - lo)

    def delay(self, w: int) -> float:
        return round(max(0.0, self._interp(self.delay_ns, w)), 4)

    def area(self, w: int) -> tuple[int, int, int]:
        lut = int(round(self._interp(self.lut, w)))
        ff = int(round(self._interp(self.ff, w)))
        dsp = next((d for x, d in zip(self.widths, self.dsp) if x >= w), None)
        if dsp is None:
            # beyond the last sample (a 65..128-bit multiply or division by a constant):
            # the DSP tiles grow with the square of the width, from the last sample
            dsp = math.ceil(self.dsp[-1] * (w / self.widths[-1]) ** 2)
        return max(lut, 0), max(ff, 0), dsp


@dataclass(frozen=True)
class CharLibrary:
    """The characterised classes of one device, and the harness's own path."""

    device: str
    tools: str
    wire_ns: float
    classes: dict
    #: floating-point classes (``fadd32``...): stages -> (delay ns without the harness,
    #: LUT, FF, DSP) of the unit pipelined that deep (:data:`hls.pnr._characterise.FP_CLASSES`)
    fp: dict = None

    def has(self, cls: str) -> bool:
        return cls in self.classes

    def cls(self, name: str) -> ClassData:
        return self.classes[name]


def _class_data(samples: dict, wire_ns: float) -> ClassData:
    widths = tuple(sorted(int(w) for w in samples))
    delays: list[float] = []
    for w in widths:
        d = max(0.0, samples[str(w)]["path_ns"] - wire_ns)
        delays.append(max([d, *delays[-1:]]))        # non-decreasing in the width
    col = lambda key: tuple(int(samples[str(w)][key]) for w in widths)  # noqa: E731
    return ClassData(widths, tuple(round(d, 4) for d in delays), col("lut"), col("ff"), col("dsp"))


@lru_cache(maxsize=4)
def load_library(name: str = "ecp5") -> CharLibrary:
    """The library in ``hls/targets/data/<name>.json``."""
    text = resources.files("hls.targets").joinpath("data", f"{name}.json").read_text()
    data = json.loads(text)
    raw = data["classes"]
    wires = sorted(s["path_ns"] for s in raw["wire"].values())
    wire_ns = wires[len(wires) // 2]                  # the median: one net's placement noise
    classes = {c: _class_data(s, wire_ns) for c, s in sorted(raw.items()) if c != "wire"}
    # store: the write into the RAM against the same multiply into a register
    if "store" in classes and "mulstore" in raw:
        st, ms = raw["store"], raw["mulstore"]
        d = {w: max(0.0, st[w]["path_ns"] - ms[w]["path_ns"]) for w in st if w in ms}
        widths = tuple(sorted(int(w) for w in d))
        classes["store"] = ClassData(widths, tuple(round(max(d.values()), 4) for _ in widths),
                                     (0,) * len(widths), (0,) * len(widths), (0,) * len(widths))
        classes.pop("mulstore", None)
    fp = {c: {int(st): (round(max(0.0, x["path_ns"] - wire_ns), 4), int(x["lut"]), int(x["ff"]),
                        int(x["dsp"])) for st, x in sorted(d.items(), key=lambda kv: int(kv[0]))}
          for c, d in sorted(data.get("fp", {}).items())}
    return CharLibrary(data["device"], data["tools"], wire_ns, classes, fp)
