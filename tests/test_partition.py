"""Array partitioning (hls.transforms: partition_array, auto_partition_plan): bank layout, automatic choice for loops
held by memory ports, [[array]] directives, co-simulation of banked arguments, locals and
globals, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hls.cli import main as cli_main
from hls.flow import SynthOptions, synthesize
from hls.ir import Bank
from hls.verify import cosim

HERE = Path(__file__).resolve().parent
KERNEL = HERE / "kernels" / "partition.c"
DEPTH = {"a": 32, "out": 32}


def test_bank_layout_cyclic_and_block():
    whole = bytes(range(40))          # 10 words of 4 bytes
    c1 = Bank("cyclic", 3, 1, 10)
    assert list(c1.words()) == [1, 4, 7]
    assert c1.view(whole, 4) == whole[4:8] + whole[16:20] + whole[28:32]
    b2 = Bank("block", 3, 2, 10)      # blocks of 4 words: 0-3, 4-7, 8-9
    assert list(b2.words()) == [8, 9]
    assert b2.view(whole, 4) == whole[32:40]
    # every word in exactly one bank
    for kind in ("cyclic", "block"):
        words = sorted(w for b in range(3) for w in Bank(kind, 3, b, 10).words())
        assert words == list(range(10))
    # runs of 3 words dealt out to 2 banks (a 10-word array's last run is short)
    r0, r1 = Bank("cyclic", 2, 0, 10, 3), Bank("cyclic", 2, 1, 10, 3)
    assert list(r0.words()) == [0, 1, 2, 6, 7, 8] and list(r1.words()) == [3, 4, 5, 9]
    assert r1.view(whole, 4) == whole[12:24] + whole[36:40]


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_auto_partition_reaches_the_mii():
    # (automatic unrolling off: with it, the loop unrolled by 2 takes four banks)
    s = synthesize(KERNEL, SynthOptions(top="quad_sum", depth=DEPTH, auto_unroll=False))
    arrays = {a["name"]: a for a in s.report["arrays"]}
    # out[i] = a[4i] + a[4i+1] - a[4i+2] + a[4i+3]: four loads on two ports -> II 2,
    # two banks of two ports -> II 1
    assert arrays["a"]["auto"] and arrays["a"]["partition"] == "cyclic"
    assert arrays["a"]["factor"] == 2
    assert [m.name for m in s.interface.memories][:2] == ["a_0", "a_1"]
    assert all(m.bank is not None for m in s.interface.memories[:2])
    for lp in s.report["loops"]:
        assert lp["pipelined"] and lp["ii"] == lp["mii"] == 1, lp
    r = cosim(KERNEL, "quad_sum", tb=KERNEL, synth=s)
    assert r.passed, r.summary()

    off = synthesize(KERNEL, SynthOptions(top="quad_sum", depth=DEPTH, auto_partition=False))
    assert off.report["arrays"] == []
    assert max(lp["ii"] for lp in off.report["loops"]) == 2
    assert "a_address0" in off.verilog and "a_0_address0" not in off.verilog


def test_no_pipelining_no_automatic_partitioning():
    s = synthesize(KERNEL, SynthOptions(top="quad_sum", depth=DEPTH, pipeline=False))
    assert s.report["arrays"] == []


DIRECTIVES_ALL_KINDS = """
[[array]]
function = "quad_sum"
name = "loc"
partition = "cyclic"
factor = 4

[[array]]
function = "quad_sum"
name = "a"
partition = "block"
factor = 4

[[array]]
function = "quad_sum"
name = "table"
partition = "complete"
"""

DIRECTIVES_NONE = """
[[array]]
function = "quad_sum"
name = "a"
partition = "none"

[[array]]
function = "quad_sum"
name = "out"
partition = "cyclic"
factor = 3
"""


@pytest.mark.parametrize("text,expect", [
    (DIRECTIVES_ALL_KINDS, {"quad_sum_loc": ("cyclic", 4), "a": ("block", 4),
                            "table": ("complete", 32)}),
    (DIRECTIVES_NONE, {"out": ("cyclic", 3)}),
], ids=["cyclic-block-complete", "none-and-factor-3"])
def test_directives_cosim(tmp_path, text, expect):
    d = _write(tmp_path, "d.toml", text)
    # automatic unrolling off: its copies would have other arrays partitioned too
    s = synthesize(KERNEL, SynthOptions(top="quad_sum", depth=DEPTH, directives=d,
                                        auto_unroll=False))
    got = {a["name"]: (a["partition"], a["banks"]) for a in s.report["arrays"]}
    assert got == expect
    assert not any(a["auto"] for a in s.report["arrays"])
    r = cosim(KERNEL, "quad_sum", tb=KERNEL, synth=s)
    assert r.passed, r.summary()


def test_whole_program_partitioned_local():
    r = cosim(KERNEL, "main")
    assert r.passed, r.summary()
    assert any(a["auto"] for a in r.synth.report["arrays"])


def test_mismatch_names_the_whole_array(tmp_path):
    """A wrong word in a bank is reported at its index in the whole argument."""
    from hls.verify import Call, run_cosim

    s = synthesize(KERNEL, SynthOptions(top="quad_sum", depth=DEPTH))
    v = tmp_path / "quad_sum.v"
    v.write_text(s.verilog)
    a = b"".join(int(i).to_bytes(4, "little", signed=True) for i in range(32))
    from hls.verify import run_calls
    calls = run_calls(s.module.llvm_ir, "quad_sum",
                      [Call(scalars={2: 3}, mem_in={0: a, 1: bytes(128)})],
                      {0: 128, 1: 128}, globals_={"table": 128})
    good = run_cosim([v], s.interface, calls, 100000, workdir=tmp_path / "w")
    assert good.passed, good.summary()
    bad_out = bytearray(calls[0].mem_out[1])
    bad_out[5 * 4] ^= 1                       # out[5]
    calls[0].mem_out[1] = bytes(bad_out)
    bad = run_cosim([v], s.interface, calls, 100000, workdir=tmp_path / "w2")
    assert not bad.passed
    assert any(m.arg == "out" and m.index == 5 for m in bad.mismatches), bad.summary()


@pytest.mark.parametrize("text,msg", [
    ('[[array]]\nfunction = "quad_sum"\nname = "nope"\npartition = "cyclic"\nfactor = 2\n',
     "has no array 'nope'"),
    ('[[array]]\nfunction = "quad_sum"\nname = "a"\npartition = "cyclic"\n',
     "needs 'factor'"),
    ('[[array]]\nfunction = "quad_sum"\nname = "a"\npartition = "diagonal"\nfactor = 2\n',
     "'partition' must be one of"),
    ('[[loop]]\nfunction = "quad_sum"\nline = 12\npartition = "cyclic"\n',
     "[[array]] entry"),
    ('[[array]]\nfunction = "nofunc"\nname = "a"\npartition = "complete"\n',
     "no hardware function 'nofunc'"),
    ('[[array]]\nfunction = "quad_sum"\nname = "a"\npartition = "complete"\ndim = 2\n',
     "dim=2: 'a' has no known dimension(s)"),
])
def test_directive_errors(tmp_path, capsys, text, msg):
    d = _write(tmp_path, "bad.toml", text)
    out = tmp_path / "out"
    rc = cli_main(["synth", str(KERNEL), "--top", "quad_sum", "--depth", "a=32",
                   "--depth", "out=32", "--directives", d, "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "error:" in err and msg in err and "Traceback" not in err
    assert not out.exists()


def test_array_passed_to_a_call_is_rejected(tmp_path, capsys):
    src = HERE.parent / "examples" / "kernels" / "noinline_helpers.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    arr = "y"  # passed to the noinline helper energy()
    d = _write(tmp_path, "d.toml", f'[[array]]\nfunction = "{meta["top"]}"\nname = "{arr}"\n'
                                   'partition = "cyclic"\nfactor = 2\n')
    argv = ["synth", str(src), "--top", meta["top"], "--directives", d, "-o", str(tmp_path / "o")]
    for k, v in meta["args"].items():
        argv += ["--depth", f"{k}={v['depth']}"]
    rc = cli_main(argv)
    err = capsys.readouterr().err
    assert rc == 1
    assert "cannot be partitioned" in err and "non-inlined function" in err, err


def test_struct_fields_share_one_port():
    """struct_records: the fields of r[i] packed in one 8-byte word are read by one load
    (combine-loads) and the two words of a record sit in two banks (automatic cyclic 2)."""
    src = HERE.parent / "examples" / "kernels" / "struct_records.c"
    meta = json.loads(src.with_suffix(".json").read_text())
    s = synthesize(src, SynthOptions(top=meta["top"],
                                     depth={k: v["depth"] for k, v in meta["args"].items()}))
    assert [(a["name"], a["partition"], a["banks"]) for a in s.report["arrays"]] == [("r", "cyclic", 2)]
    body = max(s.report["loops"], key=lambda lp: lp["depth"])
    assert body["ii"] == body["mii"] == 2, body    # was 4 with one memory and a load per field
