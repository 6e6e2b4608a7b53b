"""Small on-chip arrays in LUT RAM: read in the cycle of the load.

A block RAM returns a load's data one cycle after the address (``hls.targets.MEMORY``).
An array of a few dozen words is better held in LUT RAM (or registers), which an FPGA
reads asynchronously: the data comes in the address's own cycle and chains into the ops
that use it.  A register file (``reg[rs]`` of an instruction-set interpreter), a small
lookup table or a local scratch row then costs no state per access.

The pass marks a memory ``async_read`` (the scheduler times its loads with the
``load_async`` class, latency 0; ``hls.rtl.InternalMemory`` builds a combinational read
port) when it is on chip and small:

* a local array or a ROM (a constant global): memories the design instantiates itself,
  not ports that a testbench or an AXI adapter serves;
* at most :data:`MAX_WORDS` words and :data:`MAX_BITS` bits (one LUT RAM column deep;
  a ROM, logic of one LUT per bit, :data:`MAX_ROM_BITS`);
* never handed to a callee as a pointer argument: the callee reads through its port set
  on the synchronous model.

The flow undoes the choice for a memory whose combinational reads close a loop in the
netlist (through the multiplexers of a shared unit or of the ports: paths no state takes,
but a netlist loop all the same): it synthesises again with that memory in block RAM.

Writes stay synchronous (they commit at the end of the cycle, reads are read-first), so
the ordering rules of the schedule are the same as for block RAM.
"""

from __future__ import annotations

from ..ir import MemoryObject, Module

MAX_WORDS = 64
MAX_BITS = 2048
#: a ROM is logic, not a RAM column: one LUT per bit of a word up to MAX_WORDS deep, so
#: only its words' width bounds it (CHStone mips' 44 instructions of 64 bits)
MAX_ROM_BITS = MAX_WORDS * 64


def small_memories(module: Module, exclude=frozenset()) -> list[MemoryObject]:
    """Mark the small on-chip arrays of ``module`` ``async_read`` (except those named in
    ``exclude``); returns them."""
    passed = set()
    mems: dict[MemoryObject, None] = {}
    for f in module.functions:
        for op in f.ops():
            if op.kind == "call":
                passed.update(mem for _, mem in op.attrs.get("ptr_args", []))
            elif op.mem is not None:
                mems.setdefault(op.mem, None)
    out = []
    for mem in mems:
        whole = mem.whole if mem.whole is not None else mem
        if whole in passed or mem in passed or whole.name in exclude:
            continue
        if not (mem.kind == "local" or (mem.kind == "global" and mem.readonly)):
            continue
        if mem.depth_words > MAX_WORDS or mem.depth_words * mem.word_bytes * 8 > (
                MAX_ROM_BITS if mem.readonly else MAX_BITS):
            continue
        mem.async_read = True
        out.append(mem)
    return out
