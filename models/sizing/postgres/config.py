"""The PostgreSQL server configuration of one database VM: every postgresql.conf value with its reason.

Rules, in the order they depend on each other:

* shared_buffers: 75 % of VM memory only where study 001 measured it paying (a VM dedicated to
  one database, memory not overcommitted, VM no larger than the study's VMs); otherwise the
  PostgreSQL documentation's 25 % (more than 40 % is "unlikely" to help). Never 45-55 %.
* effective_cache_size shared_buffers plus PGTune's page cache share of the rest (3/4 of memory at PGTune's 1/4
  shared_buffers), maintenance_work_mem 1/16 (capped), work_mem from what
  shared_buffers leaves over (max_connections + workers) x 3: the PGTune OLTP rules.
* max_connections covers the peak clients plus the superuser slots; when the memory left
  cannot give every connection the work_mem floor, a transaction pooler is suggested and
  max_connections is set to the pool. When memory suffices but the clients exceed study 001's
  clients per vCPU, the pooler is advised (info): the wiki's cores x 2 + spindles keep the vCPUs busy.
* wal_buffers 1/32 of shared_buffers up to one segment; max_wal_size holds one checkpoint
  interval of WAL; random_page_cost / effective_io_concurrency by drive type; huge_pages.

Every figure is read from `resources/calibration/pg_tuning_docs.json` (PostgreSQL documentation,
PGTune, study 001); none is a literal here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from operator import attrgetter
from typing import Literal

from models.calibration_data import figure, point
from models.fast_replace import replacer
from models.hardware import Drive
from models.percent import percent, percent_range
from models.sizing.postgres.release import Parallel, parallel, release_settings
from models.sizing.settings import Setting, SettingGroup

DS = "pg_tuning_docs"
STUDY = "pg_vfabric_001"
RULES = "sizing_rules"
MB_PER_GIB = 1024.0

DriveKind = Literal["hdd", "ssd", "nvme", "san"]


def cite(point_id: str, dataset: str = DS) -> str:
    return point(dataset, point_id).source.cite()


def f(point_id: str) -> float:
    return figure(DS, point_id)


def drive_kind(drive: Drive | None) -> DriveKind:
    """'nvme' for NVMe, 'ssd' for SAS/SATA flash, 'hdd' for spinning disks; no drive means external 'san'."""
    return "san" if drive is None else drive.media


@dataclass(frozen=True, slots=True)
class SharedBuffersRule:
    ratio: float
    reason: str
    source: str


def shared_buffers_rule(
    vm_memory_gib: float, dedicated: bool, overcommitted: bool, conventional: bool = False
) -> SharedBuffersRule:
    """shared_buffers as a fraction of VM memory.

    >>> shared_buffers_rule(4, dedicated=True, overcommitted=False).ratio
    0.75
    >>> shared_buffers_rule(4, dedicated=True, overcommitted=True).ratio
    0.25
    >>> shared_buffers_rule(256, dedicated=True, overcommitted=False).ratio
    0.25
    >>> shared_buffers_rule(4, dedicated=False, overcommitted=False).ratio
    0.25
    """
    large = figure(STUDY, "sb_large_ratio")
    start = f("sb_docs_start_ratio")
    study_max = f("sb_study_max_vm_gib")
    docs = f"{cite('sb_docs_start_ratio')}; {cite('sb_docs_max_useful_ratio')}"
    if conventional:
        return SharedBuffersRule(start, f"conventional sizing requested: the PostgreSQL documentation's"
                                        f" {percent(start)} starting value; the OS page cache does the rest of the"
                                        " caching", docs)
    if not dedicated:
        return SharedBuffersRule(
            start,
            f"several databases share this VM: {percent(large)} shared_buffers did not pay there in study 001"
            f" (scheme 1: {percent(figure(STUDY, 'sb75_shared_vm_change_s1'), 1, sign=True)}), so the"
            f" documentation's {percent(start)}",
            f"{cite('sb75_shared_vm_change_s1', STUDY)}; {docs}",
        )
    if overcommitted:
        return SharedBuffersRule(
            start,
            f"the host's memory is overcommitted: with {percent(large)} shared_buffers the guest balloon cannot reclaim"
            f" the buffer pool, and study 001 kept its throughput under overcommitment with {percent(large)} only"
            f" with the vPostgres database balloon (+{percent(figure(STUDY, 'oc55_sb75_s4_over_s3'))} over the guest"
            f" balloon alone at {percent(figure(STUDY, 'oc_test_rate'))}), which community PostgreSQL lacks:"
            f" {percent(start)}",
            f"{cite('oc55_sb75_s4_over_s3', STUDY)}; {docs}",
        )
    if vm_memory_gib > study_max:
        return SharedBuffersRule(
            start,
            f"a {vm_memory_gib:g} GiB VM is larger than any study 001 measured ({study_max:g} GiB), so its"
            f" {percent(large)} result is not extrapolated; the PostgreSQL documentation: start at {percent(start)},"
            f" and more than {percent(f('sb_docs_max_useful_ratio'))} of RAM is unlikely to work better",
            f"{cite('sb_study_max_vm_gib')}; {docs}",
        )
    return SharedBuffersRule(
        large,
        f"a VM dedicated to one database whose memory is not overcommitted: {percent(large)} of VM memory gave"
        f" +{percent(figure(STUDY, 'sb75_gain_s3'), 1)} DBT-2 throughput over {percent(start)} and steadier"
        f" throughput (CV {percent(figure(STUDY, 'sb25_cv_s3'), 1)} -> {percent(figure(STUDY, 'sb75_cv_s3'), 1)});"
        " never"
        f" {percent_range(figure(STUDY, 'sb_dip_low_ratio'), figure(STUDY, 'sb_dip_high_ratio'))} (double buffering);"
        " load-test at the highest expected load",
        f"{cite('sb75_gain_s3', STUDY)}; {cite('sb_dip_low_ratio', STUDY)}",
    )


@dataclass(frozen=True, slots=True)
class PgConfig:
    """The postgresql.conf group of one VM and the advice that is not a setting (pooler)."""

    group: SettingGroup
    notes: tuple[str, ...] = ()  # must-do advice (a pooler the memory calls for): a warning
    advice: tuple[str, ...] = ()  # worth doing, nothing breaks without it (a pooler the vCPUs call for): info
    reserve_memory: bool = False  # huge pages on a host not overcommitted: reserve all the VM's memory in vSphere

    def get(self, name: str) -> Setting:
        s = self.group.get(name)
        if s is None:
            raise KeyError(f"{self.group.target} has no setting '{name}'")
        return s


@dataclass(frozen=True, slots=True)
class PgVmInputs:
    """What the configuration of one database VM depends on."""

    name: str
    memory_gib: float
    vcpus: int
    peak_clients: int  # clients of all its databases at their common busiest hour
    dedicated: bool  # one database in the VM
    overcommitted: bool  # the host's configured VM memory exceeds what it makes available
    drive: DriveKind
    data_drives: int  # drives behind the datastore (the wiki formula's spindles for HDDs)
    wal_mb_per_checkpoint: float  # WAL written in one checkpoint_timeout at peak (see storage)
    conventional: bool = False
    version: int = 17  # PostgreSQL major release (workload.postgres_version)
    # where the DATA disk lives: each host's "local" datastore, the cluster's "vsan" datastore (`data_drives` then
    # counts the capacity disks holding one copy set of a VM disk), or an external "san" (platform.datastore_iops)
    datastore: str = "local"


def _mb(gib: float) -> int:
    return math.floor(gib * MB_PER_GIB)


def max_worker_processes(vcpus: int) -> int:
    """PGTune: the vCPU count from 4 vCPUs up, the PostgreSQL default below (`release.parallel`)."""
    return parallel(vcpus).worker_processes


def _max_connections(vm: PgVmInputs, ram_mb: int, sb_mb: int,
                     workers: int) -> tuple[int, Setting, list[str], list[str]]:
    """max_connections: every peak client plus the superuser slots while memory still gives each connection the
    work_mem floor; otherwise a transaction pooler in front and a pool of cores x 2 + spindles (PGTune / wiki).

    Returns the count, its setting, the pooler the memory calls for (a note) and the pooler the vCPUs call for
    when memory suffices (advice): more clients than study 001 ran per vCPU, most of them queueing for a core.
    """
    floor_mb = f("work_mem_min_mb")
    reserved = int(f("superuser_reserved_connections"))
    cap = _connection_cap(ram_mb, sb_mb, workers)
    spindles = vm.data_drives if vm.drive == "hdd" else 0
    optimum = int(f("active_connections_per_core")) * vm.vcpus + spindles
    notes: list[str] = []
    advice: list[str] = []
    if vm.peak_clients <= cap:
        max_conn = vm.peak_clients + reserved
        conn_reason = f"{vm.peak_clients} peak clients (one connection each) plus {reserved} superuser slots"
        if vm.peak_clients > optimum:
            conn_reason += (f"; about {optimum} active connections (cores x 2 + spindles) keep the {vm.vcpus} vCPUs"
                            " busy, so a transaction pooler helps if clients grow")
        runs = figure(RULES, "pg_clients_per_vcpu") * vm.vcpus
        if vm.peak_clients > runs:
            advice.append(
                f"{vm.peak_clients} clients on {vm.vcpus} vCPU, more than the {runs:g} they carry at study 001's"
                f" {figure(RULES, 'pg_clients_per_vcpu'):g} clients per vCPU: memory gives each its own connection,"
                f" but only about {optimum} active connections (cores x 2 + spindles, PostgreSQL wiki) keep the vCPUs"
                f" busy. A transaction pooler (PgBouncer) in front with a pool of {max(optimum, 1)} server"
                " connections queues the rest outside the database instead of in the CPU scheduler.")
    else:
        pool = max(optimum, 1)
        max_conn = pool + reserved
        conn_reason = (f"{vm.peak_clients} clients would leave less than the {floor_mb:g} MB work_mem floor per"
                       f" connection in {vm.memory_gib:g} GiB: put a transaction pooler (PgBouncer) in front with a"
                       f" pool of {pool} server connections (cores x 2 + spindles), plus {reserved} superuser slots")
        notes.append(f"Use a connection pooler: {vm.peak_clients} clients onto {pool} server connections.")
    setting = Setting("max_connections", max_conn, "", conn_reason,
                      f"{cite('superuser_reserved_connections')}; {cite('active_connections_per_core')}")
    return max_conn, setting, notes, advice


def _connection_cap(ram_mb: int, sb_mb: int, workers: int) -> int:
    """The most client connections that still leave every connection and worker the work_mem floor, times the
    PGTune divisor, beside shared_buffers, less the superuser slots."""
    per_connection_mb = f("work_mem_divisor") * f("work_mem_min_mb")
    return int((ram_mb - sb_mb) / per_connection_mb) - workers - int(f("superuser_reserved_connections"))


def memory_for_connections_gib(clients: int, vcpus: int, dedicated: bool, conventional: bool, start_gib: float,
                               most_gib: float) -> float:
    """The least VM memory, whole GiB from `start_gib` up to `most_gib`, at which each of `clients` gets its own
    connection at the work_mem floor (`_max_connections` then asks for no pooler); `start_gib` itself when it
    already suffices, or when even `most_gib` does not (a pooler is then the answer).

    A few GiB more for a VM whose clients the study-001 working-set model fits but the connection rule does not is
    cheaper than middleware; shared_buffers is taken at its share on a host not overcommitted (the largest share,
    so the fit holds on any host).

    >>> memory_for_connections_gib(40, 4, True, False, 2.0, 64.0)
    3.0
    >>> memory_for_connections_gib(30, 4, True, False, 2.0, 64.0)
    2.0
    >>> memory_for_connections_gib(40, 4, True, False, 2.0, 2.0)
    2.0
    """
    workers = max_worker_processes(vcpus)

    def fits(gib: float) -> bool:
        ram_mb = _mb(gib)
        sb_mb = math.floor(ram_mb * shared_buffers_rule(gib, dedicated, False, conventional).ratio)
        return clients <= _connection_cap(ram_mb, sb_mb, workers)

    if fits(start_gib):
        return start_gib
    # shared_buffers leaves at most (1 - the least share) of the memory to the connections: no whole GiB below
    # that bound can hold them, so the walk starts there (a few steps, not one per GiB from the start)
    share = min(f("sb_docs_start_ratio"), figure(STUDY, "sb_large_ratio"))
    need_mb = (clients + workers + f("superuser_reserved_connections")) * f("work_mem_divisor") * f("work_mem_min_mb")
    gib = max(math.floor(start_gib) + 1.0, float(math.ceil(need_mb / (1.0 - share) / MB_PER_GIB)))
    while gib <= most_gib:
        if fits(gib):
            return gib
        gib += 1.0
    return start_gib


def _memory_settings(vm: PgVmInputs, ram_mb: int, sb_mb: int, max_conn: int, par: Parallel) -> list[Setting]:
    """work_mem from what shared_buffers leaves over all connections and workers (never below the floor), and
    maintenance_work_mem as a capped share of memory: the PGTune OLTP rules."""
    workers = par.worker_processes
    divisor = f("work_mem_divisor")
    floor_mb = f("work_mem_min_mb")
    work_mb = max(floor_mb, math.floor((ram_mb - sb_mb) / ((max_conn + workers) * divisor)))
    mwm = min(ram_mb * f("maintenance_work_mem_ratio"), f("maintenance_work_mem_cap_mb"))
    return [
        Setting("work_mem", int(work_mb), "MB",
                f"(memory {ram_mb} MB - shared_buffers {sb_mb} MB) / ((max_connections {max_conn} +"
                f" {workers} worker processes) x {divisor:g}), at least {floor_mb:g} MB: a query may run"
                " several sorts and hashes at once, each up to work_mem, and each of its up to"
                f" {par.per_gather} parallel workers (max_parallel_workers_per_gather) takes its own",
                cite("work_mem_divisor")),
        Setting("maintenance_work_mem", int(mwm), "MB",
                f"1/16 of VM memory, at most {f('maintenance_work_mem_cap_mb'):g} MB (VACUUM, CREATE INDEX)",
                f"{cite('maintenance_work_mem_ratio')}; {cite('maintenance_work_mem_cap_mb')}"),
    ]


def _wal_settings(vm: PgVmInputs, sb_mb: int) -> list[Setting]:
    """WAL buffers and checkpoint spacing: max_wal_size holds one checkpoint interval of WAL at peak, so
    checkpoints come from the timer rather than from WAL volume."""
    wal_buf = int(min(f("wal_buffers_max_mb"), max(1, math.floor(sb_mb * f("wal_buffers_fraction")))))
    floor_max_wal = f("max_wal_size_oltp_mb")
    need_max_wal = math.ceil(vm.wal_mb_per_checkpoint / 1024.0) * 1024
    max_wal = int(max(floor_max_wal, need_max_wal))
    return [
        Setting("wal_buffers", wal_buf, "MB", "1/32 of shared_buffers, at most one 16 MB WAL segment",
                cite("wal_buffers_fraction")),
        Setting("min_wal_size", int(min(f("min_wal_size_oltp_mb"), max_wal)), "MB",
                "WAL segments kept for reuse (OLTP)", cite("min_wal_size_oltp_mb")),
        Setting("max_wal_size", max_wal, "MB",
                f"holds the {vm.wal_mb_per_checkpoint:,.0f} MB of WAL written in one"
                f" {f('checkpoint_timeout_s'):g} s checkpoint interval at peak, at least the OLTP"
                f" {floor_max_wal:g} MB, so checkpoints are timed rather than forced by WAL volume; the WAL disk"
                f" holds {f('wal_soft_limit_factor'):g} x max_wal_size (a soft limit WAL may pass)",
                f"{cite('max_wal_size_oltp_mb')}; {cite('checkpoint_timeout_s')}; {cite('wal_soft_limit_factor')}"),
        Setting("checkpoint_completion_target", f("checkpoint_completion_target"), "",
                "spread checkpoint writes over most of the interval", cite("checkpoint_completion_target")),
    ]


def _huge_pages(vm: PgVmInputs, sb_mb: int) -> Setting:
    """huge_pages 'try' once shared_buffers is large enough for page tables and TLB misses to matter, with the
    huge pages to reserve in the guest and the vSphere memory reservation that keeps ESXi backing them with large
    pages; an overcommitted host cannot reserve every VM's memory, so there the reservation is left out and why."""
    hp_min_mb = f("huge_pages_min_shared_buffers_gb") * 1000.0
    if sb_mb < hp_min_mb:
        return Setting("huge_pages", "off", "", f"shared_buffers below {hp_min_mb:g} MB: huge pages do not pay",
                       cite("huge_pages_min_shared_buffers_gb"))
    page = f("huge_page_mb")
    pages = math.ceil(sb_mb / page) + 64  # shared_buffers and the server's other shared memory (a few dozen MB)
    count = (f"vm.nr_hugepages = {pages} ({page:g} MB pages; PostgreSQL {vm.version} reports the exact count with"
             " postgres -C shared_memory_size_in_huge_pages)" if vm.version >= f("huge_pages_size_query_from_major")
             else f"vm.nr_hugepages = about {pages} ({page:g} MB pages: shared_buffers plus 64 for the rest)")
    reserve = f("huge_pages_reservation_share")
    esxi = ("; the host is overcommitted, so no full memory reservation: ESXi may back these pages with small ones"
            " under memory pressure" if vm.overcommitted else
            f"; in vSphere reserve {percent(reserve)} of the VM's {vm.memory_gib:g} GiB so ESXi backs them with"
            " large pages and never balloons or swaps them (HA then restarts the VM only where that much is"
            " unreserved)")
    return Setting("huge_pages", "try", "",
                   f"shared_buffers of {sb_mb} MB: huge pages cut page-table memory and TLB misses; {count}{esxi}",
                   f"{cite('huge_pages_min_shared_buffers_gb')}; {cite('huge_pages_size_query_from_major')};"
                   f" {cite('huge_pages_reservation_share')}")


def _planner_io_settings(vm: PgVmInputs) -> list[Setting]:
    """What the planner assumes of the storage the design builds: the cost of a random page read against a
    sequential one, and the I/O requests one session may keep in flight.

    >>> def planner(drive, datastore, drives=4):
    ...     c = postgres_config(PgVmInputs("v", 8, 4, 20, True, False, drive, drives, 100.0, datastore=datastore))
    ...     return c.get("random_page_cost").value, c.get("effective_io_concurrency").value
    >>> planner("nvme", "local"), planner("hdd", "local"), planner("ssd", "vsan"), planner("hdd", "vsan", 2)
    ((1.1, 254), (4.0, 4), (1.1, 254), (4.0, 2))
    >>> planner("hdd", "san")
    (1.1, 254)
    """
    flash = vm.drive != "hdd" or vm.datastore == "san"
    rpc_id = "random_page_cost_ssd" if flash else "random_page_cost_hdd"
    if vm.datastore == "san":
        where = "an external array (platform.datastore_iops)"
        eio_id, eio = "effective_io_concurrency_san", int(f("effective_io_concurrency_san"))
        eio_why = f"concurrent I/O requests {where} serves across its controllers and drives (PGTune's SAN figure)"
    elif vm.datastore == "vsan" and flash:
        where = "an all-flash vSAN datastore"
        eio_id, eio = "effective_io_concurrency_san", int(f("effective_io_concurrency_san"))
        eio_why = (f"{where} is network storage over the flash devices of every host: as many requests in flight"
                   " as a SAN takes (PGTune's SAN figure)")
    elif not flash:
        where = ("a hybrid vSAN datastore, whose reads the flash read cache misses go to spinning capacity disks"
                 if vm.datastore == "vsan" else f"the {vm.data_drives} spinning disks of each host's datastore")
        eio_id, eio = "eio_drives_per_request", max(1, int(vm.data_drives * f("eio_drives_per_request")))
        eio_why = (f"one concurrent request per spinning disk: the {vm.data_drives} capacity disks holding a VM"
                   " disk's copies" if vm.datastore == "vsan" else
                   f"one concurrent request per drive of the {vm.data_drives} spinning disks behind the datastore")
    else:
        where = f"local {vm.drive.upper()} drives"
        eio_id, eio = f"effective_io_concurrency_{vm.drive}", int(f(f"effective_io_concurrency_{vm.drive}"))
        eio_why = f"concurrent I/O requests {where} serve"
    rpc_why = (f"{where}: a random page read costs little more than a sequential one" if flash
               else f"{where}: a random read costs a seek, the default 4.0")
    rpc_src = f"{cite(rpc_id)}; {cite('random_page_cost_flash_docs')}" if flash else cite(rpc_id)
    return [
        Setting("random_page_cost", f(rpc_id), "", rpc_why, rpc_src),
        io_concurrency(vm.version, eio, eio_why, cite(eio_id)),
    ]


def io_concurrency(version: int, wanted: int, why: str, source: str) -> Setting:
    """effective_io_concurrency: what the storage serves (`wanted`), at most what the VM's PVSCSI virtual disk queues
    at once (the requests beyond it wait in the guest and add latency, not throughput) and PostgreSQL's limit; the
    reason gives the release's default.

    >>> s = io_concurrency(18, 1000, "local NVMe", "src")
    >>> s.value, "capped at 254" in s.reason, "default for PostgreSQL 18 is 16" in s.reason
    (254, True, True)
    >>> io_concurrency(16, 2, "two disks", "src").value, "is 1)" in io_concurrency(16, 2, "two disks", "src").reason
    (2, True)
    """
    queue = int(f("pvscsi_disk_queue_depth"))
    value = min(wanted, queue, int(f("effective_io_concurrency_max")))
    default_id = ("effective_io_concurrency_default_18" if version >= 18
                  else "effective_io_concurrency_default_before_18")
    capped = (f"; capped at {queue}, the requests the VM's PVSCSI virtual disk queues at once (the Linux driver's"
              f" default and the most a PVSCSI disk takes): {wanted} in flight would wait in the guest's queue and add"
              " latency, not throughput" if value < wanted else
              f"; within the {queue} requests the VM's PVSCSI virtual disk queues at once")
    return Setting("effective_io_concurrency", value, "",
                   f"{why}{capped} (the default for PostgreSQL {version} is {int(f(default_id))})",
                   f"{source}; {cite('pvscsi_disk_queue_depth')}; {cite('pvscsi_disk_queue_depth_max')};"
                   f" {cite(default_id)}")


def effective_cache_size(ram_mb: int, sb_mb: int) -> Setting:
    """shared_buffers plus the OS page cache a query can count on: the page cache's share of the memory beyond
    shared_buffers is PGTune's (its 3/4 of memory over its 1/4 shared_buffers), so a PGTune-sized shared_buffers gets
    PGTune's 3/4 and a larger one (study 001's 75 %) keeps page cache on top instead of collapsing onto it.

    >>> effective_cache_size(8192, 2048).value, effective_cache_size(6144, 4608).value
    (6144, 5632)
    """
    share = f("ecs_page_cache_share")
    value = sb_mb + math.floor((ram_mb - sb_mb) * share)
    return Setting("effective_cache_size", value, "MB",
                   f"shared_buffers ({sb_mb} MB) plus the OS page cache of PostgreSQL's data files:"
                   f" {percent(share)} of the {ram_mb - sb_mb} MB beyond shared_buffers, PGTune's page cache share"
                   f" ({percent(f('effective_cache_size_ratio'))} of memory with"
                   f" {percent(f('pgtune_shared_buffers_ratio'))} shared_buffers); {percent(value / ram_mb)} of"
                   " VM memory. A planner estimate only: it allocates nothing",
                   f"{cite('ecs_page_cache_share')}; {cite('effective_cache_size_ratio')};"
                   f" {cite('pgtune_shared_buffers_ratio')}")


def postgres_config(vm: PgVmInputs) -> PgConfig:
    """The postgresql.conf values of one VM, each with reason and source.

    >>> c = postgres_config(PgVmInputs("vm-a", 4, 3, 30, True, False, "ssd", 2, 100.0))
    >>> c.get("shared_buffers").value, c.get("effective_cache_size").value, c.get("max_connections").value
    (3072, 3754, 33)
    """
    if vm.memory_gib <= 0 or vm.vcpus < 1 or vm.peak_clients < 1:
        raise ValueError("a database VM needs memory > 0, at least 1 vCPU and 1 client")
    ram_mb = _mb(vm.memory_gib)
    sb = shared_buffers_rule(vm.memory_gib, vm.dedicated, vm.overcommitted, vm.conventional)
    sb_mb = math.floor(ram_mb * sb.ratio)
    par = parallel(vm.vcpus)
    max_conn, connections, notes, advice = _max_connections(vm, ram_mb, sb_mb, par.worker_processes)
    out = [
        Setting("shared_buffers", sb_mb, "MB", f"{percent(sb.ratio)} of {vm.memory_gib:g} GiB: {sb.reason}", sb.source),
        effective_cache_size(ram_mb, sb_mb),
        connections,
        *_memory_settings(vm, ram_mb, sb_mb, max_conn, par),
        *par.settings,
        *_wal_settings(vm, sb_mb),
        *release_settings(vm.version),
        _huge_pages(vm, sb_mb),
        *_planner_io_settings(vm),
    ]
    if 0.45 <= sb.ratio <= 0.55:  # a calibration edit must not smuggle in the ratio study 001 warns against
        raise AssertionError(f"shared_buffers ratio {sb.ratio} lies in the double-buffering dip")
    reserve = next(s for s in out if s.name == "huge_pages").value == "try" and not vm.overcommitted
    return PgConfig(SettingGroup("postgresql", vm.name, tuple(out)), tuple(notes), tuple(advice), reserve)


def config_of(vm: PgVmInputs, alike: dict[tuple[object, ...], PgConfig]) -> PgConfig:
    """`postgres_config(vm)`, taken from a VM's alike in all but the name where `alike` holds one (an estate repeats
    VM shapes): the values, reasons, notes and advice never name the VM, only the group's target does."""
    key = _shape(vm)
    base = alike.get(key)
    if base is None:
        base = alike[key] = postgres_config(replace(vm, name=""))
    return _with_group(base, _with_target(base.group, vm.name))


_shape = attrgetter(*(f.name for f in fields(PgVmInputs) if f.name != "name"))  # every input but the name
_with_group = replacer(PgConfig, "group")
_with_target = replacer(SettingGroup, "target")
