"""The declared C types of the top function's arguments and return value, for the Vitis
package (kernel.xml, the register header, host.cpp): from the source view of a C input
(libclang), else from the LLVM debug info of the input (a ``.ll``/``.bc``/``.hir`` made
with ``-g``).  The CDFG knows widths only: an ``int`` and an ``unsigned``, a ``float`` and
an ``int``, a ``struct`` of 8 bytes and a ``long long`` are the same there.

The C arguments meet the top's parameters by position, checked by name: the C parameter
``i`` must be the LLVM argument ``i`` of the same name.  Where the C signature does not map
one to one onto the LLVM one (the ABI passed a struct by value in pieces or through a
pointer), no type is taken from it and a warning says so; the package then keeps the
types it derives from widths, as without any source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..interface import CType
from ..ir import PtrParam
from ._common import warn
from ._debuginfo import DebugInfo
from ._translate import sanitize_name


@dataclass(frozen=True)
class ArgCTypes:
    """C types by argument position (only the known ones) and of the return value;
    ``origin`` says where they come from (``source``, ``debug info`` or ``none``)."""

    args: dict = field(default_factory=dict)      # argument index -> CType
    ret: CType | None = None
    origin: str = "none"


def arg_c_types(inp, module) -> ArgCTypes:
    """The declared C types of ``module.top``'s arguments (:class:`ArgCTypes`), from
    ``inp`` (a :class:`hls.frontend.LoadedInput`)."""
    top = module.top
    params = sorted(top.params, key=lambda p: p.index)
    for path, view in (getattr(inp, "sources", None) or {}).items():
        fn = view.functions.get(top.name)
        if fn is None:
            continue
        sig = _in_memory([(sanitize_name(v.name), v.indirect) for v in fn.params],
                         [v.ctype for v in fn.params], params)
        if not _matches(sig, params, path, fn.line, top.name):
            return ArgCTypes()
        return ArgCTypes({p.index: v.ctype for p, v in zip(params, fn.params)
                          if v.ctype is not None}, fn.returns, "source")
    text = getattr(inp, "text", "") or ""
    define = next((line for line in text.splitlines()
                   if line.startswith("define ") and _defines(line, top.name)), None)
    if define is None:
        return ArgCTypes()
    dbg = DebugInfo(text)
    got = dbg.c_types(define)
    if got is None:
        return ArgCTypes()
    ret, types = got
    dnames = dbg.params(define)
    sig = _in_memory([(sanitize_name(dnames[i][0]) if i in dnames else
                       params[i].name if i < len(params) else f"arg{i}", indirect)
                      for i, (_, indirect) in enumerate(types)], [t for t, _ in types], params)
    if not _matches(sig, params, dbg.file_of(define) or inp.path,
                    dbg.subprogram_line(define), top.name):
        return ArgCTypes()
    return ArgCTypes({p.index: t for p, (t, _) in zip(params, types) if t is not None}, ret,
                     "debug info")


def _in_memory(sig: list[tuple[str, bool]], types: list, params: list) -> list[tuple[str, bool]]:
    """``sig`` with a C parameter passed by value that the ABI passes in memory (a
    ``byval`` pointer: a struct of more than 16 bytes, or one, or an ``ap_uint<65>``,
    once the argument registers are used up) marked as passed by address, as the LLVM
    argument is: its memory holds the one value of its type."""
    out = []
    for i, (name, indirect) in enumerate(sig):
        t = types[i] if i < len(types) else None
        if (not indirect and t is not None and (t.kind == "record" or t.size > 8)
                and i < len(params) and isinstance(params[i], PtrParam)
                and params[i].name == name):
            indirect = True
        out.append((name, indirect))
    return out


def _defines(line: str, name: str) -> bool:
    head = line.split("(", 1)[0]
    return head.endswith(f"@{name}") or head.endswith(f'@"{name}"')


def _matches(sig: list[tuple[str, bool]], params: list, file: str, line: int | None,
             fn: str) -> bool:
    """The C parameters ``sig`` (name, passed by address) are the LLVM arguments
    ``params``, in order; else a warning: the C types cannot be placed."""
    have = [(p.name, isinstance(p, PtrParam)) for p in params]
    if sig == have:
        return True

    def show(s):
        return ", ".join(f"{'*' if ptr else ''}{n}" for n, ptr in s) or "none"
    warn(file, line, f"the C parameters of {fn} ({show(sig)}) are not its LLVM arguments "
         f"({show(have)}; * marks a pointer): the ABI changed the signature (a struct "
         "passed by value?); the Vitis package gives the arguments the C types of their "
         "widths")
    return False
