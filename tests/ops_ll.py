"""Generators of hand-written LLVM IR (opaque pointers) for the co-simulation op tests.

* :func:`ops_ll` -- tops ``ops_lo``/``ops_hi(i64 %a, i64 %b, i64 %c, ptr %out)`` (see
  :data:`OPS_TOPS`) that truncate a/b/c to each width of :data:`WIDTHS`, compute every
  integer operation pyhls claims (binary ops, all icmp predicates, select, casts between
  every pair of widths, the min/max, abs, funnel-shift, bit-count, byte-swap and
  saturating intrinsics) and store each result, zero-extended to i64, into ``out[k]``.
  Returns the text and the slot names of each top.
* :func:`wide_ll` -- ``ops_wide``: mul, udiv, urem, sdiv, srem at 96 and 128 bits.
* :func:`mem_ll` -- ``memk``: struct and 2-D GEPs, i8/i16/i32/i64 loads and stores into an
  argument byte array, a local array with lifetime markers, a constant ROM, a writable
  global, memcpy/memset with constant length, llvm.assume.
* :func:`ctl_ll` -- ``ctl``: loops with phis, a switch, early returns, a call of a
  ``noinline`` function (a separate hardware module, with a pointer argument) and an
  inlined one.

Every operation is written to be free of undefined behaviour for all inputs, so the
golden native run is well defined: divisors are nonzero and never -1 with an INT_MIN
dividend, shift amounts are below the width, poison-flagged intrinsics see only values
for which the flag does not apply.
"""

from __future__ import annotations

WIDTHS = (1, 7, 8, 13, 16, 32, 33, 64)

ICMP_PREDS = ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle")


def _mask(w: int) -> int:
    return (1 << w) - 1


def _s(v: int, w: int) -> int:
    """``v`` as a signed decimal literal of width ``w`` (how LLVM prints constants)."""
    v &= _mask(w)
    return v - (1 << w) if w > 1 and v >> (w - 1) else (v if w > 1 else -v)


class _Builder:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0
        self.slots: list[str] = []

    def tmp(self, expr: str) -> str:
        name = f"%t{self.n}"
        self.n += 1
        self.lines.append(f"  {name} = {expr}")
        return name

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def store_slot(self, label: str, v: str, w: int) -> None:
        k = len(self.slots)
        self.slots.append(label)
        x = v if w == 64 else self.tmp(f"zext i{w} {v} to i64")
        p = self.tmp(f"getelementptr inbounds i64, ptr %out, i32 {k}")
        self.emit(f"store i64 {x}, ptr {p}, align 8")


def _lit(v: int, w: int) -> str:
    if w == 1:
        return "true" if v & 1 else "false"
    return str(_s(v, w))


#: the ops tops: name -> (widths, with casts between them).  Two smaller designs instead
#: of one keep each Verilator build short (and below Verilator's output-split size).
#: name -> (widths of the operations, widths cast between each other)
OPS_TOPS = {"ops_lo": ((1, 7, 8, 13, 16), WIDTHS), "ops_hi": ((32, 33, 64), ())}


def _ops_body(b: "_Builder", widths, casts) -> None:
    vals: dict[int, tuple[str, str, str]] = {}
    for w in sorted(set(widths) | set(casts) | {1}):
        if w == 64:
            vals[w] = ("%a", "%b", "%c")
        else:
            vals[w] = tuple(b.tmp(f"trunc i64 %{x} to i{w}") for x in "abc")  # type: ignore
    for w in widths:
        a, bb, c = vals[w]
        t = f"i{w}"
        imin = 1 << (w - 1)
        for op in ("add", "sub", "mul", "and", "or", "xor"):
            b.store_slot(f"{op}.{w}", b.tmp(f"{op} {t} {a}, {bb}"), w)
        # unsigned division: divisor | 1 is never zero
        du = b.tmp(f"or {t} {bb}, {_lit(1, w)}")
        for op in ("udiv", "urem"):
            b.store_slot(f"{op}.{w}", b.tmp(f"{op} {t} {a}, {du}"), w)
        if w >= 3:
            # signed division: (b | 1) & ~2 is nonzero and never -1 (so INT_MIN / -1
            # cannot happen), and has either sign
            ds = b.tmp(f"and {t} {du}, {_lit(_mask(w) & ~2, w)}")
            for op in ("sdiv", "srem"):
                b.store_slot(f"{op}.{w}", b.tmp(f"{op} {t} {a}, {ds}"), w)
        # shift amounts below the width
        if w & (w - 1) == 0:
            sa = b.tmp(f"and {t} {bb}, {w - 1}") if w > 1 else "false"
        else:
            sa = b.tmp(f"urem {t} {bb}, {w}")
        for op in ("shl", "lshr", "ashr"):
            b.store_slot(f"{op}.{w}", b.tmp(f"{op} {t} {a}, {sa}"), w)
        # the ten predicates packed into one slot: bit k is ICMP_PREDS[k]
        packed = None
        for k, pred in enumerate(ICMP_PREDS):
            bit = b.tmp(f"zext i1 {b.tmp(f'icmp {pred} {t} {a}, {bb}')} to i64")
            if k:
                bit = b.tmp(f"shl i64 {bit}, {k}")
                packed = b.tmp(f"or i64 {packed}, {bit}")
            else:
                packed = bit
        b.store_slot(f"icmp.{w}", packed, 64)
        cond = vals[1][2]  # low bit of c
        b.store_slot(f"select.{w}", b.tmp(f"select i1 {cond}, {t} {a}, {t} {bb}"), w)
        for f in ("smax", "smin", "umax", "umin"):
            b.store_slot(f"{f}.{w}", b.tmp(f"call {t} @llvm.{f}.{t}({t} {a}, {t} {bb})"), w)
        b.store_slot(f"abs0.{w}", b.tmp(f"call {t} @llvm.abs.{t}({t} {a}, i1 false)"), w)
        if w >= 2:
            # x | 1 is never INT_MIN (whose low bit is 0)
            a1 = b.tmp(f"or {t} {a}, 1")
            b.store_slot(f"abs1.{w}", b.tmp(f"call {t} @llvm.abs.{t}({t} {a1}, i1 true)"), w)
        for f in ("fshl", "fshr"):
            b.store_slot(f"{f}.{w}",
                         b.tmp(f"call {t} @llvm.{f}.{t}({t} {a}, {t} {bb}, {t} {c})"), w)
        # rotate form (x, x, s) -- what clang emits for rotates
        b.store_slot(f"fshl_rot.{w}",
                     b.tmp(f"call {t} @llvm.fshl.{t}({t} {a}, {t} {a}, {t} {bb})"), w)
        for f in ("bitreverse", "ctpop"):
            b.store_slot(f"{f}.{w}", b.tmp(f"call {t} @llvm.{f}.{t}({t} {a})"), w)
        for f in ("ctlz", "cttz"):
            b.store_slot(f"{f}0.{w}", b.tmp(f"call {t} @llvm.{f}.{t}({t} {a}, i1 false)"), w)
        # zero-is-poison only on nonzero values; a & b & c is sparse (often zero for the
        # flag-false forms, and with long runs of zeros for the counts)
        sparse = b.tmp(f"and {t} {a}, {bb}")
        sparse2 = b.tmp(f"and {t} {sparse}, {c}")
        nz_lo = b.tmp(f"or {t} {sparse2}, {_lit(1, w)}")
        nz_hi = b.tmp(f"or {t} {sparse2}, {_lit(imin, w)}")
        b.store_slot(f"ctlz0_sparse.{w}",
                     b.tmp(f"call {t} @llvm.ctlz.{t}({t} {sparse2}, i1 false)"), w)
        b.store_slot(f"cttz0_sparse.{w}",
                     b.tmp(f"call {t} @llvm.cttz.{t}({t} {sparse2}, i1 false)"), w)
        b.store_slot(f"ctlz1.{w}", b.tmp(f"call {t} @llvm.ctlz.{t}({t} {nz_lo}, i1 true)"), w)
        b.store_slot(f"cttz1.{w}", b.tmp(f"call {t} @llvm.cttz.{t}({t} {nz_hi}, i1 true)"), w)
        if w % 16 == 0:
            b.store_slot(f"bswap.{w}", b.tmp(f"call {t} @llvm.bswap.{t}({t} {a})"), w)
        for f in ("sadd.sat", "ssub.sat", "uadd.sat", "usub.sat"):
            b.store_slot(f"{f}.{w}", b.tmp(f"call {t} @llvm.{f}.{t}({t} {a}, {t} {bb})"), w)
    # casts between every pair of widths
    for w1 in casts:
        for w2 in casts:
            if w1 == w2:
                continue
            a = vals[w1][0]
            if w1 < w2:
                b.store_slot(f"zext.{w1}.{w2}", b.tmp(f"zext i{w1} {a} to i{w2}"), w2)
                b.store_slot(f"sext.{w1}.{w2}", b.tmp(f"sext i{w1} {a} to i{w2}"), w2)
            else:
                b.store_slot(f"trunc.{w1}.{w2}", b.tmp(f"trunc i{w1} {a} to i{w2}"), w2)


def _declarations(lines: list[str]) -> list[str]:
    decls = set()
    for line in lines:
        if "@llvm." in line:
            name = line.split("@")[1].split("(")[0]
            t = name.split(".")[-1]
            fam = name[len("llvm."):-len(t) - 1]
            if fam in ("abs", "ctlz", "cttz"):
                decls.add(f"declare {t} @{name}({t}, i1)")
            elif fam in ("fshl", "fshr"):
                decls.add(f"declare {t} @{name}({t}, {t}, {t})")
            elif fam in ("bitreverse", "ctpop", "bswap"):
                decls.add(f"declare {t} @{name}({t})")
            else:
                decls.add(f"declare {t} @{name}({t}, {t})")
    return sorted(decls)


def ops_ll() -> tuple[str, dict[str, list[str]]]:
    """The LLVM text holding every top of :data:`OPS_TOPS`, and each top's slot names
    (``out[k]`` holds the result named ``slots[top][k]``)."""
    parts, slots, lines = [], {}, []
    for name, (widths, casts) in OPS_TOPS.items():
        b = _Builder()
        _ops_body(b, widths, casts)
        slots[name] = b.slots
        lines += b.lines
        parts.append(f"define void @{name}(i64 %a, i64 %b, i64 %c, ptr %out) {{\nentry:\n"
                     + "\n".join(b.lines) + "\n  ret void\n}\n")
    text = ("; generated by tests/ops_ll.py -- every integer op at widths "
            + ", ".join(map(str, WIDTHS)) + "\n\n" + "\n".join(parts) + "\n"
            + "\n".join(_declarations(lines)) + "\n")
    return text, slots


# --------------------------------------------------------------------------- wide mul/div

#: the widths of :func:`wide_ll`'s multiplies and divisions (the frontend's
#: ``MAX_MULDIV_BITS`` and one between)
WIDE_WIDTHS = (96, 128)


def wide_ll() -> tuple[str, list[str]]:
    """``ops_wide(i64 %a, i64 %b, i64 %c, i64 %d, ptr %out)``: x = a:b and y = c:d (high
    word first) truncated to each width of :data:`WIDE_WIDTHS`; mul, udiv, urem, sdiv and
    srem of x and y (divisors y | 1, and (y | 1) & ~2 for the signed ones, as in
    :func:`ops_ll`), each result's low and high 64-bit words stored in two slots.  Returns
    the text and the slot names."""
    b = _Builder()
    xs = {}
    for x, (hi, lo) in {"x": ("a", "b"), "y": ("c", "d")}.items():
        h = b.tmp(f"shl i128 {b.tmp(f'zext i64 %{hi} to i128')}, 64")
        xs[x] = b.tmp(f"or i128 {h}, {b.tmp(f'zext i64 %{lo} to i128')}")
    for w in WIDE_WIDTHS:
        t = f"i{w}"
        x, y = ((b.tmp(f"trunc i128 {xs[k]} to {t}") if w < 128 else xs[k]) for k in "xy")
        du = b.tmp(f"or {t} {y}, 1")
        ds = b.tmp(f"and {t} {du}, {_lit(_mask(w) & ~2, w)}")
        for op, rhs in (("mul", y), ("udiv", du), ("urem", du), ("sdiv", ds), ("srem", ds)):
            v = b.tmp(f"{op} {t} {x}, {rhs}")
            v = b.tmp(f"zext {t} {v} to i128") if w < 128 else v
            b.store_slot(f"{op}.{w}.lo", b.tmp(f"trunc i128 {v} to i64"), 64)
            b.store_slot(f"{op}.{w}.hi", b.tmp(f"trunc i128 {b.tmp(f'lshr i128 {v}, 64')} to i64"), 64)
    text = ("; generated by tests/ops_ll.py -- mul/div/rem at " + ", ".join(map(str, WIDE_WIDTHS))
            + " bits\n\ndefine void @ops_wide(i64 %a, i64 %b, i64 %c, i64 %d, ptr %out) {\nentry:\n"
            + "\n".join(b.lines) + "\n  ret void\n}\n")
    return text, b.slots


# --------------------------------------------------------------------------- memories

# depths count words of the width pyhls picks (no debug info gives element sizes here):
# rec is 8 records of 16 bytes = 16 words of 8 bytes
MEM_DEPTHS = {"buf": 64, "rec": 16, "mat": 20, "dst": 16}

MEM_LL = r"""; generated by tests/ops_ll.py -- memory features
%struct.R = type { i8, i16, i32, i64 }

@rom = internal unnamed_addr constant [16 x i16] [i16 3, i16 -1, i16 32767, i16 -32768, i16 7, i16 100, i16 -100, i16 0, i16 1, i16 2, i16 4, i16 8, i16 4660, i16 -4661, i16 255, i16 256], align 2
@gmat = internal unnamed_addr constant [3 x [4 x i32]] [[4 x i32] [i32 1, i32 2, i32 3, i32 4], [4 x i32] [i32 -5, i32 6, i32 -7, i32 8], [4 x i32] [i32 9, i32 10, i32 11, i32 -12]], align 4
@acc = internal global [4 x i32] [i32 10, i32 20, i32 30, i32 40], align 4

declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.memset.p0.i32(ptr, i8, i32, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.assume(i1)

; buf: 64 bytes (i8/i16/i32/i64 accesses at data-dependent offsets)
; rec: 8 x %struct.R (16 bytes each); mat: [n][5] x i32, 4 rows; dst: 16 x i32
define i64 @memk(ptr %buf, ptr %rec, ptr %mat, ptr %dst, i32 %x, i32 %y) {
entry:
  %loc = alloca [16 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 64, ptr %loc)
  %i = and i32 %x, 7
  %j = lshr i32 %x, 8
  %jj = and i32 %j, 7
  %ok = icmp ult i32 %i, 8
  call void @llvm.assume(i1 %ok)
  ; ---- struct GEPs
  %f0p = getelementptr inbounds %struct.R, ptr %rec, i32 %i, i32 0
  %f1p = getelementptr inbounds %struct.R, ptr %rec, i32 %i, i32 1
  %f2p = getelementptr inbounds %struct.R, ptr %rec, i32 %i, i32 2
  %f3p = getelementptr inbounds %struct.R, ptr %rec, i32 %i, i32 3
  %f0 = load i8, ptr %f0p, align 8
  %f1 = load i16, ptr %f1p, align 2
  %f2 = load i32, ptr %f2p, align 4
  %f3 = load i64, ptr %f3p, align 8
  %f0s = sext i8 %f0 to i64
  %f1z = zext i16 %f1 to i64
  %f2s = sext i32 %f2 to i64
  %s0 = add i64 %f0s, %f1z
  %s1 = xor i64 %s0, %f2s
  %s2 = add i64 %s1, %f3
  ; write back into another record's fields
  %g0p = getelementptr inbounds %struct.R, ptr %rec, i32 %jj, i32 0
  %g1p = getelementptr inbounds %struct.R, ptr %rec, i32 %jj, i32 1
  %g2p = getelementptr inbounds %struct.R, ptr %rec, i32 %jj, i32 2
  %g3p = getelementptr inbounds %struct.R, ptr %rec, i32 %jj, i32 3
  %ytr8 = trunc i32 %y to i8
  %ytr16 = trunc i32 %y to i16
  store i8 %ytr8, ptr %g0p, align 8
  store i16 %ytr16, ptr %g1p, align 2
  %f2x = xor i32 %f2, %y
  store i32 %f2x, ptr %g2p, align 4
  store i64 %s2, ptr %g3p, align 8
  ; ---- 2-D arrays: argument [4][5] x i32 and a constant global [3][4] x i32
  %r = urem i32 %y, 4
  %c = urem i32 %x, 5
  %mp = getelementptr inbounds [5 x i32], ptr %mat, i32 %r, i32 %c
  %mv = load i32, ptr %mp, align 4
  %gr = urem i32 %x, 3
  %gc = and i32 %y, 3
  %gp = getelementptr inbounds [3 x [4 x i32]], ptr @gmat, i32 0, i32 %gr, i32 %gc
  %gv = load i32, ptr %gp, align 4
  %mv2 = mul i32 %mv, %gv
  %mq = getelementptr inbounds [5 x i32], ptr %mat, i32 %gr, i32 4
  store i32 %mv2, ptr %mq, align 4
  ; ---- byte buffer: i8/i16/i32/i64 loads and stores at data-dependent offsets
  %o8 = and i32 %y, 63
  %o16 = and i32 %y, 62
  %o32 = and i32 %x, 60
  %o64 = and i32 %x, 56
  %p8 = getelementptr inbounds i8, ptr %buf, i32 %o8
  %p16 = getelementptr inbounds i8, ptr %buf, i32 %o16
  %p32 = getelementptr inbounds i8, ptr %buf, i32 %o32
  %p64 = getelementptr inbounds i8, ptr %buf, i32 %o64
  %l8 = load i8, ptr %p8, align 1
  %l16 = load i16, ptr %p16, align 2
  %l32 = load i32, ptr %p32, align 4
  %l64 = load i64, ptr %p64, align 8
  %l8z = zext i8 %l8 to i16
  %n16 = add i16 %l16, %l8z
  store i16 %n16, ptr %p16, align 2
  %l16s = sext i16 %l16 to i32
  %n32 = sub i32 %l32, %l16s
  store i32 %n32, ptr %p32, align 4
  %l32z = zext i32 %l32 to i64
  %n64 = mul i64 %l64, %l32z
  store i64 %n64, ptr %p64, align 8
  %n8 = xor i8 %l8, -1
  store i8 %n8, ptr %p8, align 1
  ; ---- the ROM
  %ri = and i32 %x, 15
  %rp = getelementptr inbounds [16 x i16], ptr @rom, i32 0, i32 %ri
  %rv = load i16, ptr %rp, align 2
  %rv32 = sext i16 %rv to i32
  ; ---- local array: memset, fill in a loop, memcpy a slice out
  call void @llvm.memset.p0.i32(ptr align 4 %loc, i8 0, i32 64, i1 false)
  br label %fill

fill:
  %k = phi i32 [ 0, %entry ], [ %k1, %fill ]
  %kx = mul i32 %k, %rv32
  %kv = add i32 %kx, %y
  %lp = getelementptr inbounds [16 x i32], ptr %loc, i32 0, i32 %k
  %old = load i32, ptr %lp, align 4
  %kv2 = add i32 %kv, %old
  store i32 %kv2, ptr %lp, align 4
  %k1 = add nuw nsw i32 %k, 1
  %lim = add i32 %i, 8
  %more = icmp ult i32 %k1, %lim
  br i1 %more, label %fill, label %copy

copy:
  %src = getelementptr inbounds i32, ptr %loc, i32 4
  call void @llvm.memcpy.p0.p0.i32(ptr align 4 %dst, ptr align 4 %src, i32 32, i1 false)
  %dst8 = getelementptr inbounds i32, ptr %dst, i32 8
  call void @llvm.memset.p0.i32(ptr align 4 %dst8, i8 -91, i32 12, i1 false)
  %lb = getelementptr inbounds i32, ptr %loc, i32 %jj
  %lv = load i32, ptr %lb, align 4
  call void @llvm.lifetime.end.p0(i64 64, ptr %loc)
  ; ---- the writable global: accumulate across calls
  %ai = and i32 %y, 3
  %ap = getelementptr inbounds [4 x i32], ptr @acc, i32 0, i32 %ai
  %av = load i32, ptr %ap, align 4
  %av2 = add i32 %av, %lv
  store i32 %av2, ptr %ap, align 4
  %lv64 = sext i32 %lv to i64
  %res0 = add i64 %s2, %lv64
  %av64 = zext i32 %av2 to i64
  %res1 = xor i64 %res0, %av64
  %rv64 = sext i16 %rv to i64
  %res = mul i64 %res1, %rv64
  ret i64 %res
}
"""


def mem_ll() -> str:
    return MEM_LL


# --------------------------------------------------------------------------- control flow

CTL_DEPTHS = {"v": 32}

CTL_LL = r"""; generated by tests/ops_ll.py -- control flow and calls
attributes #0 = { noinline nounwind }

; a separate hardware module: reads and writes its pointer argument, returns a value
define internal i32 @helper(ptr %p, i32 %n, i16 %s) #0 {
entry:
  %lim = and i32 %n, 7
  %z = icmp eq i32 %lim, 0
  br i1 %z, label %done, label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %q = getelementptr inbounds i32, ptr %p, i32 %i
  %v = load i32, ptr %q, align 4
  %s32 = sext i16 %s to i32
  %w = mul i32 %v, %s32
  store i32 %w, ptr %q, align 4
  %acc1 = add i32 %acc, %w
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i1, %lim
  br i1 %c, label %loop, label %done

done:
  %r = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  ret i32 %r
}

; a second noinline function without memories, called twice
define internal i8 @clamp8(i32 %x) #0 {
entry:
  %lo = icmp slt i32 %x, -128
  br i1 %lo, label %neg, label %notneg
neg:
  ret i8 -128
notneg:
  %hi = icmp sgt i32 %x, 127
  br i1 %hi, label %pos, label %mid
pos:
  ret i8 127
mid:
  %t = trunc i32 %x to i8
  ret i8 %t
}

; inlined into its caller
define internal i32 @mix(i32 %a, i32 %b) {
entry:
  %x = xor i32 %a, %b
  %r = call i32 @llvm.fshl.i32(i32 %x, i32 %x, i32 7)
  %s = add i32 %r, %a
  ret i32 %s
}

declare i32 @llvm.fshl.i32(i32, i32, i32)

define i32 @ctl(ptr %v, i32 %n, i32 %m, i8 %op) {
entry:
  %sel = and i8 %op, 7
  switch i8 %sel, label %dflt [
    i8 0, label %case0
    i8 1, label %case1
    i8 2, label %case2
    i8 5, label %case1
    i8 -2, label %case2
  ]

case0:
  %h0 = call i32 @helper(ptr %v, i32 %n, i16 3)
  br label %join

case1:
  %off = and i32 %m, 15
  %vp = getelementptr inbounds i32, ptr %v, i32 %off
  %m16 = trunc i32 %m to i16
  %h1 = call i32 @helper(ptr %vp, i32 %n, i16 %m16)
  br label %join

case2:
  %mx = call i32 @mix(i32 %n, i32 %m)
  %c2 = call i8 @clamp8(i32 %mx)
  %c2s = sext i8 %c2 to i32
  br label %join

dflt:
  ; early exit when m is odd
  %odd = and i32 %m, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %early, label %sum

early:
  %e = call i8 @clamp8(i32 %n)
  %ez = zext i8 %e to i32
  ret i32 %ez

sum:
  ; nested loops over v[0..31] with a data-dependent exit
  br label %outer

outer:
  %oi = phi i32 [ 0, %sum ], [ %oi1, %outer_latch ]
  %oacc = phi i32 [ 0, %sum ], [ %iacc1, %outer_latch ]
  br label %inner

inner:
  %ij = phi i32 [ 0, %outer ], [ %ij1, %inner_latch ]
  %iacc = phi i32 [ %oacc, %outer ], [ %iacc1, %inner_latch ]
  %idx0 = shl i32 %oi, 3
  %idx = or i32 %idx0, %ij
  %ep = getelementptr inbounds i32, ptr %v, i32 %idx
  %ev = load i32, ptr %ep, align 4
  %neg = icmp slt i32 %ev, 0
  br i1 %neg, label %skip, label %addit

addit:
  %sum1 = add i32 %iacc, %ev
  br label %inner_latch

skip:
  %sub1 = sub i32 %iacc, 1
  %stop = icmp eq i32 %ev, %m
  br i1 %stop, label %out, label %inner_latch

inner_latch:
  %iacc1 = phi i32 [ %sum1, %addit ], [ %sub1, %skip ]
  %ij1 = add nuw nsw i32 %ij, 1
  %ic = icmp ult i32 %ij1, 8
  br i1 %ic, label %inner, label %outer_latch

outer_latch:
  store i32 %iacc1, ptr %ep, align 4
  %oi1 = add nuw nsw i32 %oi, 1
  %oc = icmp ult i32 %oi1, 4
  br i1 %oc, label %outer, label %out

out:
  %res = phi i32 [ %sub1, %skip ], [ %iacc1, %outer_latch ]
  br label %join

join:
  %jr = phi i32 [ %h0, %case0 ], [ %h1, %case1 ], [ %c2s, %case2 ], [ %res, %out ]
  %fin = call i8 @clamp8(i32 %jr)
  %fz = sext i8 %fin to i32
  %fr = add i32 %jr, %fz
  ret i32 %fr
}
"""


def ctl_ll() -> str:
    return CTL_LL


if __name__ == "__main__":  # pragma: no cover
    import sys

    which = sys.argv[1] if len(sys.argv) > 1 else "ops"
    if which == "ops":
        sys.stdout.write(ops_ll()[0])
    elif which == "mem":
        sys.stdout.write(mem_ll())
    else:
        sys.stdout.write(ctl_ll())
