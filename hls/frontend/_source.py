"""The source-level view of a C/C++ input, from clang's own parser (the ``libclang``
wheel): functions and their parameters with the declared types (array extents), local
arrays, loops (``for``/``while``/``do``) with the line and column of their statement and
their C label, and the ``#pragma HLS`` lines with the function and the loop whose body
holds them.

clang keeps no unknown pragma in its AST, so the pragmas are found in the token stream
of the main file (``#`` ``pragma`` ``HLS`` ...), and only those clang itself reported as
"unknown pragma ignored" count (a pragma inside ``#if 0`` is not one).  Each is given
to the innermost loop, else the function, whose source range holds it.  The parse uses
the include paths the C compiler of the flow uses (asked with ``-v``) and the user's
``-I/-D/-U/-std`` flags, so that it sees what the compile sees.

The CDFG's loops meet these through the debug location clang writes into each loop's
``!llvm.loop`` metadata (the start of the loop statement, :meth:`SourceView.loop_at`).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ToolError
from ..interface import CType
from ..toolchain import is_cxx

LOOP_KINDS = {"FOR_STMT": "for", "WHILE_STMT": "while", "DO_STMT": "do"}


@dataclass(frozen=True)
class Variable:
    """A parameter or a local/global variable: its declared type as C spells it, and for
    arrays the declared extents (``int32_t y[256]`` -> ``(256,)``; an incomplete first
    extent, ``int a[][8]``, is None)."""

    name: str
    type: str
    dims: tuple = ()
    line: int | None = None
    #: the C type of the value, or of one element for a pointer or an array
    #: (:func:`c_type`; None: no C type the package can name, e.g. ``void *``)
    ctype: CType | None = None
    #: declared as a pointer or an array (a parameter: passed by address)
    indirect: bool = False

    @property
    def is_array(self) -> bool:
        return bool(self.dims)


@dataclass(eq=False)
class Loop:
    kind: str                   # for | while | do
    file: str
    line: int                   # of the for/while/do keyword
    col: int
    end_line: int
    function: str
    label: str | None = None
    parent: Loop | None = field(default=None, repr=False)
    start: tuple = (0, 0)       # (line, col) of the whole statement (its label when labelled)
    #: the functions called in the loop, nested loops included (LLVM symbols)
    calls: set = field(default_factory=set, repr=False)

    def holds(self, line: int) -> bool:
        return self.line <= line <= self.end_line

    @property
    def name(self) -> str:
        return self.label or f"{self.function}/L{self.line}"


@dataclass(frozen=True)
class Pragma:
    """``#pragma HLS NAME ARGS...``: ``args`` the tokens after the name; ``function`` and
    ``loop`` the innermost scope whose body holds the line (None: outside any)."""

    file: str
    line: int
    name: str
    args: tuple
    function: str | None
    loop: Loop | None
    #: ``args`` with each object-like macro whose value is one integer literal replaced
    #: by that literal (``factor=N`` after ``#define N 4``)
    values: tuple = ()
    #: a pragma in Bambu's spelling (``HLS_interface a m_axi direct``), as written; its
    #: name and args are then the Vitis HLS pragma it means (:func:`bambu_pragma`)
    spelling: str = ""

    @property
    def text(self) -> str:
        return _joined(self.name, self.args)

    @property
    def shown(self) -> str:
        """The pragma as messages show it: ``HLS <text>``, or Bambu's spelling."""
        return self.spelling or f"HLS {self.text}"


def _joined(name: str, args) -> str:
    """A pragma's tokens as text: ``name arg arg=value,...``."""
    out = name
    for t in args:
        out += t if (t in "=," or out.endswith("=")) else " " + t
    return out


#: Bambu's ``#pragma HLS_interface ARG TYPE`` types -> Vitis HLS interface modes
BAMBU_INTERFACES = {"none": "ap_none", "none_registered": "ap_none", "valid": "ap_vld",
                    "ovalid": "ap_ovld", "acknowledge": "ap_ack", "handshake": "ap_hs",
                    "fifo": "ap_fifo", "axis": "axis", "array": "ap_memory", "m_axi": "m_axi"}


def bambu_pragma(words: list[str]) -> tuple[str, tuple]:
    """(name, args) of the Vitis HLS pragma a Bambu pragma means (``words``: its tokens
    after ``HLS_``).  ``HLS_interface ARG TYPE [...]`` is ``interface mode=M port=ARG``
    (``array N``: ``depth=N``; ``m_axi direct|offset bundle=B``: ``offset=direct|slave
    bundle=B``; ``none_registered``: the ``register`` option); a type Bambu has and Vitis
    has not keeps its name as the mode (warned about as unknown).  Other Bambu pragmas
    (``HLS_simple_pipeline``, ``HLS_stallable_pipeline``, ``HLS_cache``, ...) keep their
    names."""
    name = words[0].lower() if words else ""
    if name != "interface" or len(words) < 3:
        return name, tuple(words[1:])
    port, kind, rest = words[1], words[2], list(words[3:])
    args = ["mode", "=", BAMBU_INTERFACES.get(kind, kind), "port", "=", port]
    if kind == "array" and rest:
        args += ["depth", "=", rest.pop(0)]
    elif kind == "m_axi":
        for w in ("direct", "offset"):
            if w in rest:
                rest.remove(w)
                args += ["offset", "=", "direct" if w == "direct" else "slave"]
    elif kind == "none_registered":
        args.append("register")
    return name, tuple(args + rest)


@dataclass
class FunctionView:
    name: str
    file: str
    line: int
    end_line: int
    params: list = field(default_factory=list)          # Variable, in order
    variables: dict = field(default_factory=dict)       # local name -> Variable
    loops: list = field(default_factory=list)           # Loop, in source order
    pragmas: list = field(default_factory=list)         # function-level Pragma
    returns: CType | None = None                        # the return value's C type

    def param(self, name: str) -> Variable | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class SourceView:
    path: str
    functions: dict = field(default_factory=dict)       # name -> FunctionView
    #: C++ function templates (their FunctionViews by qualified name: their instances'
    #: symbols are not known to the source view)
    templates: set = field(default_factory=set)
    variables: dict = field(default_factory=dict)       # global name -> Variable
    loops: list = field(default_factory=list)
    pragmas: list = field(default_factory=list)

    def loop_at(self, line: int, col: int | None = None, file: str | None = None) -> Loop | None:
        """The loop whose ``for``/``while``/``do`` is at ``line`` (and ``col``, when
        given and several loops start on the line)."""
        cands = [lp for lp in self.loops if lp.line == line
                 and (file is None or _same_file(lp.file, file))]
        if len(cands) > 1 and col is not None:
            cands = [lp for lp in cands if lp.col == col] or cands
        return cands[0] if cands else None

    def nested(self, loop: Loop) -> list:
        """The loops inside ``loop`` (at any depth)."""
        out = []
        for lp in self.loops:
            p = lp.parent
            while p is not None and p is not loop:
                p = p.parent
            if p is loop:
                out.append(lp)
        return out


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b


def _cindex():
    try:
        import clang.cindex as ci
    except ImportError:
        raise ToolError("reading the C source (#pragma HLS, loop labels, declared array "
                        "extents) needs the libclang Python package: pip install "
                        "'libclang>=18.1,<19'") from None
    return ci


@functools.lru_cache(maxsize=8)
def _system_includes(prefix: tuple, lang: str = "c") -> tuple:
    """The ``#include <...>`` directories of the C compiler ``prefix`` (its ``-v``) for
    the language ``lang`` (c, c++)."""
    argv = [*prefix, "-E", "-x", lang, "-", "-v"]
    if any("zig" in Path(p).name for p in prefix[:4]) or "ziglang" in prefix:
        argv[len(prefix):len(prefix)] = ["-target", "x86_64-linux-gnu"]
    try:
        proc = subprocess.run(argv, input="", capture_output=True, text=True, timeout=120,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    dirs, inside = [], False
    for line in proc.stderr.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            # absolute now: zig prints a directory under the working directory relative
            # to it, and this answer is cached across changes of directory
            dirs.append(os.path.abspath(line.strip().removesuffix(" (framework directory)")))
    return tuple(dirs)


def parse_args(path: str, cc=None, cflags=()) -> list[str]:
    """The arguments libclang parses ``path`` with: the language by suffix, the flow's
    compiler's include directories, the user's flags (-I -D -U -std)."""
    from ..toolchain import cxx_flags, find_c_compiler, find_cxx_compiler, include_dir, is_cxx
    cxx = is_cxx(path)
    args = ["-x", "c++" if cxx else "c", "-Wunknown-pragmas"]
    try:
        prefix = tuple(find_cxx_compiler(cc) if cxx else find_c_compiler(cc))
    except ToolError:
        prefix = ()
    dirs = _system_includes(prefix, "c++" if cxx else "c") if prefix else ()
    if dirs:
        args.append("-nostdinc")
        if cxx:
            args.append("-nostdinc++")
        for d in dirs:
            args += ["-isystem", d]
    if cxx:
        args += cxx_flags(cflags)
    args += [f for f in cflags if f not in ("-w", "-Wno-unknown-pragmas")]
    if cxx:
        args += ["-I", str(include_dir())]
    return args


def source_view(path, cc=None, cflags=()) -> SourceView:
    """Parse the C/C++ file ``path`` as the flow compiles it and return its view."""
    ci = _cindex()
    path = str(path)
    try:
        args = parse_args(path, cc, tuple(cflags))
        tu = ci.Index.create().parse(path, args=args,
                                     options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    except ci.TranslationUnitLoadError:
        raise ToolError(f"libclang could not parse {path}", path, None) from None
    for d in tu.diagnostics:
        # after a fatal error clang reports nothing more, so the view would silently lack
        # the pragmas (found by their 'unknown pragma' warnings) and loops that follow
        if d.severity >= ci.Diagnostic.Fatal:
            f = d.location.file
            raise ToolError(f"libclang, reading the source for #pragma HLS and loop labels, "
                            f"stopped where the compiler did not: "
                            f"{f.name if f else path}:{d.location.line}: {d.spelling} "
                            f"(its arguments: {' '.join(args)})", path, None)
    view = SourceView(path)
    mainname = tu.spelling or path

    def in_main(c) -> bool:
        f = c.location.file
        return f is not None and f.name == mainname

    def variable(c) -> Variable:
        canon = c.type.get_canonical().kind
        return Variable(c.spelling, c.type.spelling, _dims(ci, c.type), c.location.line,
                        c_type(ci, c.type, element=True),
                        canon in (ci.TypeKind.POINTER, ci.TypeKind.LVALUEREFERENCE,
                                  ci.TypeKind.RVALUEREFERENCE)   # (a C++ reference too)
                        or canon.name.endswith("ARRAY"))

    def walk(c, fn: FunctionView, parent: Loop | None, label: str | None):
        kind = c.kind.name
        if kind == "LABEL_STMT":
            kids = list(c.get_children())
            for k in kids:
                walk(k, fn, parent, c.spelling if k.kind.name in LOOP_KINDS else None)
            return
        if kind in LOOP_KINDS:
            s, e = c.extent.start, c.extent.end
            lp = Loop(LOOP_KINDS[kind], mainname, s.line, s.column, e.line, fn.name, label,
                      parent)
            fn.loops.append(lp)
            view.loops.append(lp)
            parent = lp
        elif kind == "VAR_DECL":
            fn.variables.setdefault(c.spelling, variable(c))
        elif kind == "CALL_EXPR" and parent is not None and c.referenced is not None \
                and c.referenced.kind.name in ("FUNCTION_DECL", "CXX_METHOD"):
            callee, lp = symbol(c.referenced), parent
            while lp is not None:
                lp.calls.add(callee)
                lp = lp.parent
        for k in c.get_children():
            walk(k, fn, parent, None)

    macros: dict[str, str] = {}
    cxx = is_cxx(path)

    def symbol(c) -> str:
        """A function's LLVM symbol: C++ functions by their mangled name (a template,
        which has none until instantiated, by its qualified name, ``ns::f``)."""
        if cxx and c.kind.name == "FUNCTION_TEMPLATE":
            parts, p = [c.spelling], c.semantic_parent
            while p is not None and p.kind.name in _SCOPES[:-1] + ("CLASS_TEMPLATE",):
                parts.append(p.spelling)
                p = p.semantic_parent
            view.templates.add("::".join(reversed(parts)))
            return "::".join(reversed(parts))
        if cxx:
            try:
                return c.mangled_name or c.spelling
            except AttributeError:
                return c.spelling
        return c.spelling

    def top_level(parent, nested=False):
        for c in parent.get_children():
            if c.kind.name == "MACRO_DEFINITION" and in_main(c):
                toks = [t.spelling for t in c.get_tokens()]
                if len(toks) == 2 and _integer(toks[1]):
                    macros[toks[0]] = toks[1]
                continue
            if not in_main(c):
                continue
            kind = c.kind.name
            if kind in _SCOPES:          # C++: namespaces, classes, extern "C" blocks
                top_level(c, True)
                continue
            if kind == "VAR_DECL":       # the last declaration (the definition) at file
                if nested:               # scope; a namespace's by its first
                    view.variables.setdefault(c.spelling, variable(c))
                else:
                    view.variables[c.spelling] = variable(c)
            if kind not in _FUNCTIONS or not c.is_definition():
                continue
            fn = FunctionView(symbol(c), mainname, c.extent.start.line, c.extent.end.line,
                              returns=c_type(ci, c.result_type))
            for k in c.get_children():
                if k.kind.name == "PARM_DECL":
                    fn.params.append(variable(k))
                elif k.kind.name == "COMPOUND_STMT":
                    walk(k, fn, None, None)
            view.functions[fn.name] = fn

    top_level(tu.cursor)
    _pragmas(tu, view, mainname, macros)
    return view


#: cursor kinds whose definitions are functions of the source view (by LLVM symbol)
_FUNCTIONS = ("FUNCTION_DECL", "CXX_METHOD", "FUNCTION_TEMPLATE", "CONSTRUCTOR", "DESTRUCTOR")
#: C++ scopes the source view looks into for functions
_SCOPES = ("NAMESPACE", "CLASS_DECL", "STRUCT_DECL", "UNION_DECL", "LINKAGE_SPEC")


def _integer(tok: str) -> bool:
    try:
        int(tok.rstrip("uUlL"), 0)
        return True
    except ValueError:
        return tok.isdigit()


_INT_KINDS = {
    "CHAR_S": True, "SCHAR": True, "SHORT": True, "INT": True, "LONG": True,
    "LONGLONG": True, "INT128": True,
    "CHAR_U": False, "UCHAR": False, "USHORT": False, "UINT": False, "ULONG": False,
    "ULONGLONG": False, "UINT128": False,
}
_FLOAT_KINDS = ("HALF", "FLOAT16", "FLOAT", "DOUBLE", "LONGDOUBLE", "FLOAT128")
_QUALIFIERS = re.compile(r"\b(?:const|volatile|restrict|__restrict|_Atomic)\b\s*")


def c_type(ci, t, element: bool = False) -> CType | None:
    """The :class:`hls.interface.CType` of the libclang type ``t`` (typedefs resolved,
    qualifiers dropped); ``element``: of one element when ``t`` is a pointer or an array
    (``int m[4][8]`` -> int).  None for a type without one (void, a pointer to a pointer
    or to a function, a vector or complex type)."""
    t = t.get_canonical()
    if element:
        while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                         ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY):
            t = t.element_type.get_canonical()
        if t.kind in (ci.TypeKind.POINTER, ci.TypeKind.LVALUEREFERENCE,
                      ci.TypeKind.RVALUEREFERENCE):
            t = t.get_pointee().get_canonical()
    kind, size = t.kind.name, t.get_size()
    name = _QUALIFIERS.sub("", t.spelling).strip()
    if size < 1:
        return None                 # void, incomplete
    if kind == "BOOL":
        return CType("bool", "bool", size)
    if kind in _INT_KINDS:
        return CType(name, "int", size, _INT_KINDS[kind])
    if kind in _FLOAT_KINDS:
        return CType(name, "float", size, True)
    if kind == "ENUM":
        base = c_type(ci, t.get_declaration().enum_type)
        return CType(name, "int", size, base.signed if base else False)
    if kind == "RECORD":
        return CType(name, "record", size)
    return None


def _dims(ci, t) -> tuple:
    out = []
    while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                     ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY):
        out.append(t.element_count if t.kind == ci.TypeKind.CONSTANTARRAY else None)
        t = t.element_type
    return tuple(out)


def _pragmas(tu, view: SourceView, mainname: str, macros: dict) -> None:
    """The active ``#pragma HLS`` lines of the main file, each in its scope."""
    active = {d.location.line for d in tu.diagnostics
              if d.location.file is not None and d.location.file.name == mainname
              and "pragma" in d.spelling.lower()}
    lines: dict[int, list[str]] = {}
    bambu: set[int] = set()             # lines of pragmas in Bambu's spelling (HLS_...)
    toks = list(tu.get_tokens(extent=tu.cursor.extent))
    try:
        src = Path(mainname).read_text(errors="replace").splitlines()
    except OSError:
        src = []
    i = 0
    while i < len(toks):
        t = toks[i]
        line = t.location.line
        head = toks[i + 2].spelling if i + 2 < len(toks) else ""
        if (t.spelling == "#" and i + 2 < len(toks) and toks[i + 1].spelling == "pragma"
                and (head.upper() == "HLS" or head.upper().startswith("HLS_"))
                and toks[i + 2].location.line == line):
            j, words = i + 3, [] if head.upper() == "HLS" else [head[4:]]
            if head.upper() != "HLS":
                bambu.add(line)
            last = line
            while j < len(toks) and (toks[j].location.line == last or (
                    toks[j].location.line == last + 1 and 0 < last <= len(src)
                    and src[last - 1].rstrip().endswith("\\"))):
                last = toks[j].location.line
                words.append(toks[j].spelling)
                j += 1
            if line in active:
                lines[line] = words
            i = j
            continue
        i += 1
    for line, words in sorted(lines.items()):
        fn = next((f for f in view.functions.values() if f.line <= line <= f.end_line), None)
        spelling = ""
        if line in bambu:
            # Bambu's pragmas stand before the function they are about (or in it)
            spelling = "HLS_" + _joined(words[0], words[1:])
            if fn is None:
                fn = min((f for f in view.functions.values() if f.line > line),
                         key=lambda f: f.line, default=None)
            name, args = bambu_pragma(words)
            words = [name, *args]
        loop = None
        if fn is not None:
            for lp in fn.loops:       # the innermost loop holding the line
                if lp.holds(line) and (loop is None or loop.holds(lp.line)):
                    loop = lp
        name = words[0].lower() if words else ""
        p = Pragma(mainname, line, name, tuple(words[1:]), fn.name if fn else None, loop,
                   tuple(macros.get(w, w) for w in words[1:]), spelling)
        view.pragmas.append(p)
        if fn is not None and loop is None:
            fn.pragmas.append(p)


def pragma_options(p: Pragma) -> tuple[list[str], dict[str, str]]:
    """A pragma's own arguments: bare words (lower case) and ``key=value`` pairs (keys in
    lower case), from its tokens; a value is the tokens up to the next word."""
    words, opts = [], {}
    toks = [t for t in (p.values or p.args) if t != ","]
    i = 0
    while i < len(toks):
        if i + 1 < len(toks) and toks[i + 1] == "=":
            opts[toks[i].lower()] = toks[i + 2] if i + 2 < len(toks) else ""
            i += 3
        else:
            words.append(toks[i].lower())
            i += 1
    return words, opts
