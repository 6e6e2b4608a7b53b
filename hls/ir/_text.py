"""The IR text form of a whole module: ``print_module`` and ``parse_module`` round-trip
exactly (``print_module(parse_module(t)) == t`` for every printed ``t``; the parsed module
has the same functions, params, blocks, ops, widths, attrs, memories with their initial
bytes, banks, locations, loop metadata, call bindings, names and orders).  Files with this
text use the extension ``.hir``; every pyhls command reads them (``hls.frontend.load``).

Syntax (line-oriented; ``;`` starts a comment line; blank lines are ignored)::

    ; pyhls IR module
    module @fir                           ; the top function
    source "fir.c"                        ; Module.source
    file 0 "fir.c"                        ; file table of locations: !0:12 is fir.c line 12
    fp_format "fir" fp(8, 7)              ; Module.fp_formats (function name -> FPFormat)
    abort_site 1 "fir.c:9: assert(n > 0)" ; Module.abort_sites
    dataflow "fir"                        ; Module.dataflow (regions whose calls are tasks)
    absent_param 3                        ; Module.absent_params (no port: an unread field)
    directive "loop" {function: "fir", line: 21, ii: 2, origin: ("fir.c", 20)}
                                          ; Module.directives (pyhls ir: the #pragma HLS)
    ptr_tag "g" (1, 64)                 ; Module.ptr_tags: a global's memory tag and bytes
    ptr_slots "g" [0, 8]                ; Module.ptr_slots: offsets of pointers held in it
    memory &x arg word=2 depth=210 elem=2 readonly arg_index=0 loc=!0:16
    memory &lut global word=4 depth=4 elem=4 readonly symbol="lut" init=x"01000000..."
    memory &a.1 arg name="a" word=4 depth=8 elem=4 bank=bank("cyclic", 2, 0, 16) whole=&a
    global &lut                           ; Module.globals, in order

    func @fir -> i32 signed float=32 loc=!0:16
      ptr "x" &x index=0                  ; a PtrParam (banks=[&x.0, &x.1] when partitioned)
      param %n: i32 index=1               ; a Param (name="..." when its reference differs)
      local &fir_tmp                      ; Function.memories, in order
    ^entry:
      %0:i1 = icmp %n, 0:i32 {pred: "sgt"} !0:18
      condbr %0 -> ^body, ^exit !0:18
    ^body:
      %1:i32 = phi [^entry: 0:i32], [^body: %2] !0:16
      %3:i16 = load %1 {mem: &x, size: 2, lane: 0} !0:22
      ...
      condbr %9 -> ^exit, ^body {loop_md: {ii: 1}} !0:21
    ^exit:
      ret %2
    end

    llvm_ir                               ; Module.llvm_ir, the golden model, verbatim:
    | ; ModuleID = 'fir.c'                ; every line after "| " (an empty line: "|")
    |

Names: ``@function``, ``^block``, ``&memory``, ``%value`` (ops with a result are numbered
``%0, %1, ...`` in function order; parameters go by their name).  Names outside
``[A-Za-z0-9_.$-]`` are quoted (``%"a b"``).  A memory's reference is its name, made unique
with ``.1, .2, ...`` when names repeat (``name=`` then gives the real one).  A constant
operand is ``VALUE:iWIDTH`` (printed signed when its top bit is set).

An op line: ``[%REF:iW =] KIND OPERANDS [-> ^TARGETS] [cases [..]] [{ATTRS}] [name="..."]
[!LOC]``; a phi's operands are ``[^pred: value], ...``.  Attribute values: integers,
``true``/``false``/``none``, strings (JSON escapes), ``x"hex"`` and ``zeros(N)`` bytes,
``(tuples,)``, ``[lists]``, ``{dicts}``, ``fp(E, M)`` (an ``hls.fpu.FPFormat``),
``bank("kind", factor, index, whole_words)``, ``&memory``, ``@function``,
``param(@function, POSITION)`` (a callee's pointer parameter, in ``ptr_args``) and
``!FILE:LINE`` locations.  The attribute names of an op are those its kind's ``OpDef``
declares (``hls.ir._ops``): any other name is a parse error.  Memory and function fields
that have their default value are left out.
"""

from __future__ import annotations

import json
import re

from ..errors import FrontendError
from ..fpu import FPFormat
from ._core import Bank, Block, Const, Function, Loc, MemoryObject, Module, Op, Param, PtrParam
from ._ops import OPS

__all__ = ["print_module", "parse_module"]

_SYM = re.compile(r"[A-Za-z0-9_.$\-]+\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.$\-]*\Z")


def _sym(name: str) -> str:
    return name if _SYM.match(name) else json.dumps(name)


# ----------------------------------------------------------------------------- printer

class _Printer:
    def __init__(self, module: Module) -> None:
        self.m = module
        self.files: dict[str, int] = {}
        self.mem_label: dict[MemoryObject, str] = {}
        self.mem_order: list[MemoryObject] = []
        self.pp_owner: dict[PtrParam, tuple[Function, int]] = {}
        for f in module.functions:
            for i, p in enumerate(f.params):
                if isinstance(p, PtrParam):
                    self.pp_owner[p] = (f, i)

    # memories, in a deterministic order; the whole array before its banks
    def _add_mem(self, mem: MemoryObject) -> None:
        if mem in self.mem_label:
            return
        if mem.whole is not None:
            self._add_mem(mem.whole)
        label, k = mem.name, 0
        taken = set(self.mem_label.values())
        while label in taken or not label:
            k += 1
            label = f"{mem.name}.{k}"
        self.mem_label[mem] = label
        self.mem_order.append(mem)

    def _collect(self) -> None:
        for g in self.m.globals:
            self._add_mem(g)
        for f in self.m.functions:
            for p in f.params:
                if isinstance(p, PtrParam):
                    self._add_mem(p.mem)
                    for b in p.banks:
                        self._add_mem(b)
            for mm in f.memories:
                self._add_mem(mm)
        for f in self.m.functions:
            for op in f.ops():
                self._collect_value(op.attrs)

    def _collect_value(self, v) -> None:
        if isinstance(v, MemoryObject):
            self._add_mem(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                self._collect_value(x)
        elif isinstance(v, dict):
            for x in v.values():
                self._collect_value(x)

    def loc(self, loc: Loc) -> str:
        if loc.file not in self.files:
            self.files[loc.file] = len(self.files)
        n = self.files[loc.file]
        return f"!{n}" if loc.line is None else f"!{n}:{loc.line}"

    def value(self, v) -> str:
        """An attribute value."""
        if v is None:
            return "none"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, bytes):
            if v and not any(v):
                return f"zeros({len(v)})"
            return f'x"{v.hex()}"'
        if isinstance(v, tuple):
            if len(v) == 1:
                return f"({self.value(v[0])},)"
            return "(" + ", ".join(self.value(x) for x in v) + ")"
        if isinstance(v, list):
            return "[" + ", ".join(self.value(x) for x in v) + "]"
        if isinstance(v, dict):
            items = []
            for k, x in v.items():
                if isinstance(k, str):
                    plain = _IDENT.match(k) and k not in ("true", "false", "none")
                    key = k if plain else json.dumps(k)
                elif isinstance(k, int) and not isinstance(k, bool):
                    key = str(k)
                else:
                    raise TypeError(f"IR text: a dict key must be a string or an integer, "
                                    f"not {k!r}")
                items.append(f"{key}: {self.value(x)}")
            return "{" + ", ".join(items) + "}"
        if isinstance(v, FPFormat):
            return f"fp({v.exp_bits}, {v.man_bits})"
        if isinstance(v, Bank):
            g = f", {v.granule}" if v.granule != 1 else ""
            return f"bank({json.dumps(v.kind)}, {v.factor}, {v.index}, {v.whole_words}{g})"
        if isinstance(v, MemoryObject):
            return "&" + _sym(self.mem_label[v])
        if isinstance(v, Function):
            return "@" + _sym(v.name)
        if isinstance(v, PtrParam):
            f, i = self.pp_owner[v]
            return f"param(@{_sym(f.name)}, {i})"
        if isinstance(v, Loc):
            return self.loc(v)
        raise TypeError(f"IR text: cannot print the attribute value {v!r}")

    def memory(self, mem: MemoryObject) -> str:
        label = self.mem_label[mem]
        out = [f"memory &{_sym(label)} {mem.kind}"]
        if label != mem.name:
            out.append(f"name={json.dumps(mem.name)}")
        out.append(f"word={mem.word_bytes} depth={mem.depth_words} elem={mem.elem_bytes}")
        if mem.readonly:
            out.append("readonly")
        if mem.writeonly:
            out.append("writeonly")
        if mem.async_read:
            out.append("async_read")
        if mem.stream:
            out.append("stream")
        if mem.arg_index is not None:
            out.append(f"arg_index={mem.arg_index}")
        if mem.loc is not None:
            out.append(f"loc={self.loc(mem.loc)}")
        if mem.symbol is not None:
            out.append(f"symbol={json.dumps(mem.symbol)}")
        if mem.float_bits:
            out.append(f"float={mem.float_bits}")
        if mem.bank is not None:
            out.append(f"bank={self.value(mem.bank)}")
        if mem.whole is not None:
            out.append(f"whole={self.value(mem.whole)}")
        if mem.elem_dims != ():
            out.append(f"dims={self.value(mem.elem_dims)}")
        if mem.elem_fields != ():
            out.append(f"fields={self.value(mem.elem_fields)}")
        if mem.init is not None:
            out.append(f"init={self.value(mem.init)}")
        return " ".join(out)

    def function(self, f: Function) -> list[str]:
        head = f"func @{_sym(f.name)} -> i{f.return_width}"
        if f.return_signed:
            head += " signed"
        if f.return_float:
            head += f" float={f.return_float}"
        if f.loc is not None:
            head += f" loc={self.loc(f.loc)}"
        lines = [head]
        names: dict[object, str] = {}
        taken: set[str] = set()
        for i, p in enumerate(f.params):
            if isinstance(p, Param):
                ref = p.name
                if not _IDENT.match(ref) or ref in taken:     # then p<position>, made unique
                    ref, k = f"p{i}", 0
                    while ref in taken or any(q.name == ref for q in f.params):
                        k += 1
                        ref = f"p{i}_{k}"
                taken.add(ref)
                names[p] = "%" + ref
                line = f"  param %{ref}: i{p.width} index={p.index}"
                if ref != p.name:
                    line += f" name={json.dumps(p.name)}"
                lines.append(line)
            else:
                line = f"  ptr {json.dumps(p.name)} {self.value(p.mem)} index={p.index}"
                if p.banks:
                    line += f" banks={self.value(list(p.banks))}"
                lines.append(line)
        for mm in f.memories:
            lines.append(f"  local {self.value(mm)}")
        n = 0
        for op in f.ops():
            if op.width:
                names[op] = f"%{n}"
                n += 1

        def operand(v) -> str:
            if isinstance(v, Const):
                s = v.signed() if v.width > 1 else v.value
                return f"{s}:i{v.width}" + (f" {json.dumps(v.name)}" if v.name else "")
            if v not in names:
                raise ValueError(f"IR text: @{f.name} uses a value defined outside it")
            return names[v]

        for b in f.blocks:
            lines.append(f"^{_sym(b.name)}:")
            for op in b.ops:
                s = "  "
                if op.width:
                    s += f"{names[op]}:i{op.width} = "
                s += op.kind
                if op.kind == "phi" and not op.operands:
                    s += " " + ", ".join(f"[^{_sym(p.name)}: {operand(v)}]" for p, v in op.incoming)
                else:
                    if op.incoming:
                        raise ValueError(f"IR text: a {op.kind} with phi incoming values")
                    if op.operands:
                        s += " " + ", ".join(operand(v) for v in op.operands)
                if op.targets:
                    s += " -> " + ", ".join(f"^{_sym(t.name)}" for t in op.targets)
                if op.cases:
                    s += f" cases {self.value(list(op.cases))}"
                if op.attrs:
                    s += " " + self.value(op.attrs)
                if op.name:
                    s += f" name={json.dumps(op.name)}"
                if op.loc is not None:
                    s += " " + self.loc(op.loc)
                lines.append(s.rstrip())
        lines.append("end")
        return lines

    def run(self) -> str:
        m = self.m
        self._collect()
        body: list[str] = []
        for f in m.functions:
            body.append("")
            body += self.function(f)
        mems = [self.memory(mm) for mm in self.mem_order]   # files numbered in print order
        head = ["; pyhls IR module (hls.ir.print_module; parse with hls.ir.parse_module)",
                f"module @{_sym(m.top.name)}"]
        if m.source:
            head.append(f"source {json.dumps(m.source)}")
        for name, fmt in m.fp_formats.items():
            head.append(f"fp_format {json.dumps(name)} {self.value(fmt)}")
        for k, site in m.abort_sites.items():
            head.append(f"abort_site {self.value(k)} {self.value(site)}")
        for name in m.dataflow:
            head.append(f"dataflow {json.dumps(name)}")
        for k in m.absent_params:
            head.append(f"absent_param {k}")
        for kind, fields in m.directives:
            head.append(f"directive {json.dumps(kind)} {self.value(dict(fields))}")
        for sym, tag in m.ptr_tags.items():
            head.append(f"ptr_tag {json.dumps(sym)} {self.value(tuple(tag))}")
        for sym, slots in m.ptr_slots.items():
            head.append(f"ptr_slots {json.dumps(sym)} {self.value(list(slots))}")
        files = [f"file {n} {json.dumps(name)}" for name, n in self.files.items()]
        out = head + files + mems + [f"global {self.value(g)}" for g in m.globals] + body
        if m.llvm_ir:
            out += ["", "llvm_ir"]
            out += ["|" + (" " + s if s else "") for s in m.llvm_ir.split("\n")]
        return "\n".join(out) + "\n"


def print_module(module: Module) -> str:
    """The whole module as IR text (see the module docstring for the syntax)."""
    return _Printer(module).run()


# ----------------------------------------------------------------------------- parser

_TOKEN = re.compile(r"""\s*(?:
    (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<bytes>x"[0-9a-fA-F]*")
  | (?P<ref>[%&@^](?:[A-Za-z0-9_.$\-]+|"(?:[^"\\]|\\.)*"))
  | (?P<loc>!\d+(?::\d+)?)
  | (?P<int>-?\d+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.$\-]*)
  | (?P<arrow>->)
  | (?P<punct>[()\[\]{},=:])
)""", re.X)


class _ParseError(Exception):
    pass


class _Tokens:
    def __init__(self, line: str) -> None:
        self.toks: list[tuple[str, str]] = []
        pos, n = 0, len(line)
        while pos < n:
            if line[pos:].strip() == "":
                break
            m = _TOKEN.match(line, pos)
            if m is None or m.end() == pos:
                raise _ParseError(f"unexpected text '{line[pos:].strip()[:20]}'")
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at_end(self) -> bool:
        return self.i >= len(self.toks)

    def next(self, what: str = "more") -> tuple[str, str]:
        t = self.peek()
        if t is None:
            raise _ParseError(f"expected {what} at the end of the line")
        self.i += 1
        return t

    def expect(self, kind: str, text: str | None = None) -> str:
        t = self.next(text or kind)
        if t[0] != kind or (text is not None and t[1] != text):
            raise _ParseError(f"expected {text or kind}, not '{t[1]}'")
        return t[1]

    def accept(self, kind: str, text: str | None = None) -> str | None:
        t = self.peek()
        if t is not None and t[0] == kind and (text is None or t[1] == text):
            self.i += 1
            return t[1]
        return None

    def ref(self, sigil: str) -> str:
        t = self.next(f"a {sigil}name")
        if t[0] != "ref" or t[1][0] != sigil:
            raise _ParseError(f"expected a {sigil}name, not '{t[1]}'")
        body = t[1][1:]
        return json.loads(body) if body.startswith('"') else body

    def done(self) -> None:
        if not self.at_end():
            raise _ParseError(f"unexpected '{self.peek()[1]}'")


def _int(text: str) -> int:
    return int(text)


class _Parser:
    def __init__(self, text: str, path: str, op_lines: dict | None = None) -> None:
        self.op_lines = op_lines if op_lines is not None else {}
        self.lines = text.split("\n")
        self.path = path
        self.lineno = 0
        self.files: dict[int, str] = {}
        self.mems: dict[str, MemoryObject] = {}
        self.funcs: dict[str, Function] = {}
        self.defined_funcs: list[Function] = []
        self.func_line: dict[str, int] = {}
        self.pending_params: list[tuple[str, int, int]] = []

    def error(self, msg: str, line: int | None = None) -> FrontendError:
        return FrontendError(f"IR text: {msg}", self.path,
                             line if line is not None else self.lineno)

    def func(self, name: str) -> Function:
        f = self.funcs.get(name)
        if f is None:
            f = self.funcs[name] = Function(name)
            self.func_line.setdefault(name, self.lineno)
        return f

    def mem(self, label: str) -> MemoryObject:
        if label not in self.mems:
            raise _ParseError(f"no memory &{label} (memories are declared before use)")
        return self.mems[label]

    # generic values
    def value(self, t: _Tokens):
        kind, text = t.next("a value")
        if kind == "int":
            return _int(text)
        if kind == "str":
            return json.loads(text)
        if kind == "bytes":
            return bytes.fromhex(text[2:-1])
        if kind == "loc":
            return self.loc(text)
        if kind == "ref":
            sig, body = text[0], text[1:]
            name = json.loads(body) if body.startswith('"') else body
            if sig == "&":
                return self.mem(name)
            if sig == "@":
                return self.func(name)
            raise _ParseError(f"'{text}' cannot be an attribute value")
        if kind == "ident":
            if text == "true":
                return True
            if text == "false":
                return False
            if text == "none":
                return None
            if t.accept("punct", "("):
                args = self._seq(t, ")")
                return self.construct(text, args)
            raise _ParseError(f"unknown value '{text}'")
        if kind == "punct" and text == "(":
            items, trailing = [], False
            while not t.accept("punct", ")"):
                items.append(self.value(t))
                trailing = False
                if t.accept("punct", ","):
                    trailing = True
                    continue
                t.expect("punct", ")")
                break
            if len(items) == 1 and not trailing:
                raise _ParseError("a one-element tuple is written (x,)")
            return tuple(items)
        if kind == "punct" and text == "[":
            return self._seq(t, "]")
        if kind == "punct" and text == "{":
            return self.dict_body(t)
        raise _ParseError(f"expected a value, not '{text}'")

    def _seq(self, t: _Tokens, close: str) -> list:
        items = []
        if t.accept("punct", close):
            return items
        while True:
            items.append(self.value(t))
            if t.accept("punct", close):
                return items
            t.expect("punct", ",")

    def dict_body(self, t: _Tokens) -> dict:
        out: dict = {}
        if t.accept("punct", "}"):
            return out
        while True:
            kind, text = t.next("a key")
            if kind == "ident":
                key = text
            elif kind == "str":
                key = json.loads(text)
            elif kind == "int":
                key = int(text)
            else:
                raise _ParseError(f"expected a key, not '{text}'")
            t.expect("punct", ":")
            out[key] = self.value(t)
            if t.accept("punct", "}"):
                return out
            t.expect("punct", ",")

    def construct(self, name: str, args: list):
        try:
            if name == "fp":
                return FPFormat(*args)
            if name == "bank":
                return Bank(*args)
            if name == "zeros":
                (n,) = args
                return bytes(n)
            if name == "param":
                f, i = args
                if not isinstance(f, Function):
                    raise _ParseError("param(@function, position) needs a function")
                self._param_refs.append((f, i, self.lineno))
                return _ParamRef(f, i)
        except (TypeError, ValueError) as e:
            raise _ParseError(f"bad {name}(...): {e}") from None
        raise _ParseError(f"unknown constructor '{name}'")

    def loc(self, text: str) -> Loc:
        n, _, line = text[1:].partition(":")
        if int(n) not in self.files:
            raise _ParseError(f"location {text} names no file (file {n} \"...\" first)")
        return Loc(self.files[int(n)], int(line) if line else None)

    # ------------------------------------------------------------------------ lines
    def run(self) -> Module:
        self._param_refs: list = []
        top = None
        source = ""
        fp_formats: dict = {}
        aborts: dict = {}
        dataflow: list = []
        absent: list = []
        directives: list = []
        ptr_tags: dict = {}
        ptr_slots: dict = {}
        globals_: list = []
        llvm_ir = None
        lines = self.lines
        if lines and lines[-1] == "":
            lines = lines[:-1]
        i = 0
        while i < len(lines):
            raw = lines[i]
            i += 1
            self.lineno = i
            s = raw.strip()
            if not s or s.startswith(";"):
                continue
            try:
                if s == "llvm_ir":
                    body = []
                    for j in range(i, len(lines)):
                        ln = lines[j]
                        if ln == "|":
                            body.append("")
                        elif ln.startswith("| "):
                            body.append(ln[2:])
                        else:
                            self.lineno = j + 1
                            raise _ParseError("an llvm_ir line must start with '| ' "
                                              "(or be '|')")
                    llvm_ir = "\n".join(body)
                    break
                t = _Tokens(s)
                kw = t.expect("ident")
                if kw == "module":
                    top = (t.ref("@"), self.lineno)
                elif kw == "source":
                    source = json.loads(t.expect("str"))
                elif kw == "file":
                    n = _int(t.expect("int"))
                    self.files[n] = json.loads(t.expect("str"))
                elif kw == "fp_format":
                    name = json.loads(t.expect("str"))
                    fp_formats[name] = self.value(t)
                elif kw == "abort_site":
                    k = self.value(t)
                    aborts[k] = self.value(t)
                elif kw == "dataflow":
                    dataflow.append(json.loads(t.expect("str")))
                elif kw == "absent_param":
                    absent.append(_int(t.expect("int")))
                elif kw == "directive":
                    kind = json.loads(t.expect("str"))
                    fields = self.value(t)
                    if not isinstance(fields, dict):
                        raise _ParseError("a directive's fields are a {dict}")
                    directives.append((kind, fields))
                elif kw == "ptr_tag":
                    sym = json.loads(t.expect("str"))
                    ptr_tags[sym] = tuple(self.value(t))
                elif kw == "ptr_slots":
                    sym = json.loads(t.expect("str"))
                    ptr_slots[sym] = list(self.value(t))
                elif kw == "memory":
                    self.memory(t)
                elif kw == "global":
                    globals_.append(self.value_of(t, MemoryObject, "a memory"))
                elif kw == "func":
                    i = self.function(t, lines, i)
                    continue
                else:
                    raise _ParseError(f"unknown line '{kw}'")
                t.done()
            except _ParseError as e:
                raise self.error(str(e)) from None
        if top is None:
            raise self.error("no 'module @top' line", 1)
        for name, f in self.funcs.items():
            if f not in self.defined_funcs:
                raise self.error(f"function @{name} is used but not defined",
                                 self.func_line.get(name))
        for f, pos, line in self._param_refs:
            if not (0 <= pos < len(f.params)) or not isinstance(f.params[pos], PtrParam):
                raise self.error(f"param(@{f.name}, {pos}): no pointer parameter there", line)
        for f in self.defined_funcs:
            for op in f.ops():
                if op.attrs:
                    op.attrs = _resolve(op.attrs)
        if top[0] not in self.funcs:
            raise self.error(f"the top @{top[0]} is not defined", top[1])
        return Module(top=self.funcs[top[0]], functions=list(self.defined_funcs),
                      globals=globals_, source=source, llvm_ir=llvm_ir or "",
                      fp_formats=fp_formats, abort_sites=aborts, ptr_tags=ptr_tags,
                      ptr_slots=ptr_slots, dataflow=dataflow, directives=directives,
                      absent_params=absent)

    def value_of(self, t: _Tokens, typ, what: str):
        v = self.value(t)
        if not isinstance(v, typ):
            raise _ParseError(f"expected {what}")
        return v

    def memory(self, t: _Tokens) -> None:
        label = t.ref("&")
        if label in self.mems:
            raise _ParseError(f"memory &{label} is declared twice")
        kind = t.expect("ident")
        mem = MemoryObject(name=label, kind=kind)
        keys = {"name": "name", "word": "word_bytes", "depth": "depth_words",
                "elem": "elem_bytes", "arg_index": "arg_index", "loc": "loc",
                "symbol": "symbol", "float": "float_bits", "bank": "bank", "whole": "whole",
                "dims": "elem_dims", "fields": "elem_fields", "init": "init"}
        while not t.at_end():
            key = t.expect("ident")
            if key in ("readonly", "writeonly", "async_read", "stream"):
                setattr(mem, key, True)
                continue
            if key not in keys:
                raise _ParseError(f"unknown memory field '{key}'")
            t.expect("punct", "=")
            setattr(mem, keys[key], self.value(t))
        self.mems[label] = mem

    def function(self, t: _Tokens, lines: list[str], i: int) -> int:
        name = t.ref("@")
        f = self.func(name)
        if f in self.defined_funcs:
            raise _ParseError(f"function @{name} is defined twice")
        self.defined_funcs.append(f)
        t.expect("arrow")
        ty = t.expect("ident")
        if not re.fullmatch(r"i\d+", ty):
            raise _ParseError(f"expected a return type iN, not '{ty}'")
        f.return_width = int(ty[1:])
        while not t.at_end():
            key = t.expect("ident")
            if key == "signed":
                f.return_signed = True
            elif key in ("float", "loc"):
                t.expect("punct", "=")
                v = self.value(t)
                if key == "float":
                    f.return_float = v
                else:
                    f.loc = v
            else:
                raise _ParseError(f"unknown function field '{key}'")
        values: dict[str, object] = {}
        blocks: dict[str, Block] = {}
        block_line: dict[str, int] = {}
        defined_blocks: list[Block] = []
        pending: list[tuple[Op, list, int]] = []
        cur: Block | None = None

        def block(bname: str) -> Block:
            if bname not in blocks:
                blocks[bname] = Block(bname, function=f)
                block_line[bname] = self.lineno
            return blocks[bname]

        while i < len(lines):
            s = lines[i].strip()
            i += 1
            self.lineno = i
            if not s or s.startswith(";"):
                continue
            try:
                t = _Tokens(s)
                if s == "end":
                    break
                first = t.peek()
                if first[0] == "ref" and first[1][0] == "^":
                    b = block(t.ref("^"))
                    if b in defined_blocks:
                        raise _ParseError(f"block ^{b.name} is defined twice")
                    t.expect("punct", ":")
                    t.done()
                    defined_blocks.append(b)
                    cur = b
                    continue
                if cur is None:
                    kw = t.expect("ident")
                    if kw == "param":
                        ref = t.ref("%")
                        t.expect("punct", ":")
                        w = self.width(t.expect("ident"))
                        p = Param(width=w, name=ref)
                        while not t.at_end():
                            key = t.expect("ident")
                            t.expect("punct", "=")
                            if key == "index":
                                p.index = _int(t.expect("int"))
                            elif key == "name":
                                p.name = json.loads(t.expect("str"))
                            else:
                                raise _ParseError(f"unknown param field '{key}'")
                        if ref in values:
                            raise _ParseError(f"%{ref} is defined twice")
                        values[ref] = p
                        f.params.append(p)
                    elif kw == "ptr":
                        pname = json.loads(t.expect("str"))
                        mem = self.value_of(t, MemoryObject, "a memory")
                        pp = PtrParam(index=0, name=pname, mem=mem)
                        while not t.at_end():
                            key = t.expect("ident")
                            t.expect("punct", "=")
                            if key == "index":
                                pp.index = _int(t.expect("int"))
                            elif key == "banks":
                                pp.banks = self.value(t)
                            else:
                                raise _ParseError(f"unknown ptr field '{key}'")
                        f.params.append(pp)
                    elif kw == "local":
                        f.memories.append(self.value_of(t, MemoryObject, "a memory"))
                    else:
                        raise _ParseError(f"expected param, ptr, local or a block, not '{kw}'")
                    t.done()
                    continue
                op, raw = self.op(t, block)
                self.op_lines[op] = self.lineno
                cur.append(op)
                if op.width:
                    ref = raw.pop("ref")
                    if ref in values:
                        raise _ParseError(f"%{ref} is defined twice")
                    values[ref] = op
                pending.append((op, raw, self.lineno))
            except _ParseError as e:
                raise self.error(str(e)) from None
        else:
            raise self.error(f"function @{name} has no 'end'")
        for bname, b in blocks.items():
            if b not in defined_blocks:
                raise self.error(f"block ^{bname} is used but not defined", block_line[bname])
        f.blocks = defined_blocks

        def resolve(v, line):
            if isinstance(v, str):
                if v not in values:
                    raise self.error(f"%{v} is not defined in @{name}", line)
                return values[v]
            return v

        for op, raw, line in pending:
            op.operands = [resolve(v, line) for v in raw["operands"]]
            op.incoming = [(b, resolve(v, line)) for b, v in raw["incoming"]]
        return i

    def width(self, ty: str) -> int:
        if not re.fullmatch(r"i\d+", ty):
            raise _ParseError(f"expected a type iN, not '{ty}'")
        return int(ty[1:])

    def operand(self, t: _Tokens):
        kind, text = t.next("an operand")
        if kind == "ref" and text[0] == "%":
            body = text[1:]
            return json.loads(body) if body.startswith('"') else body
        if kind == "int":
            t.expect("punct", ":")
            c = Const(self.width(t.expect("ident")), int(text))
            if t.peek() is not None and t.peek()[0] == "str":
                c.name = json.loads(t.next()[1])
            return c
        raise _ParseError(f"expected an operand (%value or N:iW), not '{text}'")

    def op(self, t: _Tokens, block):
        raw: dict = {"operands": [], "incoming": []}
        width = 0
        if t.peek()[0] == "ref":
            raw["ref"] = t.ref("%")
            t.expect("punct", ":")
            width = self.width(t.expect("ident"))
            if width == 0:
                raise _ParseError("a result needs a width of at least 1")
            t.expect("punct", "=")
        kind = t.expect("ident")
        op = Op(width=width, kind=kind)

        def stop() -> bool:
            p = t.peek()
            return p is None or p[0] in ("arrow", "loc") or p == ("punct", "{") or (
                p[0] == "ident" and p[1] in ("cases", "name"))

        if not stop():
            if kind == "phi" and t.peek() == ("punct", "["):
                while True:
                    t.expect("punct", "[")
                    b = block(t.ref("^"))
                    t.expect("punct", ":")
                    raw["incoming"].append((b, self.operand(t)))
                    t.expect("punct", "]")
                    if not t.accept("punct", ","):
                        break
            else:
                while True:
                    raw["operands"].append(self.operand(t))
                    if not t.accept("punct", ","):
                        break
        if t.accept("arrow"):
            while True:
                op.targets.append(block(t.ref("^")))
                if not t.accept("punct", ","):
                    break
        if t.accept("ident", "cases"):
            cases = self.value(t)
            if not isinstance(cases, list):
                raise _ParseError("cases are a list [..]")
            op.cases = cases
        if t.accept("punct", "{"):
            op.attrs = self.dict_body(t)
            d = OPS.get(kind)   # (an unknown kind is verify's to report)
            problem = d.unknown_attr(op.attrs) if d is not None else None
            if problem:
                what = f"{kind} %{_sym(raw['ref'])}" if "ref" in raw else kind
                raise _ParseError(f"{what}: {problem}")
        if t.accept("ident", "name"):
            t.expect("punct", "=")
            op.name = json.loads(t.expect("str"))
        p = t.peek()
        if p is not None and p[0] == "loc":
            op.loc = self.loc(t.next()[1])
        t.done()
        if width and "ref" not in raw:
            raise _ParseError("an op with a result needs '%ref:iW ='")
        return op, raw


class _ParamRef:
    """``param(@f, i)`` until every function is parsed."""

    def __init__(self, f: Function, i: int) -> None:
        self.f, self.i = f, i


def _resolve(v):
    if isinstance(v, _ParamRef):
        return v.f.params[v.i]
    if isinstance(v, list):
        return [_resolve(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_resolve(x) for x in v)
    if isinstance(v, dict):
        return {k: _resolve(x) for k, x in v.items()}
    return v


def parse_module(text: str, path: str = "<ir>", op_lines: dict | None = None) -> Module:
    """Parse IR text (``print_module``'s syntax); errors are ``FrontendError`` at
    ``path:line``.  ``op_lines``, when given, is filled with the line of every op."""
    return _Parser(text, path, op_lines).run()
