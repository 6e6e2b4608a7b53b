"""Memory interfaces of the accelerator: AXI4 master adapter and array partitioning."""

from ._axi_master import AXI_CACHE, AxiMasterAdapter, BramPort, MasterArg
from ._partition import Partition, auto_partition_plan, partition_array, partitionable, static_bank

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "BramPort", "MasterArg", "Partition",
           "auto_partition_plan", "partition_array", "partitionable", "static_bank"]
