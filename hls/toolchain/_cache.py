"""The simulation model cache: its entries, its size limit, and ``pyhls cache``.

Co-simulation builds each design's Verilator model once and keeps it by a hash of what
the binary depends on (:func:`model_cache_key`): ``<root>/verilator/<sha256>/`` for the
C++ harness (and the FP unit simulators), ``<root>/cocotb/<module>-<key>/`` for the
cocotb models of Alveo tops.  ``<root>`` is ``$PYHLS_CACHE`` (default
``~/.cache/pyhls``).  Every design a user co-simulates adds one; without a bound the
cache grows by hundreds of megabytes a day.

An entry's modification time is its last use (:func:`touch` on every hit), and after
each new entry :func:`enforce_limit` removes the least recently used ones until the
total is within ``$PYHLS_CACHE_LIMIT`` (default 8 GiB, an Alveo model being about
90 MB; ``0``: no limit).  An entry used in the last :data:`IN_USE_S` seconds is never
removed, so a process between finding its model and starting it keeps it; a removal
renames the entry out of the way first, so that no process finds half of one, and puts
it back if it was used since it was chosen (a process found it in between); a process
whose :func:`touch` finds its entry gone builds it again.  The
shared Verilator runtime objects (``runtime-*``) and builds in progress (``.build-*``,
``*.tmp*``) are not entries.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import HLSError

#: an entry used this recently is never evicted (a process may be about to run it)
IN_USE_S = 120.0
#: the default size limit of the whole cache
DEFAULT_LIMIT = 8 << 30
_KINDS = ("verilator", "cocotb")
_ENTRY = {"verilator": re.compile(r"[0-9a-f]{64}"),
          "cocotb": re.compile(r".+-[0-9a-f]{20}")}
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def cache_root() -> Path:
    """``$PYHLS_CACHE``, else ``~/.cache/pyhls``."""
    env = os.environ.get("PYHLS_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "pyhls"


def parse_size(text: str) -> int:
    """Bytes of ``4G``, ``500M``, ``1.5g``, ``4096`` (binary units)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text)
    if not m:
        raise HLSError(f"'{text}' is not a size (e.g. 4G, 500M, 65536)")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def cache_limit() -> int:
    """``$PYHLS_CACHE_LIMIT`` in bytes (0: none), else :data:`DEFAULT_LIMIT`."""
    env = os.environ.get("PYHLS_CACHE_LIMIT")
    return DEFAULT_LIMIT if env is None else parse_size(env)


@dataclass(frozen=True)
class Entry:
    path: Path
    kind: str
    size: int
    used: float          # the last use (modification time of the entry's directory)


def _size(path: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_size
            except OSError:
                pass
    return total


def entries(root: Path | None = None) -> list[Entry]:
    """The cache's complete model entries, least recently used first."""
    root = cache_root() if root is None else Path(root)
    out = []
    for kind in _KINDS:
        d = root / kind
        if not d.is_dir():
            continue
        for p in d.iterdir():
            if p.is_dir() and _ENTRY[kind].fullmatch(p.name):
                try:
                    used = p.stat().st_mtime
                except OSError:        # removed meanwhile
                    continue
                out.append(Entry(p, kind, _size(p), used))
    return sorted(out, key=lambda e: (e.used, str(e.path)))


def touch(entry: Path) -> bool:
    """Mark ``entry`` used now (its place in the least-recently-used order).  False when
    it is gone: another process evicted it after it was found, and the caller builds it
    again; once touched, an eviction in progress puts it back (:func:`remove`)."""
    try:
        os.utime(entry)
        return True
    except OSError:
        return False


def remove(entry: Path, seen_used: float | None = None) -> bool:
    """Remove one entry: renamed first, so no process finds a partial one.  With
    ``seen_used`` (its last use when it was chosen): an entry used since then (a process
    found and touched it in between) is renamed back instead.  Returns whether it went."""
    trash = entry.with_name(f".trash-{entry.name}-{os.getpid()}")
    try:
        os.rename(entry, trash)
    except OSError:
        return False                    # gone already, or never there
    if seen_used is not None:
        try:
            used = trash.stat().st_mtime
        except OSError:
            return False
        if used > seen_used:
            try:
                os.rename(trash, entry)
                return False
            except OSError:             # built again meanwhile: this copy goes
                pass
    shutil.rmtree(trash, ignore_errors=True)
    return True


def enforce_limit(root: Path | None = None, limit: int | None = None,
                  keep: Path | None = None, now: float | None = None) -> list[Entry]:
    """Remove least recently used entries until the cache holds at most ``limit`` bytes
    (default :func:`cache_limit`; 0: no limit), never ``keep`` nor one used in the last
    :data:`IN_USE_S` seconds.  Returns what was removed."""
    limit = cache_limit() if limit is None else limit
    if not limit:
        return []
    now = time.time() if now is None else now
    found = entries(root)
    total = sum(e.size for e in found)
    removed = []
    for e in found:
        if total <= limit:
            break
        if (keep is not None and e.path == Path(keep)) or now - e.used < IN_USE_S:
            continue
        if remove(e.path, seen_used=e.used):
            total -= e.size
            removed.append(e)
    return removed


def _human(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"


def cache_info(root: Path | None = None) -> str:
    """``pyhls cache info``: where the cache is, its entries and size, and its limit."""
    root = cache_root() if root is None else Path(root)
    found = entries(root)
    limit = cache_limit()
    lines = [f"cache: {root}",
             f"limit: {_human(limit) if limit else 'none'} ($PYHLS_CACHE_LIMIT)"]
    for kind in _KINDS:
        mine = [e for e in found if e.kind == kind]
        lines.append(f"{kind}: {len(mine)} model(s), {_human(sum(e.size for e in mine))}")
    lines.append(f"total: {len(found)} model(s), {_human(sum(e.size for e in found))}")
    return "\n".join(lines)


def cache_clean(root: Path | None = None, keep_bytes: int = 0) -> list[Entry]:
    """``pyhls cache clean``: remove the least recently used models until at most
    ``keep_bytes`` remain (0: all of them)."""
    root = cache_root() if root is None else Path(root)
    if keep_bytes:
        return enforce_limit(root, keep_bytes, now=float("inf"))
    found = entries(root)
    for e in found:
        remove(e.path)
    return found
