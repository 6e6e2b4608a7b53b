"""Source locations and argument types recovered from LLVM debug metadata.

llvmlite exposes no debug locations, so the ``!N = !DILocation(...)`` records are read
from the module text.  Without debug info, locations fall back to lines of the ``.ll``.
"""

from __future__ import annotations

import re

from ..interface import CType

_MD = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$")
_TUPLE = re.compile(r"^!(\d+) = (?:distinct )?!\{(.*)\}\s*$")
_FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|![0-9]+|[^,]+)')
_DBG_REF = re.compile(r"!dbg !(\d+)")


def define_header(define_text: str) -> str:
    """The ``define`` line of a function without its body's opening brace (a struct
    return type, ``define { i64, i64 } @f(...) {``, has braces of its own)."""
    first = define_text.split("\n", 1)[0].rstrip()
    return first[:-1].rstrip() if first.endswith("{") else first


class DebugInfo:
    def __init__(self, text: str):
        self.nodes: dict[int, tuple[str, dict[str, str]]] = {}
        #: ``!N = !{...}`` tuples: their elements as written (``!5``, ``null``, ...)
        self.tuples: dict[int, list[str]] = {}
        for line in text.splitlines():
            if not line.startswith("!"):
                continue
            m = _MD.match(line)
            if m:
                fields = {k: v.strip() for k, v in _FIELD.findall(m.group(3))}
                self.nodes[int(m.group(1))] = (m.group(2), fields)
                continue
            m = _TUPLE.match(line)
            if m:
                self.tuples[int(m.group(1))] = [e.strip() for e in m.group(2).split(",")]
        self.cxx = any(k == "DICompileUnit" and "C_plus_plus" in f.get("language", "")
                       for k, f in self.nodes.values())

    def _ref(self, s: str | None) -> int | None:
        if s and s.startswith("!") and s[1:].isdigit():
            return int(s[1:])
        return None

    def line_of(self, instr_text: str) -> int | None:
        m = _DBG_REF.search(instr_text)
        if not m:
            return None
        node = self.nodes.get(int(m.group(1)))
        if node and node[0] == "DILocation":
            try:
                line = int(node[1].get("line", "0"))
            except ValueError:
                return None
            return line or None
        return None

    def user_location(self, instr_text: str, is_input) -> tuple[str | None, int | None]:
        """``(file, line)`` of an instruction's ``!dbg`` location in the user's own source:
        a location in a header (``ap_int.h``) that was inlined is followed through its
        ``inlinedAt`` chain to the first location in a file ``is_input(file)`` accepts;
        ``(None, None)`` when there is none."""
        m = _DBG_REF.search(instr_text)
        ref = int(m.group(1)) if m else None
        for _ in range(64):
            node = self.nodes.get(ref) if ref is not None else None
            if node is None or node[0] != "DILocation":
                return None, None
            f = self._file_of_node(ref)
            if f is not None and is_input(f):
                try:
                    return f, int(node[1].get("line", "0")) or None
                except ValueError:
                    return f, None
            ref = self._ref(node[1].get("inlinedAt"))
        return None, None

    def _difile(self, ref: int | None) -> dict | None:
        """The fields of the DIFile that node ``ref`` is in: through its scopes (a
        location's) or its ``file`` (any other node's)."""
        for _ in range(64):
            node = self.nodes.get(ref) if ref is not None else None
            if node is None:
                return None
            kind, f = node
            if kind == "DIFile":
                return f
            if kind != "DILocation" and f.get("file"):
                ref = self._ref(f.get("file"))
            else:
                ref = self._ref(f.get("scope"))
        return None

    def _file_of_node(self, ref: int | None) -> str | None:
        f = self._difile(ref)
        if f is None:
            return None
        d = f.get("directory", '""').strip('"')
        name = f.get("filename", '""').strip('"')
        return name if not d or name.startswith("/") else f"{d}/{name}"

    def file_of(self, text: str) -> str | None:
        """The source file (as the compiler was given it) of an instruction's ``!dbg``
        location or of a define's subprogram: through the scopes to their DIFile."""
        m = _DBG_REF.search(text)
        f = self._difile(int(m.group(1)) if m else None)
        return (f.get("filename", '""').strip('"') or None) if f is not None else None

    def _global_var(self, global_text: str) -> dict | None:
        m = _DBG_REF.search(global_text)
        node = self.nodes.get(int(m.group(1))) if m else None
        if node and node[0] == "DIGlobalVariableExpression":
            node = self.nodes.get(self._ref(node[1].get("var")) or -1)
        return node[1] if node and node[0] == "DIGlobalVariable" else None

    def global_line(self, global_text: str) -> int | None:
        """The source line of a global variable's definition (its ``!dbg``)."""
        f = self._global_var(global_text)
        try:
            return int(f.get("line", "0")) or None if f else None
        except ValueError:
            return None

    def global_name(self, global_text: str) -> str | None:
        """The source name of a global variable (``ns::tab`` is ``tab``)."""
        f = self._global_var(global_text)
        return f.get("name", "").strip('"') or None if f else None

    def subprogram_line(self, define_text: str) -> int | None:
        m = _DBG_REF.search(define_header(define_text))
        if not m:
            return None
        node = self.nodes.get(int(m.group(1)))
        if node and node[0] == "DISubprogram":
            try:
                return int(node[1].get("line", "0")) or None
            except ValueError:
                return None
        return None

    def params(self, define_text: str) -> dict[int, tuple[str, int | None]]:
        """Zero-based argument index -> (name, bytes of the pointee for pointers)."""
        m = _DBG_REF.search(define_header(define_text))
        if not m:
            return {}
        sp = "!" + m.group(1)
        out: dict[int, tuple[str, int | None]] = {}
        for kind, f in self.nodes.values():
            if kind == "DILocalVariable" and f.get("scope") == sp and "arg" in f:
                name = f.get("name", '""').strip('"')
                out[int(f["arg"]) - 1] = (name, self._pointee_bytes(f.get("type")))
        return out

    def _strip(self, ref: str | None) -> tuple[str, dict[str, str]] | None:
        seen = 0
        while ref is not None and seen < 50:
            seen += 1
            node = self.nodes.get(self._ref(ref) or -1)
            if node is None:
                return None
            kind, f = node
            if kind == "DIDerivedType" and f.get("tag") in (
                "DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
                "DW_TAG_restrict_type", "DW_TAG_atomic_type",
            ):
                ref = f.get("baseType")
                continue
            return node
        return None

    def _pointee_bytes(self, ref: str | None) -> int | None:
        node = self._strip(ref)
        if node is None:
            return None
        kind, f = node
        if kind == "DIDerivedType" and f.get("tag") == "DW_TAG_pointer_type":
            base = self._strip(f.get("baseType"))
            if base is None:
                return None
            try:
                bits = int(base[1].get("size", "0"))
            except ValueError:
                return None
            return bits // 8 or None
        return None

    # ------------------------------------------------------------------ C types

    def c_types(self, define_text: str) -> tuple[CType | None, list[tuple]] | None:
        """The declared C types of a defined function, from its subprogram's subroutine
        type: the return value's, and per C argument in order (the value's type for a
        scalar, one element's for a pointer or array argument; whether it is a pointer
        or array); a type None where it has no :class:`CType` (void, a pointer to a
        pointer).  None without debug info."""
        m = _DBG_REF.search(define_header(define_text))
        node = self.nodes.get(int(m.group(1))) if m else None
        if node is None or node[0] != "DISubprogram":
            return None
        st = self.nodes.get(self._ref(node[1].get("type")) or -1)
        if st is None or st[0] != "DISubroutineType":
            return None
        types = self.tuples.get(self._ref(st[1].get("types")) or -1)
        if types is None:
            return None
        ret = None if types[0] == "null" else self._ctype(types[0])
        return ret, [(self._ctype(t, element=True), self._indirect(t)) for t in types[1:]]

    def _indirect(self, ref: str | None) -> bool:
        node = self._strip(ref)
        return node is not None and node[1].get("tag") in ("DW_TAG_pointer_type",
                                                           "DW_TAG_array_type")

    def _ctype(self, ref: str | None, element: bool = False) -> CType | None:
        """The CType of a DI type (typedefs and qualifiers looked through; an anonymous
        struct, union or enum takes the typedef name it was reached by)."""
        alias, pointer = None, False
        for _ in range(64):
            node = self.nodes.get(self._ref(ref) or -1)
            if node is None:
                return None
            kind, f = node
            tag = f.get("tag", "")
            if kind == "DIDerivedType" and tag == "DW_TAG_typedef":
                alias = f.get("name", '""').strip('"') or alias
                ref = f.get("baseType")
            elif kind == "DIDerivedType" and tag in (
                    "DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type",
                    "DW_TAG_atomic_type"):
                ref = f.get("baseType")
            elif element and (tag == "DW_TAG_array_type" or (
                    tag == "DW_TAG_pointer_type" and not pointer)):
                pointer |= tag == "DW_TAG_pointer_type"     # one level of pointer only
                ref, alias = f.get("baseType"), None
            else:
                return self._leaf(kind, f, alias)
        return None

    def _leaf(self, kind: str, f: dict, alias: str | None) -> CType | None:
        try:
            size = int(f.get("size", "0")) // 8
        except ValueError:
            return None
        if size < 1:
            return None
        name = f.get("name", '""').strip('"')
        if kind == "DIBasicType":
            enc = f.get("encoding", "")
            if enc == "DW_ATE_boolean":
                return CType("bool", "bool", size)
            if enc == "DW_ATE_float":
                return CType(name, "float", size, True)
            if enc in ("DW_ATE_signed", "DW_ATE_signed_char"):
                return CType(name, "int", size, True)
            if enc in ("DW_ATE_unsigned", "DW_ATE_unsigned_char", "DW_ATE_UTF"):
                return CType(name, "int", size, False)
            return None
        if kind != "DICompositeType":
            return None
        tag = f.get("tag", "")
        words = {"DW_TAG_structure_type": "struct", "DW_TAG_class_type": "class",
                 "DW_TAG_union_type": "union", "DW_TAG_enumeration_type": "enum"}
        if tag not in words:
            return None
        spelled = (name if self.cxx else f"{words[tag]} {name}") if name else alias
        if tag == "DW_TAG_enumeration_type":
            base = self._ctype(f.get("baseType"))
            if spelled is None:
                return base
            return CType(spelled, "int", size, base.signed if base else False)
        return CType(spelled, "record", size) if spelled else None
