"""Tensor kernels in a subset of EKL (EVEREST's Einstein-notation kernel language).

    kernel inverse_helmholtz(S : f64[11, 11], D : f64[11, 11, 11], u : f64[11, 11, 11],
                             v : out& f64[11, 11, 11]) {
        let t[i, j, k] = <+ a, b, c< S[i, a] * S[j, b] * S[k, c] * u[a, b, c];
        let r = D * t;
        out v[i, j, k] = <+ a, b, c< S[a, i] * S[b, j] * S[c, k] * r[a, b, c];
    }

* ``kernel NAME(ARG : TYPE, ...) { STMT... }``; TYPE is ``ELEM[d0, d1, ...]`` with ELEM
  one of f64, f32, i64, i32, i16, i8; ``out&`` before the type marks an output; ``//``
  starts a comment.
* ``let X[i, j] = EXPR;`` defines a temporary over the named indices; ``let X = EXPR;``
  one whose shape is that of an elementwise expression; ``out Y[...] = EXPR;`` and
  ``out Y = EXPR;`` write an output.
* ``+ - * /`` elementwise with the usual precedence (a number broadcasts), parentheses,
  numbers, ``X[i, j]`` (X indexed by index names), ``X`` (the whole tensor, elementwise),
  ``<+ a, b< EXPR`` (the sum of EXPR over a and b, extending as far right as possible).

Semantics: Einstein notation over the declared names, row-major layout.  The generated
function has the C ABI ``void NAME(const ELEM *arg, ..., ELEM *out, ...)`` in declaration
order.  :mod:`._syntax` parses, :mod:`._check` types and shapes, :mod:`._lower` emits the
loop nests (factorised contractions, reductions outside the pipelined loop).
"""

from __future__ import annotations

import math

import llvmlite.ir as ir

from ._check import check
from ._lower import contraction_order, lower_kernel, multiplies
from ._syntax import ELEMS, EKLError, Kernel, parse

__all__ = ["EKLError", "Kernel", "c_header", "check", "compile_ekl", "contraction_order",
           "lower_kernel", "multiplies", "parse"]

_C = {"f64": "double", "f32": "float", "i64": "int64_t", "i32": "int32_t", "i16": "int16_t",
      "i8": "int8_t"}


def compile_ekl(text: str, path: str) -> tuple[str, list[Kernel]]:
    """The LLVM IR text of every kernel of an ``.ekl`` text, and the checked kernels."""
    kernels = [check(k) for k in parse(text, path)]
    seen = {}
    for k in kernels:
        if k.name in seen:
            raise EKLError(f"kernel '{k.name}' is defined twice", path, k.span, text)
        seen[k.name] = k
    module = ir.Module(name=path)
    for k in kernels:
        lower_kernel(k, module)
    return str(module), kernels


def c_header(kernels: list[Kernel], guard: str = "EKL_KERNELS_H") -> str:
    """A C header declaring the kernels with their C ABI (shapes in comments)."""
    lines = [f"#ifndef {guard}", f"#define {guard}", "#include <stdint.h>", ""]
    for k in kernels:
        params = []
        for a in k.args:
            c = _C[a.elem]
            params.append(f"{'' if a.out else 'const '}{c} *{a.name}")
        dims = "; ".join(f"{a.name}: {a.elem}[{', '.join(map(str, a.shape))}] "
                         f"({math.prod(a.shape)} elements){' out' if a.out else ''}"
                         for a in k.args)
        lines += [f"/* {dims} */", f"void {k.name}({', '.join(params)});", ""]
    lines.append(f"#endif /* {guard} */")
    return "\n".join(lines) + "\n"


del ELEMS
