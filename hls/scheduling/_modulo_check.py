"""The modulo schedule checker is :func:`hls.scheduling.check` (``_check``), which checks
every problem of the family; this name stays for the callers that import it from here."""

from __future__ import annotations

from ._check import check_modulo_schedule

__all__ = ["check_modulo_schedule"]
