"""The BRAM-style memory port as an Amaranth ``lib.wiring`` interface.

Every memory a datapath sees (internal RAM/ROM, an external array of the top, a callee's
pointer argument, an AXI master or AXI4-Stream adapter behind an Alveo top) is reached
through the same port: word ``address``, chip enable ``ce``, byte-enables ``we`` (a
write when nonzero), write data ``d``, read data ``q`` (read-first, one cycle after
``ce``).  :class:`MemPortSignature` describes it from the side that issues accesses (the
FSMD); the memory side uses its flip.

The Verilog names of the signals are part of the documented port contract
(``<prefix>_address<k>``, ``_ce<k>``, ``_we<k>``, ``_d<k>``, ``_q<k>``), so the
interface objects here create their signals with those names instead of letting
``Signature.create`` derive them from member paths; :func:`amaranth.lib.wiring.connect`
only needs the ``signature`` property and one attribute per member.
"""

from __future__ import annotations

from amaranth.hdl import Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


class MemPortSignature(wiring.Signature):
    """One port, seen from the accessing side: ``address``, ``ce``, ``we``, ``d`` out and
    ``q`` in; ``addr_bits``-bit word addresses, ``word_bytes``-byte words."""

    def __init__(self, addr_bits: int, word_bytes: int):
        self.addr_bits = addr_bits
        self.word_bytes = word_bytes
        super().__init__({
            "address": Out(addr_bits),
            "ce": Out(1),
            "we": Out(word_bytes),
            "d": Out(8 * word_bytes),
            "q": In(8 * word_bytes),
        })

    def __eq__(self, other):
        return (isinstance(other, MemPortSignature) and self.addr_bits == other.addr_bits
                and self.word_bytes == other.word_bytes)

    def __hash__(self):
        return hash((MemPortSignature, self.addr_bits, self.word_bytes))

    def __repr__(self):
        return f"MemPortSignature({self.addr_bits}, {self.word_bytes})"


class MemPort:
    """An interface object of :class:`MemPortSignature` (flipped with ``flip=True``: the
    memory side) whose signals are named ``<prefix>_address<k>`` etc."""

    def __init__(self, addr_bits: int, word_bytes: int, prefix: str, k: int, *, flip: bool = False):
        sig = MemPortSignature(addr_bits, word_bytes)
        self._signature = sig.flip() if flip else sig
        self.address = Signal(addr_bits, name=f"{prefix}_address{k}")
        self.ce = Signal(name=f"{prefix}_ce{k}")
        self.we = Signal(word_bytes, name=f"{prefix}_we{k}")
        self.d = Signal(8 * word_bytes, name=f"{prefix}_d{k}")
        self.q = Signal(8 * word_bytes, name=f"{prefix}_q{k}")

    @property
    def signature(self) -> wiring.Signature:
        return self._signature

    def requests(self) -> list[Signal]:
        """The signals the accessing side drives, in port-list order."""
        return [self.address, self.ce, self.we, self.d]

    def signals(self) -> list[Signal]:
        """All signals in Verilog port-list order (``address``, ``ce``, ``we``, ``d``, ``q``)."""
        return self.requests() + [self.q]


class MemPorts:
    """The ``nports`` ports of one memory as seen by a function: ``port[k]`` (also the
    attribute ``port<k>``) is a :class:`MemPort`.  The object itself is an interface with
    one :class:`MemPortSignature` member ``port<k>`` per port, so one ``wiring.connect``
    forwards all ports.  (Members are numbered rather than an array: Amaranth 0.5's
    ``wiring.flipped`` cannot flip a list of interface objects.)"""

    def __init__(self, addr_bits: int, word_bytes: int, prefix: str, nports: int):
        self.addr_bits = addr_bits
        self.word_bytes = word_bytes
        self.port = [MemPort(addr_bits, word_bytes, prefix, k) for k in range(nports)]
        for k, port in enumerate(self.port):
            setattr(self, f"port{k}", port)
        self._signature = wiring.Signature(
            {f"port{k}": Out(MemPortSignature(addr_bits, word_bytes)) for k in range(nports)})

    @property
    def signature(self) -> wiring.Signature:
        return self._signature

    def __len__(self) -> int:
        return len(self.port)
