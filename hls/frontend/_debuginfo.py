"""Source locations and argument types recovered from LLVM debug metadata.

llvmlite exposes no debug locations, so the ``!N = !DILocation(...)`` records are read
from the module text.  Without debug info, locations fall back to lines of the ``.ll``.
"""

from __future__ import annotations

import re

_MD = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$")
_FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|![0-9]+|[^,]+)')
_DBG_REF = re.compile(r"!dbg !(\d+)")


class DebugInfo:
    def __init__(self, text: str):
        self.nodes: dict[int, tuple[str, dict[str, str]]] = {}
        for line in text.splitlines():
            if not line.startswith("!"):
                continue
            m = _MD.match(line)
            if m:
                fields = {k: v.strip() for k, v in _FIELD.findall(m.group(3))}
                self.nodes[int(m.group(1))] = (m.group(2), fields)

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

    def _file_of_node(self, ref: int | None) -> str | None:
        for _ in range(64):
            node = self.nodes.get(ref) if ref is not None else None
            if node is None:
                return None
            kind, f = node
            if kind == "DIFile":
                d = f.get("directory", '""').strip('"')
                name = f.get("filename", '""').strip('"')
                return name if not d or name.startswith("/") else f"{d}/{name}"
            if kind != "DILocation" and f.get("file"):
                ref = self._ref(f.get("file"))
            else:
                ref = self._ref(f.get("scope"))
        return None

    def file_of(self, text: str) -> str | None:
        """The source file (as the compiler was given it) of an instruction's ``!dbg``
        location or of a define's subprogram: through the scopes to their DIFile."""
        m = _DBG_REF.search(text)
        ref = int(m.group(1)) if m else None
        for _ in range(64):
            node = self.nodes.get(ref) if ref is not None else None
            if node is None:
                return None
            kind, f = node
            if kind == "DIFile":
                return f.get("filename", '""').strip('"') or None
            if kind != "DILocation" and f.get("file"):
                ref = self._ref(f.get("file"))
            else:
                ref = self._ref(f.get("scope"))
        return None

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
        m = _DBG_REF.search(define_text.split("{")[0])
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
        m = _DBG_REF.search(define_text.split("{")[0])
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
