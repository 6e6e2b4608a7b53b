"""Differential fuzzing of pyhls with Csmith programs (``benchmarks/fuzz_csmith.py``).

Per seed: generate a program with Csmith (a batch's options), make it self-contained with
pyhls's own runtime header (``csmith_hls.h``: ``main`` returns the CRC-32 of the globals,
no libc), run it natively (clang-19: UBSan + ASan, then ``-O0`` and ``-O1`` for the golden
checksum; programs with undefined behaviour, that do not terminate, or whose checksum
depends on the optimisation level are discarded), then ``pyhls cosim PROG.c --top main``
in a child process with a cycle cap and a wall-clock limit, and classify the outcome:

* ``pass``: co-simulation passed and pyhls's golden (the canonicalised IR run by
  llvmlite) returns the native checksum;
* ``rejected``: a clean ``error: X is not supported ...`` (``construct`` = X);
* ``crash``: a traceback, or an error that is not a rejection of a construct;
* ``mismatch``: co-simulation compared different values, or pyhls's golden differs from
  the native checksum;
* ``timeout``: the hardware ran past ``--max-cycles``, or the wall-clock limit expired.

:func:`classify` is a pure function of the child's exit status and output, so it can be
tested without Csmith or Verilator.  :func:`reduce` shrinks a failing program with cvise
using an interestingness script that re-checks the native run (UB-free, same checksum at
-O0 and -O1) and the failure signature.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hls.frontend import canonicalise, parse_module, read_input
from hls.verify import run_main

HERE = Path(__file__).resolve().parent
HEADER = HERE / "csmith_hls.h"

#: Csmith options shared by both batches, chosen for HLS: main() without argc/argv (it is
#: the hardware top), no volatiles (no hardware meaning here), the checksum kept (it is what
#: main returns), a bounded program (functions, block nesting, expression size, array
#: extents) so that synthesis and Verilator builds take seconds, not minutes.
COMMON_OPTS = (
    "--no-argc", "--no-volatiles", "--no-volatile-pointers", "--checksum", "--concise",
    "--max-funcs", "4", "--max-block-depth", "3", "--max-block-size", "4",
    "--max-expr-complexity", "8", "--max-array-dim", "2", "--max-array-len-per-dim", "8",
)
BATCHES = {
    # scalars and arrays only
    "plain": COMMON_OPTS + ("--no-pointers", "--no-structs", "--no-unions",
                            "--no-bitfields", "--no-packed-struct"),
    # pointers (at most two levels), structs (packed, bit-fields), unions
    "pointers": COMMON_OPTS + ("--pointers", "--structs", "--unions", "--max-pointer-depth", "2",
                               "--max-struct-fields", "5", "--max-union-fields", "3"),
}

CLASSES = ("pass", "rejected", "crash", "mismatch", "timeout")

#: native driver: the program is compiled with -Dmain=pyhls_fuzz_main
DRIVER = r"""
#undef main
#include <stdio.h>
int pyhls_fuzz_main(void);
int main(void) { printf("%d\n", pyhls_fuzz_main()); return 0; }
"""


@dataclasses.dataclass
class Tools:
    csmith: str | None = shutil.which("csmith")
    clang: str | None = shutil.which("clang-19") or shutil.which("clang")
    cvise: str | None = shutil.which("cvise") or shutil.which("creduce")

    def missing(self) -> list[str]:
        return [n for n in ("csmith", "clang") if getattr(self, n) is None]


# ------------------------------------------------------------------------- generation
def self_contained(csmith_text: str, header: Path = HEADER) -> str:
    """The Csmith program with ``#include "csmith.h"`` replaced by pyhls's header."""
    hdr = header.read_text()
    out, n = re.subn(r'^#include\s+"csmith\.h"\s*$', lambda _m: hdr, csmith_text, flags=re.M)
    if n != 1:
        raise ValueError('the program does not include "csmith.h" exactly once')
    return out


def generate(seed: int, batch: str, path: Path, tools: Tools, timeout: float = 60) -> str:
    """Write the self-contained program of ``seed`` in ``batch`` to ``path``."""
    argv = [tools.csmith, "--seed", str(seed), *BATCHES[batch]]
    # (csmith writes platform.info into its working directory)
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=path.parent)
    if proc.returncode != 0:
        raise RuntimeError(f"csmith failed: {proc.stderr.strip()[:500]}")
    text = self_contained(proc.stdout)
    path.write_text(f"/* pyhls fuzz: batch {batch}, {shlex.join(argv)} */\n" + text)
    return " ".join(argv)


# ------------------------------------------------------------------------- native runs
@dataclasses.dataclass
class Native:
    ok: bool
    checksum: int | None = None
    reason: str = ""          # why the program is discarded: ub, nonterminating, unstable, ...
    detail: str = ""


def _compile_run(tools: Tools, prog: Path, work: Path, name: str, flags: list[str],
                 timeout: float) -> tuple[str, int | None, str]:
    """('ok'|'compile'|'fail'|'timeout', value, text)."""
    drv = work / "pyhls_fuzz_driver.c"
    drv.write_text(DRIVER)
    exe = work / name
    cc = subprocess.run([tools.clang, "-w", *flags, "-Dmain=pyhls_fuzz_main", str(prog), "-x",
                         "c", str(drv), "-o", str(exe)], capture_output=True, text=True,
                        timeout=300)
    if cc.returncode != 0:
        return "compile", None, cc.stderr[-2000:]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=0")
    try:
        r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", None, ""
    if r.returncode != 0:
        return "fail", None, (r.stderr or r.stdout)[-2000:]
    try:
        return "ok", int(r.stdout.split()[-1]), ""
    except (ValueError, IndexError):
        return "fail", None, r.stdout[-500:]


def native_check(prog: Path, tools: Tools, work: Path, timeout: float = 10) -> Native:
    """UBSan + ASan run, then -O0 and -O1 runs; the -O1 checksum is the golden."""
    work.mkdir(parents=True, exist_ok=True)
    st, _, txt = _compile_run(tools, prog, work, "san", ["-O1", "-g", "-fsanitize=undefined,address",
                                                         "-fno-sanitize-recover=all"], timeout)
    if st != "ok":
        reason = {"timeout": "nonterminating", "fail": "ub", "compile": "compile"}[st]
        return Native(False, reason=reason, detail=txt.strip().splitlines()[-1][:300] if txt.strip() else "")
    vals = {}
    for opt in ("-O0", "-O1"):
        st, v, txt = _compile_run(tools, prog, work, "nat" + opt, [opt], timeout)
        if st != "ok":
            return Native(False, reason={"timeout": "nonterminating"}.get(st, st),
                          detail=txt.strip()[:300])
        vals[opt] = v
    if vals["-O0"] != vals["-O1"]:
        return Native(False, reason="unstable", detail=f"-O0 {vals['-O0']}, -O1 {vals['-O1']}")
    return Native(True, checksum=vals["-O1"])


# ------------------------------------------------------------------------- pyhls runs
@dataclasses.dataclass
class Outcome:
    cls: str                      # one of CLASSES
    detail: str = ""              # construct (rejected), signature (crash/mismatch/timeout)
    message: str = ""             # the relevant output, clipped

    @property
    def signature(self) -> str:
        return f"{self.cls}: {self.detail}"


_UNSUPPORTED = re.compile(r"error: (.*?) (?:is|are) not supported")
_ERROR = re.compile(r"^(?:\S*: )?error: (.*)$", re.M)


def _norm(text: str) -> str:
    """A failure signature: numbers, names of values and quoted text blurred."""
    text = re.sub(r"'[^']*'", "'_'", text)
    text = re.sub(r"%[\w.]+", "%_", text)
    text = re.sub(r"\b(g|l|p|func|S)_\d+\b", r"\1_N", text)
    text = re.sub(r"0x[0-9a-fA-F]+|\d+", "N", text)
    return text.strip()[:200]


def classify(returncode: int | None, stdout: str, stderr: str, *, wall_timeout: bool = False,
             native_checksum: int | None = None, golden_checksum: int | None = None) -> Outcome:
    """Classify a ``pyhls cosim PROG.c --top main`` run from its exit status and output.
    ``golden_checksum`` (pyhls's golden return, masked to 32 bits) is compared with
    ``native_checksum`` when the co-simulation passed."""
    out = (stdout or "") + (stderr or "")
    # the relevant part (not the C compiler's warnings): from the traceback or the first error
    start = out.find("Traceback (most recent call last)")
    m = _ERROR.search(out) if start < 0 else None
    clip = out[start:][-4000:] if start >= 0 else out[m.start():][:4000] if m else out[-4000:]
    if wall_timeout:
        return Outcome("timeout", "wall clock", clip)
    if "Traceback (most recent call last)" in out:
        tail = [l for l in out.strip().splitlines() if l.strip()]
        last = tail[-1] if tail else "?"
        frames = re.findall(r'File "([^"]*hls/[^"]*)", line \d+, in (\w+)', out)
        where = f"{frames[-1][0].split('hls/', 1)[-1]}:{frames[-1][1]}" if frames else "?"
        return Outcome("crash", f"{_norm(last)} at {where}", clip)
    if returncode == 0 and "PASSED" in out:
        if (native_checksum is not None and golden_checksum is not None
                and (golden_checksum & 0xFFFFFFFF) != (native_checksum & 0xFFFFFFFF)):
            return Outcome("mismatch", "pyhls golden differs from native",
                           f"golden (canonicalised IR) {golden_checksum & 0xFFFFFFFF}, "
                           f"native (clang -O1) {native_checksum & 0xFFFFFFFF}")
        return Outcome("pass", "", "")
    if "co-simulation failed" in out or "FAILED" in out:
        m = re.search(r"call \d+: no ap_done within (.*)", out)
        if m:
            return Outcome("timeout", "cycle cap", clip)
        # the element as pyhls names it: vec[3], m[1][2], recs[2].1, big+8, return
        mm = re.findall(r"call \d+: ([\w$]+)[^\s:]*: expected", out)
        if mm:
            return Outcome("mismatch", ",".join(sorted(set(_norm(x) for x in mm))), clip)
        m = re.search(r"call \d+: (\w+): (.*)", out)
        return Outcome("crash", _norm(f"simulation {m.group(1)}: {m.group(2)}") if m
                       else "co-simulation failed", clip)
    m = _UNSUPPORTED.search(out)
    if m:
        return Outcome("rejected", _norm(m.group(1)), clip)
    m = _ERROR.search(out)
    if m:   # an error that rejects no construct: an internal failure seen by the user
        return Outcome("crash", "error: " + _norm(m.group(1)), clip)
    return Outcome("crash", f"exit status {returncode}, no diagnosis", clip)


def pyhls_env() -> dict:
    root = str(HERE.parent.parent)
    pp = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=root + (os.pathsep + pp if pp else ""))


def run_pyhls(prog: Path, work: Path, *, max_cycles: int, timeout: float,
              cc: str | None = None, command: str = "cosim") -> tuple[int | None, str, str, bool]:
    """``pyhls cosim PROG --top main`` (or ``pyhls synth``) in a child process: (status,
    stdout, stderr, wall-clock timeout?)."""
    argv = [sys.executable, "-m", "hls.cli", command, str(prog), "--top", "main",
            "-o", str(work / "hls_main")]
    if command == "cosim":
        argv += ["--max-cycles", str(max_cycles)]
    if cc:
        argv += ["--cc", cc]
    # a session of its own, so that a wall-clock timeout ends the Verilator build or the
    # simulation it started too
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=pyhls_env(), start_new_session=True)
    try:
        so, se = p.communicate(timeout=timeout)
        return p.returncode, so, se, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        so, se = p.communicate()
        return None, so, se, True


def golden_checksum(prog: Path, timeout: float = 120, cc: str | None = None) -> int | None:
    """pyhls's golden return value of ``main``: the canonicalised IR run by llvmlite (in a
    child process); None if pyhls cannot read the program."""
    code = ("import sys; from hls.fuzz import _golden; print(_golden(sys.argv[1], "
            "sys.argv[2] or None))")
    try:
        p = subprocess.run([sys.executable, "-c", code, str(prog), cc or ""], capture_output=True,
                           text=True, timeout=timeout, env=pyhls_env())
    except subprocess.TimeoutExpired:
        return None
    try:
        return int(p.stdout.split()[-1])
    except (ValueError, IndexError):
        return None


def _golden(path: str, cc: str | None) -> int:
    mod = parse_module(read_input(path, cc=cc))
    canonicalise(mod, "main")
    ret, _ = run_main(str(mod), [], {})
    return ret & 0xFFFFFFFF


# ------------------------------------------------------------------------- one seed
@dataclasses.dataclass
class Result:
    seed: int
    batch: str
    cls: str                      # a class of CLASSES, or "discarded"
    detail: str = ""
    message: str = ""
    checksum: int | None = None
    cycles: int | None = None     # simulated cycles of main (a program that folds to
                                  # constants takes a handful)
    seconds: float = 0.0
    program: str = ""
    csmith: str = ""

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def run_seed(seed: int, batch: str, work: Path, tools: Tools, *, max_cycles: int = 5_000_000,
             timeout: float = 600, native_timeout: float = 10, cc: str | None = None,
             keep: Path | None = None) -> Result:
    """Generate, check natively, co-simulate and classify one program.  Failing programs
    (crash, mismatch, timeout) are copied to ``keep``."""
    t0 = time.monotonic()
    work.mkdir(parents=True, exist_ok=True)
    prog = work / f"{batch}_{seed}.c"
    res = Result(seed, batch, "discarded", program=str(prog))
    try:
        res.csmith = generate(seed, batch, prog, tools)
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        res.detail = f"csmith: {e}"[:300]
        return res
    nat = native_check(prog, tools, work / "native", timeout=native_timeout)
    if not nat.ok:
        res.detail = nat.reason
        res.message = nat.detail
        res.seconds = round(time.monotonic() - t0, 1)
        return res
    res.checksum = nat.checksum
    rc, so, se, wall = run_pyhls(prog, work, max_cycles=max_cycles, timeout=timeout, cc=cc)
    gold = None
    if rc == 0 and not wall:
        gold = golden_checksum(prog, cc=cc)
    oc = classify(rc, so, se, wall_timeout=wall, native_checksum=nat.checksum, golden_checksum=gold)
    res.cls, res.detail, res.message = oc.cls, oc.detail, oc.message
    m = re.search(r"(\d+) cycles in total", so or "")
    res.cycles = int(m.group(1)) if m else None
    res.seconds = round(time.monotonic() - t0, 1)
    if keep is not None and res.cls in ("crash", "mismatch", "timeout"):
        keep.mkdir(parents=True, exist_ok=True)
        dst = keep / prog.name
        shutil.copyfile(prog, dst)
        res.program = str(dst)
    return res


# ------------------------------------------------------------------------- reduction
_INTERESTING = r"""#!/bin/sh
# cvise interestingness test written by hls/fuzz: the program must still be UB-free with
# the same checksum at -O0 and -O1, and pyhls must still fail with the same signature.
exec {python} -m hls.fuzz interesting {prog} {signature} {opts}
"""


def is_interesting(prog: Path, signature: str, *, max_cycles: int, timeout: float,
                   cc: str | None = None) -> bool:
    tools = Tools()
    with tempfile.TemporaryDirectory(prefix="pyhls-fuzz-i-") as d:
        work = Path(d)
        nat = native_check(prog, tools, work / "native", timeout=5)
        if not nat.ok:
            return False
        if signature.startswith(("crash", "rejected")):
            # most failures happen in synthesis: try it alone first (no Verilator build)
            rc, so, se, wall = run_pyhls(prog, work, max_cycles=max_cycles, timeout=timeout,
                                         cc=cc, command="synth")
            if not wall and rc != 0:
                return classify(rc, so, se).signature == signature
        rc, so, se, wall = run_pyhls(prog, work, max_cycles=max_cycles, timeout=timeout, cc=cc)
        gold = None
        if rc == 0 and not wall and signature.startswith("mismatch: pyhls golden"):
            gold = golden_checksum(prog, cc=cc)
        oc = classify(rc, so, se, wall_timeout=wall, native_checksum=nat.checksum,
                      golden_checksum=gold)
        return oc.signature == signature


def reduce(prog: Path, signature: str, out: Path, *, max_cycles: int = 5_000_000,
           timeout: float = 300, cc: str | None = None, cvise_timeout: float = 3600) -> Path | None:
    """Reduce ``prog`` with cvise while it keeps failing with ``signature``; the reduced
    program is written to ``out`` (None if cvise is missing or fails)."""
    tools = Tools()
    if tools.cvise is None:
        return None
    with tempfile.TemporaryDirectory(prefix="pyhls-fuzz-r-") as d:
        work = Path(d)
        target = work / prog.name
        shutil.copyfile(prog, target)
        script = work / "interesting.sh"
        opts = f"--max-cycles {max_cycles} --timeout {timeout}" + (f" --cc {shlex.quote(cc)}" if cc else "")
        script.write_text(_INTERESTING.format(python=shlex.quote(sys.executable),
                                              prog=shlex.quote(prog.name),
                                              signature=shlex.quote(signature), opts=opts))
        script.chmod(0o755)
        env = pyhls_env()
        argv = [tools.cvise, "--n", "1", "--timeout", str(int(timeout * 2 + 60)), str(script),
                target.name]     # cvise wants the test case's bare name (cwd=work)
        p = subprocess.Popen(argv, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, env=env, start_new_session=True)
        try:
            p.communicate(timeout=cvise_timeout)
        except subprocess.TimeoutExpired:
            # cvise keeps the best reduction so far in the file; end it and its tests
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.communicate()
        if target.read_text() == prog.read_text():
            return None
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(f"/* reduced by cvise from {prog.name}; pyhls failure: {signature} */\n"
                       + target.read_text())
        return out


def _main(argv: list[str]) -> int:
    """``python -m hls.fuzz interesting PROG SIGNATURE [--max-cycles N] [--timeout S]
    [--cc CC]``: exit 0 when PROG is interesting (cvise's protocol)."""
    ap = argparse.ArgumentParser(prog="python -m hls.fuzz")
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("interesting")
    i.add_argument("prog", type=Path)
    i.add_argument("signature")
    i.add_argument("--max-cycles", type=int, default=5_000_000)
    i.add_argument("--timeout", type=float, default=300)
    i.add_argument("--cc", default=None)
    a = ap.parse_args(argv)
    ok = is_interesting(a.prog, a.signature, max_cycles=a.max_cycles, timeout=a.timeout, cc=a.cc)
    return 0 if ok else 1


# ------------------------------------------------------------------------- summary
def summary_table(results: list[dict]) -> str:
    """Counts per batch and class, and rejections grouped by construct."""
    batches = sorted({r["batch"] for r in results})
    cols = ["discarded", *CLASSES]
    lines = ["| batch | programs | " + " | ".join(cols) + " |",
             "|---|---:|" + "---:|" * len(cols)]
    for b in batches + ["all"]:
        rs = [r for r in results if b == "all" or r["batch"] == b]
        counts = [sum(1 for r in rs if r["cls"] == c) for c in cols]
        lines.append(f"| {b} | {len(rs)} | " + " | ".join(map(str, counts)) + " |")
    cyc = sorted(r["cycles"] for r in results if r["cls"] == "pass" and r.get("cycles") is not None)
    if cyc:
        lines += ["", f"simulated cycles of the passing programs that record them ({len(cyc)}): "
                  f"median {cyc[len(cyc) // 2]}, max {cyc[-1]}; "
                  f"{sum(1 for c in cyc if c < 200)} under 200 (folded to constants by LLVM)"]
    for title, cls in (("discarded (native check)", "discarded"), ("rejected, by construct", "rejected"),
                       ("crash", "crash"), ("mismatch", "mismatch"), ("timeout", "timeout")):
        groups: dict[str, list] = {}
        for r in results:
            if r["cls"] == cls:
                groups.setdefault(r["detail"], []).append(f"{r['batch']}:{r['seed']}")
        if not groups:
            continue
        lines += ["", f"{title}:", ""]
        for k, v in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            seeds = ", ".join(v[:8]) + (", ..." if len(v) > 8 else "")
            lines.append(f"- {len(v)} x `{k}` ({seeds})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
