"""Memory interfaces of the accelerator: the BRAM-style port (a ``lib.wiring`` interface
shared by the FSMD and every memory behind it), the AXI4 master adapter and the
AXI4-Stream adapters (array partitioning, a CDFG rewrite, is in :mod:`hls.transforms`)."""

from ._axi_master import AXI_CACHE, AxiMasterAdapter, BramPort, MasterArg
from ._axis import AxisAdapter, StreamArg
from ._ports import MemPort, MemPorts, MemPortSignature

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "AxisAdapter", "BramPort", "MasterArg", "MemPort",
           "MemPortSignature", "MemPorts", "StreamArg"]
