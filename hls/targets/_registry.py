"""Named targets and their lookup.

``generic`` (10 ns) is the default.  The Alveo data-center cards are all UltraScale+ parts
at speed grade -2L and share one technology model (see :mod:`hls.targets._model`); the
default 300 MHz (3.33 ns) clock is the usual Vitis kernel clock on these cards:

* ``alveo-u280`` (alias ``alveo``): xcu280-fsvh2892-2L-e, HBM2
* ``alveo-u250``: xcu250-figd2104-2L-e, DDR4
* ``alveo-u55c``: xcu55c-fsvh2892-2L-e, HBM2

Their platform is ``ALVEO`` (AXI ports, a Vitis package); every other target's ``PLAIN``.
"""

from __future__ import annotations

from hls.errors import HLSError

from ._device import ALVEO_DEVICES, ecp5_device
from ._model import Target, TechParams
from ._platform import ALVEO

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

#: Lattice ECP5 (speed grade 8), the target an open flow verifies: op delays and areas come
#: from ``data/ecp5.json`` (place and route of each op, ``benchmarks/characterise_ecp5.py``);
#: these parameters only fill what the library does not measure (calls, the divider's
#: registers, LUT-RAM reads).  ``step_overhead_ns``: the harness path of the
#: characterisation (clock-to-out, a net, setup: 0.78 ns) plus what a generated design adds
#: to every cycle (the destination register's select and enable, fan-out, congestion),
#: calibrated on whole designs by ``benchmarks/pnr_kernels.py``: 2.3 ns left
#: fft8_dif_q12's control path (FSM state to a pipeline's slot counter) 0.4 ns short, and
#: 2.7 ns left fsm_tokenizer's and noinline_helpers's datapaths 0.18 and 0.29 ns short.
#: ``ram_route_ns``: a block RAM's output net in a whole design (see ``TechParams``).
ECP5_TECH = TechParams(
    logic_ns=0.45, add_base_ns=1.2, add_per_bit_ns=0.03,
    shift_base_ns=0.8, shift_per_level_ns=0.6, mux_ns=0.45,
    mul_base_ns=3.0, mul_per_bit_ns=0.15, mul_uses_dsp=True,
    ram_out_ns=4.1, store_ns=0.2, reg_out_ns=0.0,
    step_overhead_ns=3.0, fp_scale=1.6, fp_mul_tile=18, ram_single_writer=True,
    mul_tile=18, dsp_route_ns=2.5, ram_route_ns=0.8, branch_ns=2.5, lutram_route_ns=1.0,
)
ECP5_DEFAULT_PART = ("85k", 8)

_ALVEO_CLOCK_NS = 3.33

_TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("generic", 10.0, "generic", GENERIC_TECH, "technology-neutral model, 100 MHz"),
        Target("alveo-u280", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U280 (xcu280-fsvh2892-2L-e), 300 MHz", platform=ALVEO,
               device=ALVEO_DEVICES["alveo-u280"]),
        Target("alveo-u250", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U250 (xcu250-figd2104-2L-e), 300 MHz", platform=ALVEO,
               device=ALVEO_DEVICES["alveo-u250"]),
        Target("alveo-u55c", _ALVEO_CLOCK_NS, "ultrascale+", ULTRASCALE_PLUS_TECH,
               "AMD Alveo U55C (xcu55c-fsvh2892-2L-e), 300 MHz", platform=ALVEO,
               device=ALVEO_DEVICES["alveo-u55c"]),
    )
}

_ALIASES: dict[str, str] = {"alveo": "alveo-u280"}

DEFAULT_TARGET = "generic"


def known_targets() -> tuple[str, ...]:
    """Every accepted target name (canonical names and aliases), sorted."""
    return tuple(sorted((*_TARGETS, *_ALIASES, "ecp5", "ecp5:PART")))


def ecp5_target(part: str = "85k", speed: int = 8) -> Target:
    """``ecp5`` on one part (``12k``, ``25k``, ``45k``, ``85k``, ``um-25k``, ...)."""
    from hls.pnr import ECP5_PARTS

    if part not in ECP5_PARTS:
        raise HLSError(f"unknown ECP5 part '{part}'; known parts: {', '.join(ECP5_PARTS)}")
    if speed != 8:
        raise HLSError(f"ECP5 speed grade {speed}: only speed grade 8 is characterised "
                       f"(benchmarks/characterise_ecp5.py)")
    name = "ecp5" if (part, speed) == ECP5_DEFAULT_PART else f"ecp5:{part}"
    return Target(name, 10.0, "ecp5", ECP5_TECH,
                  f"Lattice ECP5 LFE5U-{part[:-1].upper()}F-{speed} (characterised, verified by "
                  f"yosys + nextpnr-ecp5), 100 MHz", library="ecp5", part=(part, speed),
                  device=ecp5_device(part, speed))


def get_target(name: str = DEFAULT_TARGET) -> Target:
    """The target called ``name`` (case-insensitive; aliases allowed).  ``ecp5`` takes a
    part: ``ecp5:25k``, ``ecp5:85k-8`` (part, then speed grade)."""
    key = name.strip().lower() if isinstance(name, str) else name
    if isinstance(key, str) and (key == "ecp5" or key.startswith("ecp5:")):
        spec = key[5:] or "85k"
        part, _, speed = spec.rpartition("-") if spec.rsplit("-", 1)[-1].isdigit() else (spec, "", "")
        try:
            return ecp5_target(part, int(speed) if speed else 8)
        except HLSError as e:
            raise HLSError(f"target '{name}': {e}") from None
    key = _ALIASES.get(key, key)
    target = _TARGETS.get(key)
    if target is None:
        raise HLSError(f"unknown target '{name}'; known targets: {', '.join(known_targets())}")
    return target
