"""The result cache of ``pyhls dse``: a point evaluated once is not evaluated again.

An entry is one :class:`Result`, pickled, in ``<dir>/<key[:2]>/<key>.pkl``, where the
key (:meth:`ResultCache.key`) is the SHA-256 of

* the **tool version**: the hash of every file of the ``hls`` package (:func:`tool_hash`;
  a pyhls whose code changed in any way builds differently, whatever its version
  number says),
* the **kernel**: the frontend's module as text (``hls.ir.print_module``: the source
  after clang and the frontend, its pragmas' directives included), the compilation's
  directives and the synthesis options (the directives file's text in place of its
  path),
* the **design point** (its ``repr``: every knob).

A second exploration of the same kernel with the same options therefore takes every
point evaluated before from the cache and hands only the new ones to the cluster.
Entries are written to a temporary file and renamed, so that a reader never sees half
of one; an entry that cannot be read is evaluated again.  A compiler bug (status
``"internal-error"``) is not cached.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import pickle
from pathlib import Path

from ..ir import print_module
from ._evaluate import Compiled, Result
from ._point import DesignPoint


@functools.cache
def tool_hash() -> str:
    """SHA-256 of the ``hls`` package's files (name and content, in name order)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo"):
            h.update(str(p.relative_to(root)).encode() + b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


class ResultCache:
    """The cache in directory ``root`` for the kernel ``design`` (see the module's
    docstring); ``hits`` and ``misses`` count this run's look-ups."""

    def __init__(self, root: str | Path, design: Compiled):
        self.root = Path(root)
        opts = design.comp.opts
        text = Path(opts.directives).read_text() if opts.directives is not None else None
        h = hashlib.sha256()
        for part in (tool_hash(), print_module(design.front), repr(design.comp.dirs),
                     repr(dataclasses.replace(opts, directives=None)), repr(text)):
            h.update(part.encode() + b"\0")
        self._base = h.hexdigest()
        self.hits = 0
        self.misses = 0

    def key(self, point: DesignPoint) -> str:
        return hashlib.sha256((self._base + repr(point)).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.pkl"

    def get(self, point: DesignPoint) -> Result | None:
        """The cached result of ``point``, or None."""
        try:
            with open(self._path(self.key(point)), "rb") as f:
                res = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            res = None
        if not isinstance(res, Result) or res.point != point:
            self.misses += 1
            return None
        self.hits += 1
        return res

    def put(self, res: Result) -> None:
        """Keep ``res`` (not a compiler bug's)."""
        if res.status == "internal-error":
            return
        path = self._path(self.key(res.point))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
        tmp.write_bytes(pickle.dumps(dataclasses.replace(res, verilog=None, report=None)))
        os.replace(tmp, path)

    def wrap(self, evaluate_many):
        """``evaluate_many`` with the cache in front: the points found are not handed
        over, the results of the others are kept."""
        def cached_many(points: list[DesignPoint]) -> list[Result]:
            got = [self.get(p) for p in points]
            todo = [p for p, r in zip(points, got) if r is None]
            new = iter(evaluate_many(todo) if todo else ())
            out = []
            for r in got:
                if r is None:
                    r = next(new)
                    self.put(r)
                out.append(r)
            return out
        return cached_many
