"""Array partitioning by directive (``[[array]]`` entries of the directives file), the
module pass in front of the function passes.  The rewrite itself is
:func:`hls.transforms.partition_array` (:mod:`._banks`); this pass finds the arrays the directives name and
records what it did, because automatic partitioning (after scheduling, in
``hls.flow``) must leave those arrays alone and report.json lists them."""

from __future__ import annotations

import math

from ..errors import HLSError
from ..ir import Function, MemoryObject, Module
from ..targets import Platform
from ._banks import Partition, partition_array

__all__ = ["array_entry", "partition_by_directives"]


def _local_name(module: Module, func: Function, m: MemoryObject) -> str:
    """A local array's C name (memories of locals are named ``<function>_<name>``, a C++
    function by its hardware name, :func:`hls.names.hardware_names`, not its symbol)."""
    from ..names import hardware_names
    hw = hardware_names(f.name for f in module.functions)[func.name]
    return m.name.removeprefix(func.name + "_") if m.name.startswith(func.name + "_") \
        else m.name.removeprefix(hw + "_")


def _find_array(module: Module, func: Function, name: str) -> MemoryObject | None:
    for p in func.ptr_params:
        if p.name == name:
            return p.mem
    for m in func.memories:
        if name in (m.name, _local_name(module, func, m)):
            return m
    for g in module.globals:
        if name in (g.name, g.symbol):
            return g
    return None


def partition_by_directives(module: Module, dirs, platform: Platform) -> tuple[list[dict], set]:
    """Apply the ``[[array]]`` directives; returns the report entries and the memories
    that automatic partitioning must leave whole (on a platform with AXI ports, Alveo,
    also every pointer argument of the top: those go over m_axi)."""
    keep_whole: set = set()
    if platform.axi:
        keep_whole.update(p.mem for p in module.top.ptr_params)
    done: list[dict] = []
    for d in (dirs.arrays if dirs else []):
        where = f"array directive {d.function}/{d.name}: "
        at = (dirs.source, None)
        if d.origin and isinstance(d.origin[1], int):   # a #pragma HLS: at its line
            where, at = "#pragma HLS array_partition: ", d.origin
        func = next((f for f in module.functions if f.name == d.function), None)
        if func is None:
            raise HLSError(f"{where}no hardware function '{d.function}' (functions: "
                           f"{', '.join(f.name for f in module.functions)})", *at)
        mem = _find_array(module, func, d.name)
        if mem is None:
            names = [p.name for p in func.ptr_params] + [_local_name(module, func, m)
                                                      for m in func.memories]
            raise HLSError(f"{where}'{d.function}' has no array '{d.name}' (arrays: "
                           f"{', '.join(names) or 'none'})", *at)
        if d.partition == "none":
            keep_whole.add(mem)
            continue
        if mem in keep_whole:
            raise HLSError(f"{where}'{d.name}' is an m_axi argument: partitioning applies to "
                           "on-chip arrays and BRAM-port arguments", *at)
        part = Partition(d.partition, d.factor)
        if d.dim:
            part = _dimension_partition(mem, d, where, at)
            if part.factor == 1:            # a dimension of extent 1: one bank, as it is
                keep_whole.add(mem)
                continue
        try:
            partition_array(module, mem, part)
        except HLSError as exc:
            raise HLSError(f"{where}{exc.message}", *at) from None
        keep_whole.add(mem)
        entry = array_entry(func, mem, part, auto=False)
        if d.dim:
            entry.update(partition=d.partition, factor=d.factor, dim=d.dim)
        done.append(entry)
    return done, keep_whole


def _dimension_partition(mem: MemoryObject, d, where: str, at) -> Partition:
    """The partition of one C dimension ``d.dim`` of a multi-dimensional array, as runs
    of words dealt out cyclically (:class:`hls.ir.Bank`): with ``S`` the words of one
    step along the dimension and ``D`` its extent, cyclic F deals runs of ``S`` to F
    banks, complete is cyclic D, and block F deals runs of ``S * D / F``."""
    dims = tuple(d.dims or mem.elem_dims)
    if len(dims) < d.dim:
        raise HLSError(f"{where}dim={d.dim}: '{d.name}' has "
                       f"{len(dims) or 'no known'} dimension(s)", *at)
    elems = math.prod(dims)
    if elems == 0 or mem.depth_words % elems:
        raise HLSError(f"{where}dim={d.dim}: the {mem.depth_words} words of '{d.name}' do "
                       f"not hold its {'x'.join(map(str, dims))} elements a whole number "
                       "of words each", *at)
    step = math.prod(dims[d.dim:]) * (mem.depth_words // elems)
    extent = dims[d.dim - 1]
    factor = extent if d.partition == "complete" else d.factor
    if extent % factor:
        raise HLSError(f"{where}factor {factor} does not divide dimension {d.dim} of "
                       f"'{d.name}' ({extent} elements)", *at)
    run = step * (extent // factor) if d.partition == "block" else step
    return Partition("cyclic", factor, granule=run)


def array_entry(func: Function, mem: MemoryObject, part: Partition, auto: bool) -> dict:
    """The report.json entry (``arrays``) of a partitioned array."""
    return {"function": func.name, "name": mem.name, "kind": mem.kind, "partition": part.kind,
            "factor": part.factor, "banks": part.banks(mem.depth_words), "auto": auto}
