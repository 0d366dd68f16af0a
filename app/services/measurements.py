"""Measurement use cases shared by `refarch measure` and the window: read files, fit sweeps, describe profiles.

Reading is all-or-nothing across the files of one import: every file is read and each refusal listed (file and
line), and nothing is stored unless all of them read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.services.errors import ServiceError
from models import file_input
from models.measurements import profile as profiles
from models.measurements.detect import MAX_BYTES, parse_measurement
from models.problems import Problem

if TYPE_CHECKING:
    from catalog.measurements import ImportedFile
    from models.measurements.profile import MeasurementProfile, ThroughputSweep
    from models.perf.usl import UslFit


def read_files(paths: Iterable[Path | str]) -> list[ImportedFile]:
    """Every file read and parsed, or ServiceError listing each file that cannot be (its line and reason)."""
    from catalog.measurements import ImportedFile

    out: list[ImportedFile] = []
    problems: list[Problem] = []
    names: dict[str, Path] = {}
    for raw in paths:
        path = Path(raw)
        if path.name in names:
            problems.append(Problem(str(path), f"two files named {path.name} (the other is {names[path.name]}): "
                                               "a profile keeps one file per name"))
            continue
        names[path.name] = path
        try:
            text = file_input.read_text(path, max_bytes=MAX_BYTES, what="measurement text file",
                                        hint="import the tool's text output as it wrote it")
            out.append(ImportedFile(path.name, text, parse_measurement(text, path.name)))
        except file_input.FileInputError as exc:
            problems += [Problem(str(path), str(p)) for p in exc.problems]
    if problems:
        raise ServiceError(f"{len(problems)} file(s) cannot be imported; nothing was stored", problems)
    if not out:
        raise ServiceError("no files to import")
    return out


@dataclass(frozen=True, slots=True)
class SweepFit:
    sweep: ThroughputSweep
    fit: UslFit | None
    reason: str  # why there is no fit, or the fit's caveat ("" when it places the peak)


def fit_sweep(sweep: ThroughputSweep) -> SweepFit:
    """The USL fitted to a sweep, with what it cannot tell: no fit below 3 client counts, a peak not placed."""
    from models.perf.usl import UslFitError, fit_usl

    if len(set(sweep.clients)) < 3:
        return SweepFit(sweep, None, f"{len(set(sweep.clients))} client count(s): a USL fit needs at least 3")
    try:
        fit = fit_usl(sweep.clients, sweep.throughput, unit=sweep.unit, label=f"{sweep.tool} {sweep.mix}")
    except UslFitError as exc:
        return SweepFit(sweep, None, f"cannot fit the USL: {exc}")
    return SweepFit(sweep, fit, "" if fit.peak_placed else unplaced_peak(fit))


def unplaced_peak(fit: UslFit) -> str:
    """The flag on a sweep too short to place its peak."""
    rng = fit.peak_clients_range()
    shown = "" if rng is None else f" (P10-P90 {rng[0]:,.0f}-{rng[1]:,.0f})".replace("inf", "unbounded")
    return (f"the sweep stops at {fit.max_clients:g} clients, before the fitted peak{shown}: the peak and "
            "everything beyond the last measured count are extrapolated; extend the sweep past the peak")


def profile_document(profile: MeasurementProfile) -> dict[str, Any]:
    """The profile's figures with a fit per sweep: the `measure show --format json` document."""
    doc = profiles.summary(profile)
    for item, sweep in zip(doc["sweeps"], profiles.sweeps(profile), strict=True):
        result = fit_sweep(sweep)
        item["usl"] = result.fit.summary() if result.fit is not None else None
        item["note"] = result.reason or None
    return doc
