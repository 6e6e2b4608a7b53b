"""Memory interfaces of the accelerator: AXI4 master adapter (and, later, memory planning)."""

from ._axi_master import AXI_CACHE, AxiMasterAdapter, BramPort, MasterArg

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "BramPort", "MasterArg"]
