"""The on-chip memory model every stage agrees on.

Scheduling (port capacities, load latency), loop pipelining (ports per modulo slot),
array partitioning (how many banks a port-bound array needs) and the RTL all assume the
same synchronous RAM; keeping its figures here means they cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MemoryModel:
    """A synchronous RAM: ``ports`` independent read/write ports, loads return their data
    ``read_latency`` cycles after issue, stores commit at the end of their cycle and reads
    are read-first."""

    ports: int = 2
    read_latency: int = 1


#: The memory model of every target (true dual-port block RAM / distributed RAM).
MEMORY = MemoryModel()
