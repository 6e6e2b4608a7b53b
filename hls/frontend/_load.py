"""Reading inputs (.c, .cpp/.cc/.cxx, .ll, .bc, .mlir, and .hir: the IR text of
``hls.ir.print_module``),
LLVM canonicalisation, and the checks that
reject constructs without a hardware meaning before any pass can obscure them."""

from __future__ import annotations

import dataclasses
import math

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import llvmlite.binding as llvm

from ..errors import FrontendError, HLSError, ToolError, UnsupportedError
from ..ir import Module, PtrParam, verify
from ..ir import parse_module as parse_ir_text
from ..toolchain import compile_c_to_ll, is_cxx
from ._source import source_view
from ._streams import (PLACEHOLDER_ELEMENTS, STREAM_PREFIX, is_stream_function, lower_streams,
                       mark_streams, pass_builder, reachable, stream_cleanup)
from ._libm import PREFIX as LIBM_PREFIX
from ._libm import link_libm
from ._translate import AddressTakenGrew, Translator

_initialised = False


def _init() -> None:
    global _initialised
    if not _initialised:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _initialised = True


@dataclass
class FrontendOptions:
    depth: dict[str, int] = field(default_factory=dict)
    cc: str | None = None
    cflags: tuple[str, ...] = ()
    #: ``--fp-format``: function name (or ``*``) -> custom FPFormat of its float arithmetic
    fp_format: dict = field(default_factory=dict)
    #: dataflow regions by function name (``--dataflow``, ``[[dataflow]]`` directives); the
    #: functions annotated ``pyhls_dataflow`` in the source are added to them
    dataflow: tuple[str, ...] = ()
    #: functions kept out of line (``#pragma HLS inline off``), as if marked noinline
    noinline: tuple[str, ...] = ()
    #: every ``depth`` key must name a pointer argument of the top (``pyhls --depth``:
    #: a typo is an error); the library leaves others unused (a depth map shared by tops)
    check_depth: bool = False


#: the source-level marker of a dataflow region: ``__attribute__((annotate(...)))``
DATAFLOW_ANNOTATION = "pyhls_dataflow"


def annotated_functions(mod, annotation: str) -> list[str]:
    """Functions of the llvmlite module ``mod`` that carry ``annotate("annotation")``
    (clang's ``@llvm.global.annotations``), in their order there."""
    try:
        g = mod.get_global_variable("llvm.global.annotations")
    except NameError:
        return []
    strings = {}
    for gv in mod.global_variables:
        m = re.search(r'c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)"', str(gv))
        if m:
            strings[gv.name] = m.group(1)
    want = annotation + "\\00"
    out = []
    for fn, s in re.findall(r"\{ ptr @([-\w.$]+|\"[^\"]+\"), ptr @([-\w.$]+)", str(g)):
        if strings.get(s) in (want, annotation) and fn.strip('"') not in out:
            out.append(fn.strip('"'))
    return out


@dataclass
class LoadedInput:
    """The LLVM text of the input as read (before canonicalisation) and its origin."""

    path: str
    text: str
    kind: str  # c, ll, bc, mlir, hir (then ``text`` is the module's embedded LLVM IR)
    # per function, --depth defaults by argument position (statically shaped MLIR memrefs)
    depths: dict[str, dict[str, int]] = field(default_factory=dict)
    #: every input file (several when they were linked into one module)
    paths: tuple[str, ...] = ()
    #: a .hir input: its IR text (``load`` parses it afresh each time: passes mutate)
    hir: str = ""
    #: files the input's own lowering made, written beside the design (an .ekl input:
    #: NAME.ll, NAME.h)
    extra_files: dict = field(default_factory=dict)
    #: MLIR inputs: per function, the positions of its LLVM parameters that are memref
    #: descriptor fields (the allocated pointer, offset, sizes, strides), not the
    #: aligned pointer the hardware reads
    descriptor_fields: dict[str, frozenset[int]] = field(default_factory=dict)
    #: C/C++ inputs: path -> their source view (:mod:`._source`: declared types, loop
    #: labels, ``#pragma HLS``)
    sources: dict = field(default_factory=dict)


def read_input(path, cc: str | None = None, cflags=(),
               mlir_bare_ptr: bool | None = None) -> LoadedInput:
    """Turn any supported input into LLVM IR text (the golden model runs this text).
    ``path``: one file, or a list of files, each compiled (C and C++: with ``cflags``,
    e.g. -I, -D, -U, -std=; C++ by the C++ driver, :func:`hls.toolchain.is_cxx`) and
    linked into one module.  ``mlir_bare_ptr``: memref calling
    convention of a .mlir input (None: the ``PYHLS_MLIR_BARE_PTR`` environment variable,
    else MLIR's expanded descriptors)."""
    if isinstance(path, (list, tuple)):
        if not path:
            raise FrontendError("no input file", None, None)
        if len(path) > 1:
            return _read_linked([str(x) for x in path], cc, cflags, mlir_bare_ptr)
        path = path[0]
    inp = _read_one(path, cc, cflags, mlir_bare_ptr)
    inp.paths = (inp.path,)
    return inp


def _read_linked(paths: list[str], cc, cflags, mlir_bare_ptr) -> LoadedInput:
    """Several inputs linked into one module (llvmlite's linker): the first file names the
    result; --depth hints of .mlir inputs are merged."""
    if len({str(Path(p).resolve()) for p in paths}) != len(paths):
        raise FrontendError("an input file is given twice", paths[0], None)
    parts = [_read_one(p, cc, cflags, mlir_bare_ptr) for p in paths]
    for part in parts:
        if part.kind == "hir":
            raise FrontendError("a .hir input is a whole module: it cannot be linked with "
                                "other input files", part.path, None)
    _init()
    linked = parse_module(parts[0])
    for part in parts[1:]:
        mod = parse_module(part)
        try:
            linked.link_in(mod)
        except RuntimeError as e:
            raise FrontendError(f"linking {part.path} into {parts[0].path} failed: "
                                f"{_first_line(str(e))}", part.path, None) from None
    depths: dict[str, dict[str, int]] = {}
    sources: dict = {}
    fields: dict = {}
    for part in parts:
        depths.update(part.depths)
        sources.update(part.sources)
        fields.update(part.descriptor_fields)
    kinds = {p.kind for p in parts}
    kind = kinds.pop() if len(kinds) == 1 else "ll"
    return LoadedInput(parts[0].path, str(linked), "c" if kind == "c" else "linked", depths,
                       tuple(paths), sources=sources, descriptor_fields=fields)


def _read_one(path, cc, cflags, mlir_bare_ptr) -> LoadedInput:
    p = Path(path)
    if not p.exists():
        raise FrontendError(f"input file '{p}' does not exist", str(p), None)
    if not p.is_file():
        raise FrontendError(f"input '{p}' is not a file", str(p), None)
    suffix = p.suffix.lower()
    if suffix == ".ll":
        return LoadedInput(str(p), p.read_text(errors="replace"), "ll")
    if suffix == ".bc":
        _init()
        try:
            mod = llvm.parse_bitcode(p.read_bytes())
        except RuntimeError as e:
            raise FrontendError(f"malformed LLVM bitcode: {_first_line(str(e))}", str(p), None) from None
        return LoadedInput(str(p), str(mod), "bc")
    if suffix == ".c" or is_cxx(p):
        with tempfile.TemporaryDirectory(prefix="pyhls-cc-") as d:
            out = Path(d) / (p.stem + ".ll")
            try:
                compile_c_to_ll(p, out, cc=cc, extra_flags=tuple(cflags))
            except ToolError as e:
                # a compile error in the user's C: its first diagnostic, as one line
                # the first error, in the input or in a header it includes
                m = re.search(r"^([^\s:][^:\n]*):(\d+):\d+: (?:fatal )?error: (.*)$",
                              e.message, re.M)
                if m and (m.group(1) == str(p) or Path(m.group(1)).is_file()):
                    raise FrontendError(m.group(3).strip(), m.group(1), int(m.group(2))) from None
                raise
            return LoadedInput(str(p), out.read_text(), "c",
                               sources={str(p): source_view(p, cc, cflags)})
    if suffix == ".hir":
        with open(p, encoding="utf-8", errors="replace", newline="") as fh:
            text = fh.read()            # newline="": the embedded LLVM IR stays exact
        module = parse_ir_text(text, str(p))
        return LoadedInput(str(p), module.llvm_ir, "hir", hir=text)
    if suffix == ".mlir":
        bare = mlir_bare_ptr_default() if mlir_bare_ptr is None else mlir_bare_ptr
        mtext = p.read_text(errors="replace")
        return LoadedInput(str(p), _mlir_to_ll(p, bare), "mlir", _mlir_depths(mtext, bare),
                           descriptor_fields=_mlir_descriptor_fields(mtext, bare))
    if suffix == ".ekl":
        from ..ekl import c_header, compile_ekl
        src = p.read_text(errors="replace")
        text, kernels = compile_ekl(src, str(p))
        depths = {k.name: {a.name: math.prod(a.shape) for a in k.args} for k in kernels}
        stem = p.stem
        extra = {f"{stem}.ll": text,
                 f"{stem}.h": c_header(kernels, guard=re.sub(r"\W", "_", stem).upper() + "_H")}
        return LoadedInput(str(p), text, "ekl", depths, extra_files=extra)
    raise FrontendError(f"input must be .c, .cpp/.cc/.cxx, .ll, .bc, .mlir, .ekl or .hir, not "
                        f"'{suffix or p.name}'", str(p), None)


def _first_line(s: str) -> str:
    return s.strip().splitlines()[0] if s.strip() else s


MLIR_PACKAGE = "mlir-19-tools"
_MLIR_DIRS = ("/usr/lib/llvm-19/bin",)


def _mlir_tools() -> tuple[str | None, str | None]:
    """mlir-opt and mlir-translate: from PATH (plain or -19 suffixed), else LLVM 19's bin."""
    found = []
    for tool in ("mlir-opt", "mlir-translate"):
        exe = shutil.which(tool) or shutil.which(tool + "-19")
        for d in _MLIR_DIRS:
            if exe is None and Path(d, tool).is_file():
                exe = str(Path(d, tool))
        found.append(exe)
    return found[0], found[1]


def mlir_bare_ptr_default() -> bool:
    """The memref calling convention when none is asked for: MLIR's own default, the
    expanded descriptor (allocated ptr, aligned ptr, offset, sizes..., strides...), unless
    ``PYHLS_MLIR_BARE_PTR`` is set to 1/true/yes (one bare pointer per memref)."""
    return os.environ.get("PYHLS_MLIR_BARE_PTR", "").strip().lower() in ("1", "true", "yes", "on")


def mlir_pipeline(bare_ptr: bool = False) -> list[str]:
    """mlir-opt 19 passes lowering func/arith/scf/affine/memref/cf/index/math to LLVM."""
    func = "--convert-func-to-llvm" + ("=use-bare-ptr-memref-call-conv=1" if bare_ptr else "")
    return ["--lower-affine", "--convert-scf-to-cf", "--expand-strided-metadata",
            "--lower-affine", "--finalize-memref-to-llvm", "--convert-math-to-llvm",
            "--convert-arith-to-llvm", "--convert-index-to-llvm", "--convert-ub-to-llvm",
            "--convert-cf-to-llvm", func, "--reconcile-unrealized-casts"]


_MLIR_DIAG = re.compile(r"^(.*?):(\d+):\d+: error: (.*)$", re.M)


def _mlir_error(tool: str, stderr: str, p: Path) -> ToolError:
    """One line: the first diagnostic, at its line of the input when it names the input."""
    m = _MLIR_DIAG.search(stderr or "")
    if m:
        line = int(m.group(2)) if Path(m.group(1)).name == p.name else None
        return ToolError(f"{tool} failed: {m.group(3).strip()}", str(p), line)
    return ToolError(f"{tool} failed: {_first_line(stderr or 'no diagnostic')}", str(p), None)


def _mlir_to_ll(p: Path, bare_ptr: bool | None = None) -> str:
    opt, tr = _mlir_tools()
    if not opt or not tr:
        missing = " and ".join(t for t, e in (("mlir-opt", opt), ("mlir-translate", tr)) if not e)
        raise ToolError(f"reading .mlir needs mlir-opt and mlir-translate ({missing} not found): "
                        f"install the Debian package {MLIR_PACKAGE} "
                        f"(apt-get install {MLIR_PACKAGE})", str(p), None)
    if bare_ptr is None:
        bare_ptr = mlir_bare_ptr_default()
    try:
        lowered = subprocess.run([opt, str(p), *mlir_pipeline(bare_ptr)], capture_output=True,
                                 text=True, timeout=600)
        if lowered.returncode:
            raise _mlir_error("mlir-opt", lowered.stderr, p)
        ll = subprocess.run([tr, "--mlir-to-llvmir"], input=lowered.stdout, capture_output=True,
                            text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ToolError(f"running the MLIR tools failed: {_first_line(str(e))}", str(p), None) from None
    if ll.returncode:
        raise _mlir_error("mlir-translate", ll.stderr, p)
    return name_parameters(ll.stdout, _mlir_param_names(p.read_text(errors="replace"),
                                                        bare_ptr))


_FUNC_SIG = re.compile(r"func\.func\s+(?:(?:public|private|nested)\s+)?@([-\w.$]+)\s*\(")


def _mlir_signatures(text: str):
    """``(function, [(argument name or None, its type text), ...])`` per ``func.func`` of
    an MLIR source."""
    for m in _FUNC_SIG.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:  # the argument list, up to its closing parenthesis
            c = text[i]
            depth += (c in "(<[{") - (c in ")>]}")
            i += 1
        sig = text[m.end():i - 1]
        parts, level, cur = [], 0, ""
        for c in sig:
            if c == "," and level == 0:
                parts.append(cur)
                cur = ""
                continue
            level += (c in "(<[{") - (c in ")>]}")
            cur += c
        if cur.strip():
            parts.append(cur)
        args = []
        for a in parts:
            name, _, t = a.partition(":")
            nm = re.fullmatch(r"\s*%([A-Za-z_][\w$.]*)\s*", name) if t else None
            args.append((nm.group(1) if nm else None, (t if t else a).strip()))
        yield m.group(1), args


def _mlir_param_names(text: str, bare_ptr: bool) -> dict[str, list[str | None]]:
    """Per function, the names its LLVM parameters take from its MLIR arguments: a scalar
    or a bare memref pointer keeps the argument's name; a memref descriptor (MLIR's
    default convention) is ``x_allocated, x`` (the aligned pointer: the memory),
    ``x_offset, x_size0.., x_stride0..``.  None: an argument without a name of its own
    (``%0``), which keeps its position's name ``arg{i}``."""
    out: dict[str, list[str | None]] = {}
    for fn, args in _mlir_signatures(text):
        names: list[str | None] = []
        for name, t in args:
            names += [None if name is None else name if f is None else f"{name}_{f}"
                      for f in _llvm_fields(t, bare_ptr)]
        seen: set[str] = set()
        for i, n in enumerate(names):       # one name each (%x and %x_offset both given)
            if n is None:
                continue
            base, k = re.sub(r"\W", "_", n), 2
            n = base
            while n in seen or re.fullmatch(r"arg\d+", n):
                n, k = f"{base}_{k}", k + 1
            seen.add(n)
            names[i] = n
        out[fn] = names
    return out


_DEFINE = re.compile(r"^define [^\n]*?@(\"[^\"]+\"|[-\w.$]+)\(([^\n]*)\)[^\n]*\{\s*$", re.M)


def name_parameters(ll: str, names: dict[str, list[str | None]]) -> str:
    """The LLVM IR ``ll`` (mlir-translate's: numbered values) with the parameters of each
    function in ``names`` named (``%0`` -> ``%a``), its other numbered values and blocks
    renumbered from 0, as LLVM requires of unnamed values; the body is otherwise
    unchanged.  A function whose parameter count differs from its names is left as is."""
    out, pos = [], 0
    for m in _DEFINE.finditer(ll):
        fn = m.group(1).strip('"')
        want = names.get(fn)
        params = [q.strip() for q in m.group(2).split(",")] if m.group(2).strip() else []
        end = ll.find("\n}", m.end())
        if (not want or len(want) != len(params) or end < 0
                or any(not re.fullmatch(rf"[^%]* %{i}", q) for i, q in enumerate(params))):
            continue
        k = len(params)

        def renum(mm, want=want, k=k):
            n = int(mm.group(1))
            if n < k:
                return "%" + (want[n] or f"arg{n}")
            return f"%{n - k}"

        head = ll[m.start():m.end()]
        head = head[:head.index("(") + 1] + ", ".join(
            re.sub(r"%(\d+)$", renum, q) for q in params) + head[head.rindex(")"):]
        body = re.sub(r"%(\d+)\b", renum, ll[m.end():end])
        body = re.sub(r"^(\d+):", lambda mm: f"{int(mm.group(1)) - k}:", body, flags=re.M)
        out += [ll[pos:m.start()], head, body]
        pos = end
    out.append(ll[pos:])
    return "".join(out)


def _llvm_fields(t: str, bare_ptr: bool) -> list[str | None]:
    """The LLVM parameters an MLIR argument of type ``t`` becomes, by their field names
    (None: the argument's own, for a memref the pointer the hardware reads): one for a
    scalar or a bare memref pointer; a memref descriptor's ``allocated``, the aligned
    pointer, ``offset``, a ``size`` and a ``stride`` per dimension."""
    mm = re.match(r"memref<([^>]*)>", t)
    if not mm or bare_ptr:
        return [None]
    rank = len(mm.group(1).split(",")[0].split("x")[:-1])
    return ["allocated", None, "offset"] + [f"size{d}" for d in range(rank)] + [
        f"stride{d}" for d in range(rank)]


def _mlir_descriptor_fields(text: str, bare_ptr: bool) -> dict[str, frozenset[int]]:
    """Per function, the positions of the LLVM parameters that are memref descriptor
    fields (:func:`_llvm_fields` other than the aligned pointer)."""
    out = {}
    for fn, args in _mlir_signatures(text):
        pos, found = 0, set()
        for _name, t in args:
            fields = _llvm_fields(t, bare_ptr)
            found |= {pos + i for i, f in enumerate(fields) if f is not None}
            pos += len(fields)
        out[fn] = frozenset(found)
    return out


def drop_unread_descriptor_fields(module: Module, fields: frozenset[int]) -> list[str]:
    """Take from the top's parameters the memref descriptor fields (positions
    ``fields``) that the design never reads: an offset, size or stride no operation
    uses (a static shape's), an allocated pointer whose memory nothing accesses or
    hands on.  They get no port and no memory (``Module.absent_params``); the golden
    model passes them as 0 (the native code does not read them either).  Returns their
    names."""
    top = module.top
    read = {id(v) for f in module.functions for op in f.ops() for v in op.operands}
    mems = {id(m) for f in module.functions for m in f.used_memories()}
    keep, dropped = [], []
    for p in top.params:
        unread = (id(p.mem) not in mems) if isinstance(p, PtrParam) else (id(p) not in read)
        if p.index in fields and unread:
            dropped.append(p.name)
            module.absent_params.append(p.index)
        else:
            keep.append(p)
    top.params = keep
    return dropped


def _mlir_depths(text: str, bare_ptr: bool) -> dict[str, dict[str, int]]:
    """Per function, the element count of each statically shaped memref argument, keyed by
    the position of the pointer the hardware reads (the aligned one of a descriptor)."""
    out: dict[str, dict[str, int]] = {}
    for fn, args in _mlir_signatures(text):
        pos, hints = 0, {}
        for _name, t in args:
            fields = _llvm_fields(t, bare_ptr)
            mm = re.match(r"memref<([^>]*)>", t)
            dims = mm.group(1).split(",")[0].split("x")[:-1] if mm else []
            # a static shape, with the identity layout for a descriptor
            if mm and all(d.isdigit() for d in dims) and (bare_ptr or "," not in mm.group(1)):
                hints[str(pos + fields.index(None))] = _prod(dims)
            pos += len(fields)
        out[fn] = hints
    return out


def _prod(dims) -> int:
    n = 1
    for d in dims:
        n *= int(d)
    return n


_LL_ERR = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


def parse_module(inp: LoadedInput):
    _init()
    try:
        mod = llvm.parse_assembly(inp.text)
        mod.verify()
    except RuntimeError as e:
        msg = str(e)
        m = _LL_ERR.search(msg)
        if m and inp.kind == "ll":
            raise FrontendError(f"malformed LLVM IR: {m.group(3).strip()}", inp.path,
                                int(m.group(1))) from None
        line = None
        if inp.kind == "ll":  # a verifier error lists the values at fault, the user last
            by_text = {k[1]: v for k, v in line_map(inp.text).items() if k[1] is not None}
            for s in reversed(msg.strip().splitlines()[1:]):
                line = by_text.get(s.strip().split(", !dbg")[0])
                if line is not None:
                    break
        raise FrontendError(f"malformed LLVM IR: {_first_line(msg)}", inp.path, line) from None
    return mod


def line_map(text: str) -> dict:
    """(function, instruction text) -> line of the .ll, and (function, None) -> its define."""
    out: dict = {}
    fn = None
    for i, line in enumerate(text.splitlines(), 1):
        m = re.match(r"define .*?@([-\w.$]+|\"[^\"]+\")\(", line)
        if m:
            fn = m.group(1)
            out[(fn, None)] = i
            continue
        if line.startswith("}"):
            fn = None
            continue
        s = line.strip()
        if fn and s and not s.startswith((";", "#dbg")) and not re.match(r"^[-\w.$\"]+:", s):
            out.setdefault((fn, s.split(", !dbg")[0].split(" ; ")[0].strip()), i)
            m = re.match(r'(%[-\w.$]+|%"[^"]+")\s*=', s)
            if m:  # by result name, for instructions LLVM prints differently from the user
                out.setdefault((fn, m.group(1) + " ="), i)
    return out


def canonicalise(mod, top: str, keep_calls_of: tuple[str, ...] = (),
                 noinline: tuple[str, ...] = ()) -> None:
    """LLVM's own passes: inline every function not marked noinline into its callers,
    then SROA/mem2reg, instcombine, loop rotation, GVN and CFG simplification.  No loop
    unrolling (pragmas are honoured by hls.transforms' unroller).  The functions a
    function of ``keep_calls_of`` (a dataflow region) calls directly are not inlined
    there: each call is a task.  The functions of ``noinline`` (``#pragma HLS inline
    off``) stay out of line, as if marked noinline."""
    _init()
    keep = set()
    for name in keep_calls_of:
        try:
            region = mod.get_function(name)
        except NameError:
            continue
        for blk in region.blocks:
            for ins in blk.instructions:
                if ins.opcode == "call":
                    callee = list(ins.operands)[-1]
                    if callee.name and not callee.name.startswith(("llvm.", LIBM_PREFIX)) and \
                            not is_stream_function(callee.name):
                        keep.add(callee.name)
    for fn in mod.functions:
        if not fn.is_declaration:  # unnamed arguments (MLIR's) keep the names arg{i}, not
            for i, a in enumerate(fn.arguments):  # the namer pass's arg, arg5, ...
                if not a.name:
                    a.name = f"arg{i}"
        if fn.is_declaration or fn.name == top:
            continue
        attrs = b" ".join(fn.attributes)
        if b"noinline" in attrs or b"optnone" in attrs:
            continue
        if fn.name in keep or fn.name in noinline:
            fn.add_function_attribute("noinline")
            continue
        fn.add_function_attribute("alwaysinline")
    pb = pass_builder()
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_always_inliner_pass()
    mpm.add_sroa_pass()
    mpm.add_instruction_combine_pass()
    mpm.add_simplify_cfg_pass()
    mpm.add_sroa_pass()
    # bottom-tested loops (as clang -O1 leaves them; MLIR's and unoptimised IR's are
    # top-tested): the body becomes one block with the exit test at its end
    mpm.add_loop_simplify_pass()
    mpm.add_loop_rotate_pass()
    mpm.add_new_gvn_pass()
    mpm.add_instruction_combine_pass()
    mpm.add_aggressive_dce_pass()
    mpm.add_simplify_cfg_pass()
    mpm.add_instruction_namer_pass()
    mpm.add_verifier()
    mpm.run(mod, pb)


def load(path: str | Path, top: str, options: FrontendOptions | None = None,
         inp: LoadedInput | None = None) -> Module:
    """Read an input file and translate its ``top`` function (and the noinline functions
    it calls) into the hls IR."""
    options = options or FrontendOptions()
    inp = inp or read_input(path, cc=options.cc, cflags=options.cflags)
    if inp.kind == "hir":
        return _load_hir(inp, top, options)
    user_depth = dict(options.depth)
    declared = declared_depths(inp, top)
    if inp.depths.get(top) or declared:  # the user's --depth wins over the memref shapes
        options = dataclasses.replace(options, depth={**declared, **inp.depths.get(top, {}),
                                                      **options.depth})
    # exp, sin, ... (and their intrinsics): pyhls's libm, linked in (hls.frontend._libm)
    mod = link_libm(parse_module(inp), options.cc)
    lmap = line_map(inp.text) if inp.kind == "ll" else {}
    # reject unsupported constructs on the IR as written (its lines are the user's lines)
    # (the module's own printing, whose metadata numbering is that of its instructions)
    paths = inp.paths or (inp.path,)
    Translator(mod, str(mod), inp.path, {"depth": options.depth, "paths": paths},
               lmap).check(top)
    regions = tuple(dict.fromkeys(options.dataflow + tuple(
        annotated_functions(mod, DATAFLOW_ANNOTATION))))
    canonicalise(mod, top, regions, options.noinline)
    text = str(mod)
    # the user's --depth names are checked once the top's arguments are known, before
    # an argument without an extent is reported (a misspelt name leaves one without)
    check = user_depth if options.check_depth else None
    if STREAM_PREFIX not in text:
        module, tr = _translate(mod, text, top, inp, options, lmap, paths, check)
    else:       # hls::stream: lowered on a copy; the golden model keeps the queue
        module, tr = _translate_streams(mod, text, top, inp, options, paths, regions, check)
    module.llvm_ir = text
    module.dataflow = [name for name in regions if name in tr.functions]
    module.abort_sites = dict(getattr(tr, "abort_sites", {}))
    fmts = options.fp_format
    for name in tr.functions:
        c = fmts.get(name, fmts.get("*"))
        if c is not None:
            module.fp_formats[name] = c
    unknown = sorted(k for k in fmts if k != "*" and k not in tr.functions)
    if unknown:
        raise FrontendError(f"--fp-format names {', '.join(unknown)}, which is not a hardware "
                            f"function of this design (the top or a noinline function it calls; "
                            f"these are: {', '.join(tr.functions)})", inp.path, None)
    if top in inp.descriptor_fields:
        drop_unread_descriptor_fields(module, inp.descriptor_fields[top])
    name_loops(module, inp)
    for f in module.functions:
        verify(f)
    return module


def _translate(mod, text: str, top: str, inp, options, lmap, paths, check=None):
    """The module and its translator; ``check``: the user's ``--depth`` items, each of
    which must name a pointer argument of the top (None: not checked)."""
    seed: tuple = ()
    while True:  # again when pointers loaded from memory may point into more memories
        tr = Translator(mod, text, inp.path, {"depth": options.depth,
                                              "fp_format": options.fp_format, "paths": paths,
                                              "check_depth": check},
                        lmap, seed)
        try:
            return tr.translate(top), tr
        except AddressTakenGrew as grew:
            seed = grew.keys


def _translate_streams(mod, text: str, top: str, inp, options, paths, regions, check=None):
    """Translate the canonicalised ``text`` with its hls::stream calls lowered
    (:mod:`hls.frontend._streams`): once with placeholder arrays for local streams and
    stream arguments of the top, to count the elements each function reads and writes,
    then with arrays of those sizes."""
    elements: dict = {}
    depth = dict(options.depth)
    design = reachable(mod, top)
    for attempt in range(2):
        low, info = lower_streams(text, elements, regions, design)
        if info.problems:       # at the line of the canonicalised IR's instruction
            fn, ins, msg = info.problems[0]
            tr = Translator(mod, text, inp.path, {"depth": options.depth, "paths": paths}, {})
            loc = tr.loc_of(ins.strip(), fn)
            raise UnsupportedError(msg, loc.file, loc.line)
        mod2 = llvm.parse_assembly(low)
        stream_cleanup(mod2)
        for (fn, name) in info.params:
            if fn == top and name not in options.depth and attempt == 0:
                depth[name] = PLACEHOLDER_ELEMENTS
        module, tr = _translate(mod2, str(mod2), top, inp,
                                dataclasses.replace(options, depth=depth), {}, paths, check)
        need = mark_streams(module, info, top, set(options.depth),
                            _stream_lines(inp, info))
        elements = {k: max(n, 1) for k, n in need.items() if k in info.locals}
        for (fn, name), n in need.items():
            if fn == top and (fn, name) in info.params and name not in options.depth:
                depth[name] = max(n, 1)
    return module, tr


def _stream_lines(inp, info) -> dict:
    """(function, local stream) -> (file, line) of its declaration, from the source view."""
    out = {}
    for (fn, name) in info.locals:
        for path, view in (getattr(inp, "sources", None) or {}).items():
            fv = view.functions.get(fn)
            var = fv.variables.get(name) if fv is not None else None
            if var is not None and var.line:
                out[(fn, name)] = (fv.file or path, var.line)
    return out


def declared_depths(inp: LoadedInput, top: str) -> dict[str, int]:
    """--depth defaults from the C declaration of the top: an array parameter with a
    declared extent (``int32_t y[256]``, ``int m[4][8]``: 4 rows) needs no --depth, nor
    one that an interface pragma gives ``depth=N`` (which wins over the extent), nor
    the object of a C++ method (``this``: one)."""
    from ..directives import interface_depths
    out = {}
    if top.startswith("_Z") and re.search(
            rf'^define\b[^\n]*@{re.escape(top)}\(ptr [^,]*?%this\b', inp.text, re.M):
        out["this"] = 1        # a C++ method: its object is one element
    for view in inp.sources.values():
        fn = view.functions.get(top)
        if fn is None:
            continue
        for p in fn.params:
            if p.dims and p.dims[0]:
                out[p.name] = p.dims[0]
        out.update(interface_depths(fn))
    return out


def name_loops(module: Module, inp: LoadedInput) -> None:
    """A loop whose C statement is labelled (``row: for (...)``) is named by the label
    (:func:`hls.analysis.loop_name`): its latches' ``loop_md`` keep it, and its header
    block takes the label's name (unless another block has it)."""
    if not inp.sources:
        return
    from ..analysis import find_loops
    for f in module.functions:
        names = {b.name for b in f.blocks}
        for lp in find_loops(f):
            src = source_loop(inp, lp)
            if src is None or not src.label:
                continue
            for latch in lp.latches:
                md = latch.terminator.attrs.setdefault("loop_md", {})
                md["label"] = src.label
            if src.label in names:
                continue
            names.discard(lp.header.name)
            lp.header.name = src.label
            names.add(src.label)


def source_loop(inp: LoadedInput, lp):
    """The source view's loop (:class:`._source.Loop`) of a CDFG loop, by the start
    location the frontend keeps on its latch branch, or None."""
    for latch in lp.latches:
        t = latch.terminator
        md = t.attrs.get("loop_md", {})
        if "line" not in md:
            continue
        files = [t.loc.file] if t.loc is not None and t.loc.file in inp.sources else []
        for path in files or list(inp.sources):
            got = inp.sources[path].loop_at(md["line"], md.get("col"))
            if got is not None:
                return got
    return None


def _load_hir(inp: LoadedInput, top: str, options: FrontendOptions) -> Module:
    """A .hir input: the module its text describes, verified.  Depths and float formats
    are fixed in the text; options that would change them are errors, not ignored."""
    if options.depth:
        raise FrontendError("--depth does not apply to a .hir input: the IR text fixes the "
                            "size of every memory", inp.path, None)
    if options.fp_format:
        raise FrontendError("--fp-format does not apply to a .hir input: the IR text fixes "
                            "the format of every float op (and lists it in fp_format lines)",
                            inp.path, None)
    op_lines: dict = {}
    module = parse_ir_text(inp.hir, inp.path, op_lines)
    if module.top.name != top:
        raise FrontendError(f"the top of this IR module is '{module.top.name}', not '{top}' "
                            f"(a .hir file holds the module of one top)", inp.path, None)
    for f in module.functions:
        try:
            verify(f)
        except HLSError as e:   # at the op's line of the text, not of the C source
            line = op_lines.get(getattr(e, "op", None))
            raise FrontendError(e.message, inp.path, line) from None
    return module


__all__ = ["DATAFLOW_ANNOTATION", "FrontendOptions", "annotated_functions", "LoadedInput", "canonicalise", "load", "parse_module",
           "read_input", "UnsupportedError"]
