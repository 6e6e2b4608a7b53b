"""Synthesis directives: a TOML or JSON file (``--directives FILE``) addressing loops by
function and source line (as ``pyhls synth`` prints them) or by label (a C label, a
block name, or the report's ``FUNCTION/L<line>`` name of a loop without a label).

TOML::

    [[loop]]
    function = "gemm"     # the hardware function holding the loop
    line = 12             # the loop's source line ... or: label = "for_body"
    pipeline = true       # false: keep the loop sequential
    ii = 2                # required initiation interval (an error if it cannot be met,
                          # unless --relax-ii)
    unroll = 4            # copies of the body per iteration ("full": all of them; 1: none)
    tripcount = [1, 64]   # iterations per entry [min, max] (or one number) a loop without
                          # a constant trip count is assumed to run: report.json's latency
                          # bounds rest on it (as Vitis HLS's loop_tripcount; not checked)

    [[array]]
    function = "gemm"     # the hardware function using the array
    name = "A"            # a pointer argument, a global or a local array
    partition = "cyclic"  # cyclic | block | complete | none (none: keep it whole, and
    factor = 4            #   do not partition it automatically); factor: the banks

    [[dataflow]]
    function = "top"      # a dataflow region: its calls are tasks (as --dataflow for the top)
    share = ["f"]         # the calls of f share one accelerator (default: only large ones)
    replicate = ["g"]     # every call of g gets its own (default for small ones)

    [[channel]]
    function = "top"      # the dataflow region
    name = "tmp"          # the local array between two of its calls
    kind = "fifo"         # fifo | pipo (a FIFO must be provably an in-order stream)
    depth = 64            # FIFO depth in elements

JSON: ``{"loop": [{"function": "gemm", "line": 12, "ii": 2}]}``.  clang's loop pragmas
(``#pragma clang loop pipeline(disable)``, ``pipeline_initiation_interval(N)``,
``unroll_count(N)``, ``unroll(full)``) say the
same inside the source; a directives file entry overrides them.  Vitis HLS's
``#pragma HLS`` lines become entries of the same kinds (:func:`apply_pragmas`); one that
disagrees with a file entry on the same loop or array is an error naming both.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import HLSError

_KEYS = {"function", "line", "label", "pipeline", "ii", "unroll", "partition", "tripcount"}


@dataclass(frozen=True)
class LoopDirective:
    function: str
    line: int | None = None
    label: str | None = None
    pipeline: bool | None = None
    ii: int | None = None
    unroll: int | str | None = None
    tripcount: tuple[int, int] | None = None
    #: where the entry comes from: ``(file, line)`` of a ``#pragma HLS``, or ``(file,
    #: "loop entry N")`` of a directives file (messages name it)
    origin: tuple = field(default=(), compare=False)


@dataclass(frozen=True)
class ArrayDirective:
    function: str
    name: str
    partition: str          # cyclic | block | complete | none
    factor: int = 0
    origin: tuple = field(default=(), compare=False)
    #: the C dimension to partition (1 = outermost); 0: the array as one run of words
    dim: int = 0
    #: the array's C extents, when the source view gives them (a pragma's array)
    dims: tuple = ()


_ARRAY_KEYS = {"function", "name", "partition", "factor", "dim"}
PARTITION_KINDS = ("cyclic", "block", "complete", "none")


@dataclass(frozen=True)
class ChannelDirective:
    function: str
    name: str
    kind: str | None = None     # fifo | pipo
    depth: int | None = None
    #: (file, line) of the ``#pragma HLS stream`` it comes from (messages); () for a file's
    origin: tuple = ()


_CHANNEL_KEYS = {"function", "name", "kind", "depth"}


@dataclass(frozen=True)
class InterfaceDirective:
    """An AXI interface of an argument of the top on an Alveo target, from ``#pragma HLS
    interface``: what ``--interface ARG=m_axi:BUNDLE|axis`` asks for
    (:func:`interface_options` merges the two)."""

    function: str
    port: str
    mode: str                   # m_axi | axis
    bundle: str | None = None   # m_axi: the bundle (Vitis HLS's default, gmem)
    #: (file, line) of the pragma (messages)
    origin: tuple = ()


@dataclass
class Directives:
    loops: list[LoopDirective] = field(default_factory=list)
    arrays: list[ArrayDirective] = field(default_factory=list)
    source: str = ""
    #: functions that are dataflow regions
    dataflow: list[str] = field(default_factory=list)
    #: the [[dataflow]] entries as written (function, share, replicate)
    dataflow_entries: list[dict] = field(default_factory=list)
    channels: list[ChannelDirective] = field(default_factory=list)
    #: AXI interfaces of the top's arguments (``#pragma HLS interface``, Alveo targets)
    interfaces: list[InterfaceDirective] = field(default_factory=list)

    def for_loop(self, function: str, line: int | None, label: str) -> dict:
        """The settings of every entry matching the loop (later entries win)."""
        out: dict = {}
        for d in self.loops:
            if d.function != function:
                continue
            if (d.line is not None and d.line == line) or (d.label is not None and d.label == label):
                if d.pipeline is not None:
                    out["pipeline"] = d.pipeline
                if d.ii is not None:
                    out["ii"] = d.ii
                if d.unroll is not None:
                    out["unroll"] = d.unroll
                if d.tripcount is not None:
                    out["tripcount"] = d.tripcount
        return out


def resolve_directives(dirs: Directives, symbols) -> Directives:
    """``dirs`` with every function it names as the symbol of one of ``symbols`` (the
    input's defined functions): a C++ function may be named as in C++ (``ns::f``, an
    overload by its whole signature; :func:`hls.names.resolve_lenient`)."""
    from .names import resolve_lenient
    symbols = list(symbols)
    src = dirs.source or None

    def r(name: str) -> str:
        return resolve_lenient(name, symbols, "directive function", src)

    return dataclasses.replace(
        dirs,
        loops=[dataclasses.replace(d, function=r(d.function)) for d in dirs.loops],
        arrays=[dataclasses.replace(d, function=r(d.function)) for d in dirs.arrays],
        dataflow=[r(d) for d in dirs.dataflow],
        dataflow_entries=[dict(e, function=r(e["function"])) if "function" in e else e
                          for e in dirs.dataflow_entries],
        channels=[dataclasses.replace(d, function=r(d.function)) for d in dirs.channels])


#: the directives' kinds as the IR text carries them (:func:`directive_entries`)
_ENTRY_KINDS = {"loop": ("loops", LoopDirective), "array": ("arrays", ArrayDirective),
                "channel": ("channels", ChannelDirective),
                "interface": ("interfaces", InterfaceDirective)}


def directive_entries(dirs: Directives | None) -> list[tuple[str, dict]]:
    """``dirs`` as ``(kind, fields)`` entries, the fields that differ from their default
    (an ``origin`` included: the pragma's file and line), for the IR text
    (``Module.directives``, ``directive`` lines): a ``.hir`` written by ``pyhls ir``
    carries the source's ``#pragma HLS`` to ``pyhls synth`` (:func:`directives_from_entries`)."""
    out: list[tuple[str, dict]] = []
    if dirs is None:
        return out
    for kind, (attr, cls) in _ENTRY_KINDS.items():
        for d in getattr(dirs, attr):
            out.append((kind, {f.name: getattr(d, f.name) for f in dataclasses.fields(cls)
                               if f.default is dataclasses.MISSING
                               or getattr(d, f.name) != f.default}))
    out += [("dataflow", {"function": name}) for name in dirs.dataflow]
    out += [("dataflow_entry", dict(e)) for e in dirs.dataflow_entries]
    return out


def directives_from_entries(entries: list[tuple[str, dict]], source: str,
                            dirs: Directives | None = None) -> Directives:
    """The :class:`Directives` of :func:`directive_entries`' entries (a ``.hir``'s), with
    ``dirs`` (a directives file's) after them: a file's entry on the same loop wins, as a
    later entry does."""
    out = Directives(source=source)
    for kind, e in entries:
        if kind == "dataflow":
            out.dataflow.append(e["function"])
        elif kind == "dataflow_entry":
            out.dataflow_entries.append(dict(e))
        elif kind in _ENTRY_KINDS:
            attr, cls = _ENTRY_KINDS[kind]
            names = {f.name for f in dataclasses.fields(cls)}
            bad = sorted(set(e) - names)
            if bad:
                raise HLSError(f"directive {kind}: unknown field(s) {', '.join(bad)} "
                               f"(known: {', '.join(sorted(names))})", source, None)
            vals = {k: tuple(v) if isinstance(v, list) else v for k, v in e.items()}
            try:
                getattr(out, attr).append(cls(**vals))
            except TypeError as exc:
                raise HLSError(f"directive {kind}: {exc}", source, None) from None
        else:
            raise HLSError(f"unknown directive kind '{kind}' (known: "
                           f"{', '.join([*_ENTRY_KINDS, 'dataflow', 'dataflow_entry'])})",
                           source, None)
    if dirs is not None:
        out.loops += dirs.loops
        out.arrays += dirs.arrays
        out.channels += dirs.channels
        out.interfaces += dirs.interfaces
        out.dataflow += [d for d in dirs.dataflow if d not in out.dataflow]
        out.dataflow_entries += dirs.dataflow_entries
        out.source = dirs.source
    return out


def load_directives(path: str | Path) -> Directives:
    p = Path(path)
    if not p.exists():
        raise HLSError(f"directives file '{p}' does not exist", str(p), None)
    text = p.read_text()
    try:
        data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise HLSError(f"malformed directives file: {exc}", str(p), line) from None
    unknown = sorted(set(data) - {"loop", "array", "dataflow", "channel"})
    if unknown:
        raise HLSError(f"unknown section(s) {', '.join(unknown)} in the directives file "
                       "(known: loop, array, dataflow, channel)", str(p), None)
    out = Directives(source=str(p))
    for i, e in enumerate(data.get("loop", [])):
        where = f"loop entry {i + 1}"
        if not isinstance(e, dict):
            raise HLSError(f"{where}: expected a table of settings", str(p), None)
        bad = sorted(set(e) - _KEYS)
        if bad:
            raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: "
                           f"{', '.join(sorted(_KEYS))})", str(p), None)
        if "unroll" in e and not (e["unroll"] == "full" or (
                isinstance(e["unroll"], int) and not isinstance(e["unroll"], bool)
                and e["unroll"] >= 1)):
            raise HLSError(f"{where}: 'unroll' must be an integer >= 1 (1: do not unroll) "
                           "or \"full\"", str(p), None)
        if "partition" in e:
            raise HLSError(f"{where}: partitioning is a property of an array: give it in "
                           "an [[array]] entry (function, name, partition, factor)", str(p), None)
        if not isinstance(e.get("function"), str):
            raise HLSError(f"{where}: 'function' (the function's name) is required", str(p), None)
        if ("line" in e) == ("label" in e):
            raise HLSError(f"{where}: give exactly one of 'line' and 'label'", str(p), None)
        named = re.fullmatch(r"(.+)/L(\d+)", e["label"]) if isinstance(e.get("label"), str) \
            else None
        if named:       # a loop's report name FUNCTION/L<line>: the loop at that line
            from .names import short_name
            if named.group(1) not in (e["function"], short_name(e["function"])):
                raise HLSError(f"{where}: label '{e['label']}' names a loop of "
                               f"{named.group(1)}, not of {e['function']}", str(p), None)
            e = {k: v for k, v in e.items() if k != "label"} | {"line": int(named.group(2))}
        if "line" in e and not (isinstance(e["line"], int) and e["line"] > 0):
            raise HLSError(f"{where}: 'line' must be a positive integer", str(p), None)
        if "pipeline" in e and not isinstance(e["pipeline"], bool):
            raise HLSError(f"{where}: 'pipeline' must be true or false", str(p), None)
        if "ii" in e and not (isinstance(e["ii"], int) and not isinstance(e["ii"], bool)
                              and e["ii"] >= 1):
            raise HLSError(f"{where}: 'ii' must be an integer >= 1", str(p), None)
        out.loops.append(LoopDirective(e["function"], e.get("line"), e.get("label"),
                                       e.get("pipeline"), e.get("ii"), e.get("unroll"),
                                       _tripcount(e["tripcount"], where, str(p))
                                       if "tripcount" in e else None, (str(p), where)))
    for i, e in enumerate(data.get("array", [])):
        out.arrays.append(dataclasses.replace(_array_entry(e, f"array entry {i + 1}", str(p)),
                                              origin=(str(p), f"array entry {i + 1}")))
    for i, e in enumerate(data.get("dataflow", [])):
        where = f"dataflow entry {i + 1}"
        if not isinstance(e, dict) or not isinstance(e.get("function"), str):
            raise HLSError(f"{where}: 'function' (the name of the region's function) is "
                           "required", str(p), None)
        bad = sorted(set(e) - {"function", "share", "replicate"})
        if bad:
            raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: function, "
                           "replicate, share)", str(p), None)
        for k in ("share", "replicate"):
            if k in e and not (isinstance(e[k], list) and all(isinstance(x, str) for x in e[k])):
                raise HLSError(f"{where}: '{k}' must be a list of function names", str(p), None)
        both = set(e.get("share", ())) & set(e.get("replicate", ()))
        if both:
            raise HLSError(f"{where}: {', '.join(sorted(both))} both shared and replicated",
                           str(p), None)
        out.dataflow.append(e["function"])
        out.dataflow_entries.append(dict(e))
    for i, e in enumerate(data.get("channel", [])):
        out.channels.append(_channel_entry(e, f"channel entry {i + 1}", str(p)))
    return out


def _tripcount(v, where: str, path: str) -> tuple[int, int]:
    """A ``tripcount`` setting: one count, or [min, max]."""
    def count(x):
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0
    if count(v):
        return (v, v)
    if isinstance(v, list) and len(v) == 2 and all(map(count, v)) and v[0] <= v[1]:
        return (v[0], v[1])
    raise HLSError(f"{where}: 'tripcount' must be a count >= 0 or [min, max] with "
                   f"0 <= min <= max, not {v!r}", path, None)


def _named_entry(e, where: str, path: str, keys: set) -> None:
    """An entry naming a function and an object of it, with settings among ``keys``."""
    if not isinstance(e, dict):
        raise HLSError(f"{where}: expected a table of settings", path, None)
    bad = sorted(set(e) - keys)
    if bad:
        raise HLSError(f"{where}: unknown setting(s) {', '.join(bad)} (known: "
                       f"{', '.join(sorted(keys))})", path, None)
    for k in ("function", "name"):
        if not isinstance(e.get(k), str):
            raise HLSError(f"{where}: '{k}' is required (a string)", path, None)


def _channel_entry(e, where: str, path: str) -> ChannelDirective:
    _named_entry(e, where, path, _CHANNEL_KEYS)
    if "kind" in e and e["kind"] not in ("fifo", "pipo"):
        raise HLSError(f"{where}: 'kind' must be \"fifo\" or \"pipo\", not {e['kind']!r}",
                       path, None)
    if "depth" in e and not (isinstance(e["depth"], int) and not isinstance(e["depth"], bool)
                             and e["depth"] >= 1):
        raise HLSError(f"{where}: 'depth' must be an integer >= 1", path, None)
    if e.get("kind") == "pipo" and "depth" in e:
        raise HLSError(f"{where}: a PIPO channel's banks follow from the graph; 'depth' is "
                       "a FIFO's", path, None)
    return ChannelDirective(e["function"], e["name"], e.get("kind"), e.get("depth"))


def _array_entry(e, where: str, path: str) -> ArrayDirective:
    _named_entry(e, where, path, _ARRAY_KEYS)
    kind = e.get("partition")
    if kind not in PARTITION_KINDS:
        raise HLSError(f"{where}: 'partition' must be one of {', '.join(PARTITION_KINDS)}",
                       path, None)
    factor = e.get("factor", 0)
    if kind in ("cyclic", "block"):
        if not (isinstance(factor, int) and not isinstance(factor, bool) and factor >= 2):
            raise HLSError(f"{where}: '{kind}' partitioning needs 'factor', an integer >= 2",
                           path, None)
    elif "factor" in e:
        raise HLSError(f"{where}: 'factor' does not apply to '{kind}' partitioning", path, None)
    dim = e.get("dim", 0)
    if not (isinstance(dim, int) and not isinstance(dim, bool) and dim >= 0):
        raise HLSError(f"{where}: 'dim' must be an integer >= 1 (the C dimension, 1 = the "
                       "outermost)", path, None)
    return ArrayDirective(e["function"], e["name"], kind, factor, dim=dim)


# ----------------------------------------------------------------------- #pragma HLS
#
# Vitis HLS pragmas in the C source (hls.frontend._source finds them) become the same
# LoopDirective/ArrayDirective entries a directives file makes, with the pragma's place
# as their origin; function-level ones (dataflow, inline off) are read before the
# frontend runs (:func:`function_pragmas`).  What each pragma did is recorded for
# report.json["pragmas"] (:func:`pragma_report`).

#: pragmas pyhls does not implement, and why they are ignored (a warning each)
_IGNORED = {
    "loop_flatten": "loop nests are not flattened",
    "array_reshape": "arrays are not reshaped (array_partition splits them into banks)",
    "latency": "latency constraints are not supported",
    "resource": "operators and memories are bound by pyhls",
    "bind_op": "operators are bound by pyhls",
    "bind_storage": "memories are bound by pyhls (small arrays in LUT RAM, the rest in "
                    "block RAM)",
    "allocation": "unit limits are given with --max-units",
    "top": "the top function is given with --top",
    # Bambu's own pragmas (#pragma HLS_NAME)
    "simple_pipeline": "Bambu's function pipelining is not mapped (#pragma HLS pipeline "
                       "in a function's body pipelines it, or in a loop's body the loop)",
    "stallable_pipeline": "Bambu's function pipelining is not mapped (#pragma HLS pipeline "
                          "in a function's body pipelines it, or in a loop's body the loop)",
    "cache": "no cache is built in front of an AXI master",
}
_MAPPED = ("pipeline", "unroll", "loop_tripcount", "array_partition", "inline", "dataflow",
           "stream", "interface", "aggregate", "disaggregate")


@dataclass
class PragmaUse:
    """One ``#pragma HLS`` of the design: its report entry, and the CDFG loops
    (``(function, header)``) it addresses, whose II and unroll factor the report adds."""

    pragma: object
    entry: dict
    loops: list = field(default_factory=list)


def _where(p) -> tuple:
    return (p.file, p.line)


def _perr(p, msg: str) -> HLSError:
    return HLSError(f"#pragma {p.shown}: {msg}", p.file, p.line)


def _pwarn(p, msg: str) -> None:
    from .frontend._common import warn
    warn(p.file, p.line, f"#pragma {p.shown}: {msg}")


def _count(p, key: str, v: str, least: int) -> int:
    try:
        n = int(v.rstrip("uUlL")) if v.rstrip("uUlL").isdigit() else int(v, 0)
    except ValueError:
        raise _perr(p, f"{key} must be an integer, not '{v}'") from None
    if n < least:
        raise _perr(p, f"{key}={n}: it must be at least {least}")
    return n


def function_pragmas(inp) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(dataflow regions, functions kept out of line) the function-level pragmas of the
    C sources of ``inp`` ask for (``dataflow``, ``inline off``); what the frontend must
    know before it inlines."""
    from .frontend._source import pragma_options
    regions, noinline = [], []
    for view in getattr(inp, "sources", {}).values():
        for p in view.pragmas:
            if p.function is None or p.loop is not None:
                continue
            words, _ = pragma_options(p)
            if p.name == "dataflow":
                regions.append(p.function)
            elif p.name == "inline" and "off" in words:
                noinline.append(p.function)
    over = inline_overridden(inp)
    return (tuple(dict.fromkeys(regions)),
            tuple(f for f in dict.fromkeys(noinline) if f not in over))


def _inlined_into_design(module, views, name: str) -> bool:
    """Whether an op of ``module`` comes from the body of the C function ``name`` (by its
    source lines): the function was inlined into the design."""
    from .frontend._source import _same_file
    fvs = [v.functions[name] for v in views.values() if name in v.functions]
    for f in module.functions:
        for op in f.ops():
            loc = op.loc
            if loc is not None and loc.line is not None and any(
                    fv.line <= loc.line <= fv.end_line and _same_file(loc.file, fv.file)
                    for fv in fvs):
                return True
    return False


def pipeline_function(name: str, ii: int | None, views, copies: dict, module,
                      own_pipeline=frozenset(), error=None, warning=None,
                      origin: tuple = ()) -> tuple[list, dict, list]:
    """Function pipelining (``#pragma HLS pipeline II=N`` in a function's body, or
    ``--pipeline-function F=N``), as Vitis HLS builds it: the function's loops are
    fully unrolled, so that one call is straight-line code, and it is inlined (as the
    frontend inlines every function without ``inline off``) into each caller; a loop
    that calls it is pipelined at II ``ii`` (None: the least the scheduler meets), so a
    new call starts every II cycles, whatever the caller does between calls (a call
    under a branch of the loop body is if-converted: the pipeline still issues an
    iteration every II cycles).  Returns the loop directives (``LoopDirective``: the
    unrolled loops, then the pipelined callers' loops), the report entry's fields and
    the pipelined CDFG loops as ``(function, header block)``.

    Only a loop with no loop inside it that calls the function directly is pipelined
    (one that holds other loops is left as it is, and named in ``not_overlapped``); a
    caller loop with a pipeline pragma of its own keeps it.  ``copies``: the CDFG loops
    of each source loop (``id(source loop) -> [(function, Loop)]``); ``error`` and
    ``warning`` make the messages (at the pragma, or of the option)."""
    from .analysis import loop_line
    error = error or (lambda msg: HLSError(msg))
    warning = warning or (lambda msg: None)
    if name == module.top.name:
        raise error(f"{name} is the top function: pyhls pipelines a function where a loop "
                    "calls it (its callers' loops start a call every II cycles), and the "
                    "testbench calls the top one call at a time; pipeline the top's loops, "
                    "or call it from a loop of another top")
    if any(f.name == name for f in module.functions):
        raise error(f"{name} is kept out of line (inline off or noinline): a pipelined "
                    "function is inlined into the loops that call it; remove that")
    srcs = [lp for v in views.values() for lp in v.loops]
    out: list = []
    unrolled = []
    for s in (lp for lp in srcs if lp.function == name):
        for f, lp in copies.get(id(s), []):
            if lp.trip_count is None:
                raise error(f"the loop at line {s.line} of {name} has no constant trip "
                            "count: pipelining a function unrolls its loops fully (as Vitis "
                            "HLS does); bound it by a constant, or pipeline the loop instead")
            out.append(LoopDirective(f.name, loop_line(lp), unroll="full", origin=origin))
        unrolled.append(s.name)
    callers, not_overlapped, pairs = [], [], []
    for s in srcs:
        if name not in s.calls or s.function == name:
            continue
        inner = [q for q in srcs if q.parent is s]
        if any(name in q.calls for q in inner):
            continue                # the loop inside it that calls the function is pipelined
        if not copies.get(id(s)):
            continue                # not in this design (another top's loop)
        if inner:
            not_overlapped.append(s.name)
            warning(f"the calls of {name} in loop {s.name} (line {s.line}) run one at a "
                    "time: that loop holds other loops, so it is not pipelined")
            continue
        if id(s) in own_pipeline:
            callers.append(s.name)  # its own pragma says how
            continue
        for f, lp in copies[id(s)]:
            out.append(LoopDirective(f.name, loop_line(lp), pipeline=True, ii=ii, origin=origin))
            pairs.append((f.name, lp.header.name))
        callers.append(s.name)
    if not callers:
        warning(f"no loop calls {name} (directly): its calls run one at a time, each "
                "unpipelined")
    info = {"pipeline": True, "function_pipelined": name, "unrolls_nested": unrolled,
            "callers_pipelined": callers, "why": (
                f"{name}'s loops are fully unrolled and it is inlined into its callers; the "
                "loops that call it start a call every "
                + (f"{ii} cycles" if ii is not None and ii > 1 else "cycle" if ii == 1
                   else "iteration, at the least II met"))}
    if ii is not None:
        info["ii"] = ii
    if not_overlapped:
        info["not_overlapped"] = not_overlapped
    return out, info, pairs


def inline_overridden(inp) -> dict:
    """The functions an ``inline off`` pragma keeps out of line that a loop pipelined by
    a ``pipeline`` pragma calls -> (that loop, the pipeline pragma).  A call of a
    separate module cannot be pipelined (the module is not); as Vitis HLS pipelines
    what a pipelined loop calls, pyhls inlines these (with a warning at the ``inline``
    pragma) so the loop is pipelined as its pragma asks."""
    from .frontend._source import pragma_options
    out: dict = {}
    views = getattr(inp, "sources", {}) or {}
    pipelined = [p for v in views.values() for p in v.pragmas
                 if p.name == "pipeline" and p.loop is not None
                 and "off" not in pragma_options(p)[0]]
    for v in views.values():
        for p in v.pragmas:
            if p.name == "inline" and p.function is not None and p.loop is None \
                    and "off" in pragma_options(p)[0]:
                hit = next((q for q in pipelined if p.function in q.loop.calls), None)
                if hit is not None:
                    out[p.function] = (hit.loop, hit)
    return out


@dataclass(frozen=True)
class OptionPragma:
    """What stands for a pragma in :class:`PragmaUse` when a command-line option asks
    what the pragma would (``--pipeline-function F=II``): its report entry names the
    option."""

    name: str
    shown: str
    loop: object = None
    file: str | None = None
    line: int | None = None


def apply_pragmas(inp, module, dirs: Directives | None,
                  target=None, pipeline_functions=()) -> tuple[Directives | None, list]:
    """The directives of the ``#pragma HLS`` lines of ``inp``'s C sources for the
    frontend's ``module`` together with the file's ``dirs`` (an entry of each on the
    same loop or array that disagree: an error naming both), and one
    :class:`PragmaUse` per pragma.  Unsupported pragmas are warned about; a pragma that
    cannot apply is an error at its line.  ``target`` (an :class:`hls.targets.Target`;
    None: generic) decides what an ``interface`` pragma builds.  ``pipeline_functions``:
    ``(function, II or None)`` pairs of ``--pipeline-function``, each applied as its
    function's ``#pragma HLS pipeline`` would be (:func:`pipeline_function`)."""
    from .analysis import find_loops, loop_line
    from .frontend._load import source_loop
    from .frontend._source import pragma_options
    views = getattr(inp, "sources", {}) or {}
    pragmas = [p for v in views.values() for p in v.pragmas]
    if not pragmas and not pipeline_functions:
        return dirs, []
    hw = {f.name: f for f in module.functions}
    # the CDFG loops of each source loop (an inlined function's loop: one per call site)
    copies: dict = {}
    for f in module.functions:
        for lp in find_loops(f):
            src = source_loop(inp, lp)
            if src is not None:
                copies.setdefault(id(src), []).append((f, lp))
    in_design = set(hw) | {lp.function for v in views.values() for lp in v.loops
                           if id(lp) in copies}
    loops: list[LoopDirective] = []
    arrays: list[ArrayDirective] = []
    channels: list[ChannelDirective] = []
    interfaces: list[InterfaceDirective] = []
    uses: list[PragmaUse] = []
    own_unroll = {id(p.loop) for p in pragmas if p.name == "unroll" and p.loop is not None}
    own_pipeline = {id(p.loop) for p in pragmas if p.name == "pipeline" and p.loop is not None}
    templates = {n for v in views.values() for n in getattr(v, "templates", ())}
    regions, _noinline = function_pragmas(inp)
    overridden = inline_overridden(inp)
    seen: dict = {}
    for p in pragmas:
        words, opts = pragma_options(p)
        if p.name in _MAPPED and p.function is not None:
            obj = (opts.get("variable") if p.name in ("array_partition", "stream", "aggregate",
                                                       "disaggregate") else
                   (opts.get("port"), _interface_mode(words, opts)) if p.name == "interface"
                   else None)
            key = (p.function, id(p.loop), p.name, obj)
            if key in seen:
                what = ("port" if p.name == "interface" else "array" if obj else
                        "loop" if p.loop else "function")
                raise _perr(p, f"a second {p.name} pragma for the same {what} "
                            f"(the first is at line {seen[key]})")
            seen[key] = p.line
        entry = {"file": p.file, "line": p.line, "pragma": p.spelling or p.text,
                 "function": p.function}
        if p.spelling:                  # Bambu's spelling: the Vitis HLS pragma it means
            entry["as"] = p.text
        use = PragmaUse(p, entry)
        uses.append(use)
        if p.loop is not None:
            entry["loop"] = p.loop.name
        if p.name in _IGNORED or p.name not in _MAPPED:
            why = _IGNORED.get(p.name, "not a pragma pyhls knows" if p.name else
                               "no pragma name")
            entry.update(applied=False, why=why)
            _pwarn(p, f"ignored: {why}")
            continue
        if p.function is None:
            entry.update(applied=False, why="outside any function")
            _pwarn(p, "ignored: outside any function")
            continue
        if p.loop is None and p.function in templates:
            why = ("a function-level pragma in a C++ function template is not supported "
                   "yet (loop pragmas there are): put it in a function that is not a "
                   "template")
            entry.update(applied=False, why=why)
            _pwarn(p, f"ignored: {why}")
            continue
        if p.name == "inline" and p.loop is None and "off" in words and \
                p.function in overridden:
            loop, pipe = overridden[p.function]
            why = (f"{p.function} is called in loop {loop.name}, which #pragma {pipe.shown} "
                   f"(line {pipe.line}) pipelines: a call of a separate module cannot be "
                   f"pipelined, so {p.function} is inlined into its callers")
            entry.update(applied=False, inline=True, why=why)
            _pwarn(p, f"overridden: {why}")
            continue
        if p.function not in in_design and not (
                p.name == "pipeline" and p.loop is None
                and _inlined_into_design(module, views, p.function)):
            entry.update(applied=False, why=f"{p.function} is not part of the design "
                                            f"(top {module.top.name})")
            continue
        if p.name in ("pipeline", "unroll", "loop_tripcount"):
            if p.loop is None:
                if p.name == "pipeline" and "off" in words:
                    entry.update(applied=True, why="functions are not pipelined")
                    continue
                if p.name == "pipeline":
                    unknown = sorted(set(opts) - {"ii"}) + list(words)
                    if unknown:
                        _pwarn(p, f"option(s) {', '.join(unknown)} ignored")
                    ii = _count(p, "II", opts["ii"], 1) if "ii" in opts else None
                    got, info, pairs = pipeline_function(
                        p.function, ii, views, copies, module, own_pipeline,
                        lambda msg, p=p: _perr(p, msg), lambda msg, p=p: _pwarn(p, msg),
                        _where(p))
                    loops.extend(got)
                    use.loops.extend(pairs)
                    entry.update(applied=True, **info)
                    continue
                raise _perr(p, "it must be the first statement of a loop body: pyhls "
                            f"pipelines, unrolls and bounds loops, not functions "
                            f"(this one is in {p.function}, outside any loop)")
            targets = copies.get(id(p.loop), [])
            if not targets:
                entry.update(applied=False, why="the loop is not in the hardware (the "
                                                "compiler removed it or replaced it, e.g. "
                                                "by a memset)")
                _pwarn(p, f"ignored: {entry['why']}")
                continue
            kw: dict = {}
            if p.name == "pipeline":
                unknown = sorted(set(opts) - {"ii"}) + [w for w in words if w not in ("off",)]
                if unknown:
                    _pwarn(p, f"option(s) {', '.join(unknown)} ignored")
                if "off" in words:
                    kw["pipeline"] = False
                else:
                    kw["pipeline"] = True
                    if "ii" in opts:
                        kw["ii"] = _count(p, "II", opts["ii"], 1)
            elif p.name == "unroll":
                unknown = sorted(set(opts) - {"factor"}) + [w for w in words
                                                            if w not in ("off",)]
                if unknown:
                    _pwarn(p, f"option(s) {', '.join(unknown)} ignored")
                if "off" in words:
                    kw["unroll"] = 1
                elif "factor" in opts:
                    n = _count(p, "factor", opts["factor"], 1)
                    for _f, lp in targets:
                        if lp.trip_count is not None and n > lp.trip_count:
                            raise _perr(p, f"factor={n} does not fit: the loop runs "
                                        f"{lp.trip_count} times")
                    kw["unroll"] = n
                else:
                    kw["unroll"] = "full"
            else:
                if "max" not in opts:
                    raise _perr(p, "give max=B (and min=A, 0 if not given)")
                lo = _count(p, "min", opts.get("min", "0"), 0)
                hi = _count(p, "max", opts["max"], 0)
                if lo > hi:
                    raise _perr(p, f"min={lo} is above max={hi}")
                if "avg" in opts:
                    avg = _count(p, "avg", opts["avg"], 0)
                    if not lo <= avg <= hi:
                        raise _perr(p, f"avg={avg} is outside min..max")
                kw["tripcount"] = (lo, hi)
            for f, lp in targets:
                loops.append(LoopDirective(f.name, loop_line(lp), pipeline=kw.get("pipeline"),
                                           ii=kw.get("ii"), unroll=kw.get("unroll"),
                                           tripcount=kw.get("tripcount"), origin=_where(p)))
                use.loops.append((f.name, lp.header.name))
            entry.update({"applied": True} | {k: list(v) if isinstance(v, tuple) else v
                                               for k, v in kw.items()})
            if kw.get("pipeline"):      # as Vitis: the loops inside a pipelined loop unroll
                inner = [s for s in _nested(views, p.loop) if id(s) not in own_unroll
                         and copies.get(id(s))]     # (not one clang made a memmove of)
                for s in inner:
                    for f, lp in copies.get(id(s), []):
                        if lp.trip_count is None:
                            raise _perr(p, f"the loop at line {s.line} inside this one has no "
                                        "constant trip count: pipelining a loop unrolls the "
                                        "loops inside it fully (as Vitis HLS does); bound it "
                                        "by a constant or pipeline that loop instead")
                        loops.append(LoopDirective(f.name, loop_line(lp), unroll="full",
                                                   origin=_where(p)))
                if inner:
                    entry["unrolls_nested"] = [s.name for s in inner]
            continue
        if p.name == "array_partition":
            arrays.extend(_array_pragma(p, words, opts, views, hw, entry, module))
            continue
        if p.name == "stream":
            channels.extend(_stream_pragma(p, words, opts, views, hw, entry,
                                           set(regions) | set(module.dataflow)))
            continue
        if p.loop is not None:      # interface, inline and dataflow are function-level
            why = (f"{p.name} in a loop body is not supported: give it in the function "
                   "body")
            entry.update(applied=False, why=why)
            _pwarn(p, f"ignored: {why}")
            continue
        if p.name == "interface":
            interfaces.extend(_interface_pragma(p, words, opts, views, module, target,
                                                entry))
            continue
        if p.name in ("aggregate", "disaggregate"):
            _aggregate_pragma(p, opts, views, module, entry)
            continue
        if p.name == "dataflow":
            if p.function in hw:
                entry.update(applied=True, region=p.function)
            else:
                entry.update(applied=False, why=f"{p.function} is inlined into its caller")
                _pwarn(p, f"ignored: {entry['why']}")
            continue
        # inline
        if "off" in words:
            entry.update(applied=p.function in hw, inline=False)
        else:
            entry.update(applied=True, inline=True)
            if p.function in hw and p.function != module.top.name:
                entry.update(applied=False, why=f"{p.function} is kept as a module of its "
                                                "own (noinline, or a dataflow task)")
                _pwarn(p, f"ignored: {entry['why']}")
    for name, ii in pipeline_functions:
        shown = f"--pipeline-function {name}" + (f"={ii}" if ii is not None else "")
        from .frontend._common import warn
        if name not in hw and not _inlined_into_design(module, views, name):
            raise HLSError(f"{shown}: no function {name} in the design of {module.top.name}")
        if any(p.name == "pipeline" and p.loop is None and p.function == name
               for p in pragmas):
            raise HLSError(f"{shown}: {name} has a #pragma HLS pipeline of its own: give it "
                           "in one place")
        got, info, pairs = pipeline_function(
            name, ii, views, copies, module, own_pipeline,
            lambda msg, shown=shown: HLSError(f"{shown}: {msg}"),
            lambda msg, shown=shown: warn(None, None, f"{shown}: {msg}"), (shown, name))
        loops.extend(got)
        uses.append(PragmaUse(OptionPragma("pipeline", shown),
                              {"option": shown, "function": name, "applied": True} | info,
                              pairs))
    pdirs = Directives(loops=loops, arrays=arrays, source=dirs.source if dirs else "",
                       dataflow=[r for r in regions if r in hw], channels=channels,
                       interfaces=interfaces)
    _check_conflicts(module, pdirs, dirs)
    if dirs is None:
        return pdirs, uses
    # the file's entries after the pragmas' (later entries win; conflicts are errors)
    return Directives(loops=loops + dirs.loops, arrays=arrays + dirs.arrays,
                      source=dirs.source,
                      dataflow=list(dict.fromkeys(dirs.dataflow + pdirs.dataflow)),
                      dataflow_entries=dirs.dataflow_entries,
                      channels=channels + dirs.channels, interfaces=interfaces), uses


def _nested(views, loop) -> list:
    for v in views.values():
        if loop in v.loops:
            return v.nested(loop)
    return []


def _pragma_variable(p, views, name: str):
    """The source view of the function holding pragma ``p`` and its argument or local
    ``name``; an error at the pragma naming what it has when there is none."""
    view = next(v for v in views.values() if p in v.pragmas)
    fn = view.functions[p.function]
    var = fn.param(name) or fn.variables.get(name)
    if var is None:
        known = [q.name for q in fn.params] + list(fn.variables)
        raise _perr(p, f"{p.function} has no variable '{name}' (its variables and "
                    f"arguments: {', '.join(known) or 'none'})")
    return fn, var


def _aggregate_pragma(p, opts, views, module, entry) -> None:
    """``aggregate variable=V [compact=...]`` and ``disaggregate variable=V`` on a struct
    argument of the top.  A struct passed by value is one port of its bytes (padding
    included, the first field at the least significant bits): Vitis HLS's default
    aggregation, which ``aggregate`` (compact ``none`` or ``auto``) asks for; a packed
    ``compact=bit``/``byte`` and ``disaggregate``'s one port per field are not built (a
    warning).  A struct array (a pointer) is a memory of the structs' bytes as C lays
    them out, whatever either pragma says (a warning)."""
    name = opts.get("variable")
    if not name:
        raise _perr(p, "give the struct with variable=NAME")
    fn, var = _pragma_variable(p, views, name)
    top = module.top
    port = next((q for q in top.scalar_params if q.name == name), None) \
        if p.function == top.name else None
    if port is None:
        if p.function != top.name or fn.param(name) is None:
            why = (f"'{name}' is not an argument of the top function {top.name}: only the "
                   "top's arguments are ports")
        else:
            why = (f"'{name}' is passed by address: its structs are a memory of their bytes "
                   "as C lays them out")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return
    built = f"one port '{name}' of {port.width} bits (the struct's bytes, padding included)"
    compact = opts.get("compact", "auto").lower()
    if compact not in ("none", "auto", "bit", "byte"):
        raise _perr(p, f"compact={compact}: it must be bit, byte, none or auto")
    if p.name == "aggregate" and compact in ("none", "auto"):
        entry.update(applied=True, built=built)
        return
    why = ("its fields are not split into ports" if p.name == "disaggregate" else
           f"compact={compact} is not built: the struct keeps its C layout")
    entry.update(applied=False, why=why, built=built)
    _pwarn(p, f"ignored: {why}; built: {built}")


def _array_pragma(p, words, opts, views, hw, entry, module) -> list[ArrayDirective]:
    """``array_partition variable=X [type=]cyclic|block|complete [factor=N] [dim=D]``."""
    name = opts.get("variable")
    if not name:
        raise _perr(p, "give the array with variable=NAME")
    kinds = [w for w in words if w in ("cyclic", "block", "complete")]
    kind = opts.get("type", kinds[0] if kinds else "complete").lower()
    if kind not in ("cyclic", "block", "complete"):
        raise _perr(p, f"type={kind}: it must be cyclic, block or complete")
    view = next(v for v in views.values() if p in v.pragmas)
    fn = view.functions[p.function]
    var = fn.param(name) or fn.variables.get(name) or view.variables.get(name)
    if var is None:
        known = [q.name for q in fn.params] + [v.name for v in fn.variables.values()
                                               if v.is_array]
        raise _perr(p, f"{p.function} has no variable '{name}' (its arrays and "
                    f"arguments: {', '.join(known) or 'none'})")
    if not var.is_array and "*" not in var.type:
        raise _perr(p, f"'{name}' is not an array (it is {var.type})")
    dim = _count(p, "dim", opts["dim"], 0) if "dim" in opts else 1
    rank = max(1, len(var.dims))
    if dim > rank:
        raise _perr(p, f"dim={dim}: '{name}' has {rank} dimension(s)")
    factor = 0
    if kind in ("cyclic", "block"):
        if "factor" not in opts:
            raise _perr(p, f"{kind} partitioning needs factor=N")
        factor = _count(p, "factor", opts["factor"], 0)
        if factor == 0:
            raise _perr(p, "factor=0: give the number of banks, at least 2")
        extent = var.dims[dim - 1] if var.dims and dim >= 1 else None
        if extent is not None and factor > extent:
            raise _perr(p, f"factor={factor} does not fit: '{name}' has {extent} elements")
    if len(var.dims) > 1 and dim == 0 and kind != "complete":
        why = (f"{kind} partitioning of every dimension (dim=0) is not supported: give "
               "one dimension (dim=1..), or complete")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    if len(var.dims) > 1 and dim >= 1 and kind in ("cyclic", "block") \
            and var.dims[dim - 1] % factor:
        raise _perr(p, f"factor={factor} does not divide dimension {dim} of '{name}' "
                    f"({var.dims[dim - 1]} elements)")
    if factor == 1:
        entry.update(applied=True, banks=1, why="factor=1: one bank, the array as it is")
        return []
    func = p.function if p.function in hw else None
    if func is None:            # a local array of a function inlined into one of hw
        holders = [f.name for f in hw.values() if any(
            m.kind == "local" and m.name.removeprefix(f.name + "_") == name
            for m in f.memories)]
        func = holders[0] if len(holders) == 1 else None
    if func is None:
        why = (f"{p.function} is inlined into its caller, where '{name}' is not an array "
               "of its own")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    entry.update(applied=True, variable=name, type=kind, factor=factor,
                 hw_function=func)
    multi = len(var.dims) > 1 and dim >= 1
    if multi:
        entry["dim"] = dim
    from .transforms._partition import _find_array
    # a static local is the global "function.name"
    hw_name = next((c for c in (name, f"{p.function}.{name}")
                    if _find_array(module, hw[func], c) is not None), name)
    return [ArrayDirective(func, hw_name, kind, factor, origin=_where(p),
                           dim=dim if multi else 0, dims=tuple(var.dims) if multi else ())]


def _stream_pragma(p, words, opts, views, hw, entry, regions) -> list[ChannelDirective]:
    """``stream variable=X [depth=N] [type=fifo]``: the channel X of a dataflow region
    (an ``hls::stream`` or an array passed from one task to the next) is a FIFO of N
    elements."""
    name = opts.get("variable")
    if not name:
        raise _perr(p, "give the stream with variable=NAME")
    kind = opts.get("type", "fifo").lower()
    if kind != "fifo":
        raise _perr(p, f"type={kind}: pyhls builds a stream pragma's channel as a FIFO "
                    "(type=fifo; a [[channel]] directive kind = \"pipo\" asks for a PIPO)")
    unknown = sorted(set(opts) - {"variable", "depth", "type", "off"}) + [
        w for w in words if w != "off"]
    if unknown:
        _pwarn(p, f"option(s) {', '.join(unknown)} ignored")
    depth = _count(p, "depth", opts["depth"], 1) if "depth" in opts else None
    fn, var = _pragma_variable(p, views, name)
    if "hls::stream" not in var.type and not var.is_array:
        raise _perr(p, f"'{name}' is neither an hls::stream nor an array (it is {var.type})")
    if fn.param(name) is not None:
        why = ("a stream argument is an interface of its function (AXI4-Stream on Alveo, "
               "a port elsewhere), not a channel: give the depth where the stream is "
               "declared")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    f = hw.get(p.function)
    if f is None or p.function not in regions:
        why = (f"'{name}' is local to {p.function}, which is not a dataflow region: "
               "it is an array of its elements, not a channel between tasks")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    from .dataflow._graph import _array_name
    from .frontend._translate import sanitize_name
    mem = next((m for m in f.memories if m.kind == "local"
                and m.name.endswith("_" + sanitize_name(name))), None)
    if mem is None:
        why = f"'{name}' is not in the hardware (no task uses it)"
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    channel = _array_name(mem, f)
    entry.update(applied=True, variable=name, channel=channel, kind="fifo")
    if depth is not None:
        entry["depth"] = depth
    return [ChannelDirective(p.function, channel, "fifo", depth, origin=_where(p))]


#: Vitis HLS's interface modes: the function's control protocols (port=return), the
#: wire protocols of one argument, and the AXI and memory interfaces
_CTRL_MODES = ("ap_ctrl_hs", "ap_ctrl_chain", "ap_ctrl_none")
_WIRE_MODES = ("ap_none", "ap_stable", "ap_vld", "ap_ack", "ap_hs", "ap_ovld", "ap_fifo")
_INTERFACE_MODES = ("m_axi", "axis", "s_axilite", "ap_memory", "bram") + _CTRL_MODES + _WIRE_MODES
#: the options each mode takes besides mode and port (any other is warned about and
#: ignored; depth only on a pointer or array argument)
_INTERFACE_OPTIONS = {"m_axi": {"bundle", "offset", "depth"}, "axis": {"depth"},
                      "s_axilite": {"bundle"}, "ap_memory": {"depth"}, "bram": {"depth"},
                      "ap_fifo": {"depth"}}


def _interface_mode(words, opts) -> str:
    """An interface pragma's mode: ``mode=MODE`` or, in the older spelling, the first
    word that is one (else the first word; '' when there is none)."""
    if "mode" in opts:
        return opts["mode"].lower()
    return next((w for w in words if w in _INTERFACE_MODES), words[0] if words else "")


def _interface_arg(p, words, opts, fn):
    """(mode, port, the port's source :class:`hls.frontend._source.Variable` or None for
    port=return) of an interface pragma in the body of ``fn`` (a
    :class:`hls.frontend._source.FunctionView`), its form and port checked."""
    mode = _interface_mode(words, opts)
    if not mode:
        raise _perr(p, "give the interface mode (mode=m_axi, s_axilite, axis, ap_memory, "
                    "ap_ctrl_hs, ...)")
    port = opts.get("port")
    if not port:
        raise _perr(p, "give the argument it is for with port=NAME (or port=return)")
    if port == "return":
        if mode not in ("s_axilite",) + _CTRL_MODES and mode in _INTERFACE_MODES:
            raise _perr(p, f"port=return is the function's control and return value: "
                        f"{mode} is an interface of an argument")
        return mode, port, None
    var = fn.param(port)
    if var is None:
        raise _perr(p, f"{p.function} has no argument '{port}' (its arguments: "
                    f"{', '.join(q.name for q in fn.params) or 'none'}; port=return: its "
                    "control)")
    if mode in _CTRL_MODES:
        raise _perr(p, f"{mode} is the function's control protocol: give port=return")
    stream = "hls::stream" in var.type
    memory = var.indirect or var.is_array or stream
    if mode == "m_axi" and (stream or not memory):
        raise _perr(p, f"'{port}' is {'an hls::stream' if stream else 'a scalar'} "
                    f"({var.type}): m_axi is an AXI4 master for a pointer or array argument"
                    + (" (a stream argument is axis)" if stream else ""))
    if mode in ("axis", "ap_memory", "bram") and not memory:
        raise _perr(p, f"'{port}' is a scalar ({var.type}): {mode} is an interface of an "
                    f"hls::stream, pointer or array argument")
    first = _axi_pragma(fn, port) if mode in ("m_axi", "axis") else None
    if first is not None and first[1] != mode:
        raise _perr(p, f"'{port}' is {first[1]} by the pragma at line {first[0].line}: an "
                    "argument has one interface")
    return mode, port, var


def interface_depths(fn) -> dict[str, int]:
    """``depth=N`` of the interface pragmas in the body of ``fn`` (a source view's
    :class:`hls.frontend._source.FunctionView`) on its pointer and array arguments: the
    elements of each (as Vitis HLS's co-simulation takes them), which ``--depth``
    defaults to when ``fn`` is the top (over a declared extent).  The pragmas' form is
    checked here, before a missing depth could be the first error."""
    from .frontend._source import pragma_options
    out = {}
    for p in fn.pragmas:
        if p.name != "interface":
            continue
        words, opts = pragma_options(p)
        _mode, _port, var = _interface_arg(p, words, opts, fn)
        if "depth" in opts and var is not None and _depth_option(var):
            out[var.name] = _count(p, "depth", opts["depth"], 1)
    return out


def _depth_option(var) -> bool:
    """An interface pragma's depth applies to the argument ``var``: a pointer or an
    array (a stream argument's elements are counted, a scalar has none)."""
    return "hls::stream" not in var.type and (var.indirect or var.is_array)


def _axi_pragma(fn, port: str) -> tuple | None:
    """(pragma, mode, options) of the first m_axi or axis pragma in the body of ``fn`` on
    ``port``: what that argument is on Alveo, which the function's other pragmas on it
    report."""
    from .frontend._source import pragma_options
    for q in fn.pragmas:
        if q.name == "interface":
            words, opts = pragma_options(q)
            mode = _interface_mode(words, opts)
            if mode in ("m_axi", "axis") and opts.get("port") == port:
                return q, mode, opts
    return None


def _interface_pragma(p, words, opts, views, module, target,
                      entry) -> list[InterfaceDirective]:
    """``interface [mode=]MODE port=ARG|return [bundle=B] [offset=slave] [depth=N]``.

    On an Alveo target m_axi and axis on an argument of the top are its AXI interfaces
    (an :class:`InterfaceDirective`, the same as ``--interface``), and s_axilite and
    ap_ctrl_hs say what is built anyway (the control, the scalars and the pointers'
    addresses are registers of ``s_axi_control``).  On the other targets ap_memory/bram,
    ap_ctrl_hs and ap_none/ap_stable on a scalar are what is built; m_axi and axis are
    warned about (a BRAM-style port is built; the pragma applies with --target alveo)
    but are no error, as Vitis code carries them.  Every other mode is warned about with
    what is built instead.  ``depth=N`` on a pointer or array is its depth on every
    target (:func:`interface_depths`)."""
    from .rtl._alveo import DEFAULT_BUNDLE
    fn = next(v for v in views.values() if p in v.pragmas).functions[p.function]
    mode, port, var = _interface_arg(p, words, opts, fn)
    # AXI ports (Alveo): the target's platform says what the top's ports are
    alveo = target is not None and target.platform.axi
    entry.update(interface=mode, port=port)
    if mode not in _INTERFACE_MODES:
        entry.update(applied=False, why=f"'{mode}' is not an interface mode pyhls knows")
        _pwarn(p, f"ignored: {entry['why']}")
        return []
    known = {"mode", "port"} | _INTERFACE_OPTIONS.get(mode, set())
    if var is None or not _depth_option(var):
        known.discard("depth")
    unknown = sorted(set(opts) - known) + [w for w in words if w != mode]
    if unknown:
        _pwarn(p, f"option(s) {', '.join(unknown)} ignored")
    if p.function != module.top.name:
        why = (f"interface pragmas apply to the arguments of the top function "
               f"({module.top.name}), not of {p.function}")
        entry.update(applied=False, why=why)
        _pwarn(p, f"ignored: {why}")
        return []
    if "depth" in known and "depth" in opts:
        entry["depth"] = _count(p, "depth", opts["depth"], 1)
    stream = var is not None and "hls::stream" in var.type
    memory = var is not None and (stream or var.indirect or var.is_array)
    # what the target builds for the port, and whether that is what the mode asks for
    if var is None:
        built = ("ap_ctrl_hs in the AXI4-Lite slave s_axi_control" if alveo
                 else "ap_ctrl_hs ports (ap_start, ap_done, ap_idle, ap_ready)")
        applied = mode == "ap_ctrl_hs" or (alveo and mode == "s_axilite")
    elif alveo and stream:
        built = "an AXI4-Stream"
        applied = mode == "axis"
    elif alveo and memory:
        lite = "a register of the AXI4-Lite slave s_axi_control"
        _q, axi_mode, axi_opts = _axi_pragma(fn, port) or (p, mode, opts)
        if axi_mode == "axis":
            built = f"the AXI4-Stream {port}_TDATA, ..."
        elif mode == "s_axilite":
            built = f"its address, {lite} (its elements over m_axi)"
        else:
            built = (f"the AXI4 master m_axi_{axi_opts.get('bundle', DEFAULT_BUNDLE)}, its "
                     f"address {lite}")
        applied = mode in ("m_axi", "axis") or (mode == "s_axilite" and axi_mode != "axis")
    elif alveo:
        built = "a register of the AXI4-Lite slave s_axi_control"
        applied = mode == "s_axilite"
    elif memory:
        built = (f"a BRAM-style port of its elements in order ({port}_address0, ...)"
                 if stream else f"a BRAM-style memory port ({port}_address0, ...; one per "
                                "bank if partitioned)")
        applied = mode in ("ap_memory", "bram")
    else:
        built = f"a plain input port ({port})"
        applied = mode in ("ap_none", "ap_stable")
    entry["built"] = built
    if not applied:
        what = "the function" if var is None else repr(port)
        if mode in ("m_axi", "axis", "s_axilite") and not alveo:
            why = (f"the {target.name if target else 'generic'} target builds {built} for "
                   f"{what}; the pragma applies with --target alveo")
        else:
            why = f"pyhls builds {built} for {what}"
        if "depth" in entry:
            why += f" (depth={entry['depth']} is its depth, as --depth)"
        entry.update(applied=False, why=why)
        _pwarn(p, f"not applied: {why}")
        return []
    entry["applied"] = True
    bundle = opts.get("bundle")
    if mode == "s_axilite" and bundle not in (None, "control"):
        _pwarn(p, f"bundle={bundle} ignored: one AXI4-Lite slave, s_axi_control, holds "
               "every register")
    if mode not in ("m_axi", "axis"):
        return []
    if mode == "m_axi":
        bundle = bundle or DEFAULT_BUNDLE
        if not bundle.isidentifier():
            raise _perr(p, f"bundle={bundle}: the bundle must be an identifier")
        offset = opts.get("offset", "slave").lower()
        if offset != "slave":
            _pwarn(p, f"offset={offset} not applied: the address of '{port}' is a register "
                   "of s_axi_control (offset=slave), as a Vitis kernel has it")
        entry["bundle"] = bundle
    return [InterfaceDirective(p.function, port, mode, bundle if mode == "m_axi" else None,
                               origin=_where(p))]


def interface_options(module, m_axi: dict, axis: list, interfaces) -> tuple[dict, list]:
    """``--interface``'s m_axi bundles and axis arguments (``m_axi``, ``axis``: by name or
    position) with the interface pragmas' (``interfaces``, on the top of ``module``)
    added; a pragma and an option that give one argument different interfaces or
    bundles are an error naming both."""
    m_axi, axis = dict(m_axi), list(axis)
    index = {q.name: str(q.index) for q in module.top.params}
    for d in interfaces:
        keys = (d.port, index.get(d.port))
        opt = next(((k, f"m_axi:{m_axi[k]}") for k in keys if k in m_axi), None) or next(
            ((k, "axis") for k in keys if k in axis), None)
        want = f"m_axi:{d.bundle}" if d.mode == "m_axi" else "axis"
        if opt is not None and opt[1] != want:
            raise HLSError(f"#pragma HLS interface here makes '{d.port}' {want}, and "
                           f"--interface {opt[0]}={opt[1]} makes it {opt[1]}: give it in "
                           "one place", *d.origin)
        if opt is None and d.mode == "m_axi":
            m_axi[d.port] = d.bundle
        elif opt is None:
            axis.append(d.port)
    return m_axi, axis


def _check_conflicts(module, pdirs: Directives, dirs: Directives | None) -> None:
    """A directives-file entry and a pragma that set one loop or array differently."""
    if dirs is None:
        return
    from .analysis import find_loops, loop_line
    keys = ("pipeline", "ii", "unroll", "tripcount")
    byname = {f.name: f for f in module.functions}
    for d in dirs.loops:
        f = byname.get(d.function)
        if f is None:
            continue
        for lp in find_loops(f):
            line = loop_line(lp)
            if not ((d.line is not None and d.line == line)
                    or (d.label is not None and d.label == lp.header.name)):
                continue
            for e in pdirs.loops:
                if e.function != d.function or e.line != line:
                    continue
                for k in keys:
                    a, b = getattr(e, k), getattr(d, k)
                    if a is not None and b is not None and a != b:
                        raise HLSError(f"the pragma here sets {k} = {a!r} on loop "
                                       f"{lp.header.name} of {d.function}, and the "
                                       f"directives file {d.origin[0]} ({d.origin[1]}) sets "
                                       f"{k} = {b!r}: give it in one place",
                                       *e.origin)
    for d in dirs.arrays:
        for e in pdirs.arrays:
            if (e.function, e.name) == (d.function, d.name) and (
                    (e.partition, e.factor) != (d.partition, d.factor)):
                raise HLSError(f"the pragma here partitions {d.name} of {d.function} "
                               f"{e.partition} {e.factor or ''}, and the directives file "
                               f"{d.origin[0]} ({d.origin[1]}) {d.partition} "
                               f"{d.factor or ''}: give it in one place".replace("  ", " "),
                               *e.origin)


def pragma_report(uses: list, report: dict) -> list[dict]:
    """report.json["pragmas"]: per pragma what it did; a loop pragma's entry gets the II
    its loops reached and the factor they were unrolled by (from the report's loops;
    a fully unrolled loop is gone)."""
    loops = {(e["function"], e["loop"]): e for e in report.get("loops", [])}
    arrays = {(e["function"], e["name"]): e for e in report.get("arrays", [])}
    out = []
    for u in uses:
        e = dict(u.entry)
        p = u.pragma
        if u.loops and e.get("applied"):
            got = [loops.get(k) for k in u.loops]
            if p.name == "pipeline" and e.get("pipeline"):
                iis = [g["ii"] for g in got if g is not None]
                e["ii_reached"] = iis[0] if len(set(iis)) == 1 else iis
                e["pipelined"] = all(g is not None and g.get("pipelined") for g in got)
            elif p.name == "unroll":
                fs = ["full" if g is None else g.get("unrolled", 1) for g in got]
                e["unrolled"] = fs[0] if len(set(map(str, fs))) == 1 else fs
        if p.name == "array_partition" and e.get("applied") and "hw_function" in e:
            a = next((a for (fn, n), a in arrays.items() if fn == e["hw_function"]
                      and (n == e["variable"] or n.endswith("_" + e["variable"]))), None)
            if a is not None:
                e["banks"] = a["banks"]
        out.append(e)
    return out
