"""Binding: functional-unit sharing, register allocation by lifetime, memory ports."""

from ._bind import Binding, bind, is_wire_use

__all__ = ["Binding", "bind", "is_wire_use"]
