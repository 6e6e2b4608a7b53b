"""Function names as the user wrote them.

The IR keeps LLVM's symbols (a C++ function's is mangled: ``_ZN2ns1fEPKiPii``); what the
user gives and reads is the C++ name.  This module maps between the two, and depends on
nothing in pyhls but :mod:`hls.errors`:

* :func:`demangle` -- a symbol's whole demangled form (``ns::f(int const*, int*, int)``),
  by the C++ runtime's ``__cxa_demangle`` (the ``cxxfilt`` package, a pinned dependency);
  a symbol that is not a mangled C++ name is itself;
* :func:`display_names` -- per symbol of a module, the name reports show: the qualified
  name without its parameters (``ns::f``) where no other function of the module has it,
  else the whole demangled form (overloads);
* :func:`verilog_names` -- per symbol, a legal Verilog identifier derived from the display
  name (``ns_f``), unique in the module, the same for the same set of symbols;
* :func:`resolve_function` -- ``--top`` and the other options that name a function: a
  symbol, a qualified name (``ns::f``, ``f``) or a whole demangled signature, resolved to
  the one symbol it names (ambiguous and unknown names are errors listing the
  candidates);
* :func:`demangle_text` -- every mangled symbol of a message replaced by its demangled
  form (the CLI's errors and warnings).
"""

from __future__ import annotations

import functools
import re

from .errors import HLSError

__all__ = ["demangle", "short_name", "display_names", "verilog_names", "verilog_name",
           "resolve_function", "resolve_lenient", "demangle_text", "demangle_json", "hardware_names", "is_mangled", "defined_functions"]

_MANGLED = re.compile(r"(?<![\w$.])_Z[\w$.]+")


def is_mangled(sym: str) -> bool:
    return sym.startswith("_Z")


@functools.lru_cache(maxsize=4096)
def demangle(sym: str) -> str:
    """The demangled form of ``sym``; ``sym`` itself when it is no mangled C++ name (a C
    function, an LLVM suffix such as ``.1`` kept: ``f(int) [clone .1]``)."""
    if not is_mangled(sym):
        return sym
    try:
        import cxxfilt
    except ImportError:
        _no_demangler("the cxxfilt package is not installed (pip install 'cxxfilt>=0.3,<0.4')")
        return sym
    try:
        return cxxfilt.demangle(sym)
    except cxxfilt.InvalidName:     # not a C++ name after all (a C function named _Z...)
        pass
    except Exception as e:          # no C++ runtime to load __cxa_demangle from
        _no_demangler(f"cxxfilt cannot demangle ({e})")
        return sym
    # clang mangles _BitInt(N) as DB<N>_ (unsigned: DU<N>_), which older C++ runtimes'
    # __cxa_demangle do not know: as a vendor type (u<len><name>, a substitution
    # candidate as DB/DU are to clang, so S_, S0_ ... keep their meaning), then named back
    if not _BITINT.search(sym):
        return sym
    try:
        text = cxxfilt.demangle(_BITINT.sub(
            lambda m: f"u{14 + len(m.group(2))}pyhls_bitint_{m.group(1)}{m.group(2)}", sym))
    except cxxfilt.InvalidName:
        return sym
    except Exception as e:          # no C++ runtime to load __cxa_demangle from
        _no_demangler(f"cxxfilt cannot demangle ({e})")
        return sym
    return _BITINT_NAME.sub(lambda m: ("unsigned " if m.group(1) == "U" else "")
                            + f"_BitInt({m.group(2)})", text)


#: a _BitInt(N) in a mangled name (DB<N>_; unsigned DU<N>_), and :func:`demangle`'s
#: stand-in vendor type for it
_BITINT = re.compile(r"D([BU])(\d+)_")
_BITINT_NAME = re.compile(r"pyhls_bitint_([BU])(\d+)")

_WARNED: list = []


def _no_demangler(why: str) -> None:
    """Said once: C++ names stay mangled without a demangler (not silently)."""
    if not _WARNED:
        _WARNED.append(why)
        import sys
        print(f"pyhls: warning: C++ function names are shown mangled: {why}", file=sys.stderr)


def _split_params(text: str) -> tuple[str, str]:
    """``(name part, parameter list with qualifiers)`` of a demangled function: the
    parameter list is the last top-level parenthesised group."""
    s = text.rstrip()
    # trailing qualifiers of a member function: const, volatile, &, &&
    tail = re.search(r"(\s*(const|volatile|&&|&))*$", s)
    end = tail.start() if tail else len(s)
    if end == 0 or s[end - 1] != ")":
        return s, ""
    depth = 0
    for i in range(end - 1, -1, -1):
        c = s[i]
        if c in ")>":
            depth += 1
        elif c in "(<":
            depth -= 1
            if depth == 0 and c == "(":
                return s[:i], s[i:]
    return s, ""


def short_name(sym: str) -> str:
    """The qualified name of a function without its parameters and, for a template
    instance, its return type: ``ns::f``, ``ns::Acc<int, 2>::add``, ``ns::g<int>``."""
    full = demangle(sym)
    if full == sym:
        return sym
    name, _ = _split_params(full)
    # a template instance's demangled form starts with its return type: the name is the
    # last top-level space-separated word
    depth, start = 0, 0
    for i, c in enumerate(name):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif c == " " and depth == 0 and not name[:i].endswith("operator"):
            start = i + 1
    return name[start:] or full


def display_names(syms) -> dict[str, str]:
    """Per symbol, the name reports and messages show: :func:`short_name` unless another
    of ``syms`` shares it (overloads, template instances of one name), then the whole
    demangled form."""
    syms = list(dict.fromkeys(syms))
    shorts = {s: short_name(s) for s in syms}
    count: dict[str, int] = {}
    for v in shorts.values():
        count[v] = count.get(v, 0) + 1
    return {s: (shorts[s] if count[shorts[s]] == 1 else demangle(s)) for s in syms}


def verilog_name(text: str) -> str:
    """A legal Verilog identifier from a display name: every run of characters that
    cannot appear in one becomes ``_`` (``ns::f`` -> ``ns_f``, ``Acc<int, 2>::add`` ->
    ``Acc_int_2_add``); a leading digit gets ``m_``."""
    out = re.sub(r"[^A-Za-z0-9_$]+", "_", text).strip("_") or "f"
    if not (out[0].isalpha() or out[0] == "_"):
        out = "m_" + out
    return out


def verilog_names(syms, taken=()) -> dict[str, str]:
    """Per symbol, a distinct Verilog identifier (:func:`verilog_name` of its display name;
    names that collide, with each other or with ``taken``, get ``_2``, ``_3``, ... in the
    order of their symbols, so the same symbols always get the same names)."""
    disp = display_names(syms)
    used = set(taken)
    out = {}
    for s in sorted(disp, key=lambda s: (verilog_name(short_name(s)), s)):
        base = verilog_name(short_name(s))
        name, k = base, 1
        while name in used:
            k += 1
            name = f"{base}_{k}"
        used.add(name)
        out[s] = name
    return {s: out[s] for s in disp}


def hardware_names(syms) -> dict[str, str]:
    """Per symbol, the name the RTL gives its hardware (module and instance names): a C
    symbol is kept, a mangled one gets its :func:`verilog_names` identifier (distinct from
    the kept C names)."""
    syms = list(dict.fromkeys(syms))
    plain = [s for s in syms if not is_mangled(s)]
    mangled = verilog_names([s for s in syms if is_mangled(s)], taken=plain) if len(plain) < len(syms) else {}
    return {s: mangled.get(s, s) for s in syms}


def demangle_text(text: str) -> str:
    """``text`` with every mangled C++ symbol in it replaced by its demangled form."""
    if "_Z" not in text:
        return text
    return _MANGLED.sub(lambda m: demangle(m.group(0)), text)


_DEFINE = re.compile(r'^define\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-\w.$]+)\(', re.M)


def defined_functions(ll_text: str) -> list[str]:
    """The symbols of the functions an LLVM module defines, in their order."""
    return [m.group(1).strip('"') for m in _DEFINE.finditer(ll_text)]


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s).removeprefix("::")


def resolve_function(query: str, syms, what: str = "--top", file: str | None = None) -> str:
    """The one symbol of ``syms`` that ``query`` names: the symbol itself, its qualified
    name (``ns::f``; ``f`` for a function of the global namespace) or its whole demangled
    form (spaces do not matter).  An overloaded name is an error listing the candidates'
    signatures; an unknown name an error listing the functions there are."""
    syms = list(dict.fromkeys(syms))
    if query in syms:
        return query
    q = _norm(query)
    hits = [s for s in syms if _norm(short_name(s)) == q or _norm(demangle(s)) == q]
    if len(hits) == 1:
        return hits[0]
    if hits:
        cands = "; ".join(demangle(s) for s in hits)
        raise HLSError(f"{what} {query}: the name is ambiguous, it names {len(hits)} "
                       f"functions: {cands}; give the whole signature (e.g. {what} "
                       f"'{demangle(hits[0])}') or the mangled name", file, 1 if file else None)
    shown = sorted(display_names(syms).values())
    head = (f"top function '{query}' is not defined in the input" if what == "--top"
            else f"{what} {query}: no function of that name is defined in the input")
    raise HLSError(f"{head}; defined functions: {', '.join(shown) or 'none'}", file,
                   1 if file else None)


def resolve_lenient(name: str, syms, what: str, file: str | None = None) -> str:
    """:func:`resolve_function` for the options and directives that name functions
    besides ``--top``: a name that names nothing is returned as given (the check that
    knows the design's functions says so later); an ambiguous name is an error."""
    syms = list(syms)
    if name == "*" or name in syms:
        return name
    try:
        return resolve_function(name, syms, what, file)
    except HLSError as e:
        if "ambiguous" in e.message:
            raise
        return name


def demangle_json(x, keep=()):
    """A JSON-like value with :func:`demangle_text` applied to every string in it (keys
    too) but the values of the keys in ``keep``."""
    if isinstance(x, dict):
        return {demangle_text(k) if isinstance(k, str) else k:
                (v if k in keep else demangle_json(v, keep)) for k, v in x.items()}
    if isinstance(x, list):
        return [demangle_json(v, keep) for v in x]
    if isinstance(x, str):
        return demangle_text(x)
    return x
