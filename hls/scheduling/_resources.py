"""Resources that scheduled operations compete for, as typed objects.

Each kind of resource knows what it is (a memory's port set, a class of functional units of
one width, one dedicated unit) instead of encoding it in a string that later code parses
back.  ``str(resource)`` is the stable key that reports, schedule dumps and messages have
always shown (``mem:a``, ``mul32``, ``divider 0 (udiv at line 7)``), and resources order by
it, so deterministic iteration over resource classes is unchanged.

Plain strings remain valid resource classes of a problem (an anonymous class, as in
hand-written test problems); the scheduler only needs hashing, equality, ``str`` and the
order, which both provide.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..targets import MEMORY


@dataclass(frozen=True)
class Resource:
    """Base of the typed resources: ordered and printed by :attr:`key`."""

    @property
    def key(self) -> str:  # pragma: no cover - every concrete kind overrides it
        raise NotImplementedError

    @property
    def kind(self) -> str:  # pragma: no cover - every concrete kind overrides it
        raise NotImplementedError

    @property
    def units(self) -> int | None:
        """How many operations may use the resource at once by its nature (``None``: as
        many as the design instantiates, i.e. unlimited unless the client caps it)."""
        return None

    def __str__(self) -> str:
        return self.key

    def __lt__(self, other: object) -> bool:
        return str(self) < str(other) if isinstance(other, (Resource, str)) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return str(self) > str(other) if isinstance(other, (Resource, str)) else NotImplemented

    def to_json(self) -> dict:
        raise NotImplementedError  # pragma: no cover


@dataclass(frozen=True)
class MemoryPorts(Resource):
    """The ports of one memory: ``ports`` accesses per cycle (the memory model's)."""

    memory: str
    ports: int = MEMORY.ports

    @property
    def key(self) -> str:
        return f"mem:{self.memory}"

    @property
    def kind(self) -> str:
        return "memory"

    @property
    def units(self) -> int:
        return self.ports

    def to_json(self) -> dict:
        return {"kind": "memory", "memory": self.memory, "ports": self.ports}


def stores_first(ops):
    """The memory accesses among ``ops``, stores before loads (each kind in order).

    Ports are bound in this order, so a memory that stores at most once per cycle stores
    only through port 0: its write port shares port 0's address with a read, and the RAM
    is one read/write port and one read port.  (Stores bound to both ports at different
    times would let Yosys merge them into one write port whose address matches neither
    read port, and duplicate the RAM to serve three ports.)"""
    ops = [op for op in ops if op.kind in ("load", "store")]
    return [op for op in ops if op.kind == "store"] + [op for op in ops if op.kind == "load"]


@dataclass(frozen=True)
class UnitClass(Resource):
    """Interchangeable functional units of one operator and width (``mul32``); binding may
    share them, and a client may cap the class exactly or every width of the operator."""

    operator: str
    width: int | None = None

    @property
    def key(self) -> str:
        return self.operator if self.width is None else f"{self.operator}{self.width}"

    @property
    def kind(self) -> str:
        return "unit"

    @classmethod
    def from_target(cls, name: str) -> UnitClass:
        """The class a target's timing library names ``mul32``: the library speaks in
        strings, this is the one place they are read back."""
        op = name.rstrip("0123456789")
        return cls(op, int(name[len(op):])) if op != name and op else cls(name)

    def to_json(self) -> dict:
        return {"kind": "unit", "operator": self.operator, "width": self.width}


@dataclass(frozen=True)
class DedicatedUnit(Resource):
    """A unit owned by one operation (a sequential divider in a pipeline): one op at a
    time, for as many cycles as the op occupies it."""

    name: str

    @property
    def key(self) -> str:
        return self.name

    @property
    def kind(self) -> str:
        return "dedicated"

    @property
    def units(self) -> int:
        return 1

    def to_json(self) -> dict:
        return {"kind": "dedicated", "name": self.name}


def resource_from_json(data: str | dict | None) -> Resource | str | None:
    """Inverse of :meth:`Resource.to_json` (a plain string stays a string)."""
    if data is None or isinstance(data, str):
        return data
    kind = data.get("kind")
    if kind == "memory":
        return MemoryPorts(data["memory"], data["ports"])
    if kind == "unit":
        return UnitClass(data["operator"], data["width"])
    if kind == "dedicated":
        return DedicatedUnit(data["name"])
    raise ValueError(f"unknown resource kind {kind!r}")


def resource_to_json(r: Resource | str | None) -> str | dict | None:
    return r.to_json() if isinstance(r, Resource) else r


def cap_for(r: Resource | str, limits: dict[str, int] | None) -> int | None:
    """The client's limit for ``r`` from a ``{"mul32": 1}`` / ``{"mul": 2}`` mapping: by exact
    class first, then by operator for every width; ``None`` when not limited."""
    if not limits:
        return None
    if str(r) in limits:
        return limits[str(r)]
    if isinstance(r, UnitClass) and r.operator in limits:
        return limits[r.operator]
    return None
