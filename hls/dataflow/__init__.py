"""Dataflow regions: task graphs from plain code (:mod:`._graph`), channel kinds and depths
(:mod:`._channels`).  The hardware is :class:`hls.rtl.DataflowRTL`."""

from ._channels import (
    choose_channels, choose_instances, function_cycles, graph_report, region_estimate,
    task_graph_nx,
)
from ._taskgraph import TaskGraphSpec, load_task_graph, region_ir
from ._graph import (
    Channel, DataflowError, Port, ScalarChannel, Task, TaskGraph, extract_graph, mem_use,
    used_ptr_args,
)

__all__ = ["Channel", "DataflowError", "Port", "ScalarChannel", "Task", "TaskGraph",
           "TaskGraphSpec", "choose_channels", "choose_instances", "function_cycles", "extract_graph", "graph_report",
           "load_task_graph", "mem_use", "region_estimate", "region_ir", "task_graph_nx", "used_ptr_args"]
