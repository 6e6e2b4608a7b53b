"""An explicit task graph (``--task-graph FILE``): the orchestration of a module whose
code does not hold it, as SODA-OPT hands Bambu a graph of outlined functions.

The file is JSON::

    {
      "top": "pipe",                       # the region's name (the design's top)
      "frames": 4,                         # optional (default 1): calls of every task
      "ports": [                           # the region's arguments, in order
        {"name": "in", "element": "i32", "depth": 128},   # a pointer: element type and
        {"name": "out", "element": "i32", "depth": 128},  #   elements (as --depth)
        {"name": "k", "scalar": "i32"}                    # a scalar argument
      ],
      "buffers": [                         # local arrays between tasks: the channels
        {"name": "t", "element": "i32", "elements": 32}
      ],
      "tasks": [                           # calls in program order, once per frame
        {"function": "stage1", "args": [{"port": "in", "frame_stride": 32},
                                        {"buffer": "t"}, {"port": "k"}]},
        {"function": "stage2", "args": [{"buffer": "t"}, {"port": "out", "frame_stride": 32},
                                        {"const": 3}]}
      ]
    }

An argument is a port (a pointer port may advance by ``frame_stride`` elements per
frame), a buffer, or an integer constant.  The functions are functions of the input
module; their parameters must match (a pointer for a pointer port or buffer, an integer
of the same width for a scalar).  pyhls writes the region as an LLVM function (the
buffers are its allocas, the frames a counted loop) into the module, and the design is
that function with ``--dataflow``: the graph is checked, its channels are chosen and
co-simulation runs the same function natively as the golden model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import HLSError

__all__ = ["TaskGraphSpec", "load_task_graph", "region_ir"]

_ELEM = re.compile(r"^(i(8|16|32|64)|float|double)$")
_BYTES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "float": 4, "double": 8}


@dataclass
class TaskGraphSpec:
    path: str
    top: str
    frames: int
    ports: list[dict]
    buffers: list[dict]
    tasks: list[dict]
    depths: dict = field(default_factory=dict)


def _fail(path: str, msg: str) -> HLSError:
    return HLSError(f"task graph: {msg}", path, None)


def load_task_graph(path: str | Path) -> TaskGraphSpec:
    """Read and check the file's own consistency (names, types, references)."""
    p = str(path)
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise _fail(p, "the file does not exist") from None
    except json.JSONDecodeError as exc:
        raise HLSError(f"task graph: malformed JSON: {exc.msg}", p, exc.lineno) from None
    if not isinstance(data, dict):
        raise _fail(p, "expected an object with top, ports, buffers and tasks")
    bad = sorted(set(data) - {"top", "frames", "ports", "buffers", "tasks"})
    if bad:
        raise _fail(p, f"unknown key(s) {', '.join(bad)} (known: top, frames, ports, buffers, "
                       "tasks)")
    top = data.get("top")
    if not isinstance(top, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", top):
        raise _fail(p, "'top' must be the region's name (an identifier)")
    frames = data.get("frames", 1)
    if not isinstance(frames, int) or isinstance(frames, bool) or frames < 1:
        raise _fail(p, "'frames' must be an integer >= 1")
    names: dict[str, str] = {}
    ports, depths = [], {}
    for i, e in enumerate(data.get("ports", [])):
        where = f"ports[{i}]"
        if not isinstance(e, dict) or not isinstance(e.get("name"), str):
            raise _fail(p, f"{where}: expected an object with a 'name'")
        n = e["name"]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n):
            raise _fail(p, f"{where}: the name '{n}' is not an identifier")
        if n in names:
            raise _fail(p, f"{where}: '{n}' is defined twice")
        if "scalar" in e:
            if set(e) != {"name", "scalar"} or not re.fullmatch(r"i(8|16|32|64)", str(e["scalar"])):
                raise _fail(p, f"{where}: a scalar port is {{name, scalar: i8|i16|i32|i64}}")
            names[n] = "scalar"
        else:
            if set(e) != {"name", "element", "depth"} or not _ELEM.match(str(e["element"])) \
                    or not isinstance(e["depth"], int) or e["depth"] < 1:
                raise _fail(p, f"{where}: a pointer port is {{name, element: i8|i16|i32|i64|"
                               "float|double, depth: elements >= 1}")
            names[n] = "port"
            depths[n] = e["depth"]
        ports.append(e)
    buffers = []
    for i, e in enumerate(data.get("buffers", [])):
        where = f"buffers[{i}]"
        if not isinstance(e, dict) or set(e) != {"name", "element", "elements"} or \
                not isinstance(e.get("name"), str) or not _ELEM.match(str(e.get("element"))) \
                or not isinstance(e.get("elements"), int) or e["elements"] < 1:
            raise _fail(p, f"{where}: a buffer is {{name, element: i8|...|double, "
                           "elements: >= 1}")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", e["name"]):
            raise _fail(p, f"{where}: the name '{e['name']}' is not an identifier")
        if e["name"] in names:
            raise _fail(p, f"{where}: '{e['name']}' is defined twice")
        names[e["name"]] = "buffer"
        buffers.append(e)
    tasks = data.get("tasks", [])
    if not isinstance(tasks, list) or not tasks:
        raise _fail(p, "'tasks' must list at least one task")
    for i, t in enumerate(tasks):
        where = f"tasks[{i}]"
        if not isinstance(t, dict) or set(t) != {"function", "args"} or \
                not isinstance(t["function"], str) or not isinstance(t["args"], list):
            raise _fail(p, f"{where}: a task is {{function, args: [...]}}")
        for j, a in enumerate(t["args"]):
            w = f"{where}.args[{j}]"
            if not isinstance(a, dict) or len(set(a) - {"frame_stride"}) != 1:
                raise _fail(p, f"{w}: an argument is {{port: NAME[, frame_stride: N]}}, "
                               "{buffer: NAME} or {const: INTEGER}")
            (kind,) = set(a) - {"frame_stride"}
            if kind == "const":
                if not isinstance(a["const"], int) or "frame_stride" in a:
                    raise _fail(p, f"{w}: 'const' takes an integer")
            elif kind in ("port", "buffer"):
                ref = a[kind]
                if names.get(ref) not in (("port", "scalar") if kind == "port" else ("buffer",)):
                    raise _fail(p, f"{w}: '{ref}' is not a {kind} of the graph")
                if "frame_stride" in a and (names[ref] != "port" or not isinstance(
                        a["frame_stride"], int) or a["frame_stride"] < 0):
                    raise _fail(p, f"{w}: 'frame_stride' (elements >= 0) applies to pointer "
                                   "ports")
            else:
                raise _fail(p, f"{w}: unknown argument kind '{kind}'")
    return TaskGraphSpec(p, top, frames, ports, buffers, tasks, depths)


def region_ir(spec: TaskGraphSpec, module) -> str:
    """The LLVM text of the region function; ``module`` (llvmlite) gives the tasks'
    signatures, which the arguments must match."""
    p = spec.path
    funcs = {f.name: f for f in module.functions}
    if spec.top in funcs:
        raise _fail(p, f"'top' is '{spec.top}', which the module already defines")
    ptype = {e["name"]: ("ptr" if "element" in e else e["scalar"]) for e in spec.ports}
    elem = {e["name"]: e["element"] for e in spec.ports if "element" in e}
    params = ", ".join(f"{ptype[e['name']]} %{e['name']}" for e in spec.ports)
    lines = [f"define void @{spec.top}({params}) {{", "pyhls.entry:"]
    for b in spec.buffers:
        lines.append(f"  %{b['name']} = alloca [{b['elements']} x {b['element']}], "
                     f"align {_BYTES[b['element']]}")
    lines += ["  br label %pyhls.frame", "pyhls.frame:",
              "  %pyhls.f = phi i64 [ 0, %pyhls.entry ], [ %pyhls.f.next, %pyhls.frame ]"]
    tmp = 0
    for i, t in enumerate(spec.tasks):
        fn = funcs.get(t["function"])
        if fn is None or fn.is_declaration:
            raise _fail(p, f"tasks[{i}]: '{t['function']}' is not a function defined in the "
                           "input module")
        fargs = [str(a.type) for a in fn.arguments]
        if len(fargs) != len(t["args"]):
            raise _fail(p, f"tasks[{i}]: @{fn.name} takes {len(fargs)} argument(s), the task "
                           f"gives {len(t['args'])}")
        ops = []
        for j, (a, want) in enumerate(zip(t["args"], fargs)):
            w = f"tasks[{i}].args[{j}]"
            if "const" in a:
                if want == "ptr" or not want.startswith("i"):
                    raise _fail(p, f"{w}: @{fn.name}'s parameter {j} is {want}, not an integer")
                ops.append(f"{want} {a['const']}")
                continue
            if "buffer" in a:
                if want != "ptr":
                    raise _fail(p, f"{w}: @{fn.name}'s parameter {j} is {want}, not a pointer")
                ops.append(f"ptr %{a['buffer']}")
                continue
            name = a["port"]
            if ptype[name] != want:
                raise _fail(p, f"{w}: port '{name}' is {ptype[name]}, @{fn.name}'s parameter "
                               f"{j} is {want}")
            if want == "ptr" and a.get("frame_stride"):
                lines.append(f"  %pyhls.o{tmp} = mul i64 %pyhls.f, {a['frame_stride']}")
                lines.append(f"  %pyhls.g{tmp} = getelementptr inbounds {elem[name]}, ptr "
                             f"%{name}, i64 %pyhls.o{tmp}")
                ops.append(f"ptr %pyhls.g{tmp}")
                tmp += 1
            else:
                ops.append(f"{want} %{name}")
        ret = str(next(iter(fn.global_value_type.elements)))   # (return, params...)
        res = "" if ret == "void" else f"%pyhls.r{i} = "
        lines.append(f"  {res}call {ret} @{fn.name}({', '.join(ops)})")
    lines += ["  %pyhls.f.next = add i64 %pyhls.f, 1",
              f"  %pyhls.last = icmp eq i64 %pyhls.f.next, {spec.frames}",
              "  br i1 %pyhls.last, label %pyhls.exit, label %pyhls.frame", "pyhls.exit:", "  ret void", "}"]
    return "\n".join(lines) + "\n"
