"""Scheduling of basic blocks: problem, SDC scheduler, ASAP reference, checker.

The CDFG builder turns each basic block into a :class:`SchedProblem` (IR-independent; see
:mod:`hls.scheduling._problem` for the exact semantics), schedules it with
:func:`sdc_schedule` (or :func:`asap_schedule`) and may verify the result with
:func:`check_schedule`, which trusts nothing but the step numbers.
"""

from __future__ import annotations

from ._asap import asap_schedule
from ._check import check_schedule
from ._constraints import difference_constraints, least_solution
from ._modulo import (
    IIAttempt,
    MIIInfo,
    ModuloEdge,
    ModuloProblem,
    ModuloSchedule,
    compute_mii,
    iterative_modulo_schedule,
    modulo_constraints,
    modulo_schedule,
)
from ._function import BlockSchedule, FunctionSchedule, op_timing, schedule_function
from ._modulo_check import check_modulo_schedule
from ._pipeline import LoopPipeline, LoopProblem, check_loop_schedule, schedule_loop
from ._problem import EPS_NS, SchedEdge, SchedOp, SchedProblem, Schedule, schedule_length
from ._sdc import SOLVERS, length_lower_bound, sdc_schedule


def min_schedule_length(problem: SchedProblem) -> int:
    """Lower bound on the length of any schedule: the length of the resource-free SDC
    solution (exact when no resource class is over-subscribed)."""
    return schedule_length(problem, least_solution(problem, difference_constraints(problem)))


__all__ = [
    "BlockSchedule",
    "FunctionSchedule",
    "op_timing",
    "schedule_function",
    "EPS_NS",
    "IIAttempt",
    "MIIInfo",
    "ModuloEdge",
    "ModuloProblem",
    "ModuloSchedule",
    "check_modulo_schedule",
    "compute_mii",
    "iterative_modulo_schedule",
    "modulo_constraints",
    "modulo_schedule",
    "LoopPipeline",
    "LoopProblem",
    "check_loop_schedule",
    "schedule_loop",
    "SOLVERS",
    "SchedEdge",
    "SchedOp",
    "SchedProblem",
    "Schedule",
    "asap_schedule",
    "check_schedule",
    "difference_constraints",
    "length_lower_bound",
    "min_schedule_length",
    "schedule_length",
    "sdc_schedule",
]
