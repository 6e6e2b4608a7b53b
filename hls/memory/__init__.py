"""Memory interfaces of the accelerator: AXI4 master adapter, AXI4-Stream adapters and
array partitioning."""

from ._axi_master import AXI_CACHE, AxiMasterAdapter, BramPort, MasterArg
from ._axis import AxisAdapter, StreamArg
from ._partition import Partition, auto_partition_plan, partition_array, partitionable, static_bank

__all__ = ["AXI_CACHE", "AxiMasterAdapter", "AxisAdapter", "BramPort", "MasterArg", "Partition",
           "StreamArg", "auto_partition_plan", "partition_array", "partitionable", "static_bank"]
