"""PostgreSQL storage load per database: transactions, data-file IOPS, WAL volume and the two virtual disks.

Per database at its busiest hour (upper bounds; the figures are in `pg_tuning_docs.json`):

* tps: given, or what the database's clients drive by the throughput model on the server's CPU (the CPU rate of the
  vCPUs they take at study 001's clients per vCPU, `tps_vcpus.clients_tps`), at most its share of what its VM carries.
* row changes/s = tps x writes per transaction (pgbench default: 5 statements, 60 % UPDATE and
  20 % INSERT = 4, study 001's description of the benchmark).
* data-file writes/s: each changed page is written back once per checkpoint at most, so
  min(row changes/s, working-set pages / (checkpoint_timeout x checkpoint_completion_target)).
* data-file reads/s: none while the VM's cache holds the working set (the VMs are sized so);
  otherwise tps x the pages a pgbench default transaction reads (its non-INSERT statements, 4) x the share of
  the working set the cache does not hold: the reads the throughput model's storage bound counts
  (`models.perf.pg_tps`), times a margin for a stated rate met at P90.
* WAL: one flush per commit (tps writes/s) and, per second, the row records plus one 8 kB
  full-page image for each page first changed after a checkpoint (at most the working set per
  interval). WAL per checkpoint interval sizes max_wal_size; the WAL disk holds twice that.
* DATA disk: the database at the fill limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from models.calibration_data import figure, point
from models.perf.pg_tps_law import page_reads_per_txn
from models.scenario import PgDatabase

DS = "pg_tuning_docs"
STUDY = "pg_vfabric_001"
GIB_PER_GB = 1e9 / 2**30


def f(point_id: str) -> float:
    return figure(DS, point_id)


def cite(point_id: str, dataset: str = DS) -> str:
    return point(dataset, point_id).source.cite()


def default_writes_per_txn() -> float:
    """pgbench default: 5 statements, 60 % UPDATE and 20 % INSERT -> 4 row changes per transaction."""
    return figure(STUDY, "pgbench_default_statements") * (
        figure(STUDY, "pgbench_default_update_share") + figure(STUDY, "pgbench_default_insert_share")
    )


def offpeak_fraction(db: PgDatabase) -> float:
    """Load outside the busy hours: given, or study 001's low-traffic periods (2 of 30 clients)."""
    if db.offpeak_load_pct is not None:
        return db.offpeak_load_pct / 100.0
    return _study_offpeak()


@cache
def _study_offpeak() -> float:
    """Study 001's 2 of 30 clients, read once: a sizing asks for it per database and hour (3 million times for
    1,000 databases), and two calibration look-ups each time were a third of its time."""
    return figure(STUDY, "t2_low_clients") / figure(STUDY, "t2_high_clients")


def load_profile(db: PgDatabase) -> np.ndarray:
    """`load_at` for each hour of the day (read-only, shared by the databases of one busy-hours pattern): the
    sizing asks for it once per database and candidate, not per hour."""
    return _profile(None if db.busy_hours is None else tuple(db.busy_hours), db.offpeak_load_pct)


@cache
def _profile(busy: tuple[int, ...] | None, offpeak_pct: float | None) -> np.ndarray:
    offpeak = offpeak_pct / 100.0 if offpeak_pct is not None else _study_offpeak()
    loads = np.array([1.0 if busy is None or h in busy else offpeak for h in range(24)])  # the hours of a day
    loads.setflags(write=False)
    return loads


def load_at(db: PgDatabase, hour: int) -> float:
    """Fraction of its peak a database runs at `hour`: 1 in its busy hours (all day if none given)."""
    if db.busy_hours is None or hour in db.busy_hours:
        return 1.0
    return offpeak_fraction(db)


@dataclass(frozen=True, slots=True)
class DbIo:
    name: str
    tps: float
    tps_estimated: bool
    data_write_iops: float
    data_read_iops: float
    wal_write_iops: float
    wal_mb_s: float
    wal_mb_per_checkpoint: float
    data_disk_gb: float
    wal_disk_gb: float

    @property
    def write_iops(self) -> float:
        return self.data_write_iops + self.wal_write_iops

    def scaled(self, load: float) -> tuple[float, float, float]:
        """(reads/s, writes/s, WAL MB/s) at `load` x peak."""
        return self.data_read_iops * load, self.write_iops * load, self.wal_mb_s * load


def max_wal_size_mb(wal_mb_per_checkpoint: float) -> int:
    """Whole GB that hold one checkpoint interval of WAL, at least the PGTune OLTP value.

    >>> max_wal_size_mb(100.0), max_wal_size_mb(9000.0)
    (8192, 9216)
    """
    return int(max(f("max_wal_size_oltp_mb"), math.ceil(wal_mb_per_checkpoint / 1024.0) * 1024))


def disks_floor_gb(db: PgDatabase, fill: float) -> float:
    """The least DATA and WAL virtual disks `database_io` gives `db` at any rate: its data at the fill limit and WAL of
    the smallest max_wal_size.

    >>> from models.scenario import PgDatabase
    >>> db = PgDatabase(name="a", size_gb=3, peak_clients=30, working_set_gb=1)
    >>> io = database_io(db, 3.0, 0.7, 1000.0)
    >>> disks_floor_gb(db, 0.7) <= io.data_disk_gb + io.wal_disk_gb
    True
    """
    return db.size_gb / fill + max_wal_size_mb(0.0) * f("wal_soft_limit_factor") / 1024.0 / GIB_PER_GB


def database_io(db: PgDatabase, cache_gib: float, fill: float, tps: float, read_margin: float = 1.0) -> DbIo:
    """Peak I/O of one database at `tps` transactions/s (its stated peak, or the rate its VM estimates for it) whose
    VM caches `cache_gib` (effective_cache_size share of its working set); `read_margin` scales its reads (a stated
    rate met at P90 needs more than its median reads).

    >>> from models.scenario import PgDatabase
    >>> io = database_io(PgDatabase(name="a", size_gb=3, peak_clients=30, working_set_gb=1), 3.0, 0.7, 1000.0)
    >>> round(io.data_write_iops), round(io.wal_write_iops), io.data_read_iops, io.tps_estimated
    (452, 1000, 0.0, True)
    """
    estimated = db.peak_tps is None
    writes = db.writes_per_txn if db.writes_per_txn is not None else default_writes_per_txn()
    changes = tps * writes
    page_kb = f("page_size_kb")
    ws_gib = db.working_set_gb * GIB_PER_GB
    ws_pages = ws_gib * 1024.0 * 1024.0 / page_kb
    timeout = f("checkpoint_timeout_s")
    data_writes = min(changes, ws_pages / (timeout * f("checkpoint_completion_target")))
    miss = max(0.0, 1.0 - cache_gib / ws_gib) if ws_gib > 0 else 0.0
    reads = tps * page_reads_per_txn() * miss * read_margin
    fpi_per_s = min(changes, ws_pages / timeout)
    wal_mb_s = (changes * f("wal_record_bytes") / 1e6) + fpi_per_s * page_kb / 1024.0
    wal_per_ckpt = wal_mb_s * timeout
    wal_disk_gb = max_wal_size_mb(wal_per_ckpt) * f("wal_soft_limit_factor") / 1024.0 / GIB_PER_GB
    return DbIo(db.name, tps, estimated, data_writes, reads, tps, wal_mb_s, wal_per_ckpt,
                db.size_gb / fill, wal_disk_gb)
