"""Library calls in hardware: memset/memcpy/memmove of any length (unrolled, or a copy
loop; an overlapping memmove copies in the safe direction), exit(n) and abort/assert as
flag memories main's caller reads, printf/puts/putchar dropped with a warning.  A mixin of
the translator (:class:`._translate.Translator`): it emits through its builders."""

from __future__ import annotations

import re

from ..ir import Block, Const, MemoryObject, Value
from ._access import OFF_W, Access, Ptr
from ._common import (ABORT_GLOBAL, EXIT_GLOBAL, MATH_CALLS, PRINT_CALLS, UNROLL_MEM_BYTES,
                      UNROLL_MEM_ELEMS, UNROLL_MEMMOVE_BYTES, c_string)
from ._memories import Residues


class LibraryCalls:
    def _libc_call(self, ins, text, name: str, args) -> None:
        """printf/puts/putchar: dropped (warned about in ``check``); exit(n): a return of n
        from main; abort()/failed assert: the site number into the abort flag memory and
        a return; memset/memcpy/memmove: as the intrinsics."""
        if name in PRINT_CALLS:
            if str(ins.type) != "void" and self._result_used(ins):
                raise self.unsupported(f"using the value of '{name}', which is dropped from "
                                       f"the hardware,", text, self._llname)
            return
        if name in ("memset", "memcpy", "memmove"):
            self._mem_intrinsic(name, ins, text, args)
            if str(ins.type) == "ptr":
                self._set(ins, self._ptr(args[0]))
            return
        if name in MATH_CALLS:          # sqrt(x) under -fmath-errno: the llvm.sqrt unit
            self._intrinsic(ins, text, MATH_CALLS[name], args)
            return
        if name == "exit":
            if getattr(self, "_top_name", None) != "main":
                raise self.unsupported("exit() outside a whole program (--top main)", text,
                                       self._llname)
            w = self._fn.return_width
            status = self._fit(self._int(args[0]) if args else Const(32, 0), 32)
            if self._llname != "main":  # a function main calls: [1, status], then return
                mem = self._flag_mem(EXIT_GLOBAL, 8)
                for off, v in ((0, Const(32, 1)), (4, status)):
                    p = Ptr(mem, Const(OFF_W, off))
                    op = self._emit("store", [p.off, v], 0, mem=mem, size=4)
                    self.accesses.append(Access(op, p, 4, self._fn))
                self.__dict__.setdefault("_may_exit", set()).add(self._fn.name)
                self._emit("ret", [Const(w, 0)] if w else [], 0)
                return
            self._emit("ret", [self._fit(status, w)] if w else [], 0)
            return
        what = "abort()"
        if name in ("__assert_fail", "__assert_rtn"):
            cond = c_string(self, args[0 if name == "__assert_fail" else 3])
            what = f"assertion '{cond}' failed" if cond else "an assertion failed"
        self._abort(what)

    def _fit(self, v: Value, w: int) -> Value:
        if v.width == w:
            return v
        if isinstance(v, Const):
            return Const(w, v.value)
        return self._emit("trunc" if v.width > w else "zext", [v], w)

    def _result_used(self, ins) -> bool:
        name = ins.name
        if not name:
            return False
        body = "\n".join(l for l in str(ins.function).splitlines()
                         if not l.lstrip().startswith(("#dbg_", "call void @llvm.dbg.")))
        uses = re.findall(r"%" + re.escape(name) + r"(?![-\w.$])", body)
        return len(uses) > 1

    def _flag_mem(self, name: str, nbytes: int) -> MemoryObject:
        mem = self.globals.get(name)
        if mem is None:  # Verilator mangles the port names of a leading "__"
            mem = MemoryObject(name=name.strip("_"), kind="global", elem_bytes=4,
                               init=bytes(nbytes), symbol=name)
            self.globals[name] = mem
        return mem

    def _flag_check(self, name: str) -> None:
        """After a call that may have aborted (``ABORT_GLOBAL``) or called exit
        (``EXIT_GLOBAL``): end this call too when the flag is set (main returns the exit
        status)."""
        mem = self.globals[name]
        p = Ptr(mem, Const(OFF_W, 0))
        flag = self._emit("load", [p.off], 32, mem=mem, size=4)
        self.accesses.append(Access(flag, p, 4, self._fn))
        c = self._emit("icmp", [flag, Const(32, 0)], 1, pred="ne")
        head = self._cur
        stop, cont = self._new_block("stop"), self._new_block("go_on")
        self._branch([c], [stop, cont])
        self._cur = stop
        w = self._fn.return_width
        ret = Const(w, 0) if w else None
        if name == EXIT_GLOBAL and self._llname == "main" and w:
            p = Ptr(mem, Const(OFF_W, 4))
            st = self._emit("load", [p.off], 32, mem=mem, size=4)
            self.accesses.append(Access(st, p, 4, self._fn))
            ret = self._fit(st, w)
        self._emit("ret", [ret] if w else [], 0)
        self._cur = cont
        self._note_split(head, cont)
        which = "_may_exit" if name == EXIT_GLOBAL else "_may_abort"
        self.__dict__.setdefault(which, set()).add(self._fn.name)

    def _abort(self, what: str) -> None:
        """End the call with a failure: write the site number (1, 2, ...) into the abort
        flag memory (a writable global the co-simulation reads) and return."""
        mem = self._flag_mem(ABORT_GLOBAL, 4)
        sites = self.__dict__.setdefault("abort_sites", {})
        k = len(sites) + 1
        loc = self._loc
        sites[k] = f"{loc.file}:{loc.line}: {what}" if loc and loc.line else what
        p = Ptr(mem, Const(OFF_W, 0))
        op = self._emit("store", [p.off, Const(32, k)], 0, mem=mem, size=4)
        self.accesses.append(Access(op, p, 4, self._fn))
        w = self._fn.return_width
        self._emit("ret", [Const(w, 0)] if w else [], 0)
        self.__dict__.setdefault("_may_abort", set()).add(self._fn.name)

    # ------------------------------------------------------------------ memset/memcpy/memmove
    def _mem_intrinsic(self, base, ins, text, args) -> None:
        """Constant lengths up to ``UNROLL_MEM_BYTES``, or up to ``UNROLL_MEM_ELEMS``
        element accesses: straight-line accesses (a memmove within one memory: all loads
        before all stores, up to ``UNROLL_MEMMOVE_BYTES``).
        Otherwise a loop of element accesses (the element: the largest power of two up to
        8 bytes that divides the length, as far as it is known, and the alignment); a
        memmove within one memory copies upwards when the destination is below the source
        and downwards otherwise, so overlapping ranges are right."""
        n = self._val(args[2])
        if not isinstance(n, Const) and not isinstance(n, Value):
            raise self.unsupported(f"{base} with a pointer length", text, self._llname)
        dst = self._ptr(args[0])
        src = self._ptr(args[1]) if base != "memset" else None
        aligns = [int(a) for a in re.findall(r"align (\d+)", text)] or [1]
        same = src is not None and src.mem is dst.mem
        move = base == "memmove" and same
        limit = UNROLL_MEMMOVE_BYTES if move else UNROLL_MEM_BYTES
        if isinstance(n, Const):
            nres, nbits = n.value, OFF_W
        else:
            n = self._to_len(n)
            nres, nbits = Residues().get(n)
        chunk = 8
        while chunk > 1 and (chunk > min(aligns) or nbits < chunk.bit_length() - 1
                             or nres % chunk):
            chunk //= 2
        word = None
        if base == "memset":
            byte = self._int(args[1])
            if byte.width != 8:
                byte = self._fit(byte, 8)
            if isinstance(byte, Const):
                word = Const(8 * chunk, int.from_bytes(bytes([byte.value]) * chunk, "little"))
            else:
                word = byte if chunk == 1 else self._emit("concat", [byte] * chunk, 8 * chunk)
        if isinstance(n, Const) and (n.value <= limit or (
                not move and n.value <= UNROLL_MEM_ELEMS * chunk)):
            self._mem_unrolled(dst, src, word, n.value, chunk)
            return
        if isinstance(n, Const):
            n = Const(OFF_W, n.value)
        head = self._cur
        join = self._new_block("mem_done")
        if not isinstance(n, Const):  # nothing to do for a zero length
            z = self._emit("icmp", [n, Const(OFF_W, 0)], 1, pred="eq")
            body = self._new_block("mem_go")
            self._branch([z], [join, body])
            self._cur = body
        if base == "memmove" and same and isinstance(dst.off, Const) and isinstance(src.off, Const):
            self._mem_loop(dst, src, None, n, chunk, join, down=dst.off.value > src.off.value)
        elif base == "memmove" and same:
            up, down = self._new_block("move_up"), self._new_block("move_down")
            c = self._emit("icmp", [dst.off, src.off], 1, pred="ule")
            self._branch([c], [up, down])
            self._cur = up
            self._mem_loop(dst, src, None, n, chunk, join, down=False)
            self._cur = down
            self._mem_loop(dst, src, None, n, chunk, join, down=True)
        else:
            if base == "memmove" and src.mem.kind == dst.mem.kind == "arg":
                self.__dict__.setdefault("_memmoves", []).append(
                    (src.mem, dst.mem, text, self._llname, self._loc))
            self._mem_loop(dst, src, word, n, chunk, join, down=False)
        self._cur = join
        self._note_split(head, join)

    def _check_memmoves(self) -> None:
        """A memmove between two pointer arguments of a called function copies upwards,
        as if they did not overlap: reject it where a call binds both to one memory."""
        pairs = self.__dict__.get("_memmoves", [])
        if not pairs:
            return
        edges: dict[MemoryObject, list[MemoryObject]] = {}
        for _, binds in self.call_binds:
            for param, ptr in binds:
                edges.setdefault(param.mem, []).append(ptr.mem)

        def roots(m, seen=()):
            if m in seen or m not in edges:
                return {m}
            return set().union(*(roots(x, seen + (m,)) for x in edges[m]))

        for src, dst, text, fn, loc in pairs:
            common = roots(src) & roots(dst)
            if common:
                self._loc = loc
                raise self.unsupported(
                    f"memmove between pointer arguments '{src.name}' and '{dst.name}' that a "
                    f"call binds to the same memory ('{sorted(m.name for m in common)[0]}'; "
                    f"they may overlap)", text, fn)

    def _to_len(self, n: Value) -> Value:
        """A length (size_t) as an unsigned OFF_W-bit value."""
        if n.width == OFF_W:
            return n
        return self._emit("trunc" if n.width > OFF_W else "zext", [n], OFF_W)

    def _mem_unrolled(self, dst: Ptr, src: Ptr | None, word, n: int, chunk: int) -> None:
        offs = range(0, n, chunk)
        if src is None:
            for off in offs:
                p = Ptr(dst.mem, self._add(dst.off, Const(OFF_W, off)))
                op = self._emit("store", [p.off, word], 0, mem=p.mem, size=chunk)
                self.accesses.append(Access(op, p, chunk, self._fn))
            return
        loads = []
        for off in offs:
            p = Ptr(src.mem, self._add(src.off, Const(OFF_W, off)))
            op = self._emit("load", [p.off], 8 * chunk, mem=p.mem, size=chunk)
            self.accesses.append(Access(op, p, chunk, self._fn))
            loads.append(op)
        for off, ld in zip(offs, loads):
            p = Ptr(dst.mem, self._add(dst.off, Const(OFF_W, off)))
            op = self._emit("store", [p.off, ld], 0, mem=p.mem, size=chunk)
            self.accesses.append(Access(op, p, chunk, self._fn))

    def _mem_tagged(self, base, text, args) -> None:
        """memset/memcpy/memmove of a constant length through a tagged pointer (a struct
        copied through a pointer loaded from memory, say): every chunk steered."""
        n = self._val(args[2])
        if not isinstance(n, Const) or n.value > 4096:
            raise self.unsupported(f"{base} through a pointer whose memory is decided at run time, "
                                   "of a length that is not a constant of at most 4096 bytes",
                                   text, self._llname)
        aligns = [int(a) for a in re.findall(r"align (\d+)", text)] or [1]
        chunk = 8
        while chunk > 1 and (n.value % chunk or chunk > min(aligns)):
            chunk //= 2

        def at(p: Ptr, off: int) -> Ptr:
            return Ptr(p.mem, self._add(p.off, Const(OFF_W, off)), p.tag, p.mems)

        dst = self._ptr(args[0])
        if base == "memset":
            byte = self._int(args[1])
            if isinstance(byte, Const):
                word = Const(8 * chunk, int.from_bytes(bytes([byte.value]) * chunk, "little"))
            else:
                word = byte if chunk == 1 else self._emit("concat", [byte] * chunk, 8 * chunk)
            for off in range(0, n.value, chunk):
                self._store(at(dst, off), word, chunk, 0, chunk)
            return
        src = self._ptr(args[1])
        if base == "memmove" and set(src.targets) & set(dst.targets):
            raise self.unsupported("memmove within one memory", text, self._llname)
        loads = [self._load(at(src, off), chunk, 0, chunk) for off in range(0, n.value, chunk)]
        for off, ld in zip(range(0, n.value, chunk), loads):
            self._store(at(dst, off), ld, chunk, 0, chunk)

    def _mem_loop(self, dst: Ptr, src: Ptr | None, word, n: Value, chunk: int, exit_: Block,
                  down: bool) -> None:
        """One single-block loop from the current block over ``n`` bytes (n > 0) in
        ``chunk``-byte elements: stores of ``word`` (memset) or copies from ``src``,
        upwards from offset 0 or downwards from n - chunk; then on to ``exit_``."""
        pre = self._cur
        loop = self._new_block("mem_down" if down else "mem_loop")
        self._branch([], [loop])
        self._cur = loop
        i = self._emit("phi", [], OFF_W)
        step = Const(OFF_W, -chunk if down else chunk)
        nxt = self._emit("add", [i, step], OFF_W)
        if down:  # i: bytes left; the element at i - chunk
            i.incoming = [(pre, n), (loop, nxt)]
            at = nxt
        else:
            i.incoming = [(pre, Const(OFF_W, 0)), (loop, nxt)]
            at = i
        if src is not None:
            p = Ptr(src.mem, self._add(src.off, at))
            word = self._emit("load", [p.off], 8 * chunk, mem=p.mem, size=chunk)
            self.accesses.append(Access(word, p, chunk, self._fn))
        p = Ptr(dst.mem, self._add(dst.off, at))
        op = self._emit("store", [p.off, word], 0, mem=p.mem, size=chunk)
        self.accesses.append(Access(op, p, chunk, self._fn))
        if down:
            c = self._emit("icmp", [nxt, Const(OFF_W, 0)], 1, pred="ne")
        else:
            c = self._emit("icmp", [nxt, n], 1, pred="ult")
        self._branch([c], [loop, exit_])
