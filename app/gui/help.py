"""The Help menu: the user guide, the model card (how far to trust each model) and About with versions.

The texts are plain functions (tested without a window); `HelpDialog` only shows them.
"""

from __future__ import annotations

import html
import platform
from importlib import metadata
from pathlib import Path

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "USER_GUIDE.md"
_VERSIONED = ("PySide6-Essentials", "numpy", "scipy", "SQLAlchemy", "pydantic", "reportlab", "matplotlib",
              "openpyxl", "alembic")


def user_guide_markdown() -> str:
    try:
        return GUIDE.read_text(encoding="utf-8")
    except OSError:
        return ("# User guide\n\nThe guide (docs/USER_GUIDE.md) is not installed with this copy of refarch; "
                "see README.md of the source distribution.")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def versions() -> list[tuple[str, str]]:
    """refarch, Python, Qt and every library whose version changes a result or a file."""
    from PySide6 import QtCore

    out = [("refarch", _version("refarch")), ("Python", platform.python_version()), ("Qt", QtCore.qVersion())]
    out += [(dist, _version(dist)) for dist in _VERSIONED]
    return out


def about_html(catalog_label: str = "") -> str:
    rows = "".join(f"<tr><td>{html.escape(k)}</td><td>&nbsp;{html.escape(v)}</td></tr>" for k, v in versions())
    catalog = f"<p>Catalog: {html.escape(catalog_label)}</p>" if catalog_label else ""
    return ("<h3>refarch</h3><p>Sizing and reference architectures for Greenplum, PostgreSQL on vSphere and "
            "SAP IQ, calibrated on published studies and vendor documentation.</p>"
            f"{catalog}<table>{rows}</table><p>Platform: {html.escape(platform.platform())}</p>")


def model_card_html() -> str:
    """Every model: what it was fitted on, its in-sample error, what it was checked against; the references."""
    from models.perf.cards import all_cards
    from models.references import ReferenceList, readable

    refs = ReferenceList()
    rows = []
    for c in all_cards():
        cited = "; ".join(refs.marks("; ".join(c.sources))) if c.sources else ""
        fitted = c.fitted_text(cited)
        rows.append(
            f"<tr><td><b>{html.escape(c.name)}</b><br><small>{html.escape(readable(c.description, refs))}</small>"
            f"</td><td>{html.escape(fitted)}</td><td>{html.escape(c.in_sample_text())}</td>"
            f"<td>{html.escape(readable(c.validation_text(), refs))}</td></tr>")
    refs_html = "".join(f"<br>[{n}] {html.escape(r.entry())}" for n, r in refs.entries())
    return ("<h3>Model card</h3><p>Each model with the points it was fitted on, how closely it reproduces them "
            "(in-sample error) and what it was checked against that the fit did not use. An in-sample error is "
            "not the accuracy to expect on other hardware or workloads.</p>"
            "<table border='1' cellspacing='0' cellpadding='4'><tr><th>Model</th><th>Fitted on</th>"
            "<th>In-sample error</th><th>Checked on data not fitted</th></tr>" + "".join(rows) + "</table>"
            f"<p><b>References</b>{refs_html}</p>")


class HelpDialog(QDialog):
    """A non-modal reader for one help text (markdown or HTML)."""

    def __init__(self, title: str, text: str, markdown: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("helpDialog")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        if markdown:
            self.browser.setMarkdown(text)
        else:
            self.browser.setHtml(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser)
        lay.addWidget(buttons)
        self.resize(820, 640)
