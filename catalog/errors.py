"""What can go wrong with a catalog, in terms a user can act on.

The CLI and the GUI turn these into a message (and, for rows, one line per
problem); none of them should ever surface as a traceback. A part id that is not
in the catalog raises `models.hardware.UnknownPartError`, the same error the
sizing models raise, so callers handle one "unknown id" everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from models.tasks import Cancelled


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One problem with one field of one row of a catalog file (or of a part being saved).

    `row` is the 1-based data row (0: the file as a whole); `line` is the physical
    line a CSV row starts on, which differs from `row` + 1 once cells span lines.
    """

    row: int
    field: str
    message: str
    line: int | None = None
    part_id: str | None = None
    in_catalog: bool = False  # the row's id is already in the catalog: importing with replace overwrites it

    @property
    def where(self) -> str:
        if self.row == 0:
            return "file"
        text = f"row {self.row}"
        if self.line is not None:
            text += f" (line {self.line})"
        elif self.part_id:
            text += f" (id '{self.part_id}')"
        return text

    def __str__(self) -> str:
        return f"{self.where}, {self.field}: {self.message}"


class CatalogError(Exception):
    """Base of every catalog error; `str()` is a complete, user-readable message."""


class CatalogOpenError(CatalogError):
    """The catalog database cannot be used: unreachable, unreadable, not a catalog, or too new.

    `url` is already masked (no password), so the message is safe to show and log.
    """

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"cannot open the catalog at {url}: {reason}")


class CatalogMigrationError(CatalogOpenError):
    """Upgrading the schema failed; the upgrade ran in one transaction, so nothing changed."""


class InvalidRowsError(CatalogError):
    """Rows that cannot be written; carries every problem found, not just the first."""

    def __init__(self, message: str, problems: Iterable[RowProblem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.row, p.field))
        super().__init__(message)

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class OutlierRowsError(InvalidRowsError):
    """Rows that are valid but whose prices or rates are far from the catalog's (`catalog.plausibility`): written
    only when the user confirms them (`confirm_outliers`), never silently."""


class SeedError(InvalidRowsError):
    """The bundled seed catalog is invalid: a packaging bug, not a user mistake."""


class CatalogFileError(CatalogError):
    """A catalog file that cannot be read at all (missing, not CSV/JSON, wrong shape)."""


class UndecidedSeparatorError(CatalogFileError):
    """A file whose number cells do not tell its decimal separator (or tell two): read again with one given (the
    CLI's --decimal, the window's question). `why` names the cells, without the CLI's option."""

    def __init__(self, name: str, why: str, nothing_imported: bool = False) -> None:
        self.why = why
        done = "; nothing was imported" if nothing_imported else ""
        super().__init__(f"{name}: the decimal separator cannot be told{done}: {why} (give --decimal . or --decimal ,)")


class PartInUseError(CatalogError):
    """Deleting a part that other parts still reference (a CPU that servers use)."""


class CatalogWriteError(CatalogError):
    """The database refused a write (lost connection, concurrent change); nothing was written."""


class CatalogDamagedError(CatalogWriteError):
    """The SQLite file failed its integrity check: refused for writing (reading may still work)."""


class EditConflictError(CatalogWriteError):
    """A part changed or was deleted by someone else since the caller read it; nothing was written.

    `theirs` is the part as stored now (file-format fields; None when it was deleted), `yours` what the
    caller tried to write, so an editor can show both values side by side.
    """

    def __init__(self, message: str, part_id: str, kind: str | None, *, yours: Mapping[str, Any] | None = None,
                 theirs: Mapping[str, Any] | None = None, version: int | None = None) -> None:
        self.part_id = part_id
        self.kind = kind
        self.yours = dict(yours) if yours is not None else None
        self.theirs = dict(theirs) if theirs is not None else None
        self.version = version
        super().__init__(message)

    @property
    def was_deleted(self) -> bool:
        return self.theirs is None

    def differences(self) -> dict[str, tuple[Any, Any]]:
        """field -> (yours, theirs) for the fields that differ (empty when either side is unknown)."""
        if self.yours is None or self.theirs is None:
            return {}
        out: dict[str, tuple[Any, Any]] = {}
        for name, theirs in self.theirs.items():
            if name in self.yours and str(self.yours[name]) != str(theirs):
                out[name] = (self.yours[name], theirs)
        return out

    @classmethod
    def changed(cls, part_id: str, kind: str | None, yours: Mapping[str, Any] | None, theirs: Mapping[str, Any],
                version: int, *, action: str) -> EditConflictError:
        probe = cls("", part_id, kind, yours=yours, theirs=theirs, version=version)
        diffs = probe.differences()
        shown = "; ".join(f"{name}: yours {mine!r}, now {now!r}" for name, (mine, now) in list(diffs.items())[:4])
        what = f"{kind} '{part_id}'" if kind else f"part '{part_id}'"
        return cls(
            f"cannot {action} {what}: someone else changed it since you read it (now at version {version})"
            + (f" ({shown})" if shown else "") + "; nothing was written. Reload it and apply your change again",
            part_id, kind, yours=yours, theirs=theirs, version=version,
        )

    @classmethod
    def gone(cls, part_id: str, kind: str | None, *, action: str, yours: Mapping[str, Any] | None = None,
                raced: bool = False) -> EditConflictError:
        what = f"{kind} '{part_id}'" if kind else f"part '{part_id}'"
        why = ("someone else changed or deleted it at the same moment" if raced
               else "someone else deleted it since you read it")
        return cls(f"cannot {action} {what}: {why}; nothing was written (it is not re-created)",
                   part_id, kind, yours=yours)


class ImportCancelled(CatalogError, Cancelled):
    """The user stopped an import; the transaction was rolled back, so nothing was imported.

    A `models.tasks.Cancelled`, so a worker stops an import the way it stops any other task."""
