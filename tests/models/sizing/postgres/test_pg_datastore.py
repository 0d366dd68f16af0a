"""The PostgreSQL drive count in closed form equals the one-count-at-a-time search it replaced."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.seed import seed_catalog
from models.calibration_data import figure
from models.sizing.postgres.datastore import DS, GB_PER_TB, HostStorage, drives_for, raid_write_penalty
from models.sizing.rules import drives_valid_for_raid, raid_capacity_factor

DRIVES = seed_catalog().drives


def _one_by_one(storage: HostStorage, drive: object, raid: str, bays: int) -> int | None:
    busy = figure(DS, "storage_busy_max")
    pen = raid_write_penalty(raid)
    load = (storage.read_iops / max(drive.random_read_iops, 1e-9)  # type: ignore[attr-defined]
            + storage.write_iops * pen / max(drive.random_write_iops, 1e-9))  # type: ignore[attr-defined]
    need = max(load, storage.wal_mb_s * pen / max(drive.seq_write_mb_s, 1e-9)) / busy  # type: ignore[attr-defined]
    for n in range(1, bays + 1):
        usable = n * drive.capacity_tb * float(raid_capacity_factor(raid, n)) * GB_PER_TB  # type: ignore[attr-defined]
        if bool(drives_valid_for_raid(raid, n)) and usable >= storage.capacity_gb and n >= need:
            return n
    return None


@settings(max_examples=300, deadline=None)
@given(cap=st.floats(0, 400_000), reads=st.floats(0, 2e6), writes=st.floats(0, 1e6), wal=st.floats(0, 5000),
       drive=st.sampled_from(DRIVES), raid=st.sampled_from(["none", "raid1", "raid5", "raid10"]),
       bays=st.integers(1, 26), exact=st.booleans())
def test_closed_form_equals_the_search(cap: float, reads: float, writes: float, wal: float, drive: object,
                                       raid: str, bays: int, exact: bool) -> None:
    if exact:  # capacity exactly on a drive-count boundary: rounding must not move the answer
        cap = 3 * drive.capacity_tb * GB_PER_TB  # type: ignore[attr-defined]
    storage = HostStorage(cap, reads, writes, wal)
    assert drives_for(storage, drive, raid, None, bays) == _one_by_one(storage, drive, raid, bays)  # type: ignore[arg-type]
