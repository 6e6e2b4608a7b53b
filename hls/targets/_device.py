"""What a target's part holds: the capacities the area estimate is checked against.

``report.json["resources"]["device"]`` gives them next to the estimate, a design whose
estimate exceeds one gets a warning, and ``--fit-device`` (:func:`hls.flow.fit_device`)
gives up pipelines and shares multipliers until the estimate fits.

ECP5 capacities are nextpnr-ecp5's own (``report.json["utilization"][*]["available"]``
of a place and route on each part, package CABGA381): what place and route enforces.
nextpnr models the LFE5U-12F as the 25F die, so its capacities are the 25F's (Lattice's
datasheet limits the 12F to 12K LUTs and 32 EBR).  Alveo capacities are the whole
device's (AMD DS962/DS963), of which the shell takes a part.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Device:
    """A part's resources in the units of ``report.json["resources"]``: LUTs (LUT4 on
    ECP5, LUT6 on UltraScale+), flip-flops, DSP blocks (MULT18X18D, DSP48E2) and 18-Kb
    block RAMs (DP16KD, RAMB18)."""

    name: str
    lut: int
    ff: int
    dsp: int
    bram18: int
    #: the cell names of the DSP and block RAM units, for messages
    dsp_cell: str = "DSP"
    bram_cell: str = "BRAM18"
    #: where the figures come from
    source: str = ""

    def capacity(self, kind: str) -> int:
        return getattr(self, kind)

    def cell(self, kind: str) -> str:
        return {"lut": "LUT", "ff": "FF", "dsp": self.dsp_cell, "bram18": self.bram_cell}[kind]

    def over(self, resources: dict) -> list[tuple[str, int, int]]:
        """(kind, estimated, available) of every resource ``resources`` (report.json's)
        needs beyond this part, in the order lut, ff, dsp, bram18."""
        return [(k, resources.get(k, 0), self.capacity(k)) for k in ("lut", "ff", "dsp", "bram18")
                if resources.get(k, 0) > self.capacity(k)]

    def to_json(self) -> dict:
        return {"name": self.name, "lut": self.lut, "ff": self.ff, "dsp": self.dsp,
                "bram18": self.bram18, "dsp_cell": self.dsp_cell, "bram_cell": self.bram_cell,
                "source": self.source}


_NEXTPNR = "nextpnr-ecp5's capacities of the part"
#: nextpnr die -> (LUT4 = FF, MULT18X18D, DP16KD)
_ECP5_DIES = {"25k": (24288, 28, 56), "45k": (43848, 72, 108), "85k": (83640, 156, 208)}


def ecp5_device(part: str, speed: int) -> Device:
    """The ECP5 part ``part`` (a key of :data:`hls.pnr.ECP5_PARTS`) at speed grade
    ``speed``."""
    size = part.rsplit("-", 1)[-1]
    lut, dsp, bram = _ECP5_DIES["25k" if size == "12k" else size]
    fam = "LFE5UM5G" if part.startswith("um5g-") else "LFE5UM" if part.startswith("um-") else "LFE5U"
    return Device(f"{fam}-{size[:-1].upper()}F-{speed}", lut, lut, dsp, bram,
                  "MULT18X18D", "DP16KD", _NEXTPNR)


_ALVEO_SOURCE = "the whole device (AMD DS962/DS963); the shell takes a part"
#: xcu280 and xcu55c are one die; xcu250 the larger
ALVEO_DEVICES = {
    "alveo-u280": Device("xcu280-fsvh2892-2L-e", 1303680, 2607360, 9024, 4032, "DSP48E2",
                         "RAMB18", _ALVEO_SOURCE),
    "alveo-u55c": Device("xcu55c-fsvh2892-2L-e", 1303680, 2607360, 9024, 4032, "DSP48E2",
                         "RAMB18", _ALVEO_SOURCE),
    "alveo-u250": Device("xcu250-figd2104-2L-e", 1728000, 3456000, 12288, 5376, "DSP48E2",
                         "RAMB18", _ALVEO_SOURCE),
}
