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
from ._compare import CallResult, CosimResult, Mismatch, compare_calls, run_cosim, run_cosim_main
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
    "C_TO_LL_FLAGS",
    "Call",
    "CallResult",
    "CosimResult",
    "LoopProfile",
    "Mismatch",
    "loop_profiles",
    "native_block_visits",
    "RawCallResult",
    "Verilator",
    "build_harness",
    "capture_tb_calls",
    "compare_calls",
    "compile_c_to_ll",
    "default_cache_dir",
    "find_c_compiler",
    "find_verilator",
    "generate_harness",
    "ir_diagnosis",
    "ir_differences",
    "random_calls",
    "read_results",
    "run_calls",
    "run_axi_cosim",
    "run_cosim",
    "run_cosim_main",
    "run_harness",
    "run_main",
    "run_tool",
    "without_dangling",
    "write_stimulus",
]

from ._flow import cosim  # noqa: E402

__all__.append("cosim")
