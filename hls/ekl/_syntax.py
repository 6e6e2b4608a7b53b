"""The EKL subset: tokens, syntax tree and parser (the language is described in
:mod:`hls.ekl`).  Every node carries its span (line, column, end column) for diagnostics."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import FrontendError

__all__ = ["Arg", "Bin", "EKLError", "Kernel", "Num", "Ref", "Span", "Stmt", "Sum", "Neg",
           "parse", "ELEMS"]

#: element types: name -> (kind, bits)
ELEMS = {"f64": ("f", 64), "f32": ("f", 32), "i64": ("i", 64), "i32": ("i", 32),
         "i16": ("i", 16), "i8": ("i", 8)}


@dataclass(frozen=True)
class Span:
    line: int
    col: int          # 1-based
    end: int          # column after the last character (same line)


class EKLError(FrontendError):
    """``file:line:col: error: message``, then the source line with the span marked."""

    def __init__(self, message: str, path: str, span: Span | None, source: str = ""):
        super().__init__(message, path, span.line if span else None)
        self.span = span
        self.source = source

    def format(self) -> str:
        if self.span is None:
            return super().format()
        head = f"{self.file}:{self.span.line}:{self.span.col}: error: {self.message}"
        lines = self.source.splitlines()
        if 0 < self.span.line <= len(lines):
            text = lines[self.span.line - 1]
            mark = " " * (self.span.col - 1) + "^" * max(1, self.span.end - self.span.col)
            return f"{head}\n  {text}\n  {mark}"
        return head


# ----------------------------------------------------------------------------- tree

@dataclass(eq=False)
class Num:
    value: float
    text: str
    span: Span


@dataclass(eq=False)
class Ref:
    name: str
    indices: tuple[str, ...] | None     # None: the whole tensor (elementwise)
    span: Span
    index_spans: tuple[Span, ...] = ()


@dataclass(eq=False)
class Bin:
    op: str          # + - * /
    lhs: object
    rhs: object
    span: Span


@dataclass(eq=False)
class Neg:
    expr: object
    span: Span


@dataclass(eq=False)
class Sum:
    indices: tuple[str, ...]
    body: object
    span: Span
    index_spans: tuple[Span, ...] = ()


@dataclass(eq=False)
class Arg:
    name: str
    elem: str
    shape: tuple[int, ...]
    out: bool
    span: Span


@dataclass(eq=False)
class Stmt:
    kind: str                           # "let" | "out"
    target: str
    indices: tuple[str, ...] | None
    expr: object
    span: Span                          # the target
    index_spans: tuple[Span, ...] = ()


@dataclass(eq=False)
class Kernel:
    name: str
    args: list[Arg]
    stmts: list[Stmt]
    span: Span
    path: str = ""
    source: str = ""
    #: filled by hls.ekl.check: tensor name -> (elem, shape) of arguments and temporaries
    tensors: dict = field(default_factory=dict)


# ----------------------------------------------------------------------------- lexer

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) | (?P<nl>\n) | (?P<comment>//[^\n]*)
  | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<sumopen><\+)
  | (?P<op>[-+*/=;:,()\[\]{}<&])
""", re.X)

_KEYWORDS = {"kernel", "let", "out"}


@dataclass(frozen=True)
class _Tok:
    kind: str        # ident, num, op, kw, eof
    text: str
    span: Span


def _lex(text: str, path: str) -> list[_Tok]:
    toks, pos, line, col0 = [], 0, 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            col = pos - col0 + 1
            raise EKLError(f"unexpected character {text[pos]!r}", path, Span(line, col, col + 1),
                           text)
        kind = m.lastgroup
        s = m.group()
        col = pos - col0 + 1
        if kind == "nl":
            line += 1
            col0 = m.end()
        elif kind not in ("ws", "comment"):
            if kind == "ident" and s in _KEYWORDS:
                kind = "kw"
            toks.append(_Tok(kind, s, Span(line, col, col + len(s))))
        pos = m.end()
    toks.append(_Tok("eof", "", Span(line, pos - col0 + 1, pos - col0 + 2)))
    return toks


# ----------------------------------------------------------------------------- parser

class _Parser:
    def __init__(self, text: str, path: str):
        self.text, self.path = text, path
        self.toks = _lex(text, path)
        self.i = 0

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def error(self, msg: str, span: Span | None = None) -> EKLError:
        return EKLError(msg, self.path, span or self.tok.span, self.text)

    def _describe(self, t: _Tok) -> str:
        return "the end of the file" if t.kind == "eof" else f"'{t.text}'"

    def accept(self, text: str) -> _Tok | None:
        if self.tok.text == text and self.tok.kind in ("op", "kw", "sumopen"):
            t = self.tok
            self.i += 1
            return t
        return None

    def expect(self, text: str, what: str | None = None) -> _Tok:
        t = self.accept(text)
        if t is None:
            raise self.error(f"expected {what or repr(text)}, found {self._describe(self.tok)}")
        return t

    def ident(self, what: str) -> _Tok:
        t = self.tok
        if t.kind != "ident":
            raise self.error(f"expected {what}, found {self._describe(t)}")
        self.i += 1
        return t

    def integer(self, what: str) -> int:
        t = self.tok
        if t.kind != "num" or not t.text.isdigit():
            raise self.error(f"expected {what} (a positive integer), found {self._describe(t)}")
        self.i += 1
        v = int(t.text)
        if v < 1:
            raise self.error(f"{what} must be at least 1", t.span)
        return v

    # ---- file
    def file(self) -> list[Kernel]:
        out = []
        while self.tok.kind != "eof":
            out.append(self.kernel())
        if not out:
            raise self.error("expected a kernel: 'kernel NAME(ARG : TYPE, ...) { ... }'")
        return out

    def kernel(self) -> Kernel:
        self.expect("kernel", "'kernel'")
        name = self.ident("the kernel's name")
        self.expect("(")
        args: list[Arg] = []
        if not self.accept(")"):
            while True:
                args.append(self.arg())
                if self.accept(")"):
                    break
                self.expect(",", "',' or ')'")
        self.expect("{")
        stmts = []
        while not self.accept("}"):
            if self.tok.kind == "eof":
                raise self.error("expected '}' closing the kernel")
            stmts.append(self.stmt())
        return Kernel(name.text, args, stmts, name.span, self.path, self.text)

    def arg(self) -> Arg:
        n = self.ident("an argument name")
        self.expect(":", "':' and the argument's type")
        out = False
        if self.accept("out"):
            self.expect("&", "'&' after 'out'")
            out = True
        et = self.ident("an element type (f64, f32, i64, i32, i16, i8)")
        if et.text not in ELEMS:
            raise self.error(f"unknown element type '{et.text}' (known: "
                             f"{', '.join(ELEMS)})", et.span)
        shape: list[int] = []
        self.expect("[", "'[' and the tensor's dimensions")
        while True:
            shape.append(self.integer("a dimension"))
            if self.accept("]"):
                break
            self.expect(",", "',' or ']'")
        return Arg(n.text, et.text, tuple(shape), out, n.span)

    def index_list(self) -> tuple[tuple[str, ...], tuple[Span, ...]]:
        names, spans = [], []
        while True:
            t = self.ident("an index name")
            names.append(t.text)
            spans.append(t.span)
            if self.accept("]"):
                return tuple(names), tuple(spans)
            self.expect(",", "',' or ']'")

    def stmt(self) -> Stmt:
        kw = self.tok
        if not (self.accept("let") or self.accept("out")):
            raise self.error(f"expected a statement ('let' or 'out'), found "
                             f"{self._describe(self.tok)}")
        target = self.ident("the name of the tensor defined")
        idx, spans = None, ()
        if self.accept("["):
            idx, spans = self.index_list()
        self.expect("=", "'='")
        e = self.expr()
        self.expect(";", "';' ending the statement")
        return Stmt(kw.text, target.text, idx, e, target.span, spans)

    # ---- expressions
    def expr(self):
        e = self.term()
        while self.tok.text in ("+", "-") and self.tok.kind == "op":
            op = self.tok
            self.i += 1
            r = self.term()
            e = Bin(op.text, e, r, op.span)
        return e

    def term(self):
        e = self.factor()
        while self.tok.text in ("*", "/") and self.tok.kind == "op":
            op = self.tok
            self.i += 1
            r = self.factor()
            e = Bin(op.text, e, r, op.span)
        return e

    def factor(self):
        t = self.tok
        if t.kind == "num":
            self.i += 1
            return Num(float(t.text), t.text, t.span)
        if self.accept("("):
            e = self.expr()
            self.expect(")", "')'")
            return e
        if t.kind == "op" and t.text == "-":
            self.i += 1
            return Neg(self.factor(), t.span)
        if t.kind == "sumopen":
            self.i += 1
            names, spans = [], []
            while True:
                x = self.ident("a summation index")
                names.append(x.text)
                spans.append(x.span)
                if self.accept("<"):
                    break
                self.expect(",", "',' or '<' closing the summation indices")
            body = self.expr()          # as far right as possible
            return Sum(tuple(names), body, t.span, tuple(spans))
        if t.kind == "ident":
            self.i += 1
            if self.accept("["):
                idx, spans = self.index_list()
                return Ref(t.text, idx, t.span, spans)
            return Ref(t.text, None, t.span)
        raise self.error(f"expected an expression, found {self._describe(t)}")


def parse(text: str, path: str) -> list[Kernel]:
    """The kernels of an ``.ekl`` text (syntax only; :func:`hls.ekl.check` types them)."""
    return _Parser(text, path).file()
