"""The window's look: one stylesheet, so every view shares the same hierarchy and colours."""

from __future__ import annotations

STYLESHEET = """
QMainWindow, QWidget#formPage { background: #ffffff; }
QLabel#paneTitle { font-size: 11pt; font-weight: 600; color: #1f2933; padding: 2px 2px 6px 2px; }
QLabel#resultHeading { font-size: 14pt; font-weight: 600; color: #1f2933; }
QLabel#hint { color: #7b8794; font-size: 8.5pt; }
QLabel#partSpecs { color: #52606d; font-size: 8.5pt; }
QLabel#pickerLabel { font-weight: 600; color: #323f4b; }
QLabel#fieldError { color: #c92a2a; font-size: 8.5pt; }
QLabel#fieldHint { color: #5c5f66; font-size: 8.5pt; }
QLabel#binding { color: #323f4b; padding: 2px 0 6px 0; }
QLabel#totals { color: #1f2933; padding: 2px 0 6px 0; }
QLabel#catalogWhere { color: #323f4b; padding-bottom: 4px; }

QLabel#banner { border-radius: 4px; padding: 6px 10px; }
QLabel#banner[kind="warn"] { background: #fff4e6; color: #a04a00; border: 1px solid #ffc078; }
QLabel#banner[kind="error"] { background: #fff5f5; color: #a51111; border: 1px solid #ffa8a8; }
QLabel#banner[kind="info"] { background: #e7f5ff; color: #1c5a8c; border: 1px solid #a5d8ff; }
QLabel#banner[kind="busy"] { background: #f1f3f5; color: #495057; border: 1px solid #dee2e6; }
QLabel#warnBox { background: #fff9db; color: #7a5300; border: 1px solid #ffe066; border-radius: 4px;
                 padding: 6px 10px; }

QFrame#kpi { background: #f5f7fa; border: 1px solid #e4e7eb; border-radius: 6px; }
QFrame#kpi[alert="true"] { background: #fff9db; border-color: #ffe066; }
QLabel#kpiTitle { color: #7b8794; font-size: 7.5pt; font-weight: 600; letter-spacing: 0.5px; }
QLabel#kpiValue { color: #1f2933; font-size: 14pt; font-weight: 600; }
QLabel#kpiSub { color: #616e7c; font-size: 8pt; }
QFrame#kpi[stale="true"] { background: #f0f0f0; border: 1px dashed #9aa5b1; }
QFrame#kpi[stale="true"] QLabel#kpiValue { color: #9aa5b1; }
QLabel#kpiStale { color: #b44d12; font-size: 7.5pt; font-weight: 600; }

QLineEdit[invalid="true"], QComboBox[invalid="true"] { border: 1.5px solid #e03131; background: #fff5f5; }
QLineEdit, QComboBox { padding: 3px 5px; }
QGroupBox { font-weight: 600; color: #323f4b; border: 1px solid #e4e7eb; border-radius: 6px;
            margin-top: 12px; padding: 10px 8px 8px 8px; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; }
QTableView, QTableWidget { gridline-color: #edf0f3; selection-background-color: #dbe8fd; selection-color: #1f2933; }
QHeaderView::section { background: #f5f7fa; color: #3e4c59; border: none; border-bottom: 1px solid #e4e7eb;
                       padding: 4px 6px; font-weight: 600; }
QListWidget#scenarioList { border: 1px solid #e4e7eb; border-radius: 4px; }
QTabBar::tab { padding: 6px 14px; }
QTabWidget#scenarioForm QTabBar::tab { padding: 5px 7px; }
QStatusBar { color: #52606d; }
"""
