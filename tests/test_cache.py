"""The simulation model cache (hls.toolchain._cache): least recently used models are
removed beyond the size limit, never one in use or just built, never the shared runtime
or a build in progress; ``pyhls cache info|clean``."""

from __future__ import annotations

import os
import time

import pytest

from hls.cli import main
from hls.errors import HLSError
from hls.toolchain import cache_info, enforce_limit, parse_size
from hls.toolchain._cache import IN_USE_S, entries, remove, touch


def _model(root, kind, name, size, age):
    d = root / kind / name
    d.mkdir(parents=True)
    (d / "Vtop").write_bytes(b"x" * size)
    t = time.time() - age
    os.utime(d, (t, t))
    return d


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYHLS_CACHE", str(tmp_path))
    monkeypatch.delenv("PYHLS_CACHE_LIMIT", raising=False)
    m = {f"m{i}": _model(tmp_path, "verilator", f"{i:064x}", 1000, 1000 * (5 - i))
         for i in range(4)}                                     # m0 oldest, m3 newest
    m["cocotb"] = _model(tmp_path, "cocotb", "top-" + "a" * 20, 1000, 4500)
    m["recent"] = _model(tmp_path, "verilator", "f" * 64, 1000, IN_USE_S / 4)
    (tmp_path / "verilator" / "runtime-0123456789abcdef").mkdir()
    (tmp_path / "verilator" / "runtime-0123456789abcdef" / "lib.a").write_bytes(b"r" * 5000)
    (tmp_path / "verilator" / ".build-0123-x").mkdir()
    return tmp_path, m


def test_least_recently_used_go_first(cache):
    root, m = cache
    assert [e.path for e in entries(root)] == [m["m0"], m["cocotb"], m["m1"], m["m2"],
                                                 m["m3"], m["recent"]]
    gone = enforce_limit(root, limit=3500, keep=m["m1"])
    # 6000 bytes of models: m0, the cocotb model and m2 go (m1 is kept: just built)
    assert [e.path for e in gone] == [m["m0"], m["cocotb"], m["m2"]]
    left = {e.path for e in entries(root)}
    assert left == {m["m1"], m["m3"], m["recent"]}
    assert (root / "verilator" / "runtime-0123456789abcdef" / "lib.a").exists()
    assert (root / "verilator" / ".build-0123-x").exists()
    # a model used in the last IN_USE_S seconds stays even beyond the limit
    enforce_limit(root, limit=1)
    assert {e.path for e in entries(root)} == {m["recent"]}
    assert enforce_limit(root, limit=0) == []               # 0: no limit


def test_an_entry_found_while_it_is_evicted_stays(cache):
    # process A chooses m0 (long unused); process B finds m0 and touches it before A's
    # rename: A puts it back.  Touched after the rename, B learns it is gone and rebuilds.
    root, m = cache
    chosen = entries(root)[0]
    assert chosen.path == m["m0"]
    assert touch(m["m0"])
    assert not remove(chosen.path, seen_used=chosen.used)
    assert m["m0"].is_dir() and not list(m["m0"].parent.glob(".trash-*"))
    assert remove(m["m0"], seen_used=m["m0"].stat().st_mtime)   # not used since: it goes
    assert not m["m0"].exists() and not touch(m["m0"])


def test_the_limit_comes_from_the_environment(cache, monkeypatch):
    root, m = cache
    monkeypatch.setenv("PYHLS_CACHE_LIMIT", "2.5K")
    assert parse_size("2.5K") == 2560 and parse_size("4G") == 4 << 30
    enforce_limit()
    assert sum(e.size for e in entries(root)) <= 2560 + 1000     # + the one in use
    with pytest.raises(HLSError, match="not a size"):
        parse_size("lots")


def test_cache_command(cache, capsys):
    root, m = cache
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert f"cache: {root}" in out and "verilator: 5 model(s)" in out
    assert "cocotb: 1 model(s)" in out and "total: 6 model(s)" in out
    assert main(["cache", "clean", "--keep", "2K"]) == 0
    assert "removed 4 model(s)" in capsys.readouterr().out
    assert {e.path for e in entries(root)} == {m["m3"], m["recent"]}
    assert main(["cache", "clean"]) == 0
    assert entries(root) == [] and "removed 2 model(s)" in capsys.readouterr().out
    assert main(["cache", "clean", "--keep", "much"]) == 1
    assert "'much' is not a size" in capsys.readouterr().err
    assert "total: 0 model(s)" in cache_info(root)
