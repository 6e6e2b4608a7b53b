"""Dataflow regions: task graphs from plain code (:mod:`._graph`), channel kinds and depths
(:mod:`._channels`).  The hardware is :class:`hls.rtl.DataflowRTL`."""

from ._channels import choose_channels, graph_report, task_graph_nx
from ._taskgraph import TaskGraphSpec, load_task_graph, region_ir
from ._graph import (
    Channel, DataflowError, Port, ScalarChannel, Task, TaskGraph, extract_graph, mem_use,
)

__all__ = ["TaskGraphSpec", "load_task_graph", "region_ir", "Channel", "DataflowError", "Port", "ScalarChannel", "Task", "TaskGraph",
           "choose_channels", "extract_graph", "graph_report", "mem_use", "task_graph_nx"]
