"""Why a program crashed natively: the testbench (or whole program) built again as a
native executable with AddressSanitizer and UBSan (``-fsanitize=address,undefined -g``)
and run, and the sanitizer's report turned into ``file:line`` and the access.

The golden model runs the program's LLVM IR in llvmlite's JIT (:mod:`._golden`), where a
stray write shows only as a signal.  Built with the sanitizers, the same sources stop at
the first bad access with a report such as::

    ==1==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ff... at pc ...
    WRITE of size 4 at 0x7ff... thread T0
        #0 0x55... in fill /work/tb.c:3
        #1 0x55... in main /work/tb.c:9
      This frame has 1 object(s):
        [32, 64) 'buf' (line 7) <== Memory access at offset 64 overflows this variable

or UBSan's ``tb.c:3:5: runtime error: index 8 out of bounds for type 'int [8]'``, of which
:func:`parse_report` keeps the first frame in one of the user's files, the kind of error,
the access and the variable.  The compiler is the one that compiled the program for the
capture (``--cc``, else clang, else ``zig cc``) when it links the sanitizers' runtime
(``zig cc`` does not), else ``clang``, ``gcc`` or ``cc`` on PATH; with none of them the
caller keeps its message and adds a hint.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..toolchain import cxx_flags, find_c_compiler, find_cxx_compiler, include_dir, is_cxx

__all__ = ["SanitizerFinding", "sanitize_run", "parse_report", "SANITIZE_FLAGS", "NO_SANITIZER"]

#: what the native executable is built with
SANITIZE_FLAGS = ("-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                  "-fno-sanitize-recover=undefined", "-g", "-O0")

_ENV = {"ASAN_OPTIONS": "detect_leaks=0:print_legend=0:abort_on_error=0:color=never",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:color=never"}

_C_SUFFIXES = (".c",)

#: why :func:`sanitize_run` found nothing when no compiler builds with the sanitizers
NO_SANITIZER = ("no C compiler at hand built the program with AddressSanitizer (zig cc links "
                "no ASan runtime; clang, or gcc with libasan, would: --cc or on PATH)")


@dataclass(frozen=True)
class SanitizerFinding:
    """The first error a sanitizer reported: where (``file``, ``line``; None when no
    frame is in the user's sources) and what (``message``, one line)."""

    file: str | None
    line: int | None
    message: str


def _compilers(cc, cxx: bool) -> list[list[str]]:
    """The compilers to try, the capture's first (None when there is none)."""
    out = []
    try:
        out.append(find_cxx_compiler(cc) if cxx else find_c_compiler(cc))
    except Exception:       # (ToolError: no compiler at all; the others may still be there)
        pass
    for name in (("clang++", "g++", "c++") if cxx else ("clang", "gcc", "cc")):
        exe = shutil.which(name)
        if exe is not None and [exe] not in out:
            out.append([exe])
    return out


def _build(prefix: list[str], sources: Sequence[str], cflags: Sequence[str], cxx: bool,
           exe: Path, timeout: float) -> bool:
    """Whether ``prefix`` built ``exe`` from ``sources`` with the sanitizers linked in
    (a compiler may accept the flags and link no runtime: ``zig cc``)."""
    argv = [*prefix, *SANITIZE_FLAGS, *cflags]
    if cxx:
        argv += [*cxx_flags(cflags), "-I", str(include_dir())]
    argv += [*sources, "-o", str(exe)]
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and exe.is_file() and b"__asan_init" in exe.read_bytes()


def sanitize_run(sources: Sequence[str | Path], cc=None, cflags: Sequence[str] = (),
                 timeout: float = 120.0) -> SanitizerFinding | str:
    """Build ``sources`` (C or C++, one program with its ``main``) with the sanitizers
    and run it; the first error reported, or a sentence saying why there is none (no
    compiler links the sanitizers, the sources are not C or C++, the run reported
    nothing)."""
    srcs = [str(s) for s in sources]
    bad = [s for s in srcs if not (is_cxx(s) or Path(s).suffix.lower() in _C_SUFFIXES)]
    if bad:
        return f"{bad[0]} is not a C or C++ source, which a sanitizer build needs"
    cxx = any(is_cxx(s) for s in srcs)
    with tempfile.TemporaryDirectory(prefix="pyhls-asan-") as tmp:
        exe = Path(tmp) / "program"
        for prefix in _compilers(cc, cxx):
            if _build(prefix, srcs, cflags, cxx, exe, timeout):
                break
        else:
            return NO_SANITIZER
        try:
            proc = subprocess.run([str(exe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, timeout=timeout,
                                  env={**os.environ, **_ENV})
        except subprocess.TimeoutExpired:
            return "the build with sanitizers did not finish within the time limit"
    found = parse_report(proc.stdout.decode("utf-8", "replace"), srcs)
    if found is None:
        return ("the build with -fsanitize=address,undefined ran without a report "
                f"(exit status {proc.returncode})")
    return found


_UBSAN = re.compile(r"^(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?:\d+:)? runtime error: "
                    r"(?P<msg>.*)$", re.M)
_ASAN = re.compile(r"ERROR: AddressSanitizer: (?P<kind>[\w-]+)")
_ACCESS = re.compile(r"\b(?P<rw>READ|WRITE) of size (?P<n>\d+)")
_SEGV_ACCESS = re.compile(r"caused by a (?P<rw>READ|WRITE) memory access")
_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (?P<func>.+?) (?P<file>[^\s:][^:\n]*):(?P<line>\d+)",
                    re.M)
_STACK_VAR = re.compile(r"\[(?P<lo>\d+), (?P<hi>\d+)\) '(?P<name>[^']+)'(?: \(line "
                        r"(?P<line>\d+)\))? <== Memory access at offset (?P<off>\d+)")
_GLOBAL = re.compile(r"is located (?P<d>\d+) bytes (?P<rel>after|before|to the right of|"
                     r"to the left of|inside of) global variable '(?P<name>[^']+)' defined "
                     r"in '(?P<where>[^']+)' \(0x[0-9a-f]+\) of size (?P<size>\d+)")
_HEAP = re.compile(r"is located (?P<d>\d+) bytes (?P<rel>after|before|to the right of|"
                   r"to the left of|inside of) (?P<size>\d+)-byte region")

_KINDS = {"stack-buffer-overflow": "stack buffer overflow",
          "global-buffer-overflow": "buffer overflow of a global",
          "heap-buffer-overflow": "heap buffer overflow",
          "stack-buffer-underflow": "stack buffer underflow",
          "SEGV": "invalid memory access (segmentation fault)"}


def _user_frame(text: str, sources: Sequence[str]) -> tuple[re.Match, str] | None:
    """The first stack frame in one of ``sources`` (by resolved path, else by name) and
    that source as the user spelt it."""
    full = {os.path.realpath(s): s for s in sources}
    names = {Path(s).name: s for s in sources}
    frames = list(_FRAME.finditer(text))
    for m in frames:
        if os.path.realpath(m.group("file")) in full:
            return m, full[os.path.realpath(m.group("file"))]
    for m in frames:
        if Path(m.group("file")).name in names:
            return m, names[Path(m.group("file")).name]
    return None


def _element(name: str, off: int, size: int, n: int) -> str:
    """``name[i]`` for an access of ``n`` bytes at byte ``off`` of an object of ``size``
    bytes, when its elements are taken to be ``n`` bytes (they are for a scalar array)."""
    if n and off % n == 0 and size % n == 0:
        return f"{name}[{off // n}]"
    return f"byte {off} of {name}"


def parse_report(text: str, sources: Sequence[str]) -> SanitizerFinding | None:
    """The first sanitizer error of ``text`` (a run's output), located at its first
    frame in ``sources``; None when there is no report."""
    ub = _UBSAN.search(text)
    asan = _ASAN.search(text)
    if ub is not None and (asan is None or ub.start() < asan.start()):
        return SanitizerFinding(ub.group("file"), int(ub.group("line")),
                                f"undefined behaviour: {ub.group('msg').strip()} (UBSan)")
    if asan is None:
        return None
    body = text[asan.start():]
    kind = asan.group("kind")
    what = _KINDS.get(kind, kind.replace("-", " "))
    acc = _ACCESS.search(body) or _SEGV_ACCESS.search(body)
    rw = {"READ": "reading", "WRITE": "writing"}[acc.group("rw")] if acc else "accessing"
    n = int(acc.group("n")) if acc is not None and "n" in acc.groupdict() else 0
    frame = _user_frame(body, sources)
    detail = f"{n} bytes" if n else "memory"
    sv, gv, hp = _STACK_VAR.search(body), _GLOBAL.search(body), _HEAP.search(body)
    if sv is not None:
        lo, hi, off = int(sv.group("lo")), int(sv.group("hi")), int(sv.group("off"))
        decl = f", declared at line {sv.group('line')}" if sv.group("line") else ""
        name = sv.group("name")
        detail = (f"{_element(name, off - lo, hi - lo, n)} ({n} bytes at byte {off - lo} of "
                  f"'{name}', {hi - lo} bytes{decl})") if off >= lo else \
            f"{n} bytes {lo - off} byte(s) before '{name}'{decl}"
    elif gv is not None:
        size, d, name = int(gv.group("size")), int(gv.group("d")), gv.group("name")
        where = gv.group("where").rsplit(":", 1)[0]
        decl = f", declared at {where}" if where else ""
        if gv.group("rel") in ("after", "to the right of"):
            detail = (f"{_element(name, size + d, size, n)} ({n} bytes at byte {size + d} of "
                      f"'{name}', {size} bytes{decl})")
        else:
            detail = f"{n} bytes {d} byte(s) before '{name}'{decl}"
    elif hp is not None:
        size, d = int(hp.group("size")), int(hp.group("d"))
        detail = (f"{n} bytes at byte {size + d} of a {size}-byte block from malloc"
                  if hp.group("rel") in ("after", "to the right of") else
                  f"{n} bytes {d} byte(s) {hp.group('rel')} a {size}-byte block from malloc")
    if frame is None:
        return SanitizerFinding(None, None, f"{what} {rw} {detail} (AddressSanitizer)")
    m, file = frame
    return SanitizerFinding(file, int(m.group("line")),
                            f"{what} {rw} {detail} in {m.group('func')} (AddressSanitizer)")
