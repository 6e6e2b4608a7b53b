"""Dataflow regions: task graphs from plain code (:mod:`._graph`), channel kinds and depths
(:mod:`._channels`).  The hardware is :class:`hls.rtl.DataflowRTL`."""

from ._channels import choose_channels, graph_report
from ._graph import (
    Channel, DataflowError, Port, ScalarChannel, Task, TaskGraph, extract_graph, mem_use,
    used_ptr_args,
)

__all__ = ["Channel", "DataflowError", "Port", "ScalarChannel", "Task", "TaskGraph",
           "choose_channels", "extract_graph", "graph_report", "mem_use", "used_ptr_args"]
