"""Reading inputs and translating LLVM IR into the hls CDFG.

``load(path, top=..., options)`` compiles C with clang or ``zig cc``, lowers MLIR with
``mlir-opt``/``mlir-translate``, parses and verifies LLVM IR with llvmlite, rejects
constructs without a hardware meaning (with the user's file and line), canonicalises with
LLVM's passes and translates the top function into a ``hls.ir.Module``.
"""

from ._load import FrontendOptions, LoadedInput, canonicalise, load, parse_module, read_input
from ._ctypes import ArgCTypes, arg_c_types
from ._common import ABORT_GLOBAL, EXIT_GLOBAL, INTERNAL_GLOBALS, warnings_off
from ._translate import sanitize_name

__all__ = ["ABORT_GLOBAL", "ArgCTypes", "arg_c_types", "EXIT_GLOBAL", "INTERNAL_GLOBALS", "FrontendOptions", "LoadedInput", "canonicalise", "load", "parse_module", "read_input", "sanitize_name", "warnings_off"]

