"""Platforms: how the top of a design meets the world around it.

A :class:`Target` says how fast operators are; its :class:`Platform` says what the top's
ports are, which the flow tests wherever the two kinds of top differ (instead of asking
whether the target's family is ``ultrascale+``):

``plain`` (every target but the Alveo cards)
    The ``ap_ctrl_hs`` block-level handshake with BRAM-style memory ports
    (``hls.rtl.TopRTL``): a pointer argument of the top is a memory port, writable
    globals are memories outside the design, and the design can carry loop probes and
    a dataflow deadlock monitor and be placed and routed by an open flow.

``alveo``
    A Vitis RTL kernel (``hls.rtl.AlveoTop``): the top's pointer arguments are AXI4
    masters or AXI4-Stream interfaces (``--interface``), its scalars and control an
    AXI4-Lite slave; so those arguments stay whole (no partitioning) and their loops
    stay rolled, globals stay on chip, the latency has only a lower bound (AXI transfers
    stall the core), and a Vitis package is written beside the Verilog.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.errors import InternalError

#: the kinds of top-level memory ports
PORT_KINDS = ("bram", "axi")


@dataclass(frozen=True, slots=True)
class Platform:
    """What the top of a design is: ``ports`` the kind of its memory ports (``"bram"``:
    BRAM-style ports behind ``ap_ctrl_hs``; ``"axi"``: AXI4 master, Stream and Lite
    through the ``hls.memory`` adapters, a Vitis RTL kernel whose package
    (``hls.package``) the outputs include)."""

    name: str
    ports: str = "bram"

    def __post_init__(self) -> None:
        if self.ports not in PORT_KINDS:
            raise InternalError(f"platform {self.name}: ports must be one of "
                                f"{', '.join(PORT_KINDS)}, not '{self.ports}'")

    @property
    def axi(self) -> bool:
        """The top's pointer arguments are AXI4 master or AXI4-Stream interfaces."""
        return self.ports == "axi"


#: the ap_ctrl_hs top with BRAM-style ports
PLAIN = Platform("plain")
#: the Vitis RTL kernel of the Alveo cards
ALVEO = Platform("alveo", ports="axi")
