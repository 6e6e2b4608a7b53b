"""Task graphs from plain code: a dataflow region's calls are tasks, the local arrays
passed from one call to the next are channels, the region's pointer arguments are its
ports.

A **dataflow region** is a function (the top with ``--dataflow``, any function with a
``[[dataflow]]`` directive or ``__attribute__((annotate("pyhls_dataflow")))``) whose body,
in the CDFG the frontend made, is

* one block: a sequence of calls (one *frame*), or
* a counted loop of one block whose body is a sequence of calls (a stream of frames; the
  trip count is a constant), with nothing but the loop's own counting around it.

Besides the calls the region may hold *glue*: pure integer operations on its scalar
parameters, constants and the frame index (they compute call arguments and pointer
offsets, and each task evaluates them on its own frame number), and *sinks*: stores of a
call's result into a pointer argument (``count[0] = f(...)``), which run once that call
has finished the frame.

What the graph records, and the rules (each broken rule is a ``file:line: error:`` naming
it):

* every call is a task, in program order; a call must run once per frame (a call in a
  conditional block is rejected);
* a local array passed to calls is a **channel** when exactly one task writes it (the
  *producer*) and later tasks read it (*consumers*); two writers are rejected ("a channel
  with two producers"), and so is a task that reads the array before its producer runs
  ("a task reading an output of a later task"); an array only one task uses is that task's
  own memory;
* a call's result feeds later calls' scalar arguments or sinks through a **scalar
  channel**;
* only the pointer parameters a callee reads or writes connect it to a memory (MLIR's
  memref descriptors pass each buffer twice, as the allocated and the aligned pointer,
  and only the aligned one is accessed); a call that passes one array to two parameters
  it accesses is rejected (a task reaches a memory through one parameter);
* the region's pointer arguments are its **ports**; which tasks read and write each one
  comes from the callees' accesses (LLVM's readonly/writeonly inference and ours), never
  from the user.  A port that a task writes orders its users (in program order, frame by
  frame); a port only read by several tasks is held by one of them at a time.

The channel kinds and depths are chosen by :mod:`hls.dataflow._channels`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import HLSError
from ..ir import Const, Function, MemoryObject, Module, Op, Param, Value, op_def
from ..analysis import find_loops

__all__ = ["Channel", "DataflowError", "Port", "ScalarChannel", "Task", "TaskGraph",
           "extract_graph", "mem_use", "used_ptr_args"]


class DataflowError(HLSError):
    phase = "dataflow"


@dataclass(eq=False)
class Task:
    """One call of the region (``kind == "call"``), or a sink (``kind == "store"``: the
    store ``op`` of a call's result into a port)."""

    name: str
    op: Op
    kind: str = "call"
    index: int = 0

    @property
    def function(self) -> Function | None:
        return self.op.attrs["callee"] if self.kind == "call" else None

    @property
    def line(self) -> int | None:
        return self.op.loc.line if self.op.loc is not None else None

    @property
    def ptr_args(self) -> list:
        """(callee parameter, memory, word offset, use) of each pointer argument the
        callee reads or writes (:func:`used_ptr_args`); a sink has none."""
        return used_ptr_args(self.op) if self.kind == "call" else []


@dataclass(eq=False)
class Channel:
    """A local array of the region between one producer and its consumers.  ``users``:
    (task, callee memory, word offset value) of each call that receives it; ``kind``
    ``"pipo"`` or ``"fifo"`` and ``depth`` (elements of a FIFO; 2 banks of a PIPO) are
    set by :func:`hls.dataflow.choose_channels`."""

    name: str
    mem: MemoryObject
    producer: Task
    consumers: list[Task]
    users: list[tuple[Task, MemoryObject, Value]] = field(default_factory=list)
    kind: str = "pipo"
    depth: int = 2
    why: str = ""
    forced: bool = False
    #: an ``hls::stream`` (``MemoryObject.stream``): a FIFO, whatever else is asked
    stream: bool = False

    @property
    def width(self) -> int:
        return 8 * self.mem.word_bytes

    def callee_mem(self, task: Task) -> MemoryObject:
        for t, cm, _ in self.users:
            if t is task:
                return cm
        raise KeyError(task.name)


@dataclass(eq=False)
class ScalarChannel:
    """A call's result consumed by later tasks (scalar arguments, sinks): a FIFO of
    ``depth`` words."""

    name: str
    producer: Task
    consumers: list[Task]
    width: int
    depth: int = 2


@dataclass(eq=False)
class Port:
    """A memory of a pointer argument of the region (one per bank) and the tasks using
    it, in program order, with what each does (``"r"``, ``"w"``, ``"rw"``)."""

    mem: MemoryObject
    users: list[tuple[Task, str]] = field(default_factory=list)

    @property
    def written(self) -> bool:
        return any("w" in how for _, how in self.users)

    @property
    def direction(self) -> str:
        r = any("r" in how for _, how in self.users)
        w = self.written
        return "inout" if r and w else ("out" if w else "in")


@dataclass(eq=False)
class TaskGraph:
    func: Function
    tasks: list[Task]
    channels: list[Channel]
    scalars: list[ScalarChannel]
    ports: list[Port]
    #: task -> memories only that task uses (its own, instantiated for it)
    private: dict
    #: frames per call: a constant, or None when the frames loop counts to ``frames_bound``
    frames: int | None = 1
    #: a frames loop counting from ``iv_start`` by 1 to this region value (a scalar
    #: argument, or arithmetic on them), guarded by ``bound > start`` (``frames_signed``:
    #: compared signed): ``bound - start`` frames, or none
    frames_bound: Value | None = None
    frames_signed: bool = True
    #: the frames loop's induction phi, its start and step (None for one frame)
    iv: Op | None = None
    iv_start: int = 0
    iv_step: int = 1
    #: per call: the task (for operand lookups)
    task_of: dict = field(default_factory=dict)
    #: the accelerator instance of each call task (tasks of one function may share one;
    #: :func:`hls.dataflow.choose_instances`), as an index into ``instances``
    instance_of: dict = field(default_factory=dict)
    instances: list = field(default_factory=list)

    def shares(self, task: Task) -> bool:
        """Does ``task`` share its accelerator with another task?"""
        i = self.instance_of.get(task)
        return i is not None and sum(1 for j in self.instance_of.values() if j == i) > 1

    def channel(self, name: str) -> Channel:
        for c in self.channels:
            if c.name == name:
                return c
        raise KeyError(name)

    def inputs(self, task: Task) -> list[Channel]:
        return [c for c in self.channels if task in c.consumers]

    def outputs(self, task: Task) -> list[Channel]:
        return [c for c in self.channels if c.producer is task]


def mem_use(func: Function, mem: MemoryObject, _seen=None) -> str:
    """``"r"``, ``"w"``, ``"rw"`` or ``""``: what ``func`` (and its callees, through the
    pointers it passes them) does to ``mem``."""
    seen = _seen if _seen is not None else set()
    key = (id(func), id(mem))
    if key in seen:
        return ""
    seen.add(key)
    r = w = False
    for op in func.ops():
        if op.kind == "load" and op.mem is mem:
            r = True
        elif op.kind == "store" and op.mem is mem:
            w = True
        elif op.kind == "call":
            for pp, m, _off in op.call_ptr_args():
                if m is mem:
                    u = mem_use(op.attrs["callee"], pp.mem, seen)
                    r |= "r" in u
                    w |= "w" in u
    return ("r" if r else "") + ("w" if w else "")


def used_ptr_args(op: Op) -> list:
    """The pointer arguments of the call ``op`` whose callee parameter is read or written
    (by the callee or its callees), with what it does: (parameter, memory, word offset,
    ``"r"``/``"w"``/``"rw"``).  A parameter the callee never accesses (the allocated
    pointer of an MLIR memref descriptor, next to the aligned one it uses) connects
    nothing."""
    out = []
    for pp, mem, off in op.call_ptr_args():
        how = mem_use(op.attrs["callee"], pp.mem)
        if how:
            out.append((pp, mem, off, how))
    return out


def _loc(op_or_func, func: Function):
    loc = getattr(op_or_func, "loc", None) or func.loc
    return (loc.file, loc.line) if loc is not None else (None, None)


def _err(msg: str, where, func: Function) -> DataflowError:
    file, line = _loc(where, func)
    return DataflowError(msg, file, line)


def _array_name(mem: MemoryObject, func: Function) -> str:
    """The source name of a local array (the frontend prefixes the function's name, a
    C++ function's by its hardware name, :func:`hls.names.hardware_names`)."""
    from ..names import hardware_names
    name = mem.name
    for pre in (func.name + "_", hardware_names([func.name])[func.name] + "_"):
        if name.startswith(pre):
            return name[len(pre):]
    return name


def extract_graph(module: Module, func: Function) -> TaskGraph:
    """The task graph of the dataflow region ``func`` (module docstring), or a
    :class:`DataflowError` naming the rule the code breaks."""
    if func.return_width:
        raise _err(f"dataflow region @{func.name} returns a value: a region's results leave "
                   "through its pointer arguments", func, func)
    loops = find_loops(func)
    body = func.entry
    iv = None
    frames, start, step = 1, 0, 1
    if loops:
        if len(loops) > 1 or len(loops[0].blocks) != 1:
            raise _err(f"dataflow region @{func.name}: its body must be a sequence of calls, or "
                       "one counted loop whose body is a sequence of calls (this one has "
                       f"{len(loops)} loop(s) over {sum(len(lp.blocks) for lp in loops)} "
                       "block(s))", func, func)
        lp = loops[0]
        body = lp.header
        iv, start, step = _induction(lp, func)
        frames = lp.trip_count
        if frames is None:
            bound, signed = _frames_bound(lp, iv, start, step, func)
    calls = [op for op in func.ops() if op.kind == "call"]
    for op in calls:
        if op.block is not body:
            raise _err(f"dataflow region @{func.name}: the call of @{op.attrs['callee'].name} "
                       "is conditional (a task runs once per frame: every call must be in the "
                       "region's straight-line body)", op, func)
    if not calls:
        raise _err(f"dataflow region @{func.name} calls no function: there are no tasks",
                   func, func)
    # ---- tasks: calls in program order, then sinks
    tasks: list[Task] = []
    count: dict[str, int] = {}
    for op in calls:
        n = op.attrs["callee"].name
        count[n] = count.get(n, 0) + 1
    seen: dict[str, int] = {}
    task_of: dict[Op, Task] = {}
    for op in body.ops:
        if op.kind != "call":
            continue
        n = op.attrs["callee"].name
        k = seen.get(n, 0)
        seen[n] = k + 1
        t = Task(n if count[n] == 1 else f"{n}_{k}", op, "call", len(tasks))
        tasks.append(t)
        task_of[op] = t
    glue: set[Op] = set()
    for b in func.blocks:
        for op in b.ops:
            if op.kind in ("call", "br", "condbr", "ret") or op is iv:
                continue
            if op.kind == "store":
                if b is not body:
                    raise _err(f"dataflow region @{func.name}: a store outside the region's "
                               "body", op, func)
                continue
            if op.kind in ("load",) or op.kind == "phi":
                what = "reads memory" if op.kind == "load" else "carries a value between frames"
                raise _err(f"dataflow region @{func.name} {what} outside its tasks (only calls, "
                           "integer arithmetic on arguments and stores of call results may "
                           "appear in a region)", op, func)
            d = op_def(op.kind)
            if not d.pure or d.float or d.divider or d.rtl is None:
                raise _err(f"dataflow region @{func.name}: '{op.kind}' outside its tasks (only "
                           "calls, integer arithmetic on arguments and stores of call "
                           "results may appear in a region)", op, func)
            glue.add(op)

    def glue_ok(v: Value) -> bool:
        if isinstance(v, (Const, Param)) or v is iv:
            return True
        return isinstance(v, Op) and v in glue and all(glue_ok(o) for o in v.operands)

    results: dict[Op, list[Task]] = {}
    for op in body.ops:
        if op.kind == "store":
            addr, val = op.operands[0], op.operands[1]
            if op.mem.kind != "arg":
                raise _err(f"dataflow region @{func.name} stores to '{op.mem.name}', which is not "
                           "one of its pointer arguments", op, func)
            if not glue_ok(addr) or not (isinstance(val, Op) and val.kind == "call"):
                raise _err(f"dataflow region @{func.name}: a store outside a task may only "
                           "write a call's result (at an address computed from arguments)",
                           op, func)
            t = Task(f"{task_of[val].name}_to_{op.mem.name}", op, "store", len(tasks))
            tasks.append(t)
            task_of[op] = t
            results.setdefault(val, []).append(t)
    for op in calls:
        for v in op.call_scalar_args() + [off for _, _, off in op.call_ptr_args()]:
            if isinstance(v, Op) and v.kind == "call":
                if v.block is not body or task_of[v].index > task_of[op].index:
                    raise _err("a task reads the result of a later task", op, func)
                results.setdefault(v, []).append(task_of[op])
            elif not glue_ok(v):
                raise _err(f"dataflow region @{func.name}: an argument of the call of "
                           f"@{op.attrs['callee'].name} is computed from something other "
                           "than the region's arguments, constants and the frame number",
                           op, func)
    for op in glue:
        for v in op.operands:
            if isinstance(v, Op) and v.kind == "call":
                raise _err(f"dataflow region @{func.name}: the result of @{v.attrs['callee'].name} "
                           "is computed on outside a task (pass it to a task, or store it)",
                           op, func)
    for b in func.blocks:
        t = b.terminator
        if t.kind == "ret" and t.operands:
            raise _err(f"dataflow region @{func.name} returns a value", t, func)
    scalars = [ScalarChannel(f"{task_of[v].name}.ret", task_of[v], cons, v.width)
               for v, cons in results.items()]
    # ---- memories: channels, private arrays, ports
    users: dict[MemoryObject, list[tuple[Task, MemoryObject, Value, str]]] = {}
    for op in calls:
        t = task_of[op]
        passed: dict[MemoryObject, str] = {}
        for pp, mem, off, how in used_ptr_args(op):
            if mem in passed:
                raise _err(f"dataflow region @{func.name}: the call of @{t.function.name} "
                           f"passes '{_array_name(mem, func)}' to two pointer parameters it "
                           f"accesses ({passed[mem]} and {pp.name}: a task reaches a memory "
                           "through one parameter)", op, func)
            passed[mem] = pp.name
            users.setdefault(mem, []).append((t, pp.mem, off, how))
    for op in body.ops:
        if op.kind == "store":
            users.setdefault(op.mem, []).append((task_of[op], op.mem, op.operands[0], "w"))
    channels, ports, private = [], [], {}
    port_mems = [m for p in func.ptr_params for m in p.port_mems]
    for mem in port_mems:
        ports.append(Port(mem, [(t, how) for t, _cm, _o, how in users.get(mem, []) if how]))
    for mem, us in users.items():
        if mem in port_mems:
            continue
        if len({t for t, *_ in us}) == 1 or mem.kind == "global":
            for t, *_ in us:
                private.setdefault(t, []).append(mem)
            continue
        name = _array_name(mem, func)
        writers = [(t, how) for t, _cm, _o, how in us if "w" in how]
        if not writers:
            raise _err(f"dataflow region @{func.name}: array '{name}' is read by tasks "
                       f"{', '.join(t.name for t, *_ in us)} but written by none", us[0][0].op,
                       func)
        if len({t for t, _ in writers}) > 1:
            lines = ", ".join(f"@{t.function.name} (line {t.line})" for t, _ in writers)
            hint = ""
            if len({(t.function, t.line) for t, _ in writers}) == 1:
                hint = ("; one call of the source appears twice: was a frames loop of 2 "
                        "iterations unrolled? give it more frames, or use separate arrays")
            raise _err(f"channel '{name}' has two producers: {lines} (a channel has one "
                       f"producer{hint})", writers[1][0].op, func)
        prod = writers[0][0]
        cons = []
        for t, _cm, _o, how in us:
            if t is prod:
                continue
            if t.index < prod.index:
                raise _err(f"task {t.name} reads channel '{name}' before its producer "
                           f"{prod.name} (line {prod.line}) writes it (a task reading an "
                           "output of a later task)", t.op, func)
            if t not in cons:
                cons.append(t)
        channels.append(Channel(name, mem, prod, cons,
                                [(t, cm, o) for t, cm, o, _h in us]))
    g = TaskGraph(func, tasks, channels, scalars, ports, private, frames, None, True, iv,
                  start, step, task_of)
    if frames is None:
        if not glue_ok(bound):
            raise _err(f"dataflow region @{func.name}: the frames loop counts to a value "
                       "computed from something other than the region's arguments",
                       body.terminator, func)
        g.frames_bound, g.frames_signed = bound, signed
    for t in tasks:                     # one accelerator per call until chosen otherwise
        if t.kind == "call":
            g.instance_of[t] = len(g.instances)
            g.instances.append(t.function)
    return g


def _strip(v):
    while isinstance(v, Op) and v.kind in ("zext", "sext", "trunc"):
        v = v.operands[0]
    return v


def _frames_bound(lp, iv: Op, start: int, step: int, func: Function):
    """A frames loop whose trip count is not a constant: counting by 1 from ``start`` to a
    loop-invariant bound ``B`` (the exit test ``next == B``, ``next != B`` or ``next < B``
    at its latch), entered only when ``B > start`` (the guard clang and LLVM put before a
    rotated loop).  Returns (B, whether the guard compares signed)."""
    why = ("the frames loop must count by 1 from a constant to a bound computed from the "
           "region's arguments, behind a guard that skips it when there is no frame")
    t = lp.header.terminator
    cond = t.operands[0] if t.kind == "condbr" else None
    if (step != 1 or not isinstance(cond, Op) or cond.kind != "icmp"
            or not isinstance(cond.operands[0], Op) or cond.operands[0].kind != "add"
            or cond.operands[0].operands[0] is not iv):
        raise _err(f"dataflow region @{func.name}: {why}", t, func)
    pred = cond.attrs["pred"]
    stays = t.targets[0] is lp.header
    if not ((pred == "eq" and not stays) or (pred in ("ne", "slt", "ult") and stays)):
        raise _err(f"dataflow region @{func.name}: {why}", t, func)
    bound = cond.operands[1]
    # the guard: a block outside the loop branching on `B > start` towards it
    want = _strip(bound)
    for b in func.blocks:
        g = b.terminator
        if b in lp.blocks or g.kind != "condbr" or not isinstance(g.operands[0], Op):
            continue
        c = g.operands[0]
        if c.kind != "icmp":
            continue
        x, y, p = c.operands[0], c.operands[1], c.attrs["pred"]
        if p in ("slt", "ult"):
            x, y, p = y, x, {"slt": "sgt", "ult": "ugt"}[p]
        if (_strip(x) is want and isinstance(y, Const) and y.value == start
                and p in ("sgt", "ugt", "ne")):
            return bound, p == "sgt"
    raise _err(f"dataflow region @{func.name}: {why}", t, func)


def _induction(lp, func: Function) -> tuple[Op, int, int]:
    """The frames loop's counter: a header phi starting at a constant and stepped by a
    constant (the only phi a region may have)."""
    phis = lp.header.phis
    if len(phis) != 1:
        raise _err(f"dataflow region @{func.name}: the frames loop may carry only its counter "
                   f"({len(phis)} values are carried from frame to frame)", lp.header.terminator,
                   func)
    phi = phis[0]
    start = step = None
    for pred, v in phi.incoming:
        if pred in lp.blocks:
            if (isinstance(v, Op) and v.kind == "add" and v.operands[0] is phi
                    and isinstance(v.operands[1], Const)):
                step = v.operands[1].value
        elif isinstance(v, Const):
            start = v.value
    if start is None or step is None:
        raise _err(f"dataflow region @{func.name}: the frames loop's counter must start at a "
                   "constant and step by a constant", lp.header.terminator, func)
    return phi, start, step
