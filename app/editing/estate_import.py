"""The current estate as databases to consolidate: an RVTools or Live Optics export, right-sized from what each VM
used at a chosen statistic times a comfort factor (`models.estate.right_size`). `refarch new postgres-consolidation
--rvtools/--liveoptics` and the window's "Import VMs" both take it, so they build the same databases and notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from app.editing.table_files import RowsError
from app.formatting import significant
from models.problems import Problem

if TYPE_CHECKING:
    from app.editing.liveoptics import Statistic

Source = Literal["rvtools", "liveoptics"]
SOURCES: dict[Source, str] = {"rvtools": "RVTools export", "liveoptics": "Live Optics export"}
STATISTICS: tuple[Statistic, ...] = ("peak", "average")  # Live Optics' figures per VM over the collection
COMFORT_MIN, COMFORT_MAX, COMFORT_DEFAULT = 1.0, 5.0, 1.2
NOTES_SHOWN = 50  # right-sizing notes carried into the scenario's notes


class EstateImportError(RowsError):
    """An import asked with a comfort factor out of range (`RowsError`: the readers' own errors name the sheet, row
    and column)."""


@dataclass(frozen=True)
class EstateImport:
    databases: list[dict[str, Any]]  # `PgDatabase`s as JSON, each with its `current` VM
    summary: str  # what the import did, in one sentence
    notes: tuple[str, ...]  # what right-sizing noted, VM by VM

    @property
    def said(self) -> str:
        """The summary and the first NOTES_SHOWN notes: what the scenario's notes lead with."""
        return self.summary + "".join(f" {n}." for n in self.notes[:NOTES_SHOWN])


def _vms(n: int) -> str:
    return f"{n} VM" if n == 1 else f"{n} VMs"


def import_estate(path: Path, source: Source, comfort: float = COMFORT_DEFAULT, statistic: Statistic = "peak",
                  target_cpu: str = "", target_cores: int | None = None) -> EstateImport:
    """The powered-on, non-template VMs of the export at `path` as databases, right-sized at `comfort` x their
    observed use (`statistic`: Live Optics' peak or average over the collection; RVTools has one snapshot), CPU
    scaled to `target_cpu` when given. Raises RowsError naming every bad sheet, row and column: nothing is half
    read."""
    from app.editing.liveoptics import Observed, read_liveoptics
    from app.editing.rvtools import Estate, read_rvtools
    from models.estate import RightSizing, right_size

    if not COMFORT_MIN <= comfort <= COMFORT_MAX:
        raise EstateImportError(path.name, [Problem(
            "comfort", f"the comfort factor must be {significant(COMFORT_MIN)} to {significant(COMFORT_MAX)} (got"
            f" {significant(comfort)})")])
    estate: Estate | Observed
    if source == "rvtools":
        estate = read_rvtools(path)
        observed = "the use it observed (a snapshot at the export's time, not a peak)"
    else:
        estate = read_liveoptics(path, statistic)
        observed = f"each VM's {statistic} over the collection"
    where = f"{SOURCES[source]} {path.name}"
    sized = [right_size(vm, RightSizing(comfort, target_cpu, target_cores, where)) for vm in estate.vms]
    summary = (f"From the {where}: {_vms(len(sized))} powered on, right-sized at {significant(comfort)} x {observed};"
               f" {_vms(estate.powered_off)} not powered on and {estate.templates}"
               f" template{'' if estate.templates == 1 else 's'} left out.")
    return EstateImport([s.database for s in sized], summary, tuple(n for s in sized for n in s.notes))
