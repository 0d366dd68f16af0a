"""Exports an architect hands to a customer: the PDF design report and the BOM as CSV / XLSX.

`render_report` (PDF), `bom_table` + `write_bom_csv` / `write_bom_xlsx` (spreadsheets).
They render what `models.sizing.engine.size` returned; nothing is sized here. Every file
is written atomically (temporary file, then rename), so a failure leaves no half file.

The names load on first use (PEP 562): the window imports `app.export.formatting` for its
labels and must not pay for reportlab until the user exports (a report never imports matplotlib).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.export.atomic import ExportError
    from app.export.bom import BomTable, bom_table, write_bom_csv, write_bom_xlsx
    from app.export.report import render_report

_WHERE = {
    "ExportError": "app.export.atomic",
    "BomTable": "app.export.bom",
    "bom_table": "app.export.bom",
    "write_bom_csv": "app.export.bom",
    "write_bom_xlsx": "app.export.bom",
    "render_report": "app.export.report",
}

__all__ = [
    "BomTable",
    "ExportError",
    "bom_table",
    "render_report",
    "write_bom_csv",
    "write_bom_xlsx",
]


if not TYPE_CHECKING:  # mypy reads the names above; an unknown name is an error to it, not Any

    def __getattr__(name: str) -> Any:
        module = _WHERE.get(name)
        if module is None:
            raise AttributeError(f"module 'app.export' has no attribute '{name}'")
        return getattr(importlib.import_module(module), name)
