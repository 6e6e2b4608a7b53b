"""RTL generation with Amaranth: FSMD per function, memories, top wrapper, Verilog."""

from ._alveo import AlveoTop, AxiDescription
from ._axilite import (
    AP_DONE, AP_IDLE, AP_READY, AP_START, AUTO_RESTART, CTRL_INTERRUPT, AxiLiteControl, Reg,
    control_addr_width, register_map,
)
from ._fsmd import FunctionRTL, InternalMemory, MemPorts
from ._top import TopRTL, emit_verilog
from ._units import SeqDivider

__all__ = ["AP_DONE", "AP_IDLE", "AP_READY", "AP_START", "AUTO_RESTART", "AlveoTop", "AxiDescription",
           "AxiLiteControl", "CTRL_INTERRUPT", "FunctionRTL", "InternalMemory", "MemPorts", "Reg",
           "SeqDivider", "TopRTL", "control_addr_width", "emit_verilog", "register_map"]
