"""Memory interfaces of the accelerator: AXI4 master adapter, AXI4-Stream adapters (and,
later, memory planning)."""

from ._axi_master import AXI_CACHE, AxiMasterAdapter, BramPort, MasterArg
from ._axis import AxisAdapter, StreamArg

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "AxisAdapter", "BramPort", "MasterArg", "StreamArg"]
