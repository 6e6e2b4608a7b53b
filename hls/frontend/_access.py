"""What any frontend hands to the memory lowering: pointers as (memory, byte offset) and
the byte-addressed accesses made through them.

The LLVM translator (:mod:`._translate`) builds these; :mod:`._memories` turns them into
word-addressed memory ops.  A second frontend (MLIR, a tensor DSL) that emits byte-addressed
loads and stores reuses the same lowering by producing the same records."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Function, MemoryObject, Op, Value

__all__ = ["OFF_W", "TAG_W", "Access", "Ptr"]

OFF_W = 32  # width of byte offsets
TAG_W = 32  # width of a pointer's memory tag: a pointer as a value is ``tag << 32 | offset``


@dataclass
class Ptr:
    """A pointer: a memory and a byte offset (``OFF_W`` bits).  A pointer whose memory is
    decided at run time (a phi or select over different memories, a pointer loaded from
    memory, a possible null) is *tagged*: ``mem`` is None, ``tag`` (``TAG_W`` bits) names
    the memory at run time (0 for null) and ``mems`` lists the memories it may point into.
    One virtual address space: a pointer as an integer is ``tag << 32 | off``."""

    mem: MemoryObject | None
    off: Value  # byte offset, OFF_W bits
    tag: Value | None = None
    mems: tuple = ()

    @property
    def targets(self) -> tuple:
        return (self.mem,) if self.mem is not None else self.mems


@dataclass
class Access:
    """A load or store ``op`` of ``size`` bytes at ``ptr`` in ``func``; its address operand
    is a placeholder until :func:`hls.frontend._memories.lower_memories` gives the word
    address."""

    op: Op
    ptr: Ptr
    size: int
    func: Function
    float_bits: int = 0  # the access is a float (32) or double (64)
    align: int = 0  # a tagged pointer's access: LLVM's ``align`` (its offset is a multiple)
