"""RTL generation with Amaranth: FSMD per function, memories, top wrapper, Verilog.

Modules talk through ``amaranth.lib.wiring`` interfaces: a function's handshake is a
:class:`ControlSignature`, every memory port a :class:`hls.memory.MemPortSignature`
(grouped per memory in :class:`hls.memory.MemPorts`)."""

from ._alveo import AlveoTop, AxiDescription
from ._axilite import (
    AP_DONE, AP_IDLE, AP_READY, AP_START, AUTO_RESTART, CTRL_INTERRUPT, AxiLiteControl, Reg,
    control_addr_width, register_map,
)
from ._fsmd import Control, ControlSignature, FunctionRTL, InternalMemory, StateRegister
from ._pipeline import chain_stages, entry_cycles, exit_time
from ._top import CONTROL_PORTS, TopRTL, emit_verilog, port_names
from ._units import SeqDivider

__all__ = ["AP_DONE", "CONTROL_PORTS", "port_names", "AP_IDLE", "AP_READY", "AP_START", "AUTO_RESTART", "AlveoTop", "AxiDescription",
           "AxiLiteControl", "CTRL_INTERRUPT", "chain_stages", "Control", "ControlSignature", "FunctionRTL",
           "InternalMemory", "Reg", "SeqDivider", "StateRegister", "TopRTL", "control_addr_width", "emit_verilog",
           "entry_cycles", "exit_time", "register_map"]
