"""The pyhls pytest plugin: co-simulation as a fixture (README "Co-simulation in pytest").

Registered by the ``pytest11`` entry point ``hls.pytest_plugin`` (named after the module,
so that ``-p hls.pytest_plugin`` or ``pytest_plugins = ["hls.pytest_plugin"]`` beside
the installed entry point load it once).  It provides

* the fixture ``hls`` (:class:`HLS`): ``hls.cosim(src, top=..., tb=..., **options)``
  synthesises, co-simulates (:func:`hls.verify.cosim`) and returns a :class:`CosimRun`;
  ``hls.synth(src, top=..., **options)`` synthesises only (:class:`SynthRun`);
* the marker ``hls(directives=..., targets=..., fp_formats=...)``:
  :func:`pytest_generate_tests` parametrises the test over the product of those lists,
  and the fixture takes the current parameter set as its default options.

Every run writes into a directory of the test's own (under ``tmp_path``: one per test
node and per xdist worker), so ``pytest -n N`` is safe; the Verilator model cache they
share is content-addressed, every entry built in a private directory and renamed into
place (``hls.verify._harness.build_harness``, ``hls.toolchain.verilate_and_make``), and
never evicted while another process has found it (``hls.toolchain._cache``).

A run fails when the hardware differs from native execution of the C, or when the C's
results differ from ``expect`` (values the test gives for arguments, globals or the
return value after the last call): the message names each C element that differs
(``out[3]: expected 6, got 7``), and the simulation is run again with a VCD trace whose
path it prints.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import pytest

__all__ = ["CosimPaths", "CosimRun", "Difference", "HLS", "SynthRun"]

#: marker keyword -> the option each of its values sets
_MARKER_OPTIONS = {"directives": "directives", "targets": "target", "fp_formats": "fp_format"}
#: options of hls.verify.cosim itself (the rest are SynthOptions fields)
_COSIM_OPTIONS = {"fixed", "seed", "runs", "max_cycles", "axi_stall", "native_timeout"}
_FIXTURE_OPTIONS = {"expect", "waves", "check"}


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Difference:
    """One C element whose value differs: ``element`` as C names it (``out[3]``,
    ``recs[1].2``, ``return``), in call ``call`` (0-based); ``expected`` and ``got``
    as Python numbers (floats for float elements).  ``against``: ``"c"`` when the
    hardware differs from native execution of the C (``got`` is the hardware's value),
    ``"expect"`` when the C's result differs from the test's ``expect`` (``got`` is the
    C's value, which the hardware matched)."""

    call: int
    element: str
    expected: int | float
    got: int | float
    against: str
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class CosimPaths:
    """Where a run's files are: ``out`` (its directory), the Verilog, report.json and
    the VCD trace (None: not written; a run writes one when it fails or with
    ``waves=True``, except on Alveo targets, whose cocotb simulation writes none)."""

    out: Path
    verilog: Path
    report: Path
    waves: Path | None = None


@dataclass(frozen=True)
class SynthRun:
    """``hls.synth``: report.json (as written) as a dict, the paths, and the
    :class:`hls.flow.SynthResult`."""

    report: dict
    paths: CosimPaths
    synth: Any = field(repr=False, compare=False)


@dataclass(frozen=True)
class CosimRun:
    """``hls.cosim``: whether it passed, the cycles of every call, the differences
    (:class:`Difference`), report.json as a dict (with its ``cosim`` section), the paths,
    the failure message ('' when passed) and the :class:`hls.verify.CosimResult`."""

    passed: bool
    cycles: tuple[int, ...]
    mismatches: tuple[Difference, ...]
    report: dict
    paths: CosimPaths
    message: str = ""
    result: Any = field(default=None, repr=False, compare=False)

    def assert_pass(self) -> None:
        """Fail the test with :attr:`message` unless the run passed."""
        __tracebackhide__ = True
        if not self.passed:
            pytest.fail(self.message, pytrace=False)


# --------------------------------------------------------------------------- expect


def _value(bits: int, size: int, float_bits: int, signed: bool) -> int | float:
    if float_bits and size * 8 == float_bits:
        return struct.unpack("<f" if size == 4 else "<d", bits.to_bytes(size, "little"))[0]
    if signed and size and bits >> (8 * size - 1):
        return bits - (1 << (8 * size))
    return bits


def _encode(values, size: int, float_bits: int, what: str) -> bytes:
    """Little-endian bytes of ``values`` as elements of ``size`` bytes (floats of
    ``float_bits``; integers modulo 2**(8*size), so either signedness is accepted)."""
    out = bytearray()
    for v in values:
        if float_bits and size * 8 == float_bits:
            out += struct.pack("<f" if size == 4 else "<d", float(v))
        elif isinstance(v, (int, bool)) or (hasattr(v, "__index__")):
            out += (int(v) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        else:
            raise _usage(f"expect[{what!r}]: {v!r} is not an integer (the elements "
                         f"are {size}-byte integers)")
    return bytes(out)


def _whole(m, call) -> bytes | None:
    """The whole array behind memory ``m`` after ``call`` (as the C left it), or None."""
    from hls.verify._compare import _fit

    if m.arg_index is not None and m.arg_index in call.mem_out:
        out, base = bytes(call.mem_out[m.arg_index]), _fit(call.mem_in.get(m.arg_index),
                                                           m.whole_bytes)
    elif m.arg_index is None and m.global_name is not None and m.global_name in call.glob_out:
        out, base = bytes(call.glob_out[m.global_name]), _fit(m.init, m.whole_bytes)
    else:
        return None
    return out[:m.whole_bytes] if len(out) >= m.whole_bytes else out + base[len(out):]


def _check_expect(res, last, expect: Mapping[str, Any]):
    """Compare the C's results of call ``last`` (a :class:`hls.verify.Call` with the
    golden outputs) with ``expect``; returns the :class:`hls.verify.CallResult` (its first
    few mismatches and their count)."""
    from hls.verify import Call, RawCallResult, compare_calls

    iface = res.interface
    func = res.module.top
    args = {p.name: p.index for p in func.ptr_params}
    ref = Call(scalars={}, mem_in={})
    mems = {m.name: m.view(_whole(m, last) or bytes(m.whole_bytes)) for m in iface.memories}
    ret = None
    for name, values in expect.items():
        if name == "return":
            if not iface.return_width:
                raise _usage(f"expect['return']: {func.name} returns nothing")
            if last.ret is None:
                raise _usage("expect['return']: the C's return value is unknown")
            size = (iface.return_width + 7) // 8
            ref.ret = int.from_bytes(_encode([values], size, iface.return_float, name),
                                     "little") & ((1 << iface.return_width) - 1)
            ret = last.ret
            continue
        ports = [m for m in iface.memories
                 if (m.arg_index is not None and m.arg_index == args.get(name))
                 or (m.arg_index is None and m.global_name == name)]
        if not ports:
            known = sorted(args) + sorted(m.global_name for m in iface.memories
                                          if m.arg_index is None and m.global_name)
            raise _usage(f"expect[{name!r}]: {func.name} has no pointer argument or "
                         f"global of that name; it has: {', '.join(known) or 'none'}")
        m = ports[0]
        if m.elem_fields and len(m.elem_fields) > 1:
            raise _usage(f"expect[{name!r}]: its elements are structs; expect takes "
                         "arrays of numbers")
        eb = m.elem_bytes or m.word_bytes
        fb = m.float_bits if m.float_bits and m.float_bits // 8 == eb else 0
        values = list(values) if not isinstance(values, (int, float)) else [values]
        whole = _whole(m, last)
        if whole is None:
            raise _usage(f"expect[{name!r}]: the C's result for it is unknown")
        given = _encode(values, eb, fb, name)
        if len(given) > len(whole):
            raise _usage(f"expect[{name!r}]: {len(values)} values for an array of "
                         f"{len(whole) // eb} elements")
        exp = given + whole[len(given):]   # elements not given: whatever the C left
        if m.arg_index is not None:
            ref.mem_out[m.arg_index] = exp
        else:
            ref.glob_out[m.global_name] = exp
    raw = RawCallResult(cycles=0, status="ok", message="", nerrors=0, ret=ret, mems=mems)
    return compare_calls(iface, [ref], [raw])[0]


def _difference(m, against: str, call: int, iface) -> Difference:
    signed = False
    if m.arg == "return":
        ct = getattr(iface, "return_ctype", None)
        signed = bool(ct.signed if ct else iface.return_signed)
    else:
        port = next((p for p in iface.memories if (p.array_name or p.name) == m.arg
                     or p.global_name == m.arg), None)
        signed = bool(port is not None and port.ctype is not None and port.ctype.signed)
    element = m.arg if m.index is None else m.arg + (m.where or f"[{m.index}]")
    text = str(dataclasses.replace(m, call=call))
    return Difference(call, element, _value(m.expected, m.size, m.float_bits, signed),
                      _value(m.got, m.size, m.float_bits, signed), against, text)


# --------------------------------------------------------------------------- fixture


@contextlib.contextmanager
def _user_errors():
    """A pyhls error (the kernel, testbench or options are wrong) fails the test with
    its ``file:line: error: ...`` message, without a traceback of pyhls."""
    __tracebackhide__ = True
    from hls.errors import HLSError

    try:
        yield
    except HLSError as exc:
        raise pytest.fail.Exception(exc.format(), pytrace=False) from None


def _usage(message: str):
    """A mistake in the test's use of the fixture: the test fails with ``message``."""
    return pytest.fail.Exception(f"hls fixture: {message}", pytrace=False)


def _param_id(value, index: int, kind: str) -> str:
    if value is None:
        return f"no-{kind}"
    if isinstance(value, (str, Path)):
        return Path(str(value)).stem if kind == "directives" else str(value)
    if isinstance(value, Mapping) and kind == "fp_formats":
        return "-".join(f"{k}={v}" for k, v in value.items())
    return f"{kind}{index}"


class HLS:
    """The ``hls`` fixture.  ``params``: the marker's current parameter set (the
    defaults of every call's options); paths are relative to the test file's directory;
    outputs go to ``<tmp_path>/<top>`` (``<top>-2``... for later runs of the same top)."""

    def __init__(self, base: Path, tmp: Path, params: Mapping[str, Any], node: str):
        self.base = base
        self.tmp = tmp
        self.params = dict(params)
        self.node = node
        self._used: set[str] = set()

    # -- helpers
    def _path(self, p) -> str | list[str]:
        if isinstance(p, (list, tuple)):
            return [self._path(x) for x in p]
        p = Path(p)
        return str(p if p.is_absolute() else self.base / p)

    def _out(self, top: str) -> Path:
        stem = "".join(c if c.isalnum() or c in "_-" else "_" for c in top) or "top"
        name, n = stem, 1
        while name in self._used:
            n += 1
            name = f"{stem}-{n}"
        self._used.add(name)
        return self.tmp / name

    def _options(self, options: dict) -> dict:
        clash = sorted(set(options) & set(self.params))
        if clash:
            raise _usage(f"{', '.join(clash)}: set by the hls marker's parameters "
                         f"({self.node}) and given to the call as well")
        # a marker value None: that option's default
        return {**{k: v for k, v in self.params.items() if v is not None}, **options}

    def _synth(self, src, top: str, out: Path, options: dict):
        from hls.flow import SynthOptions, synthesize
        from hls.fpu import FPFormat

        names = {f.name for f in dataclasses.fields(SynthOptions)} - {"top"}
        bad = sorted(set(options) - names)
        if bad:
            raise _usage(f"unknown option(s) {', '.join(bad)}; options are "
                         f"SynthOptions fields, {', '.join(sorted(_COSIM_OPTIONS))}, "
                         f"{', '.join(sorted(_FIXTURE_OPTIONS))}")
        opts = dict(options)
        d = opts.get("directives")
        if isinstance(d, Mapping):     # the JSON form of a directives file
            out.mkdir(parents=True, exist_ok=True)
            f = out / "directives.json"
            f.write_text(json.dumps(d, indent=2, sort_keys=True) + "\n")
            opts["directives"] = str(f)
        elif d is not None:
            opts["directives"] = self._path(d)
        fp = opts.get("fp_format")
        if fp is not None:
            fp = {"*": fp} if isinstance(fp, (str, FPFormat)) else dict(fp)
            opts["fp_format"] = {k: v if isinstance(v, FPFormat) else FPFormat.parse(v)
                                 for k, v in fp.items()}
        for key in ("cflags", "block_ram", "single_port", "print_ir_after", "dataflow"):
            if key in opts:
                opts[key] = tuple(opts[key])
        return synthesize(self._path(src), SynthOptions(top=top, **opts))

    # -- the API
    def synth(self, src, top: str, **options) -> SynthRun:
        """Synthesise ``top`` of ``src`` (a file or a list) with ``options``
        (:class:`hls.flow.SynthOptions` fields; ``directives`` a path or the dict of a
        directives file's JSON form; ``fp_format`` a format or a dict by function)."""
        from hls.flow import write_outputs

        out = self._out(top)
        with _user_errors():
            res = self._synth(src, top, out, self._options(options))
            write_outputs(res, out)
        paths = _paths(out, res)
        return SynthRun(json.loads(paths.report.read_text()), paths, res)

    def cosim(self, src, top: str, tb=None, **options) -> CosimRun:
        """Synthesise and co-simulate ``top`` of ``src`` against native execution: with a
        C testbench ``tb`` (file or list), as a whole program (``top="main"``) or on
        random stimulus (``seed``, ``runs``, ``fixed``).  ``expect``: C results the test
        requires after the last call (argument, global or ``"return"`` -> values).
        ``check`` (default True): fail the test at once on failure (else look at
        ``.passed``); ``waves``: always write the VCD trace.  Other options: as
        :meth:`synth`, and ``max_cycles``, ``seed``, ``runs``, ``fixed``, ``axi_stall``,
        ``native_timeout`` of :func:`hls.verify.cosim`."""
        __tracebackhide__ = True
        with _user_errors():
            run = self._cosim(src, top, tb, self._options(options))
        if not run.passed and options.get("check", True):
            run.assert_pass()
        return run

    def _cosim(self, src, top: str, tb, options: dict) -> CosimRun:
        from hls.flow import write_outputs
        from hls.verify import cosim

        expect = options.pop("expect", None)
        waves = bool(options.pop("waves", False))
        options.pop("check", None)
        sim = {k: options.pop(k) for k in list(options) if k in _COSIM_OPTIONS}
        out = self._out(top)
        res = self._synth(src, top, out, options)
        common = dict(tb=self._path(tb) if tb is not None else None,
                      cflags=tuple(options.get("cflags", ())), cc=options.get("cc"),
                      synth=res, **sim)
        if expect is not None and tb is None and not (res.module.top.name == "main"
                                                      and not res.module.top.params):
            raise _usage("expect needs a testbench (tb=...) or a whole-program top "
                         "(main): random stimulus has no known results")
        cres = cosim(self._path(src), top, waves=waves, workdir=out / "cosim", **common)
        diffs = [_difference(m, "c", m.call, res.interface) for m in cres.mismatches]
        expect_diffs, more = [], 0
        if expect is not None and cres.stimulus:
            last = len(cres.stimulus) - 1
            found = _check_expect(res, cres.stimulus[-1], expect)
            more = found.n_mismatches - len(found.mismatches)
            expect_diffs = [_difference(m, "expect", last, res.interface) for m in
                            sorted(found.mismatches, key=lambda m: (m.arg, m.index or 0))]
        passed = cres.passed and not expect_diffs
        vcd = cres.waves if cres.waves is not None and cres.waves.is_file() else None
        # a run the cycle limit stopped is not traced again (max_cycles cycles of trace)
        stopped = not expect_diffs and all(c.status in ("timeout", "skipped")
                                           for c in cres.calls if not c.passed)
        if not passed and vcd is None and not stopped and not res.target.platform.axi:
            # the same design again, traced: the model with --trace is built on failure only
            again = cosim(self._path(src), top, waves=True, workdir=out / "waves", **common)
            vcd = again.waves if again.waves is not None and again.waves.is_file() else None
        write_outputs(res, out, {"cosim": cres.to_json()})
        paths = dataclasses.replace(_paths(out, res), waves=vcd)
        report = json.loads(paths.report.read_text())
        message = "" if passed else _message(top, self.node, cres, expect_diffs, more,
                                             paths, res.target.platform.axi)
        return CosimRun(passed, tuple(c.cycles for c in cres.calls),
                        tuple(diffs + expect_diffs), report, paths, message, cres)


def _paths(out: Path, res) -> CosimPaths:
    return CosimPaths(out, out / "rtl" / f"{res.interface.module_name}.v", out / "report.json")


def _message(top: str, node: str, cres, expect_diffs: list, more: int,
             paths: CosimPaths, axi: bool) -> str:
    lines = [f"co-simulation of {top} in {node} failed"]
    if not cres.passed:
        lines.append("the hardware differs from the C:")
        lines += ["  " + x for x in cres.summary().splitlines()[1:]]
    if expect_diffs:
        lines.append("the C's results differ from expect" + (
            " (the hardware agrees with the C):" if cres.passed else ":"))
        lines += [f"  {d.text}" for d in expect_diffs]
        if more:
            lines.append(f"  ... and {more} more mismatching value(s)")
    if paths.waves:
        lines.append(f"waveform: {paths.waves}")
    elif axi:
        lines.append("waveform: none (the cocotb co-simulation of an Alveo top writes none)")
    else:
        lines.append("waveform: none for a run the cycle limit stopped (waves=True "
                     "writes one)")
    lines.append(f"outputs: {paths.out}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- hooks


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "hls(directives=[...], targets=[...], fp_formats=[...]): run the test "
        "once per combination (each a list, or a dict of named values); the hls fixture "
        "takes the combination as its default options")


def _marker_values(marker, node: str) -> list[tuple[str, list[tuple[str, Any]]]]:
    if marker.args:
        pytest.fail(f"{node}: the hls marker takes keywords ({', '.join(_MARKER_OPTIONS)}), "
                    f"not positional arguments", pytrace=False)
    axes = []
    for key, values in marker.kwargs.items():
        if key not in _MARKER_OPTIONS:
            pytest.fail(f"{node}: hls marker: unknown keyword '{key}'; keywords: "
                        f"{', '.join(_MARKER_OPTIONS)}", pytrace=False)
        if isinstance(values, Mapping):
            items = [(str(k), v) for k, v in values.items()]
        elif isinstance(values, (list, tuple)):
            items = [(_param_id(v, i, key), v) for i, v in enumerate(values)]
        else:
            pytest.fail(f"{node}: hls marker: {key} must be a list or a dict of named "
                        f"values, not {type(values).__name__}", pytrace=False)
        if not items:
            pytest.fail(f"{node}: hls marker: {key} is empty", pytrace=False)
        axes.append((key, items))
    return axes


def pytest_generate_tests(metafunc) -> None:
    markers = list(metafunc.definition.iter_markers("hls"))
    if not markers:
        return
    node = metafunc.definition.nodeid
    if "hls" not in metafunc.fixturenames:
        pytest.fail(f"{node}: the hls marker parametrises the hls fixture, which this test "
                    "does not use", pytrace=False)
    if len(markers) > 1:
        pytest.fail(f"{node}: more than one hls marker (give every list in one)",
                    pytrace=False)
    axes = _marker_values(markers[0], node)
    combos: list[tuple[list[str], dict]] = [([], {})]
    for key, items in axes:
        combos = [(ids + [i], {**params, _MARKER_OPTIONS[key]: v})
                  for ids, params in combos for i, v in items]
    metafunc.parametrize("hls_params", [p for _, p in combos],
                         ids=["-".join(ids) for ids, _ in combos], indirect=True)


@pytest.fixture
def hls_params(request) -> dict:
    """The hls marker's current parameter set ({} without the marker)."""
    return dict(getattr(request, "param", {}))


@pytest.fixture
def hls(request, tmp_path, hls_params) -> HLS:
    """Synthesis and co-simulation from a test: see :class:`HLS`."""
    return HLS(Path(request.path).parent, tmp_path, hls_params, request.node.nodeid)
