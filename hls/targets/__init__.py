"""Targets: clock period and an operator timing/area library per FPGA family.

``get_target(name).timing(kind, width)`` gives an :class:`OpTiming` used by the CDFG
builder to fill scheduling problems and by binding to estimate area.  All figures are
documented estimates (see :mod:`hls.targets._model`).  A target's :class:`Platform` is
what the top's ports are: BRAM-style behind ``ap_ctrl_hs`` (``PLAIN``), or AXI on the
Alveo cards (``ALVEO``; see :mod:`hls.targets._platform`).
"""

from __future__ import annotations

from ._device import Device
from ._memory import MEMORY, MemoryModel
from ._platform import ALVEO, PLAIN, Platform
from ._model import MAX_WIDTH, MIN_WIDTH, OP_KINDS, OpTiming, Target, TechParams, divider_latency
from ._registry import DEFAULT_TARGET, ecp5_target, get_target, known_targets

__all__ = [
    "ALVEO",
    "DEFAULT_TARGET",
    "Device",
    "MAX_WIDTH",
    "MEMORY",
    "MemoryModel",
    "MIN_WIDTH",
    "OP_KINDS",
    "OpTiming",
    "PLAIN",
    "Platform",
    "Target",
    "TechParams",
    "divider_latency",
    "ecp5_target",
    "get_target",
    "known_targets",
]
