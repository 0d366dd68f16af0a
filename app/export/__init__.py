"""Exports an architect hands to a customer: the PDF design report and the BOM as CSV / XLSX.

`render_report` (PDF), `bom_table` + `write_bom_csv` / `write_bom_xlsx` (spreadsheets).
They render what `models.sizing.engine.size` returned; nothing is sized here. Every file
is written atomically (temporary file, then rename), so a failure leaves no half file.
"""

from app.export.atomic import ExportError
from app.export.bom import BomTable, bom_table, write_bom_csv, write_bom_xlsx
from app.export.pdf_doc import ReportCancelled
from app.export.report import render_report

__all__ = [
    "BomTable",
    "ExportError",
    "ReportCancelled",
    "bom_table",
    "render_report",
    "write_bom_csv",
    "write_bom_xlsx",
]
