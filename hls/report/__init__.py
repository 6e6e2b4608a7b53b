"""The reports a person reads: ``report.html`` of a synthesis (:func:`report_html`, from
report.json, co-simulation included) and ``dse.html`` of an exploration
(:func:`dse_html`, from dse.json), static pages with inline SVG; and report.json's
``schedule`` section they draw (:func:`schedule_report`, every op's state, chained
delays and C line)."""

from __future__ import annotations

from ._html import dse_html, report_html
from ._schedule import OpRecord, parse_op, schedule_report

__all__ = ["OpRecord", "dse_html", "parse_op", "report_html", "schedule_report"]
