"""Scheduling: one family of problems, their solvers and one checker.

The problems (:mod:`hls.scheduling._family`): a basic block is a :class:`SchedProblem`
(IR-independent; see :mod:`hls.scheduling._problem` for the exact semantics), solved by
:func:`sdc_schedule` (or :func:`asap_schedule`); a pipelined loop body is a
:class:`ModuloProblem`, solved by :func:`modulo_schedule` (an IR loop's is built by
:func:`schedule_loop` in a :class:`LoopModel`).  Both mix in the traits
:class:`Problem`, :class:`ChainingProblem`, :class:`SharedOperatorsProblem` (and
:class:`CyclicProblem` for loops), use typed resources (:class:`MemoryPorts`,
:class:`UnitClass`, :class:`DedicatedUnit`) and accept client constraints
(:class:`OrderConstraint`, :class:`SameCycle`, :class:`ChannelSendBeforeReceive`).  :func:`check` verifies any schedule of
any of them, trusting nothing but the step numbers.
"""

from __future__ import annotations

from ._asap import asap_schedule
from ._check import check, check_modulo_schedule, check_schedule
from ._constraints import difference_constraints, least_solution
from ._family import (
    ChainingProblem,
    ChannelSendBeforeReceive,
    CyclicProblem,
    OrderConstraint,
    Problem,
    SameCycle,
    SharedOperatorsProblem,
)
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
    schedule_memo,
)
from ._function import (BlockSchedule, FunctionSchedule, loop_directives, op_key, op_timing,
                        port_fanin, schedule_function)
from ._pipeline import (
    SHARE_MIN_WIDTH,
    LoopModel,
    LoopPipeline,
    check_loop_schedule,
    check_loop_units,
    exit_waits,
    pipeline_unit_class,
    schedule_loop,
    share_units,
)
from ._profit import (
    DEFAULT_TRIPS,
    LoopCounts,
    LoopEstimate,
    Profitability,
    iteration_states,
    iteration_weights,
    skipped,
    unroll_factor,
)
from ._problem import EPS_NS, SchedEdge, SchedOp, SchedProblem, Schedule, schedule_length
from ._resources import DedicatedUnit, MemoryPorts, Resource, UnitClass, stores_first
from ._sdc import SOLVERS, length_lower_bound, sdc_schedule


def min_schedule_length(problem: SchedProblem) -> int:
    """Lower bound on the length of any schedule: the length of the resource-free SDC
    solution (exact when no resource class is over-subscribed)."""
    return schedule_length(problem, least_solution(problem, difference_constraints(problem)))


__all__ = [
    "DEFAULT_TRIPS", "LoopCounts", "LoopEstimate", "Profitability", "iteration_states", "iteration_weights", "skipped", "unroll_factor",
    "ChannelSendBeforeReceive",
    "BlockSchedule",
    "FunctionSchedule",
    "op_key",
    "op_timing",
    "port_fanin",
    "schedule_function",
    "loop_directives",
    "ChainingProblem",
    "CyclicProblem",
    "DedicatedUnit",
    "MemoryPorts",
    "stores_first",
    "OrderConstraint",
    "Problem",
    "Resource",
    "SameCycle",
    "SharedOperatorsProblem",
    "UnitClass",
    "check",
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
    "schedule_memo",
    "LoopPipeline",
    "LoopModel",
    "check_loop_schedule",
    "schedule_loop",
    "share_units",
    "check_loop_units",
    "pipeline_unit_class",
    "SHARE_MIN_WIDTH",
    "exit_waits",
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
