"""``hls::stream`` (``hls/include/hls_stream.h``) lowered for synthesis.

The header's stream is a native queue whose operations are out-of-line calls of
``__pyhls_stream_*`` functions.  The golden model runs them as they are (the
canonicalised LLVM IR, queue semantics).  For synthesis, :func:`lower_streams` rewrites
a copy of that IR before translation: in every function, each stream it reads or writes
gets a read and a write position (``alloca i64``, 0 at the function's entry), and

* ``v = __pyhls_stream_readN(s)`` becomes ``v = ((iN*) s)[rd++]``,
* ``__pyhls_stream_writeN(s, v)`` becomes ``((iN*) s)[wr++] = v``,
* the constructor's ``__pyhls_stream_init`` and the destructor's ``__pyhls_stream_fini``
  go away, and a local stream (the ``alloca`` of the object) becomes an array of
  ``elements`` x N bytes,

after which SROA makes the positions SSA counters starting at 0, so a stream read in a
loop is an access at the loop's iteration number: exactly what the in-order proof
(:func:`hls.analysis.stream_order_problem`) recognises for FIFO channels and
AXI4-Stream arguments.  This is the queue's semantics as long as each stream is read
by one function and written by one function per call (a function's positions start at
0 on each call): true of a stream local to one function, of a channel between two tasks
of a dataflow region (the region's analysis checks one producer, one consumer, equal
counts) and of a stream argument of the top that is only read or only written.  What
breaks it is an error at its line: a stream passed to a function outside a dataflow
region, ``empty()``/``full()``/``size()`` and the non-blocking ``read_nb()``/``write_nb()`` (no
hardware meaning here), elements of other than 1, 2, 4 or 8 bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["PLACEHOLDER_ELEMENTS", "STREAM_PREFIX", "StreamInfo", "is_stream_function",
           "lower_streams", "mark_streams", "pass_builder", "reachable", "stream_cleanup"]

STREAM_PREFIX = "__pyhls_stream_"
#: elements of a stream's array before its count is known (the first translation)
PLACEHOLDER_ELEMENTS = 1 << 16
#: the mangled names of hls::stream<T>'s members and of the header's helpers
_MEMBER_MARKS = ("_ZN3hls6streamI", "_ZNK3hls6streamI", "_ZN12pyhls_stream")


def is_stream_function(name: str) -> bool:
    """A function of ``hls_stream.h`` (the queue's calls, hls::stream's members)."""
    return name.startswith((STREAM_PREFIX,) + _MEMBER_MARKS)


@dataclass
class StreamInfo:
    """What :func:`lower_streams` found: per function, its streams (an ``alloca`` of the
    function, or one of its pointer parameters) with their element size in bytes (0:
    a parameter only passed on), and
    the problems that make the design unbuildable (function, instruction, message)."""

    #: (function, LLVM value name without '%') -> element bytes
    locals: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    #: (function, value name) -> "r", "w", "rw" (what the function itself does)
    use: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)


_CALL = re.compile(r"^(\s*)(?:(%[-\w.$]+|%\"[^\"]+\") = )?(?:tail |musttail |notail )?"
                   r"call [^@]*@" + STREAM_PREFIX + r"(\w+)\((.*)\)(.*)$")
_DEFINE = re.compile(r"^define [^@]*@([-\w.$]+|\"[^\"]+\")\((.*)\)[^{]*\{\s*$")
_ALLOCA = re.compile(r"^(\s*)(%[-\w.$]+|%\"[^\"]+\") = alloca (.*?)(, align \d+)?(, !dbg !\d+)?$")
#: why read_nb/write_nb are not synthesised (whether they succeed would differ from the
#: golden model's queue, which never fails a write and fails a read only when empty)
_NON_BLOCKING = ("hls::stream::{0}() is not synthesised: pyhls builds a stream as in-order "
                 "accesses of its elements, each waiting for its element (FIFO channel, "
                 "AXI4-Stream) or finding it at its position (a memory port), so whether "
                 "one would succeed now has no value in hardware; use {1}()")
_OTHER_CALL = re.compile(r"call [^@]*@([-\w.$]+|\"[^\"]+\")\((.*)\)")


def _split_args(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _value(arg: str) -> str:
    return arg.split()[-1]


def _dbg(rest: str) -> str:
    m = re.search(r", !dbg !\d+", rest)
    return m.group(0) if m else ""


def _stream_params(lines: list[str]) -> dict:
    """Per function, the positions of its parameters that are streams: read or written
    by its stream calls, or passed on to another function's stream parameter."""
    params: dict = {}
    uses: dict = {}          # function -> [(callee, [argument values])]
    fname = None
    for line in lines:
        m = _DEFINE.match(line)
        if m:
            fname = m.group(1).strip('"')
            params[fname] = [_value(a).lstrip("%") for a in _split_args(m.group(2)) if a]
            uses[fname] = []
            continue
        if fname is None:
            continue
        if line == "}":
            fname = None
            continue
        c = _CALL.match(line)
        if c:
            args = _split_args(c.group(4))
            if args and c.group(3) not in ("init", "fini"):
                uses[fname].append((STREAM_PREFIX, [_value(args[0]).lstrip("%")]))
            continue
        oc = _OTHER_CALL.search(line)
        if oc and not oc.group(1).startswith("llvm."):
            uses[fname].append((oc.group(1).strip('"'),
                                [_value(a).lstrip("%") for a in _split_args(oc.group(2))]))
    out: dict = {f: set() for f in params}
    changed = True
    while changed:
        changed = False
        for f, us in uses.items():
            for callee, vals in us:
                for i, v in enumerate(vals):
                    if callee != STREAM_PREFIX and i not in out.get(callee, ()):
                        continue
                    if v in params[f] and params[f].index(v) not in out[f]:
                        out[f].add(params[f].index(v))
                        changed = True
    return out


def reachable(mod, top: str) -> set[str]:
    """The functions ``top`` calls, directly or not (and ``top``): the design, not the
    testbench beside it."""
    seen, work = set(), [top]
    while work:
        name = work.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            f = mod.get_function(name)
        except NameError:
            continue
        for b in f.blocks:
            for ins in b.instructions:
                if ins.opcode == "call":
                    callee = list(ins.operands)[-1]
                    if callee.name and not callee.name.startswith("llvm."):
                        work.append(callee.name)
    return seen


def lower_streams(text: str, elements: dict | None = None, regions=(),
                  design=None) -> tuple[str, StreamInfo]:
    """The LLVM IR ``text`` with its stream calls lowered (module docstring), and what
    was found.  ``elements``: (function, local stream) -> elements its array holds
    (default :data:`PLACEHOLDER_ELEMENTS` until the counts are known); ``design``: the
    functions to lower (default all; :func:`reachable` from the top)."""
    elements = elements or {}
    info = StreamInfo()
    lines = text.split("\n")
    passes = _stream_params(lines)
    out: list[str] = []
    i = 0
    n = 0
    while i < len(lines):
        m = _DEFINE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        fname = m.group(1).strip('"')
        j = i + 1
        while j < len(lines) and lines[j] != "}":
            j += 1
        body = lines[i + 1:j]
        order = [_value(a).lstrip("%") for a in _split_args(m.group(2)) if a]
        params = set(order)
        if is_stream_function(fname) or (design is not None and fname not in design):
            out.extend(lines[i:j + 1])
            i = j + 1
            continue
        for k in sorted(passes.get(fname, ())):     # its stream parameters, used or passed
            info.params.setdefault((fname, order[k]), 0)
        counters: dict[tuple[str, str], str] = {}
        new_body: list[str] = []
        accessed: set[str] = set()
        objects: dict[str, int] = {}          # allocas given to init: element bytes
        for b in body:
            c = _CALL.match(b)
            if not c:
                new_body.append(b)
                continue
            ind, res, what, args, rest = c.groups()
            args = _split_args(args)
            q = _value(args[0]) if args else ""
            dbg = _dbg(rest)
            qn = q.lstrip("%")
            if what == "init":
                size = int(_value(args[2])) if len(args) > 2 and _value(args[2]).isdigit() else 0
                objects[qn] = size
                continue
            if what in ("readn", "writen"):
                size = _value(args[2]) if len(args) > 2 else "?"
                info.problems.append((fname, b, (
                    f"an hls::stream of {size}-byte elements: pyhls synthesises streams "
                    "of elements of 1, 2, 4 or 8 bytes")))
                new_body.append(b)
                continue
            if what == "fini":
                continue
            mm = re.fullmatch(r"(read|write)([1248])", what)
            if mm is None:
                msg = {"empty": "hls::stream::empty() has no hardware meaning in pyhls (a "
                                "task reads a stream's elements in order, waiting for each)",
                       "full": "hls::stream::full() has no hardware meaning in pyhls (a "
                               "task writes a stream's elements in order, waiting while a "
                               "FIFO is full; natively a stream is never full)",
                       "size": "hls::stream::size() has no hardware meaning in pyhls",
                       "read_nb": _NON_BLOCKING.format("read_nb", "read"),
                       "write_nb": _NON_BLOCKING.format("write_nb", "write"),
                       }.get(what, f"the stream operation '{what}'")
                info.problems.append((fname, b, msg))
                new_body.append(b)
                continue
            op, size = mm.group(1), int(mm.group(2))
            w = 8 * size
            accessed.add(qn)
            prev = info.use.get((fname, qn), "")
            info.use[(fname, qn)] = "".join(sorted(set(prev) | {op[0]}))
            if qn in params:
                info.params[(fname, qn)] = size
            key = (qn, op)
            if key not in counters:
                counters[key] = f"%__pyhls_{op[0]}{len(counters)}"
            cnt = counters[key]
            n += 1
            k = f"%__pyhls_t{n}"
            new_body.append(f"{ind}{k}.i = load i64, ptr {cnt}, align 8{dbg}")
            new_body.append(f"{ind}{k}.p = getelementptr inbounds i{w}, ptr {q}, i64 {k}.i{dbg}")
            if op == "read":
                new_body.append(f"{ind}{res or k + '.v'} = load i{w}, ptr {k}.p, align {size}{dbg}")
            else:
                v = args[1].split()
                new_body.append(f"{ind}store {v[0]} {v[-1]}, ptr {k}.p, align {size}{dbg}")
            new_body.append(f"{ind}{k}.n = add i64 {k}.i, 1{dbg}")
            new_body.append(f"{ind}store i64 {k}.n, ptr {cnt}, align 8{dbg}")
        # locals: the object becomes an array of its elements
        for k2, b in enumerate(new_body):
            a = _ALLOCA.match(b)
            if a and a.group(2).lstrip("%") in objects:
                name = a.group(2).lstrip("%")
                size = objects[name]
                if not size:
                    continue
                info.locals[(fname, name)] = size
                count = elements.get((fname, name), PLACEHOLDER_ELEMENTS)
                new_body[k2] = (f"{a.group(1)}{a.group(2)} = alloca [{count} x i{8 * size}]"
                                f"{a.group(4) or ''}{a.group(5) or ''}")
        # a stream passed on to another function: a task of a region only
        for b in new_body:
            oc = _OTHER_CALL.search(b)
            if not oc or oc.group(1).startswith(("llvm.", STREAM_PREFIX)):
                continue
            callee = oc.group(1).strip('"')
            passed = [_value(a).lstrip("%") for a in _split_args(oc.group(2))]
            hit = [p for i, p in enumerate(passed) if i in passes.get(callee, ())]
            if hit and (fname not in regions or set(hit) & accessed):
                info.problems.append((fname, b, (
                    f"an hls::stream passed to {callee}, which is not inlined, outside "
                    "the tasks of a dataflow region: each function reads and writes a "
                    "stream from its own position 0, so a stream has one reader and one "
                    "writer (make them tasks of a #pragma HLS dataflow region, or let "
                    "the function be inlined)")))
        # the positions, at the entry
        head = []
        for cnt in counters.values():
            head.append(f"  {cnt} = alloca i64, align 8")
            head.append(f"  store i64 0, ptr {cnt}, align 8")
        k0 = 0
        while k0 < len(new_body) and not new_body[k0].strip():
            k0 += 1
        if k0 < len(new_body) and re.match(r"^[-\w.$\"]+:", new_body[k0]):
            k0 += 1
        out.append(lines[i])
        out.extend(new_body[:k0] + head + new_body[k0:])
        out.append(lines[j])
        i = j + 1
    return "\n".join(out), info


def pass_builder():
    """The pass builder of the frontend's LLVM pipelines (canonicalisation in
    :mod:`._load`, :func:`stream_cleanup`): -O2 tuning without loop unrolling or
    vectorisation, which would change the loops the user wrote."""
    import llvmlite.binding as llvm
    tm = llvm.Target.from_default_triple().create_target_machine(opt=2)
    pto = llvm.create_pipeline_tuning_options(speed_level=2)
    pto.loop_unrolling = False
    pto.loop_vectorization = False
    pto.slp_vectorization = False
    return llvm.create_pass_builder(tm, pto)


def stream_cleanup(mod) -> None:
    """SROA and clean-up after :func:`lower_streams`: the positions become SSA
    counters."""
    import llvmlite.binding as llvm
    pb = pass_builder()
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_sroa_pass()
    mpm.add_instruction_combine_pass()
    mpm.add_aggressive_dce_pass()
    mpm.add_simplify_cfg_pass()
    mpm.add_instruction_namer_pass()
    mpm.add_verifier()
    mpm.run(mod, pb)


def _counts(func, mem) -> tuple:
    """(reads, writes) of ``mem`` per call of ``func``, None where not constant."""
    from ..analysis import access_elements
    r = w = 0
    for op in func.ops():
        if op.kind in ("load", "store") and op.mem is mem:
            n = access_elements(func, op)
            if op.kind == "load":
                r = None if r is None or n is None else r + n
            else:
                w = None if w is None or n is None else w + n
    return r, w


def _passed_counts(func, mem) -> list:
    """The reads and writes of ``mem`` by the functions ``func`` passes it to (the tasks
    of a region), whose parameters are flagged streams too."""
    out = []
    for op in func.ops():
        if op.kind == "call":
            for pp, m, _off in op.call_ptr_args():
                if m is mem:
                    out += list(_counts(op.attrs["callee"], pp.mem))
                    pp.mem.stream = True
    return out


def _most(*ns):
    return None if any(n is None for n in ns) else max(ns, default=0)


def mark_streams(module, info: StreamInfo, top: str, given=frozenset(),
                 lines=None) -> dict:
    """Flag the memories of ``module`` that are streams (``MemoryObject.stream``) and
    return the elements each needs per call: (function, stream) -> count (the most any
    function reads or writes).  A count that is not a constant is an error (a stream
    argument of the top named in ``given``, an explicit ``--depth``, needs none).
    ``lines``: (function, local stream) -> (file, line) of its declaration."""
    from ..errors import UnsupportedError
    from ..ir import Loc, MemoryObject
    from ._translate import sanitize_name
    byname = {f.name: f for f in module.functions}
    need: dict = {}
    for (fn, name), _size in info.params.items():
        f = byname.get(fn)
        pp = next((p for p in f.ptr_params if p.name == name), None) if f else None
        if pp is None:
            continue
        for m in [pp.mem] + list(pp.banks):
            m.stream = True
        n = _most(*_counts(f, pp.mem), *_passed_counts(f, pp.mem))
        need[(fn, name)] = n
        if fn == top and info.use.get((fn, name)) == "rw":
            loc = pp.mem.loc or f.loc
            raise UnsupportedError(
                f"hls::stream argument '{name}' of {f.name} is both read and written: a "
                f"stream argument of the top is an input or an output",
                loc.file if loc else None, loc.line if loc else None)
        if fn == top and n is None and name not in given:
            loc = pp.mem.loc or f.loc
            raise UnsupportedError(
                f"hls::stream argument '{name}' of {f.name}: the number of elements it "
                f"reads or writes per call is not a constant: give the most with "
                f"--depth {name}=N", loc.file if loc else None, loc.line if loc else None)
    for (fn, name), _size in info.locals.items():
        f = byname.get(fn)
        if f is None:
            continue
        want = sanitize_name(name)
        mem: MemoryObject | None = next(
            (m for m in f.memories if m.kind == "local" and m.name.endswith("_" + want)), None)
        if mem is None:
            continue
        mem.stream = True
        if (lines or {}).get((fn, name)):
            mem.loc = Loc(*lines[(fn, name)])          # the declaration's line
        n = _most(*_counts(f, mem), *_passed_counts(f, mem))
        if n is None:
            loc = mem.loc or f.loc
            raise UnsupportedError(
                f"hls::stream '{name}' of {f.name}: the number of elements written to it "
                f"or read from it per call is not a constant (pyhls builds a stream's "
                f"channel for a constant count per call)", loc.file if loc else None,
                loc.line if loc else None)
        need[(fn, name)] = n
    return need
