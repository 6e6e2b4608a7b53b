"""Modulo scheduling: MII, the CP-SAT scheduler with its IMS fallback, and the checker."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hls.errors import ScheduleError
from hls.scheduling import (
    ModuloEdge,
    ModuloProblem,
    ModuloSchedule,
    OrderConstraint,
    SameCycle,
    SchedEdge,
    SchedOp,
    SchedProblem,
    check_modulo_schedule,
    compute_mii,
    iterative_modulo_schedule,
    modulo_constraints,
    modulo_schedule,
)
from hls.scheduling._modulo import _finish

E = ModuloEdge


def op(i, name=None, lat=0, delay=1.0, res=None, occ=1):
    return SchedOp(i, name or f"o{i}", lat, delay, res, occ)


def with_steps(p: ModuloProblem, ii: int, steps: dict[int, int]) -> ModuloSchedule:
    """A schedule with consistent derived figures (to corrupt only the steps)."""
    return _finish(p, ii, dict(steps), compute_mii(p), [], "test", optimal_ii=False,
                   depth_optimal=False)


def schedule_checked(p: ModuloProblem, **kw) -> ModuloSchedule:
    s = modulo_schedule(p, **kw)
    check_modulo_schedule(p, s)
    return s


def fir(taps: int, muls: int | None, fp: bool = False) -> ModuloProblem:
    """Direct-form FIR: load x, products of x[n-k] (distance-k edges), chain of adds."""
    mul = (3, 0.2, "fmul") if fp else (2, 0.2, "mul")
    add = (4, 0.2, "fadd") if fp else (0, 2.0, None)
    ops = [op(0, "iv", 0, 2.0), op(1, "x", 1, 1.5, "mem:x"), op(2, "y", 0, 0.5, "mem:y")]
    edges = [E(0, 0, 1), E(0, 1), E(0, 2)]
    prods = []
    for k in range(taps):
        i = len(ops)
        ops.append(op(i, f"p{k}", *mul))
        edges.append(E(1, i, k))
        prods.append(i)
    acc = prods[0]
    for k in range(1, taps):
        i = len(ops)
        ops.append(op(i, f"a{k}", *add))
        edges += [E(acc, i), E(prods[k], i)]
        acc = i
    edges.append(E(acc, 2))
    res = {"mem:x": 2, "mem:y": 2}
    if muls:
        res[mul[2]] = muls
    return ModuloProblem(ops, edges, res, 10.0, f"fir{taps}")


def biquad(fp: bool, muls: int | None = None) -> ModuloProblem:
    """DF-I biquad; feedback y -> a1 (distance 1), y -> a2 (distance 2)."""
    mul = (3, 0.2, "fmul") if fp else (2, 0.2, "mul")
    add = (4, 0.2, "fadd") if fp else (0, 2.0, None)
    ops = [op(0, "iv", 0, 2.0), op(1, "x", 1, 1.5, "mem:x"), op(2, "b0", *mul),
           op(3, "b1", *mul), op(4, "b2", *mul), op(5, "s1", *add), op(6, "s2", *add),
           op(7, "a1", *mul), op(8, "a2", *mul), op(9, "s3", *add), op(10, "y", *add),
           op(11, "st", 0, 0.5, "mem:y")]
    edges = [E(0, 0, 1), E(0, 1), E(1, 2), E(1, 3, 1), E(1, 4, 2), E(2, 5), E(3, 5), E(5, 6),
             E(4, 6), E(6, 9), E(7, 9), E(9, 10), E(8, 10), E(10, 7, 1), E(10, 8, 2),
             E(10, 11), E(0, 11)]
    res = {"mem:x": 2, "mem:y": 2}
    if muls:
        res[mul[2]] = muls
    return ModuloProblem(ops, edges, res, 10.0, "biquad")


def random_problem(seed: int, n: int) -> ModuloProblem:
    rng = random.Random(seed)
    kinds = [(0, 2.0, None, 1), (0, 3.5, None, 1), (2, 0.2, "mul", 1), (4, 0.2, "fadd", 1),
             (1, 1.5, "mem:a", 1), (0, 0.5, "mem:a", 1), (6, 0.2, "div", 6)]
    ops, edges = [], []
    for i in range(n):
        lat, d, r, occ = rng.choice(kinds)
        ops.append(op(i, f"n{i}", lat, d, r, occ))
        for j in rng.sample(range(i), min(i, rng.randint(0, 2))):
            edges.append(E(j, i))
    for _ in range(rng.randint(1, 3)):
        a, b = sorted(rng.sample(range(n), 2))
        edges.append(E(b, a, rng.randint(1, 3)))
    res = {"mem:a": rng.choice([1, 2]), "mul": rng.choice([1, 2]), "div": 1,
           "fadd": rng.choice([1, 3])}
    return ModuloProblem(ops, edges, res, 10.0, f"rand{seed}")


# -- MII ----------------------------------------------------------------------------------


def test_res_mii_from_memory_ports_and_occupancy():
    ops = [op(i, f"ld{i}", 1, 1.5, "mem:m") for i in range(5)]
    p = ModuloProblem(ops, [], {"mem:m": 2})
    m = compute_mii(p)
    assert (m.mii, m.res_mii, m.rec_mii) == (3, 3, 1)
    assert "mem:m" in m.limiting and "5 uses / 2 units" in m.limiting
    # two non-pipelined dividers' worth of occupancy on one unit
    ops = [op(0, "d0", 18, 0.2, "div", 18), op(1, "d1", 18, 0.2, "div", 18)]
    assert compute_mii(ModuloProblem(ops, [], {"div": 1})).res_mii == 36
    assert compute_mii(ModuloProblem(ops, [], {"div": 2})).res_mii == 18
    # unlimited classes do not count
    assert compute_mii(ModuloProblem(ops, [], {})).mii == 1


@pytest.mark.parametrize("dist, rec", [(1, 6), (2, 3), (3, 2), (6, 1)])
def test_rec_mii_three_op_recurrence(dist, rec):
    # a (lat 2) -> b (lat 1) -> c (lat 3) -> a, 6 cycles around, distance ``dist``
    ops = [op(0, "a", 2, 0.2), op(1, "b", 1, 0.2), op(2, "c", 3, 0.2)]
    p = ModuloProblem(ops, [E(0, 1), E(1, 2), E(2, 0, dist)])
    m = compute_mii(p)
    assert (m.mii, m.rec_mii, m.res_mii) == (rec, rec, 1)
    if rec > 1:
        assert m.limiting == "recurrence a(0) -> b(1) -> c(2) -> a(0)"


def test_rec_mii_two_recurrences_takes_the_worst_ratio():
    # cycle 1: 7 cycles / distance 2 -> 4; cycle 2: 3 cycles / distance 1 -> 3
    ops = [op(0, "a", 4, 0.2), op(1, "b", 3, 0.2), op(2, "c", 3, 0.2)]
    p = ModuloProblem(ops, [E(0, 1), E(1, 0, 2), E(2, 2, 1)])
    m = compute_mii(p)
    assert m.rec_mii == 4 and "a(0) -> b(1) -> a(0)" in m.limiting


def test_chained_recurrence_fits_one_cycle():
    # three combinational 3 ns ops around a distance-1 cycle: 9 ns fits a 10 ns clock
    ops = [op(i, f"add{i}", 0, 3.0) for i in range(3)]
    edges = [E(0, 1), E(1, 2), E(2, 0, 1)]
    p = ModuloProblem(ops, edges, {}, 10.0)
    assert compute_mii(p).rec_mii == 1
    s = schedule_checked(p)
    assert s.ii == 1 and s.depth == 1 and set(s.steps.values()) == {0}
    assert s.arrival_ns[2] == pytest.approx(9.0)
    # 4 ns each: 12 ns does not fit, the recurrence needs two cycles
    ops = [op(i, f"add{i}", 0, 4.0) for i in range(3)]
    p = ModuloProblem(ops, edges, {}, 10.0)
    m = compute_mii(p)
    assert m.rec_mii == 2 and m.limiting.startswith("recurrence")
    s = schedule_checked(p)
    assert s.ii == 2 and s.optimal_ii


def test_chaining_across_iterations_is_timed():
    # a (6 ns) -> b (6 ns) -> a of the next iteration: at II=1 b of iteration n and a of
    # iteration n+1 would share a cycle (12 ns), so II=2 even without chaining in an iteration
    p = ModuloProblem([op(0, "a", 0, 6.0), op(1, "b", 0, 6.0)], [E(0, 1), E(1, 0, 1)])
    assert (1, 0, 1, 1) in modulo_constraints(p)  # step(a) + II >= step(b) + 1
    assert compute_mii(p).rec_mii == 2
    # a schedule chaining b(n) into a(n+1) in one cycle is rejected by the checker
    bad = with_steps(p, 1, {0: 0, 1: 1})
    with pytest.raises(ScheduleError, match="timing violated.*a\\(0\\).*chained after b\\(1\\)"):
        check_modulo_schedule(p, bad)


def test_cross_iteration_chain_within_the_clock():
    # ld (lat 1) -> u (3 ns) at step 1; v at step 0 uses u of the previous iteration: at
    # II=1 they share a cycle and v's arrival includes u's
    ops = [op(0, "ld", 1, 1.5), op(1, "u", 0, 3.0), op(2, "v", 0, 3.0)]
    p = ModuloProblem(ops, [E(0, 1), E(1, 2, 1), E(2, 2, 1)], {})
    s = schedule_checked(p)
    assert s.ii == 1
    st = s.steps
    if st[2] + 1 == st[1]:
        assert s.arrival_ns[2] == pytest.approx(1.5 + 3.0 + 3.0)


# -- schedules ------------------------------------------------------------------------


@pytest.mark.parametrize("taps, muls, mii", [(4, None, 1), (8, 2, 4), (8, 3, 3)])
def test_fir_reaches_mii(taps, muls, mii):
    p = fir(taps, muls)
    s = schedule_checked(p)
    assert s.mii.mii == mii and s.ii == mii and s.optimal_ii
    assert [a.ii for a in s.attempts] == [mii]
    assert s.stages == -(-s.depth // s.ii)


def test_fp_fir_depth_is_the_adder_chain():
    s = schedule_checked(fir(4, None, fp=True))
    # iv, load (1), fmul (3), three fadds (4 each) -> born at 1 + 3 + 12 = 16
    assert s.ii == 1 and s.depth == 17 and s.depth_optimal


@pytest.mark.parametrize("fp, muls, mii", [(False, None, 2), (False, 2, 3), (True, None, 11),
                                           (True, 1, 11)])
def test_biquad_reaches_mii(fp, muls, mii):
    p = biquad(fp, muls)
    m = compute_mii(p)
    assert m.mii == mii
    if fp:  # a1 (fmul 3) -> s3 (fadd 4) -> y (fadd 4) -> a1
        assert m.rec_mii == 11 and "a1(7) -> s3(9) -> y(10) -> a1(7)" in m.limiting
    s = schedule_checked(p)
    assert s.ii == mii and s.optimal_ii and s.depth_optimal


def test_resource_conflict_forces_mii_plus_one():
    # m1 (lat 3) -> m2 (lat 3) -> m1 two iterations later: RecMII = 6/2 = 3 and at II=3
    # step(m2) = step(m1) + 3 exactly, the same modulo slot: one multiplier cannot do both.
    ops = [op(0, "m1", 3, 0.2, "mul"), op(1, "m2", 3, 0.2, "mul")]
    p = ModuloProblem(ops, [E(0, 1), E(1, 0, 2)], {"mul": 1}, 10.0, "conflict")
    m = compute_mii(p)
    assert (m.mii, m.res_mii, m.rec_mii) == (3, 2, 3)
    assert iterative_modulo_schedule(p, 3) is None
    s = schedule_checked(p)
    assert s.ii == 4 and s.optimal_ii
    assert [(a.ii, a.status) for a in s.attempts] == [(3, "infeasible"), (4, "optimal")]
    assert s.slot(0) != s.slot(1)
    # with two multipliers II = MII
    s2 = schedule_checked(dataclasses.replace(p, resources={"mul": 2}))
    assert s2.ii == 3


def test_memory_recurrence_histogram():
    # x = load data; h = load hist[x]; h1 = h + 1; store hist[x]; the store must precede
    # the next iteration's load: 1 (load) + 0 + 1 (store -> load) = 2 cycles per iteration
    ops = [op(0, "iv", 0, 2.0), op(1, "x", 1, 1.5, "mem:data"), op(2, "h", 1, 1.5, "mem:hist"),
           op(3, "h1", 0, 2.0), op(4, "st", 0, 0.5, "mem:hist")]
    edges = [E(0, 0, 1), E(0, 1), E(1, 2), E(2, 3), E(3, 4), E(1, 4), E(2, 4, 0, 0),
             E(4, 2, 1, 1)]
    p = ModuloProblem(ops, edges, {"mem:data": 2, "mem:hist": 2})
    s = schedule_checked(p)
    assert s.mii.rec_mii == 2 and s.ii == 2
    # one port for everything: 3 accesses -> ResMII 3
    ops1 = [dataclasses.replace(o, resource="mem:one") if o.resource else o for o in ops]
    s = schedule_checked(ModuloProblem(ops1, edges, {"mem:one": 1}))
    assert s.mii.res_mii == 3 and s.ii == 3


def test_non_pipelined_unit_occupancy_wraps():
    # a divider busy 5 cycles, two of them, two units: ResMII 5
    ops = [op(0, "d0", 5, 0.2, "div", 5), op(1, "d1", 5, 0.2, "div", 5), op(2, "add", 0, 2.0)]
    p = ModuloProblem(ops, [E(0, 2), E(1, 2)], {"div": 2})
    s = schedule_checked(p)
    assert s.ii == 5


def test_explicit_ii_and_limits():
    p = fir(8, 2)
    s = schedule_checked(p, ii=6)
    assert s.ii == 6 and not s.optimal_ii
    with pytest.raises(ScheduleError, match="II must be >= the MII 4"):
        modulo_schedule(p, ii=3)
    ops = [op(0, "m1", 3, 0.2, "mul"), op(1, "m2", 3, 0.2, "mul")]
    q = ModuloProblem(ops, [E(0, 1), E(1, 0, 2)], {"mul": 1})
    with pytest.raises(ScheduleError, match=r"no schedule with II <= 3 \(tried 3: infeasible\)"):
        modulo_schedule(q, max_ii=3)


def test_deterministic():
    for p in (fir(16, 3), random_problem(7, 30)):
        a = modulo_schedule(p)
        b = modulo_schedule(p)
        assert dict(a.steps) == dict(b.steps)
        assert (a.ii, a.depth, a.register_pressure) == (b.ii, b.depth, b.register_pressure)
        assert a.to_text(p) == b.to_text(p)


def test_to_text():
    p = biquad(False)
    txt = modulo_schedule(p).to_text(p)
    assert txt.startswith("modulo schedule biquad: ii=2 (mii=2 res=1 rec=2)")
    assert "mrt mem:x/2:" in txt


@pytest.mark.parametrize("seed", range(8))
def test_random_graphs_checked(seed):
    p = random_problem(seed, 8 + 4 * seed)
    s = schedule_checked(p)
    assert s.ii >= s.mii.mii
    if s.optimal_ii:
        assert all(a.status == "infeasible" for a in s.attempts[:-1])
    ims = iterative_modulo_schedule(p, s.ii)
    if ims is not None:  # IMS schedules are valid too
        check_modulo_schedule(p, with_steps(p, s.ii, ims))


def test_from_block():
    ops = [op(0, "ld", 1, 1.5, "mem:a"), op(1, "add", 0, 2.0), op(2, "st", 0, 0.5, "mem:a"),
           op(3, "br", 0, 0.0)]
    block = SchedProblem(ops, [SchedEdge(0, 1), SchedEdge(1, 2), SchedEdge(0, 2, 0)],
                         {"mem:a": 2}, 10.0, 3)
    p = ModuloProblem.from_block(block, [E(2, 0, 1, 1)], name="loop")
    assert p.name == "loop" and len(p.edges) == 4
    s = schedule_checked(p)
    assert s.ii == 2  # ld (1) -> add -> st, st -> ld next iteration (1)


# -- validation ----------------------------------------------------------------------------


def test_validation_errors():
    with pytest.raises(ScheduleError, match="cycle of distance-0 edges among ops a\\(0\\), b\\(1\\)"):
        ModuloProblem([op(0, "a"), op(1, "b")], [E(0, 1), E(1, 0)])
    with pytest.raises(ScheduleError, match="self edge on a\\(0\\) must have a distance >= 1"):
        ModuloProblem([op(0, "a")], [E(0, 0)])
    with pytest.raises(ScheduleError, match="distance must be an int >= 0, not -1"):
        ModuloProblem([op(0, "a"), op(1, "b")], [E(0, 1, -1)])
    with pytest.raises(ScheduleError, match="delay must be >= the latency 2"):
        ModuloProblem([op(0, "a", 2), op(1, "b")], [E(0, 1, 0, 1, True)])
    with pytest.raises(ScheduleError, match="unknown op 5"):
        ModuloProblem([op(0, "a")], [E(0, 5)])
    with pytest.raises(ScheduleError, match="needs resource 'mul', which has 0 units"):
        ModuloProblem([op(0, "a", 1, 0.2, "mul")], [], {"mul": 0})


# -- the checker rejects bad schedules -------------------------------------------------------


def test_checker_rejects_bad_schedules():
    p = biquad(False, 2)
    good = modulo_schedule(p)
    check_modulo_schedule(p, good)
    ii, st = good.ii, dict(good.steps)

    # an intra-iteration data edge: b0 before its load's data
    bad = dict(st, **{})
    bad[2] = st[1]
    with pytest.raises(ScheduleError, match="data edge x\\(1\\) -> b0\\(2\\) \\(distance 0\\) violated"):
        check_modulo_schedule(p, with_steps(p, ii, bad))

    # a loop-carried edge: y -> a1 of the next iteration needs step(a1) + II >= step(y)
    bad = dict(st)
    bad[10] = st[7] + ii + 1
    bad[11] = bad[10]
    with pytest.raises(ScheduleError, match="edge y\\(10\\) -> a1\\(7\\) \\(distance 1\\) violated"):
        check_modulo_schedule(p, with_steps(p, ii, bad))

    # the modulo reservation table: three multipliers in one slot of two units
    q = ModuloProblem([op(i, f"m{i}", 2, 0.2, "mul") for i in range(3)], [], {"mul": 2})
    with pytest.raises(ScheduleError, match="resource 'mul' overloaded in modulo slot 0 at II=2"):
        check_modulo_schedule(q, with_steps(q, 2, {0: 0, 1: 2, 2: 4}))
    check_modulo_schedule(q, with_steps(q, 2, {0: 0, 1: 2, 2: 3}))

    # a chain longer than the clock within one cycle
    r = ModuloProblem([op(0, "a", 0, 6.0), op(1, "b", 0, 6.0)], [E(0, 1)])
    with pytest.raises(ScheduleError, match="timing violated in step 0.*b\\(1\\) arrives at 12.000"):
        check_modulo_schedule(r, with_steps(r, 1, {0: 0, 1: 0}))

    # misreported figures
    with pytest.raises(ScheduleError, match="reported depth"):
        check_modulo_schedule(p, dataclasses.replace(good, depth=good.depth + 1))
    with pytest.raises(ScheduleError, match="reported stages"):
        check_modulo_schedule(p, dataclasses.replace(good, stages=good.stages + 1))
    with pytest.raises(ScheduleError, match="reported register pressure"):
        check_modulo_schedule(p, dataclasses.replace(good, register_pressure=0))
    with pytest.raises(ScheduleError, match="invalid step -1"):
        check_modulo_schedule(p, dataclasses.replace(good, steps={**st, 0: -1}))
    with pytest.raises(ScheduleError, match="has no step"):
        check_modulo_schedule(p, dataclasses.replace(good, steps={k: v for k, v in st.items() if k}))

    # an II claimed optimal above the MII without a proof for the smaller ones
    s4 = with_steps(p, ii + 1, st)
    with pytest.raises(ScheduleError, match=f"claimed optimal but II {ii} was not proven"):
        check_modulo_schedule(p, dataclasses.replace(s4, optimal_ii=True))


# -- exactness against an exhaustive oracle ---------------------------------------------------


def _oracle(p: ModuloProblem, ii: int) -> int | None:
    """Minimum depth at ``ii`` by enumerating every modulo slot assignment (resources depend
    on the slots only; for fixed slots the least iteration offsets, by Bellman-Ford on the
    edges, minimise every step).  Edges only: use problems whose chains fit the clock."""
    import itertools

    by_id = p.by_id
    ids = [o.id for o in p.ops]
    best = None
    for slots in itertools.product(range(ii), repeat=len(ids)):
        r = dict(zip(ids, slots))
        use: dict[tuple[str, int], int] = {}
        ok = True
        for o in p.ops:
            if o.resource in p.resources:
                for k in range(o.occupancy):
                    key = (o.resource, (r[o.id] + k) % ii)
                    use[key] = use.get(key, 0) + 1
                    ok &= use[key] <= p.resources[o.resource]
        if not ok:
            continue
        # k_v - k_u >= ceil((w - II*d + r_u - r_v) / II)
        arcs = [(e.src, e.dst, -(-(e.weight(p) - ii * e.distance + r[e.src] - r[e.dst]) // ii))
                for e in p.edges]
        k = {i: 0 for i in ids}
        for _ in range(len(ids) + 1):
            changed = False
            for u, v, c in arcs:
                if k[u] + c > k[v]:
                    k[v] = k[u] + c
                    changed = True
            if not changed:
                break
        else:
            continue  # positive cycle: infeasible with these slots
        steps = {i: ii * k[i] + r[i] for i in ids}
        low = min(steps.values())
        depth = max(steps[o.id] - low + o.latency for o in p.ops) + 1
        best = depth if best is None else min(best, depth)
    return best


def _small_problem(seed: int) -> ModuloProblem:
    rng = random.Random(seed)
    n = rng.randint(3, 5)
    kinds = [(1, 0.2, "mul", 1), (2, 0.2, "mul", 1), (0, 0.5, None, 1), (1, 1.0, "mem", 1),
             (3, 0.2, "div", 3), (2, 0.2, "fadd", 1)]
    ops = [op(i, f"n{i}", *rng.choice(kinds)) for i in range(n)]
    edges = []
    for i in range(1, n):
        for j in rng.sample(range(i), rng.randint(1, min(i, 2))):
            edges.append(E(j, i))
    for _ in range(rng.randint(1, 2)):
        a, b = sorted(rng.sample(range(n), 2))
        edges.append(E(b, a, rng.randint(1, 2)))
    res = {"mul": 1, "mem": rng.choice([1, 2]), "div": rng.choice([1, 2]), "fadd": 1}
    return ModuloProblem(ops, edges, res, 10.0, f"small{seed}")


@pytest.mark.parametrize("seed", range(40))
def test_exact_against_exhaustive_oracle(seed):
    p = _small_problem(seed)
    s = schedule_checked(p)
    for ii in range(s.mii.mii, s.ii):
        assert _oracle(p, ii) is None, f"II {ii} is feasible but the scheduler used {s.ii}"
    assert _oracle(p, s.ii) == s.depth
    assert s.optimal_ii and s.depth_optimal


@pytest.mark.parametrize("k, lat, dist, units, ii", [(2, 3, 2, 1, 4), (2, 4, 2, 1, 5),
                                                      (3, 3, 3, 1, 4), (4, 2, 4, 2, 3)])
def test_ring_conflicts_against_oracle(k, lat, dist, units, ii):
    ops = [op(j, f"m{j}", lat, 0.2, "mul") for j in range(k)]
    edges = [E(j, j + 1) for j in range(k - 1)] + [E(k - 1, 0, dist)]
    p = ModuloProblem(ops, edges, {"mul": units})
    s = schedule_checked(p)
    assert s.ii == ii and s.optimal_ii
    for smaller in range(s.mii.mii, ii):
        assert _oracle(p, smaller) is None
    assert _oracle(p, ii) == s.depth


# -- fallbacks -----------------------------------------------------------------------------


def test_ims_fallback_when_cpsat_times_out(monkeypatch):
    import hls.scheduling._modulo as mod

    monkeypatch.setattr(mod._ModuloModel, "solve_depth", lambda self, *a, **k: None)
    p = fir(8, 2)
    s = schedule_checked(p)
    assert s.ii == 4 and s.method == "ims" and s.optimal_ii and not s.depth_optimal
    assert [(a.ii, a.status) for a in s.attempts] == [(4, "ims")]


def test_unknown_iis_then_non_overlapped_fallback(monkeypatch):
    import hls.scheduling._modulo as mod

    monkeypatch.setattr(mod, "_schedule_at", lambda *a, **k: ("unknown", None, False))
    p = biquad(True, 1)
    s = schedule_checked(p)
    assert s.method == "fallback" and not s.optimal_ii
    assert all(a.status == "unknown" for a in s.attempts[:-1])
    assert s.attempts[-1].status == "fallback" and s.ii == s.attempts[-1].ii


@pytest.mark.parametrize("seed", range(6))
def test_longest_paths_against_bellman_ford(seed):
    """``_longest`` (Bellman-Ford over arcs in depth-first order) against networkx's
    Bellman-Ford on the negated weights, forwards and backwards, on random graphs with
    loop-carried back arcs and negative weights: the same distances, and ``None``
    exactly when a positive cycle exists."""
    import networkx as nx

    from hls.scheduling._modulo import _longest, _positive_cycle
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(1, 14)
        ids = rng.sample(range(100), n)
        cons = []
        for _ in range(rng.randint(0, 3 * n)):
            u, v = rng.choice(ids), rng.choice(ids)
            cons.append((u, v, rng.randint(-2, 4), rng.choice((0, 0, 0, 1, 2))))
        ii = rng.randint(1, 6)
        base = {i: rng.randint(0, 3) for i in ids}
        for reverse in (False, True):
            g = nx.DiGraph()
            g.add_node("src")
            for i in ids:
                g.add_edge("src", i, weight=-base[i])
            for u, v, w, d in cons:
                a, b = (v, u) if reverse else (u, v)
                c = -(w - ii * d)
                if a == b:
                    c = min(c, g.edges[a, b]["weight"]) if g.has_edge(a, b) else c
                elif g.has_edge(a, b):
                    c = min(c, g.edges[a, b]["weight"])
                g.add_edge(a, b, weight=c)
            try:
                want = {i: -d for i, d in nx.single_source_bellman_ford_path_length(
                    g, "src").items() if i != "src"}
            except nx.NetworkXUnbounded:
                want = None
            assert _longest(ids, cons, ii, reverse=reverse, base=base) == want
        if want is None:             # (no path either way: a positive cycle)
            # the recurrence reported: a cycle of arcs whose weights sum above 0
            cyc = _positive_cycle(ids, cons, ii)
            assert cyc[0] == min(cyc) and len(set(cyc)) == len(cyc)
            best = {}
            for u, v, w, d in cons:
                best[u, v] = max(best.get((u, v), -10**9), w - ii * d)
            assert sum(best[a, b] for a, b in zip(cyc, cyc[1:] + cyc[:1])) > 0


def _renumbered(p: ModuloProblem, f) -> ModuloProblem:
    """``p`` with every op id ``i`` replaced by ``f(i)`` (edges and constraints too)."""
    return ModuloProblem([dataclasses.replace(o, id=f(o.id)) for o in p.ops],
                         [dataclasses.replace(e, src=f(e.src), dst=f(e.dst)) for e in p.edges],
                         p.resources, p.clock_period_ns, p.name,
                         [dataclasses.replace(c, src=f(c.src), dst=f(c.dst))
                          if isinstance(c, OrderConstraint) else
                          dataclasses.replace(c, a=f(c.a), b=f(c.b)) for c in p.constraints])


def test_schedule_memo_answers_a_renumbered_problem_as_a_fresh_solve(monkeypatch):
    """Within ``schedule_memo`` a problem solved before, its ids renumbered in the same
    order (what a planning trial lowers again), is answered from memory, with the steps
    and figures of a fresh solve of it; a problem that differs in anything else (an op's
    latency, an edge, a constraint, the resources, the options) is solved again."""
    import hls.scheduling._modulo as mod
    base = random_problem(3, 24)
    base = dataclasses.replace(base, constraints=(OrderConstraint(2, 9, 2, 1), SameCycle(4, 5)))
    shifted = _renumbered(base, lambda i: 1000 + 3 * i)
    solves = []
    real = mod._modulo_schedule
    monkeypatch.setattr(mod, "_modulo_schedule", lambda *a: solves.append(a[0]) or real(*a))
    fresh = modulo_schedule(shifted)
    assert len(solves) == 1
    variants = [
        dataclasses.replace(base, ops=(dataclasses.replace(base.ops[0], latency=3),) + base.ops[1:]),
        dataclasses.replace(base, edges=base.edges[:-1]),
        dataclasses.replace(base, constraints=(OrderConstraint(2, 9, 3, 1), SameCycle(4, 5))),
        dataclasses.replace(base, resources={**base.resources, "mul": 3}),
    ]
    with mod.schedule_memo():
        first = modulo_schedule(base)
        again = modulo_schedule(shifted)
        assert len(solves) == 2                       # the renumbered one from memory
        assert {1000 + 3 * i: s for i, s in first.steps.items()} == dict(again.steps)
        assert dict(again.steps) == dict(fresh.steps)
        assert again.to_text(shifted) == fresh.to_text(shifted)
        check_modulo_schedule(shifted, again)
        for k, v in enumerate(variants):
            modulo_schedule(v)
            assert len(solves) == 3 + k
        modulo_schedule(base, max_ii=40)              # other options: solved again
        assert len(solves) == 3 + len(variants)
    modulo_schedule(base)                             # outside: no memory
    assert len(solves) == 4 + len(variants)
