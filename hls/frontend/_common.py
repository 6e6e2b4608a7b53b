"""What the LLVM translator and its mixins (:mod:`._legality`, :mod:`._libcalls`) share:
the library functions with a hardware meaning, the flag memories, LLVM value helpers."""

from __future__ import annotations

import contextlib

import ctypes
import re
import sys

from ..ir import Loc
from ..names import demangle_text

#: library functions dropped from the hardware (with a warning)
PRINT_CALLS = ("printf", "puts", "putchar", "__printf_chk")
#: library functions that end the run with a failure
ABORT_CALLS = ("abort", "__assert_fail", "__assert_rtn")
#: library functions with a hardware meaning (when only declared in the module)
#: libm calls that are one FP unit: clang keeps sqrt() a call under its default
#: -fmath-errno (errno has no meaning in hardware; the value is the same)
MATH_CALLS = {"sqrt": "sqrt", "sqrtf": "sqrt", "fabs": "fabs", "fabsf": "fabs"}
LIBC_CALLS = (*PRINT_CALLS, *ABORT_CALLS, "exit", "memset", "memcpy", "memmove", *MATH_CALLS)
#: the flag memory a failed run (abort, failed assert) writes its site number into
ABORT_GLOBAL = "__pyhls_abort"
#: exit(n) in a function called by main: [1, n] in this memory; main returns n
EXIT_GLOBAL = "__pyhls_exit"
#: memories of the hardware that stand for no global of the program
INTERNAL_GLOBALS = (ABORT_GLOBAL, EXIT_GLOBAL)
#: constant-length memset/memcpy/memmove up to this many bytes (a few words: a struct,
#: a short buffer) become straight-line accesses; longer ones (and any run-time length)
#: become a loop, which a 256-entry table's clearing does not turn into 500 states
UNROLL_MEM_BYTES = 64
#: ... except a memmove within one memory: straight-line only up to this many bytes
UNROLL_MEMMOVE_BYTES = 64
#: ... and a memset or memcpy of at most this many elements (8-, 4-, 2- or 1-byte stores,
#: as the length and alignment allow) whatever its bytes: a loop costs a pipeline's
#: controller, whose state selects the memory's port multiplexer for every other loop
#: of that memory (matvec_t_i16's 80-byte clear of a 20-word LUT-RAM accumulator, as a
#: loop: 88 MHz after place and route, its path from the clearing loop's controller
#: through the port into the next loop's read; straight-line: 20 stores, 10 cycles)
UNROLL_MEM_ELEMS = 32


#: nesting depth of :func:`warnings_off` (trial lowerings warn nothing: the real one does)
_QUIET = [0]


@contextlib.contextmanager
def warnings_off():
    """Frontend warnings are not printed inside (the flow's trial lowerings)."""
    _QUIET[0] += 1
    try:
        yield
    finally:
        _QUIET[0] -= 1


def warn(file: str | None, line: int | None, msg: str) -> None:
    if _QUIET[0]:
        return
    loc = file or "pyhls"
    if line is not None:
        loc = f"{loc}:{line}"
    print(f"{loc}: warning: {demangle_text(msg)}", file=sys.stderr)


def value_kind(v) -> str:
    k = v.value_kind
    return getattr(k, "name", str(k))


def key(v) -> int:
    return ctypes.cast(v._ptr, ctypes.c_void_p).value


def pointer_differences(fn) -> set[int]:
    """ptrtoints whose every use is a ``sub`` of two ptrtoints (C's ``p - q``)."""
    p2i = {key(i) for bb in fn.blocks for i in bb.instructions if i.opcode == "ptrtoint"}
    consts: set[int] = set()
    bad: set[int] = set()
    for bb in fn.blocks:
        for i in bb.instructions:
            ops = list(i.operands)
            if i.opcode != "sub":       # (printing every constant operand is slow)
                bad.update(key(o) for o in ops if key(o) in p2i)
                continue
            const = {key(o) for o in ops if o.is_constant and " ptrtoint (ptr " in str(o)}
            if all(key(o) in p2i or key(o) in const for o in ops):
                consts |= const
                continue
            bad.update(key(o) for o in ops if key(o) in p2i)
    return (p2i - bad) | consts


def source_says(loc: Loc, word: str) -> bool:
    """Does the source line at ``loc`` contain ``word``?"""
    try:
        with open(loc.file, errors="replace") as f:
            for i, line in enumerate(f, 1):
                if i == loc.line:
                    return word in line
    except (OSError, TypeError):
        pass
    return False


def c_string(tr, v) -> str | None:
    """The text of a constant C string argument (a global ``c"...\\00"``), if any."""
    try:
        if value_kind(v) == "global_variable":
            gv = tr._gvars[v.name]
        else:  # a constant getelementptr into one
            gv = tr._gvars[re.search(r"ptr @([-\w.$]+)", str(v)).group(1)]
        c = re.search(r'c"((?:[^"\\]|\\[0-9A-Fa-f]{2})*)"', str(gv))
        raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda x: chr(int(x.group(1), 16)), c.group(1))
        return raw.split("\0")[0]
    except Exception:  # noqa: BLE001 - only a nicer message
        return None
