"""The pass manager: the CDFG-to-CDFG pipeline between the frontend and the scheduler.

Every rewrite is a :class:`Pass` registered in one table (``hls.transforms.PASSES``) and
run by one :class:`PassManager`, so that the flow, ``pyhls ir --after``,
``--print-ir-after`` and the per-pass tests (``tests/passes``) all see the same pipeline
in the same order.  After each pass the manager re-checks the IR (:func:`hls.ir.verify`):
a pass that leaves broken IR (or crashes) is a compiler bug, reported as a
:class:`PassError` naming the pass and the function, not as a scheduling failure three
stages later.  User errors (an unroll directive that cannot be honoured, a partition of
an m_axi argument: :class:`hls.errors.HLSError`) pass through unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .. import progress
from ..errors import HLSError, InternalError
from ..ir import Function, Module, print_module, verify

__all__ = ["Pass", "PassError", "PassManager", "resolve_pass"]


def _always(opts: Any) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Pass:
    name: str
    #: one line for ``pyhls passes``
    doc: str
    #: ``run(func[, opts])`` (scope "function") or ``run(module[, opts])`` (scope "module");
    #: a function pass returns its number of rewrites, a module pass what the flow needs
    run: Callable[..., Any]
    scope: str = "function"
    #: the pass's options dataclass (instances are given to ``run``), None when it has none
    options: type | None = None
    #: whether the pass runs at all with these options (if-conversion: only when
    #: pipelining); a skipped pass is neither verified nor printed
    when: Callable[[Any], bool] = _always

    def __post_init__(self) -> None:
        if self.scope not in ("function", "module"):
            raise ValueError(f"pass {self.name}: scope must be 'function' or 'module', "
                             f"not '{self.scope}'")


class PassError(InternalError):
    """A pass broke the IR (``verify`` fails after it) or raised something that is not a
    user error: a bug of pyhls, reported with the pass and function at fault."""

    def __init__(self, pass_name: str, function: str, message: str):
        super().__init__(f"internal error: pass '{pass_name}' broke @{function}: {message}")
        self.pass_name = pass_name
        self.function = function


def resolve_pass(name: str, passes: Sequence[Pass], aliases: Mapping[str, str] | None = None,
                 extra: Sequence[str] = (), context: str = "", what: str = "pass") -> str:
    """``name`` as a registered pass name (through ``aliases``) or one of ``extra``;
    an :class:`HLSError` listing the choices otherwise (names come from the command line,
    ``context`` says which option)."""
    name = (aliases or {}).get(name, name)
    names = [*extra, *(p.name for p in passes)]
    if name not in names:
        raise HLSError(f"{context}no {what} '{name}' (expected one of: {', '.join(names)})")
    return name


class PassManager:
    """Runs ``passes`` in order on a module (or the function passes on one function).

    ``options`` maps a pass name to its options instance (the pass's ``options`` class
    with its defaults when absent).  ``until`` stops after that pass.  ``print_after``
    holds the pass names (or ``"all"``) after which the module's IR text is written to
    ``print_to``, each dump preceded by a ``; ----- IR after NAME -----`` line (a ``.hir``
    comment: one dump alone reads back as a module)."""

    def __init__(self, passes: Sequence[Pass], options: Mapping[str, Any] | None = None, *,
                 until: str | None = None, print_after: Collection[str] = (),
                 print_to: TextIO | None = None, verify_each: bool = True):
        self.passes = tuple(passes)
        names = [p.name for p in self.passes]
        for n in [*(options or {}), *([until] if until else []),
                  *(n for n in print_after if n != "all")]:
            if n not in names:
                raise HLSError(f"no pass '{n}' (passes: {', '.join(names)})")
        if until is not None:
            self.passes = self.passes[:names.index(until) + 1]
        given = dict(options or {})
        self.options = {p.name: given[p.name] if p.name in given
                        else (p.options() if p.options is not None else None)
                        for p in self.passes}
        self.print_after = set(print_after)
        self.print_to = print_to
        self.verify_each = verify_each

    def run(self, module: Module) -> dict[str, Any]:
        """Every pass on ``module``, in place.  Returns each pass's result by name: a
        module pass's return value, or {function name: rewrites} for a function pass."""
        results: dict[str, Any] = {}
        for p in self.passes:
            opts = self.options[p.name]
            if not p.when(opts):
                continue
            progress.stage("passes", p.name)
            if p.scope == "module":
                results[p.name] = self._call(p, module, opts, module.functions)
            else:
                results[p.name] = {f.name: self._call(p, f, opts, (f,)) for f in module.functions}
            self._print(p.name, module)
        return results

    def run_function(self, func: Function) -> dict[str, int]:
        """The function passes on ``func`` alone ({pass name: rewrites}); module passes are
        skipped (the flow re-runs the function passes after automatic partitioning)."""
        counts = {}
        for p in self.passes:
            opts = self.options[p.name]
            if p.scope == "function" and p.when(opts):
                counts[p.name] = self._call(p, func, opts, (func,))
        return counts

    def _call(self, p: Pass, target, opts, funcs: Sequence[Function]):
        where = target.name if isinstance(target, Function) else target.top.name
        try:
            out = p.run(target) if p.options is None else p.run(target, opts)
        except HLSError:
            raise
        except Exception as exc:
            raise PassError(p.name, where, f"{type(exc).__name__}: {exc}") from exc
        if self.verify_each:
            for f in funcs:
                try:
                    verify(f)
                except HLSError as exc:
                    raise PassError(p.name, f.name, exc.format()) from exc
        return out

    def _print(self, name: str, module: Module) -> None:
        if self.print_to is not None and ("all" in self.print_after or name in self.print_after):
            self.print_to.write(f"; ----- IR after {name} -----\n")
            self.print_to.write(print_module(module))
            self.print_to.flush()
