"""The external tools pyhls drives: a C compiler that emits LLVM IR (the frontend's) and
Verilator (co-simulation, the floating-point unit tests).

A package of its own because both the frontend and the verifiers need it: it depends on
nothing in pyhls but :mod:`hls.errors`."""

from ._cache import cache_clean, cache_info, cache_root, enforce_limit, parse_size, touch
from ._tools import (
    C_TO_LL_FLAGS,
    VERILATOR_FLAGS,
    Verilator,
    compile_c_to_ll,
    default_cache_dir,
    find_c_compiler,
    find_cxx_compiler,
    find_verilator,
    include_dir,
    is_cxx,
    cxx_flags,
    model_cache_key,
    run_tool,
    verilate_and_make,
    yowasp_command,
)

__all__ = [
    "cache_clean",
    "cache_info",
    "cache_root",
    "enforce_limit",
    "parse_size",
    "touch",
    "C_TO_LL_FLAGS",
    "VERILATOR_FLAGS",
    "Verilator",
    "compile_c_to_ll",
    "default_cache_dir",
    "find_c_compiler",
    "find_cxx_compiler",
    "include_dir",
    "is_cxx",
    "cxx_flags",
    "find_verilator",
    "model_cache_key",
    "run_tool",
    "verilate_and_make",
    "yowasp_command",
]
