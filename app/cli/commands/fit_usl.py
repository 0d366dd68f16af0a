"""`refarch measure fit-usl FILE` (also `refarch fit-usl FILE`): the Universal Scalability Law fitted to a sweep.

FILE is pgbench output (one run after another over client counts), HammerDB results (log or CSV), or a CSV with
a header naming the columns `clients` and `throughput` (other columns are ignored). Prints lambda, sigma, kappa,
their 95 % intervals, the peak, r2, each point's residual, and whether the sweep places the peak, as a table or
JSON. `fit-usl` is kept as an alias of `measure fit-usl`.
"""

from __future__ import annotations

import argparse
import csv
import math
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.errors import CliError
from app.cli.output import format_table, print_json
from app.formatting import DASH, significant
from models import file_input

if TYPE_CHECKING:
    from models.perf.usl import UslFit

REQUIRED = ("clients", "throughput")
# A sweep is tens of client counts (repeated runs included); a file of millions of rows is not one, and fitting
# it took gigabytes. Rows are read lazily and the file refused past this many points.
MAX_POINTS = 100_000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_fit_parser(sub, "fit-usl", alias=True)


def add_fit_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *, alias: bool = False) -> None:
    p = sub.add_parser(
        name,
        help=("alias of `refarch measure fit-usl`" if alias else "")
        + "fit the Universal Scalability Law to a sweep (pgbench or HammerDB output, or CSV clients,throughput)",
        description=(
            "Fit X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) to measured throughput: pgbench output "
            "(runs over client counts), HammerDB results, or a CSV with a header naming clients and throughput."
        ),
    )
    p.add_argument("file", metavar="FILE", help="pgbench or HammerDB output, or CSV: clients,throughput")
    p.add_argument("--mix", help="the pgbench transaction type to fit, where the file holds several")
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format (default: table)")
    p.set_defaults(handler=_run)


def _is_points_csv(path: Path) -> bool:
    """Whether the file is the plain clients,throughput CSV: its start bears no mark of pgbench or HammerDB."""
    from models.file_input import TABLE_MAX_BYTES, FileInputError, read_head
    from models.measurements.detect import detect_kind
    from models.measurements.lines import numbered_lines

    try:
        head = read_head(path, 65_536, max_bytes=TABLE_MAX_BYTES).decode("utf-8", "replace").lstrip("\ufeff")
        detect_kind(numbered_lines(head, path.name), path.name)
    except FileInputError:
        return True  # no tool's mark (or unreadable): the CSV reader says what it needs
    return False


def sweep_points(path: Path, mix: str | None) -> tuple[list[float], list[float], str]:
    """(clients, throughput, unit) of the sweep in a pgbench or HammerDB file; CliError naming the line."""
    from app.services.errors import ServiceError
    from app.services.measurements import read_files
    from models.measurements.profile import MeasurementProfile, ProfileFile, sweeps

    try:
        (imported,) = read_files([path])
    except ServiceError as exc:
        raise CliError("; ".join(str(p) for p in exc.problems) or exc.message) from None
    now = datetime.now(UTC)
    found = sweeps(MeasurementProfile("", None, now, (ProfileFile(path.name, now, imported.measurement),)))
    if mix is not None:
        found = [s for s in found if s.mix == mix]
    if len(found) != 1:
        mixes = ", ".join(repr(s.mix) for s in sweeps(MeasurementProfile(
            "", None, now, (ProfileFile(path.name, now, imported.measurement),)))) or "none"
        raise CliError(f"{path}: {'no' if not found else 'several'} sweeps to fit"
                       + ("; name one with --mix" if len(found) > 1 or mix else "") + f" (transaction types: {mixes})")
    return list(found[0].clients), list(found[0].throughput), found[0].unit


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` one at a time, each with its line break (what csv.reader reads)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end


def read_points(path: Path) -> tuple[list[float], list[float]]:
    """Rows of (clients, throughput); every bad row or field is reported, not just the first."""
    try:
        text = file_input.read_text(path, max_bytes=file_input.TABLE_MAX_BYTES, what="CSV text file",
                                    hint="save it as a UTF-8 CSV text file")
    except file_input.FileInputError as exc:
        raise CliError(f"{path}: {'; '.join(p.message for p in exc.problems)}") from None
    if not text.strip():
        raise CliError(f"{path}: empty file; expected a header row 'clients,throughput' and data rows")
    if "\x00" in text:
        raise CliError(f"{path}: not a CSV text file (contains NUL bytes)")

    reader = csv.reader(_lines(text))  # row by row: no list of every line, no second copy of the text
    try:
        header = next(reader)
    except csv.Error as exc:
        raise CliError(f"{path}: not a valid CSV file: {exc}") from exc
    names = [h.strip().lower() for h in header]
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        shown = ", ".join(repr(h) for h in header[:6]) or "(nothing)"
        raise CliError(
            f"{path}: missing column(s) {', '.join(missing)} in the header row",
            [f"header found: {shown}", "expected a header row naming the columns clients and throughput"],
        )
    idx = {c: names.index(c) for c in REQUIRED}

    clients: list[float] = []
    throughput: list[float] = []
    problems: list[str] = []
    try:
        for row_no, row in enumerate(reader, start=2):  # row 1 is the header
            if not any(cell.strip() for cell in row):
                continue
            if len(clients) + len(problems) >= MAX_POINTS:
                raise CliError(f"{path}: more than {MAX_POINTS:,} points; a USL sweep is tens of client counts "
                               "(average repeated runs per count, or fit one run at a time)")
            values: dict[str, float] = {}
            for col, i in idx.items():
                cell = row[i].strip() if i < len(row) else ""
                if cell == "":
                    problems.append(f"row {row_no}: {col} is empty")
                    continue
                try:
                    v = float(cell)
                except ValueError:
                    problems.append(f"row {row_no}: {col} {cell!r} is not a number")
                    continue
                if not math.isfinite(v):
                    problems.append(f"row {row_no}: {col} {cell!r} is not a finite number")
                elif v <= 0:
                    problems.append(f"row {row_no}: {col} must be > 0, got {cell}")
                else:
                    values[col] = v
            if len(values) == len(REQUIRED):
                clients.append(values["clients"])
                throughput.append(values["throughput"])
    except csv.Error as exc:
        raise CliError(f"{path}: not a valid CSV file: {exc}") from exc
    if problems:
        raise CliError(f"{path}: {len(problems)} bad value(s)", problems)
    if len(clients) < 3:
        raise CliError(f"{path}: {len(clients)} data row(s); the USL has 3 parameters and needs at least 3 points")
    return clients, throughput


def _fmt(v: float | None, digits: int = 6) -> str:
    return significant(v, digits)


def _table(path: Path, fit: UslFit) -> str:
    rows: list[dict[str, Any]] = []
    for name, value in fit.params.items():
        ci = fit.intervals.get(name)
        rows.append(
            {
                "parameter": name,
                "value": _fmt(value),
                "95 % low": _fmt(ci[0]) if ci else DASH,
                "95 % high": _fmt(ci[1]) if ci else DASH,
            }
        )
    lines = [f"USL fit of {path} ({fit.points} points)", ""]
    lines.append(format_table(rows, ["parameter", "value", "95 % low", "95 % high"]))
    lines.append("")
    lines.append(f"peak clients     {_fmt(fit.peak_clients, 4)}")
    lines.append(f"peak throughput  {_fmt(fit.peak_throughput, 6)}")
    lines.append(f"r2               {_fmt(fit.r2, 4)}")
    lines.append(f"rms error        {100 * fit.rms_relative_error:.1f} % of the measured throughput")
    rng = fit.peak_clients_range()
    if rng is not None:
        lines.append(f"peak clients P10-P90  {_fmt(rng[0], 4)} - {_fmt(rng[1], 4)}")
    if not fit.peak_placed:
        from app.services.measurements import unplaced_peak

        lines.append(f"peak NOT placed: {unplaced_peak(fit)}")
    if fit.peak_note:
        lines.append(f"note: {fit.peak_note}")
    if fit.covariance_note:
        lines.append(f"note: {fit.covariance_note}")
    if fit.physical_note:
        lines.append(f"warning: outside the USL's physical bounds: {fit.physical_note}")
    pred = fit.predicted()
    lines.append("")
    lines.append(
        format_table(
            [
                {
                    "clients": _fmt(float(c)),
                    "measured": _fmt(float(x)),
                    "fitted": _fmt(float(p)),
                    "error %": f"{100.0 * (p - x) / x:+.1f}",
                }
                for c, x, p in zip(fit.clients, fit.observed, pred, strict=True)
            ],
            ["clients", "measured", "fitted", "error %"],
        )
    )
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    unit = "TPS"
    if _is_points_csv(path):
        clients, throughput = read_points(path)
    else:
        clients, throughput, unit = sweep_points(path, args.mix)
        if len(set(clients)) < 3:
            raise CliError(f"{path}: {len(set(clients))} client count(s); the USL has 3 parameters and needs at "
                           "least 3 distinct counts")
    from models.perf.usl import PARAM_NAMES, UslFitError, fit_usl  # numpy and scipy only when a fit runs

    try:
        fit = fit_usl(clients, throughput, label=path.name, unit=unit)
    except UslFitError as exc:
        raise CliError(f"{path}: cannot fit the USL: {exc}") from exc
    if args.format == "json":
        doc = fit.summary()
        doc["intervals"] = {k: doc["intervals"][k] for k in PARAM_NAMES}
        print_json(doc)
    else:
        print(_table(path, fit))
    return 0
