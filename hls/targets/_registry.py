"""Named targets and their lookup.

``generic`` (10 ns) is the default.  The Alveo data-center cards are all UltraScale+ parts
at speed grade -2L and share one technology model (see :mod:`hls.targets._model`); the
default 300 MHz (3.33 ns) clock is the usual Vitis kernel clock on these cards:

* ``alveo-u280`` (alias ``alveo``): xcu280-fsvh2892-2L-e, HBM2
* ``alveo-u250``: xcu250-figd2104-2L-e, DDR4
* ``alveo-u55c``: xcu55c-fsvh2892-2L-e, HBM2
"""

from __future__ import annotations

from hls.errors import HLSError

from ._model import Target, TechParams

GENERIC_TECH = TechParams(
    logic_ns=0.3, add_base_ns=0.8, add_per_bit_ns=0.03,
    shift_base_ns=0.4, shift_per_level_ns=0.15, mux_ns=0.3,
    mul_base_ns=2.0, mul_per_bit_ns=0.08, mul_uses_dsp=False,
    ram_out_ns=1.5, store_ns=0.5, reg_out_ns=0.2,
)

ULTRASCALE_PLUS_TECH = TechParams(
    logic_ns=0.35, add_base_ns=0.55, add_per_bit_ns=0.012,
    shift_base_ns=0.35, shift_per_level_ns=0.2, mux_ns=0.35,
    mul_base_ns=1.6, mul_per_bit_ns=0.04, mul_uses_dsp=True,
    ram_out_ns=1.4, store_ns=0.4, reg_out_ns=0.3,
)

_ALVEO_CLOCK_NS = 3.33

_TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("generic", 10.0, "generic", GENERIC_TECH, "technology-neutral model, 100 MHz"),
        Target("alveo-u280", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U280 (xcu280-fsvh2892-2L-e), 300 MHz"),
        Target("alveo-u250", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U250 (xcu250-figd2104-2L-e), 300 MHz"),
        Target("alveo-u55c", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U55C (xcu55c-fsvh2892-2L-e), 300 MHz"),
    )
}

_ALIASES: dict[str, str] = {"alveo": "alveo-u280"}

DEFAULT_TARGET = "generic"


def known_targets() -> tuple[str, ...]:
    """Every accepted target name (canonical names and aliases), sorted."""
    return tuple(sorted((*_TARGETS, *_ALIASES)))


def get_target(name: str = DEFAULT_TARGET) -> Target:
    """The target called ``name`` (case-insensitive; aliases allowed)."""
    key = name.strip().lower() if isinstance(name, str) else name
    key = _ALIASES.get(key, key)
    target = _TARGETS.get(key)
    if target is None:
        raise HLSError(f"unknown target '{name}'; known targets: {', '.join(known_targets())}")
    return target
