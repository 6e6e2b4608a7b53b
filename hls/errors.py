"""One error hierarchy for the whole flow.

Every user-facing error carries a source location (``file``, ``line``) and is printed by
the CLI as ``file:line: error: message``.  A subclass per phase tells tests and callers
where the failure came from.
"""

from __future__ import annotations


class HLSError(Exception):
    """Base of every error the user can cause.  Printed without a traceback."""

    phase = "hls"

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def format(self) -> str:
        from .names import demangle_text     # C++ functions by name, not mangled
        loc = self.file or "pyhls"
        if self.line is not None:
            loc = f"{loc}:{self.line}"
        return f"{loc}: error: {demangle_text(self.message)}"

    def __str__(self) -> str:
        return self.format()


class FrontendError(HLSError):
    phase = "frontend"


class UnsupportedError(FrontendError):
    """A construct that has no hardware meaning (recursion, indirect calls, ...)."""


class ScheduleError(HLSError):
    phase = "scheduling"


class RTLError(HLSError):
    phase = "rtl"


class ToolError(HLSError):
    """An external tool (compiler, Verilator) failed or is missing."""

    phase = "tool"


class CosimError(HLSError):
    """Co-simulation found a mismatch or a timeout."""

    phase = "cosim"


class InternalError(Exception):
    """A bug of pyhls, not of its input.  Deliberately not an :class:`HLSError`: the CLI
    lets it through with its traceback (the contract for compiler bugs)."""
