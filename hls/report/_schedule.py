"""report.json's ``schedule``: every op of every schedule, compact enough to read and to
draw (the HTML report's schedule charts, :mod:`hls.report._html`).

Layout: one entry per function, ``{"function", "file", "blocks": [...]}`` (``file``: the
source file of its ops' lines, when they are all in one), its blocks in the
function's order; a block is ``{"block", "steps", "ops"}`` (``steps``: its FSM states), or
for a pipelined loop body ``{"block", "loop", "pipeline": {"ii", "depth", "stages"},
"ops"}`` with the modulo schedule of one iteration (``loop``: report.json's
``loops[*].name``).  An op is one string of six fields separated by single spaces::

    STEP LATENCY START_NS END_NS LINE LABEL

``STEP`` its state in the block (in a pipeline: the cycle of the iteration it issues in;
its stage is ``STEP // II``, its modulo slot ``STEP % II``); ``LATENCY`` cycles until its
result; ``START_NS``/``END_NS`` (two decimals) where its logic starts and ends in the
clock period: a combinational op (``LATENCY`` 0) runs from the arrival of its chained
inputs to its own arrival in ``STEP``; a multi-cycle op takes its inputs at ``START_NS``
of ``STEP`` and its result settles at ``END_NS`` of ``STEP + LATENCY``; ``LINE`` the C
line (``-``: none); ``LABEL`` the rest of the string (kind, width, memory or callee).
Phis are left out (registers, not logic).  One string per op keeps report.json one line
per op.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import loop_name

__all__ = ["OpRecord", "op_label", "parse_op", "schedule_report"]


@dataclass(frozen=True, slots=True)
class OpRecord:
    """One op of report.json's ``schedule`` (see the module docstring)."""

    step: int
    latency: int
    start_ns: float
    end_ns: float
    line: int | None
    label: str

    def to_text(self) -> str:
        line = "-" if self.line is None else str(self.line)
        return (f"{self.step} {self.latency} {self.start_ns:.2f} {self.end_ns:.2f} {line} "
                f"{self.label}")


def parse_op(text: str) -> OpRecord:
    """The :class:`OpRecord` of one op string (inverse of :meth:`OpRecord.to_text`)."""
    step, lat, start, end, line, label = text.split(" ", 5)
    return OpRecord(int(step), int(lat), float(start), float(end),
                    None if line == "-" else int(line), label)


def op_label(op) -> str:
    """What a chart names an op by: its kind, then its memory (loads, stores), callee
    (calls) or width."""
    mem = op.attrs.get("mem")
    if mem is not None:
        return f"{op.kind} {mem.name}"
    callee = op.attrs.get("callee")
    if callee is not None:
        return f"{op.kind} {callee.name}"
    return f"{op.kind} i{op.width}" if op.width else op.kind


@dataclass(frozen=True, slots=True)
class _Timing:
    latency: int
    delay_ns: float


def _record(op, step: int, sop, arrival: float) -> OpRecord:
    """``sop``: the op's scheduling-problem op (latency, delay)."""
    if sop.latency == 0:
        start, end = max(0.0, arrival - sop.delay_ns), arrival
    else:
        start, end = arrival, sop.delay_ns
    line = op.loc.line if op.loc is not None else None
    return OpRecord(step, sop.latency, start, end, line, op_label(op))


def _block(bs) -> dict:
    sched, prob = bs.schedule, bs.problem
    ops = [_record(op, sched.steps[i], prob.op(i), sched.arrival_ns.get(i, 0.0)).to_text()
           for i, op in enumerate(bs.ops) if op.kind != "phi" and i in sched.steps]
    return {"block": bs.block.name, "steps": sched.length, "ops": ops}


def _pipeline(func, pl) -> dict:
    model, sched = pl.model, pl.schedule
    ops = []
    for op, t in pl.time.items():
        if op.kind == "phi":
            continue
        i = model.id.get(op) if model is not None else None
        if i is None:       # no problem op (a hand-built pipeline): its latency, no delay
            sop, arrival = _Timing(pl.latency[op], 0.0), 0.0
        else:
            sop = model.problem.by_id[i]
            arrival = sched.arrival_ns.get(i, 0.0) if sched is not None else 0.0
        ops.append(_record(op, t, sop, arrival))
    ops.sort(key=lambda r: r.step)     # stable: the body's order within a cycle
    return {"block": pl.block.name, "loop": loop_name(func, pl.loop),
            "pipeline": {"ii": pl.ii, "depth": pl.depth, "stages": pl.stages},
            "ops": [r.to_text() for r in ops]}


def schedule_report(module, schedules) -> list[dict]:
    """report.json's ``schedule`` of a design's ``schedules`` (function -> its
    :class:`hls.scheduling.FunctionSchedule`), functions in the module's order."""
    out = []
    for f in module.functions:
        fs = schedules.get(f)
        if fs is None:
            continue
        blocks = []
        for b in f.blocks:
            bs = fs.blocks.get(b)
            if bs is None:
                continue
            blocks.append(_pipeline(f, bs.pipeline) if bs.pipeline is not None else _block(bs))
        files = sorted({op.loc.file for b in f.blocks for op in b.ops
                        if op.loc is not None and op.loc.file})
        out.append({"function": f.name} | ({"file": files[0]} if len(files) == 1 else {})
                   | {"blocks": blocks})
    return out
