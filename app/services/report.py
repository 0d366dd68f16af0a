"""The report use case, once for `refarch report` and File > Export: size for the report, then write it.

One error policy (the CLI's, now also the window's):
- a scenario the engine refuses stops the report: `ServiceError("invalid scenario <label>", problems)`;
- a growth plan the engine cannot make (`SizingInputError`, `ValueError`) leaves that section out and
  says why in `ReportInputs.notes` (the CLI prints them, the window shows them with the result);
- an output that cannot be written: `ServiceError("cannot write the report", ...)`, nothing half-written;
- anything else is a bug and propagates (the window and the CLI show it as an internal error).
reportlab and the engine load inside the functions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from app.services import sizing
from app.services.errors import ServiceError
from app.views.edition import Audience
from models.hardware import HardwareCatalog
from models.problems import Problem
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import IsCancelled, Progress, check_cancelled, part_progress
from models.uncertainty import Estimate

if TYPE_CHECKING:
    from app.views.sensitivity import SensitivityView
    from models.whatif import GrowthYear

BomFormat = Literal["csv", "xlsx"]
EditableFormat = Literal["docx", "pptx"]


@dataclass(frozen=True)
class ReportInputs:
    """What a report renders, one entry per scenario in order; `notes` say what was left out and why."""

    scenarios: list[Scenario]
    results: list[SizingResult]
    growth: list[list[GrowthYear] | None] | None  # None: the growth section was not asked for
    curves: list[list[tuple[int, Estimate]]]
    notes: list[str] = field(default_factory=list)
    sensitivity: list[SensitivityView | None] | None = None  # None: the sensitivity section was not asked for


def check_outputs(paths: Sequence[Path]) -> None:
    """Before any sizing: the outputs must be different files that can be written."""
    from app.export.atomic import ExportError, check_writable, resolved_path

    problems = []
    resolved = [resolved_path(p) for p in paths]
    if len(set(resolved)) != len(resolved):
        problems.append(Problem("", "the PDF, CSV, XLSX, DOCX and PPTX outputs must be different files"))
    for p in paths:
        try:
            check_writable(p)
        except ExportError as exc:
            problems.append(Problem(str(p), str(exc)))
    if problems:
        raise ServiceError("cannot write the report", problems)


def size_for_report(
    scenarios: Sequence[Scenario],
    catalog: HardwareCatalog,
    labels: Sequence[str] | None = None,
    *,
    with_growth: bool = True,
    with_sensitivity: bool = False,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> ReportInputs:
    """Size every scenario, then its growth plan and its estimate curve (and, when asked, its tornado: each main
    input +-`SENSITIVITY_DELTA`, a dozen sizings each), under the one error policy above.

    `labels` name the scenarios in problems and notes (the CLI's file names; default: the scenario names)."""
    scenarios = list(scenarios)
    names = list(labels) if labels is not None else [s.name for s in scenarios]
    parts = 2 * len(scenarios)  # per scenario: its design, then its growth plan and curve
    results = [sizing.size(s, catalog, part_progress(progress, i, parts), cancelled, label)
               for i, (s, label) in enumerate(zip(scenarios, names, strict=True))]
    notes: list[str] = []
    plans: list[list[GrowthYear] | None] | None = [] if with_growth else None
    curves = []
    for i, (s, r, label) in enumerate(zip(scenarios, results, names, strict=True)):
        check_cancelled(cancelled)
        if plans is not None:
            plans.append(_growth(s, catalog, r, label, notes, cancelled))
        curves.append(sizing.curve_points(s, catalog, r, part_progress(progress, len(scenarios) + i, parts),
                                          cancelled))
    tornadoes = [_tornado(s, catalog, r, label, notes, cancelled)
                 for s, r, label in zip(scenarios, results, names, strict=True)] if with_sensitivity else None
    return ReportInputs(scenarios, results, plans, curves, notes, tornadoes)


SENSITIVITY_DELTA = 0.2  # the report's tornado: each main input 20 % lower and higher, as `refarch sensitivity`


def _tornado(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult, label: str, notes: list[str],
             cancelled: IsCancelled | None) -> SensitivityView | None:
    from app.views.sensitivity import sensitivity_view
    from models.perf.measured import using
    from models.sizing.engine import SizingInputError
    from models.whatif import sensitivity

    try:
        with using(result.measured):
            bars = sensitivity(scenario, catalog, SENSITIVITY_DELTA, result, cancelled)
    except (SizingInputError, ValueError) as exc:  # the report is still useful without it; say why
        notes.append(f"{label}: sensitivity left out ({exc})")
        return None
    return sensitivity_view(result, bars, SENSITIVITY_DELTA * 100)


def _growth(scenario: Scenario, catalog: HardwareCatalog, result: SizingResult, label: str, notes: list[str],
            cancelled: IsCancelled | None) -> list[GrowthYear] | None:
    from models.perf.measured import using
    from models.sizing.engine import SizingInputError
    from models.whatif import growth

    try:
        with using(result.measured):  # sized on measurements: every year on the same measured rates
            return growth(scenario, catalog, result, cancelled)
    except (SizingInputError, ValueError) as exc:  # the report is still useful without the plan; say why
        notes.append(f"{label}: growth plan left out ({exc})")
        return None


def write_report(
    inputs: ReportInputs,
    pdf: Path,
    *,
    bom_csv: Path | None = None,
    bom_xlsx: Path | None = None,
    docx: Path | None = None,
    pptx: Path | None = None,
    title: str | None = None,
    audience: Audience = "internal",
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> list[Path]:
    """The PDF (and the BOM files, the DOCX report and the PPTX deck when asked) as one set: each rendered into a
    hidden temporary file beside its target, and all renamed over their targets only once every one is complete,
    so a failure or a cancel at any point leaves every target as it was (never a new PDF beside an old BOM). The
    paths written, in that order. `audience`: the edition of the PDF, the DOCX and the PPTX (`app.views.edition`);
    the BOM files are procurement's and the same in both."""
    from app.export import ExportError, render_report
    from app.export.atomic import atomic_write

    boms: list[tuple[Path, BomFormat]] = [(bom_csv, "csv")] if bom_csv is not None else []
    boms += [(bom_xlsx, "xlsx")] if bom_xlsx is not None else []
    editable: list[tuple[Path, EditableFormat]] = [(docx, "docx")] if docx is not None else []
    editable += [(pptx, "pptx")] if pptx is not None else []
    current = pdf
    try:
        with contextlib.ExitStack() as stack:  # each atomic_write renames its file when the whole block succeeds
            staged = stack.enter_context(atomic_write(pdf))
            render_report(inputs.results, inputs.scenarios, staged, progress, cancelled, growth=inputs.growth,
                          curves=inputs.curves, sensitivity=inputs.sensitivity, title=title, audience=audience)
            for path, fmt in boms:
                check_cancelled(cancelled)
                current = path
                write_bom(inputs.results, inputs.scenarios, stack.enter_context(atomic_write(path)), fmt)
            for path, kind in editable:
                check_cancelled(cancelled)
                current = path
                _write_editable(inputs, kind, stack.enter_context(atomic_write(path)), title, audience)
    except (ExportError, OSError) as exc:
        raise ServiceError("cannot write the report", [Problem(str(current), str(exc))]) from None
    except ServiceError as exc:
        raise ServiceError(exc.message, [Problem(str(current), p.message) for p in exc.problems]) from None
    return [pdf, *(path for path, _ in boms), *(path for path, _ in editable)]


def _write_editable(inputs: ReportInputs, kind: EditableFormat, staged: Path, title: str | None,
                    audience: Audience) -> None:
    """The report as DOCX or the short deck as PPTX (`app.export.docx_report`, `app.export.pptx_deck`)."""
    if kind == "pptx":
        from app.export.pptx_deck import render_pptx

        render_pptx(inputs.results, inputs.scenarios, staged, title=title, audience=audience)
    else:
        from app.export.docx_report import render_docx

        render_docx(inputs.results, inputs.scenarios, staged, title=title, audience=audience)


def write_bom(results: Sequence[SizingResult], scenarios: Sequence[Scenario], path: Path, fmt: BomFormat) -> Path:
    """The bill of materials of every scenario as CSV or XLSX (`app.export.bom`), written atomically."""
    from app.export import ExportError, bom_table, write_bom_csv, write_bom_xlsx

    tables = [bom_table(r, s.customer) for r, s in zip(results, scenarios, strict=True)]
    try:
        if fmt == "csv":
            write_bom_csv(tables, path)
        else:  # the workbook also holds each PostgreSQL VM's databases and settings, which the PDF groups
            from app.export.vm_settings_sheet import vm_settings_table

            write_bom_xlsx(tables, path, [vm_settings_table(r) for r in results])
    except (ExportError, OSError) as exc:
        raise ServiceError("cannot write the report", [Problem(str(path), str(exc))]) from None
    return path


def export_bom(scenarios: Sequence[Scenario], catalog: HardwareCatalog, path: Path, fmt: BomFormat,
               labels: Sequence[str] | None = None, progress: Progress | None = None,
               cancelled: IsCancelled | None = None) -> Path:
    """Size every scenario (the engine's numbers, not a cached screen state), then write their BOM."""
    names = list(labels) if labels is not None else [s.name for s in scenarios]
    results = [sizing.size(s, catalog, part_progress(progress, i, len(scenarios)), cancelled, label)
               for i, (s, label) in enumerate(zip(scenarios, names, strict=True))]
    check_cancelled(cancelled)
    return write_bom(results, scenarios, path, fmt)


def export_editable(scenarios: Sequence[Scenario], catalog: HardwareCatalog, path: Path, kind: EditableFormat,
                    labels: Sequence[str] | None = None, progress: Progress | None = None,
                    cancelled: IsCancelled | None = None, audience: Audience = "internal") -> Path:
    """Size every scenario, then write the report as DOCX or the short deck as PPTX alone (File > Export in the
    window; `refarch report --docx/--pptx` writes them with the PDF)."""
    from app.export import ExportError

    names = list(labels) if labels is not None else [s.name for s in scenarios]
    results = [sizing.size(s, catalog, part_progress(progress, i, len(scenarios)), cancelled, label)
               for i, (s, label) in enumerate(zip(scenarios, names, strict=True))]
    check_cancelled(cancelled)
    try:
        _write_editable(ReportInputs(list(scenarios), results, None, []), kind, path, None, audience)
    except (ExportError, OSError) as exc:
        raise ServiceError("cannot write the report", [Problem(str(path), str(exc))]) from None
    return path


def export_report(scenarios: Sequence[Scenario], catalog: HardwareCatalog, pdf: Path, *,
                  labels: Sequence[str] | None = None, with_growth: bool = True, with_sensitivity: bool = False,
                  title: str | None = None,
                  bom_csv: Path | None = None, bom_xlsx: Path | None = None,
                  docx: Path | None = None, pptx: Path | None = None, audience: Audience = "internal",
                  progress: Progress | None = None, cancelled: IsCancelled | None = None,
                  ) -> tuple[list[Path], list[str]]:
    """Size for the report, then write it: the paths written and the notes (what was left out and why)."""
    inputs = size_for_report(scenarios, catalog, labels, with_growth=with_growth, with_sensitivity=with_sensitivity,
                             progress=part_progress(progress, 0, 2), cancelled=cancelled)
    written = write_report(inputs, pdf, bom_csv=bom_csv, bom_xlsx=bom_xlsx, docx=docx, pptx=pptx, title=title,
                           audience=audience, progress=part_progress(progress, 1, 2), cancelled=cancelled)
    return written, inputs.notes
