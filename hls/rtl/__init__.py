"""RTL generation with Amaranth: FSMD per function, memories, top wrapper, Verilog."""

from ._fsmd import FunctionRTL, InternalMemory, MemPorts
from ._top import TopRTL, emit_verilog
from ._units import SeqDivider

__all__ = ["FunctionRTL", "InternalMemory", "MemPorts", "SeqDivider", "TopRTL", "emit_verilog"]
