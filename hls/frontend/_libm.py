"""pyhls's libm: the elementary functions a design calls (``exp``, ``sin``, ... and the
``llvm.exp.f64``-style intrinsics clang emits for them under ``-fno-math-errno``) are
computed by portable C shipped with the package (``hls/lib/libm``), linked into the
program before canonicalisation and synthesised like the user's own functions, as Bambu
does with its libm.  The golden model is the canonicalised module, so native execution
runs the same C: hardware and golden agree bit for bit, and both differ from glibc by at
most :data:`ULP_BOUND` units in the last place (``benchmarks/libm_accuracy.py``)."""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import llvmlite.binding as llvm

from ..errors import FrontendError
from ..toolchain import compile_c_to_ll, find_c_compiler
from ..toolchain._tools import run_tool

#: the C sources: pyhls_libm.h (the implementations) and one wrapper file per function
LIBM_DIR = Path(__file__).resolve().parent.parent / "lib" / "libm"
#: the symbol of the library's function ``name`` (not the C name: a user's own ``cos``
#: and glibc's, in a testbench linked with the design, stay apart)
PREFIX = "__pyhls_libm_"
#: C name -> the width of its float type
FUNCTIONS = {"exp": 64, "expf": 32, "log": 64, "logf": 32, "sin": 64, "sinf": 32,
             "cos": 64, "cosf": 32, "tanh": 64, "tanhf": 32, "floor": 64, "floorf": 32,
             "ceil": 64, "ceilf": 32, "trunc": 64, "truncf": 32, "round": 64, "roundf": 32,
             "atan": 64, "atanf": 32, "atan2": 64, "atan2f": 32, "pow": 64, "powf": 32,
             "exp2": 64, "exp2f": 32, "log2": 64, "log2f": 32, "log10": 64, "log10f": 32,
             "tan": 64, "tanf": 32, "sinh": 64, "sinhf": 32, "cosh": 64, "coshf": 32,
             "hypot": 64, "hypotf": 32, "asin": 64, "asinf": 32, "acos": 64, "acosf": 32,
             "fmod": 64, "fmodf": 32}
#: the functions of two arguments (atan2(y, x), pow(x, y), hypot(x, y), fmod(x, y));
#: every other takes one
BINARY = frozenset({"atan2", "atan2f", "pow", "powf", "hypot", "hypotf", "fmod", "fmodf"})


def arity(name: str) -> int:
    """How many arguments the library's function ``name`` takes (all of its float type)."""
    return 2 if name in BINARY else 1


#: the functions computed exactly (by their bits), as glibc does
EXACT = ("floor", "ceil", "trunc", "round", "fmod")
#: the largest error against glibc, in units in the last place, measured by
#: benchmarks/libm_accuracy.py over edge values and 10^6 random arguments per function
#: (benchmarks/results/libm_accuracy.md) and checked by tests/test_libm.py
ULP_BOUND = {name: 0 if name.startswith(EXACT) else 3 if name.startswith("tanh")
             else 1 for name in FUNCTIONS}
#: glibc 2.36's log10, sinh and cosh (and their f variants) are themselves up to 2 ulp
#: from the exact result where pyhls's is the nearest (log10(0.766200441792698),
#: sinh(0.7622388352110773), coshf(-89.40153503417969))
ULP_BOUND.update({n: 2 for n in ("log10", "log10f", "sinh", "sinhf", "cosh", "coshf")})
#: the flags every compile of the library adds: each operation rounds once (no
#: contraction into a fused multiply-add), no debug information (inlined, its operations
#: take the location of the user's call)
LIBM_FLAGS = ("-ffp-contract=off", "-fno-math-errno", "-g0")


_CTYPE = {32: "float", 64: "double"}


def _intrinsic(name: str) -> str:
    """The LLVM intrinsic clang emits for ``name`` under -fno-math-errno."""
    base = name[:-1] if FUNCTIONS[name] == 32 else name
    return f"llvm.{base}.f{FUNCTIONS[name]}"


#: referenced symbol (the C function or its intrinsic) -> the library's function
SYMBOLS = {**{n: n for n in FUNCTIONS}, **{_intrinsic(n): n for n in FUNCTIONS}}


def describe(name: str) -> str:
    """The warning at a call site of the library's function ``name``."""
    bound = ULP_BOUND[name]
    acc = ("exact, as glibc's" if bound == 0
           else f"within {bound} ulp of glibc's")
    return (f"'{name}' is computed by pyhls's libm, synthesised with the design "
            f"({acc}; the golden model runs the same code)")


def library_name(symbol: str) -> str | None:
    """The C name of the library function whose symbol is ``symbol``, or None."""
    if symbol.startswith(PREFIX) and symbol[len(PREFIX):] in FUNCTIONS:
        return symbol[len(PREFIX):]
    return None


_DECLARE = re.compile(r'^declare [^\n]*@("?)([-\w.$]+)\1\(', re.M)


def _used(text: str) -> dict[str, str]:
    """The declared (not defined) symbols of ``text`` that the library provides ->
    its function."""
    return {m.group(2): SYMBOLS[m.group(2)] for m in _DECLARE.finditer(text)
            if m.group(2) in SYMBOLS}


#: a scalar ``frem`` instruction (clang's fmod under -fno-math-errno): its result, type,
#: operands and the rest of the line (metadata)
_FREM = re.compile(r'^(\s*%[-\w.$"]+ = )frem (?:(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc) )*'
                   r'(double|float) ([^,\n]+), ([^,\n]+)(.*)$', re.M)


def _rewrite_frem(text: str) -> tuple[str, set[str]]:
    """``text`` with each scalar ``frem`` a call of the library's fmod or fmodf (the
    same function: C's fmod is LLVM's frem), and the names of those used."""
    found: set[str] = set()

    def call(m: re.Match) -> str:
        name = "fmod" if m.group(2) == "double" else "fmodf"
        found.add(name)
        t = m.group(2)
        return f"{m.group(1)}call {t} @{PREFIX}{name}({t} {m.group(3)}, {t} {m.group(4)}){m.group(5)}"
    return _FREM.sub(call, text), found


def link_libm(mod, cc=None):
    """``mod`` (an llvmlite module) with its calls of the library's functions (by C name
    or intrinsic) and its ``frem`` instructions made calls of pyhls's libm and the
    library's code linked in, internal (gone once inlined); ``mod`` itself when it uses
    none.  ``cc``: the C compiler the program was compiled with (the library is compiled
    by it too)."""
    text, frem = _rewrite_frem(str(mod))
    used = _used(text)
    if not used and not frem:
        return mod
    lines = [l for l in text.split("\n") if not ((m := _DECLARE.match(l)) and m.group(2) in used)]
    names = sorted(set(used.values()) | frem)
    lines += [f"declare {_CTYPE[FUNCTIONS[n]]} @{PREFIX}{n}"
              f"({', '.join([_CTYPE[FUNCTIONS[n]]] * arity(n))})" for n in names]
    text = "\n".join(lines)
    for sym, name in sorted(used.items()):
        text = re.sub(r'@"?' + re.escape(sym) + r'"?(?![-\w.$])', "@" + PREFIX + name, text)
    try:
        out = llvm.parse_assembly(text)
    except RuntimeError as e:   # a compiler bug: the rewrite must keep the module valid
        raise FrontendError(f"linking pyhls's libm failed: {str(e).strip()}", None, None) from None
    for name in names:
        out.link_in(llvm.parse_assembly(library_ir(name, _cc_key(cc))))
    for name in names:
        out.get_function(PREFIX + name).linkage = llvm.Linkage.internal
    out.verify()
    return out


def _cc_key(cc) -> tuple[str, ...] | None:
    if cc is None:
        return None
    return (cc,) if isinstance(cc, str) else tuple(str(c) for c in cc)


@functools.lru_cache(maxsize=None)
def library_ir(name: str, cc: tuple[str, ...] | None = None) -> str:
    """The LLVM IR of the library's function ``name``, compiled (once per process and
    compiler) from ``LIBM_DIR/<name>.c`` with :data:`LIBM_FLAGS`."""
    with tempfile.TemporaryDirectory(prefix="pyhls-libm-") as d:
        out = Path(d) / f"{name}.ll"
        compile_c_to_ll(LIBM_DIR / f"{name}.c", out, cc=list(cc) if cc else None,
                        extra_flags=LIBM_FLAGS)
        return out.read_text()


def native_library(out_dir: str | Path, cc=None) -> Path:
    """The library built as a native shared object in ``out_dir`` (``libpyhls_m.so``,
    symbols ``__pyhls_libm_<name>``), with the system C compiler (``cc``, else clang,
    else cc): for measuring it against glibc through ctypes."""
    prefix = find_c_compiler(cc)
    out = Path(out_dir) / "libpyhls_m.so"
    srcs = [str(LIBM_DIR / f"{n}.c") for n in FUNCTIONS]
    run_tool([*prefix, "-O1", "-fPIC", "-shared", *LIBM_FLAGS, *srcs, "-o", str(out)],
             what="C compiler", timeout=600)
    return out
