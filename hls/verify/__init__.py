"""Verification: golden results by native execution of LLVM IR, and co-simulation of the
generated Verilog in a Verilator harness that implements the memory/port contract of
:mod:`hls.interface`.

Typical per-call flow::

    calls = capture_tb_calls(tb_ll_text, top, {k: m.size_bytes for ...})
    result = run_cosim([design_v], iface, calls, max_cycles=10**6, workdir=out / "cosim")
    report["cosim"] = result.to_json()
"""

from __future__ import annotations

from ._axi_cosim import run_axi_cosim
from ._compare import (CallResult, CosimResult, Mismatch, compare_calls, is_nan, run_cosim,
                       run_cosim_main)
from ._lint import DEFECTS, STYLISTIC, LintResult, lint_verilog
from ._golden import Call, capture_tb_calls, random_calls, run_calls, run_main, without_dangling
from ._irdiag import ir_diagnosis, ir_differences
from ._profile import LoopProfile, loop_profiles, native_block_visits
from ._harness import (
    RawCallResult,
    build_harness,
    default_cache_dir,
    generate_harness,
    read_results,
    run_harness,
    write_stimulus,
)
from ..toolchain import (
    C_TO_LL_FLAGS,
    Verilator,
    compile_c_to_ll,
    find_c_compiler,
    find_verilator,
    run_tool,
)

__all__ = [
    "build_harness",
    "C_TO_LL_FLAGS",
    "Call",
    "CallResult",
    "capture_tb_calls",
    "compare_calls",
    "compile_c_to_ll",
    "CosimResult",
    "default_cache_dir",
    "DEFECTS",
    "find_c_compiler",
    "find_verilator",
    "generate_harness",
    "golden_ir",
    "ir_diagnosis",
    "ir_differences",
    "is_nan",
    "lint_verilog",
    "LintResult",
    "loop_profiles",
    "LoopProfile",
    "Mismatch",
    "native_block_visits",
    "random_calls",
    "RawCallResult",
    "read_results",
    "run_axi_cosim",
    "run_calls",
    "run_cosim",
    "run_cosim_main",
    "run_harness",
    "run_main",
    "run_tool",
    "STYLISTIC",
    "Verilator",
    "without_dangling",
    "write_stimulus",
]

from ._flow import cosim, golden_ir  # noqa: E402

__all__.append("cosim")
