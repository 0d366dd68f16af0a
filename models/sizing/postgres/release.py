"""What the PostgreSQL major release and the VM's vCPUs decide in postgresql.conf: parallel query (PGTune's rules:
tuned to the vCPUs from 4 up, PostgreSQL's defaults below), JIT and WAL compression by release. Every figure is read
from `resources/calibration/pg_tuning_docs.json`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure, point
from models.sizing.settings import Setting

DS = "pg_tuning_docs"


def _f(point_id: str) -> float:
    return figure(DS, point_id)


def _cite(point_id: str) -> str:
    return point(DS, point_id).source.cite()


def supported_majors() -> tuple[int, ...]:
    """The PostgreSQL majors the community supports, oldest first: what workload.postgres_version takes.

    >>> supported_majors()
    (14, 15, 16, 17, 18)
    """
    return tuple(range(int(_f("postgres_oldest_supported_major")), int(_f("postgres_newest_major")) + 1))


@dataclass(frozen=True, slots=True)
class Parallel:
    """Background and parallel workers of one VM."""

    worker_processes: int  # max_worker_processes
    per_gather: int  # max_parallel_workers_per_gather: the workers one query node takes, each with its work_mem
    settings: tuple[Setting, ...]


def parallel(vcpus: int) -> Parallel:
    """PGTune's parallel settings: from 4 vCPUs, max_worker_processes and max_parallel_workers = the vCPUs and half
    of them (at most 4) per Gather and per maintenance command; below 4 vCPUs PostgreSQL's defaults.

    >>> [(s.name, s.value) for s in parallel(16).settings]  # doctest: +NORMALIZE_WHITESPACE
    [('max_worker_processes', 16), ('max_parallel_workers', 16), ('max_parallel_workers_per_gather', 4),
     ('max_parallel_maintenance_workers', 4)]
    >>> parallel(6).per_gather, parallel(2).worker_processes, parallel(2).per_gather
    (3, 8, 2)
    """
    small = vcpus < _f("parallel_min_vcpus")
    if small:
        workers, gather, maintenance = (int(_f("max_worker_processes_default")),
                                        int(_f("max_parallel_workers_per_gather_default")),
                                        int(_f("max_parallel_maintenance_workers_default")))
        why = f"below {_f('parallel_min_vcpus'):g} vCPUs PGTune keeps PostgreSQL's default"
        src = f"{_cite('parallel_min_vcpus')}; {_cite('max_worker_processes_default')}"
        return Parallel(workers, gather, (
            Setting("max_worker_processes", workers, "", why, src),
            Setting("max_parallel_workers", workers, "", why, src),
            Setting("max_parallel_workers_per_gather", gather, "", why,
                    _cite("max_parallel_workers_per_gather_default")),
            Setting("max_parallel_maintenance_workers", maintenance, "", why,
                    _cite("max_parallel_maintenance_workers_default")),
        ))
    half = math.ceil(vcpus / 2)
    gather = min(half, int(_f("parallel_workers_per_gather_cap")))
    maintenance = min(half, int(_f("parallel_maintenance_workers_cap")))

    def capped(n: int, cap_id: str) -> str:
        return (f"half the {vcpus} vCPUs" if n == half else
                f"half the {vcpus} vCPUs is {half}, capped at {_f(cap_id):g}: more workers per query pay little")

    return Parallel(vcpus, gather, (
        Setting("max_worker_processes", vcpus, "", f"one background worker per vCPU ({vcpus})",
                _cite("parallel_min_vcpus")),
        Setting("max_parallel_workers", vcpus, "", f"parallel workers at once across queries: the {vcpus} vCPUs",
                _cite("parallel_min_vcpus")),
        Setting("max_parallel_workers_per_gather", gather, "",
                capped(gather, "parallel_workers_per_gather_cap") + "; each worker takes its own work_mem",
                _cite("parallel_workers_per_gather_cap")),
        Setting("max_parallel_maintenance_workers", maintenance, "",
                capped(maintenance, "parallel_maintenance_workers_cap") + " (CREATE INDEX, VACUUM)",
                _cite("parallel_maintenance_workers_cap")),
    ))


def release_settings(version: int) -> list[Setting]:
    """Settings whose value depends on the major release: JIT off for OLTP from the release that turned it on by
    default; WAL compression with lz4 from the release that has it, else pglz (on).

    >>> [(s.name, s.value) for s in release_settings(14)], [s.value for s in release_settings(17)]
    ([('jit', 'off'), ('wal_compression', 'on')], ['off', 'lz4'])
    """
    lz4 = version >= _f("wal_compression_lz4_from_major")
    out = []
    if version >= _f("jit_off_from_major"):
        out.append(Setting("jit", "off", "", f"PostgreSQL {version} compiles queries with JIT by default: short OLTP"
                           " queries pay its planning and compile time for nothing", _cite("jit_off_from_major")))
    out.append(Setting(
        "wal_compression", "lz4" if lz4 else "on", "",
        f"compress full-page images in the WAL ({'lz4, from PostgreSQL 15' if lz4 else 'pglz: lz4 needs 15 or later'}):"
        " less WAL to write and ship for a little CPU", _cite("wal_compression_lz4_from_major")))
    return out
