"""Measurement profiles in the catalog: imported all-or-nothing, read back through the same parsers.

A profile lives in the catalog's database, so a team's shared PostgreSQL catalog shares it like the parts. Each
file is stored as the tool wrote it, with its provenance (file name, kind, the RESULT date where the tool prints
one, the hosts it names, when it was imported); loading parses it again, so the figures a design uses are always
the current parser's reading of what was measured.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from catalog.errors import CatalogError
from catalog.orm import DriveRecord, MeasurementFileRecord, MeasurementProfileRecord, ServerRecord
from models.file_input import FileInputError
from models.measurements.detect import Measurement, parse_measurement
from models.measurements.profile import MeasurementProfile, ProfileFile

MAX_NAME = 80


class UnknownProfileError(CatalogError):
    def __init__(self, name: str, close: Sequence[str]) -> None:
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        super().__init__(f"no measurement profile named {name!r} in the catalog{hint}")
        self.name = name


@dataclass(frozen=True, slots=True)
class ImportedFile:
    """A file read and parsed, ready to store: its name, its text and what the parser read from it."""

    file_name: str
    content: str
    measurement: Measurement


@dataclass(frozen=True, slots=True)
class ProfileImport:
    name: str
    created: bool
    added: tuple[str, ...]
    replaced: tuple[str, ...]


def checked_name(name: str) -> str:
    """A profile name: 1-80 printable characters, spaces at the ends removed."""
    cleaned = name.strip()
    if not cleaned or len(cleaned) > MAX_NAME or not cleaned.isprintable():
        raise CatalogError(f"a measurement profile name must be 1-{MAX_NAME} printable characters, got {name!r}")
    return cleaned


@dataclass(frozen=True, slots=True)
class MeasuredDrives:
    """The measured hosts' data drives: how many per host, and which catalog drive (None: not said)."""

    per_host: int
    drive_id: str | None = None


MAX_DRIVES_PER_HOST = 1_000  # far above any server's bays: a typo, not a server


def _checked_drives(session: Session, drives: MeasuredDrives, server_id: str | None) -> None:
    server = session.get(ServerRecord, server_id) if server_id is not None else None
    limit = server.data_bays if server is not None and server.data_bays > 0 else MAX_DRIVES_PER_HOST
    if not 1 <= drives.per_host <= limit:
        where = f"the {server_id} server's data bays" if server is not None and server.data_bays > 0 else "the limit"
        raise CatalogError(f"data drives per measured host: must be 1-{limit} ({where}), got {drives.per_host}")
    if drives.drive_id is not None and session.get(DriveRecord, drives.drive_id) is None:
        ids = list(session.scalars(select(DriveRecord.id)))
        close = difflib.get_close_matches(drives.drive_id, ids, n=3, cutoff=0.4)
        raise CatalogError(f"measured hosts' drive: no drive {drives.drive_id!r} in the catalog"
                           + (f"; did you mean {', '.join(close)}?" if close else ""))


def import_files(session: Session, name: str, files: Sequence[ImportedFile], server_id: str | None,
                 drives: MeasuredDrives | None = None) -> ProfileImport:
    """Add `files` to profile `name` (created if new); a file of the same name replaces the stored one. `drives`
    (the measured hosts' data drives) replaces what the profile said of them."""
    name = checked_name(name)
    if server_id is not None and session.get(ServerRecord, server_id) is None:
        ids = list(session.scalars(select(ServerRecord.id)))
        close = difflib.get_close_matches(server_id, ids, n=3, cutoff=0.4)
        raise CatalogError(f"no server {server_id!r} in the catalog" + (f"; did you mean {', '.join(close)}?"
                                                                         if close else ""))
    profile = session.get(MeasurementProfileRecord, name)
    created = profile is None
    if drives is not None:
        _checked_drives(session, drives, server_id if server_id is not None or profile is None else profile.server_id)
    if profile is None:
        profile = MeasurementProfileRecord(name=name, server_id=server_id, created_at=datetime.now(UTC))
        session.add(profile)
    elif server_id is not None:
        profile.server_id = server_id
    if drives is not None:
        profile.data_drives, profile.drive_id = drives.per_host, drives.drive_id
    session.flush()
    stored = set(session.scalars(select(MeasurementFileRecord.file_name).where(MeasurementFileRecord.profile == name)))
    for f in files:
        if f.file_name in stored:
            session.execute(delete(MeasurementFileRecord).where(MeasurementFileRecord.profile == name,
                                                                 MeasurementFileRecord.file_name == f.file_name))
        pf = ProfileFile(f.file_name, datetime.now(UTC), f.measurement)
        session.add(MeasurementFileRecord(profile=name, file_name=f.file_name, kind=f.measurement.kind,
                                          measured_at=pf.measured_at, hosts=",".join(pf.hosts), content=f.content,
                                          imported_at=pf.imported_at))
    names = [f.file_name for f in files]
    return ProfileImport(name, created, tuple(n for n in names if n not in stored),
                         tuple(n for n in names if n in stored))


def profile_names(session: Session) -> list[str]:
    return list(session.scalars(select(MeasurementProfileRecord.name).order_by(MeasurementProfileRecord.name)))


def load_profile(session: Session, name: str) -> MeasurementProfile:
    record = session.get(MeasurementProfileRecord, name)
    if record is None:
        raise UnknownProfileError(name, difflib.get_close_matches(name, profile_names(session), n=3, cutoff=0.4))
    rows = session.scalars(select(MeasurementFileRecord).where(MeasurementFileRecord.profile == name)
                           .order_by(MeasurementFileRecord.id))
    files = []
    for row in rows:
        try:
            measurement = parse_measurement(row.content, row.file_name, row.kind)
        except FileInputError as exc:
            raise CatalogError(f"measurement profile {name!r}: the stored file {row.file_name} no longer reads "
                               f"({exc}); import it again or delete the profile") from None
        files.append(ProfileFile(row.file_name, _aware(row.imported_at), measurement))
    return MeasurementProfile(record.name, record.server_id, _aware(record.created_at), tuple(files),
                              record.data_drives, record.drive_id)


def delete_profile(session: Session, name: str) -> None:
    record = session.get(MeasurementProfileRecord, name)
    if record is None:
        raise UnknownProfileError(name, difflib.get_close_matches(name, profile_names(session), n=3, cutoff=0.4))
    session.execute(delete(MeasurementFileRecord).where(MeasurementFileRecord.profile == name))
    session.delete(record)


def _aware(when: datetime) -> datetime:
    """SQLite hands back naive datetimes for timezone columns; they were written in UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
