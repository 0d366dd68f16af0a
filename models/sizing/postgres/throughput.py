"""What each database VM of a PostgreSQL design carries, in transactions/s, and what binds it (`models.perf.pg_tps`).

Per VM: its vCPUs, the clients of its databases at their common busiest hour, its cache (effective_cache_size:
shared_buffers plus the OS cache) against the working sets of its databases, the catalog CPU's
SPECrate2017_int_base per core, and its share (by the reads it misses its cache for) of its host's datastore
IOPS: the drives' random read
IOPS, or `platform.datastore_iops` for external storage, with `platform.datastore_latency_ms` for a read and for
a WAL flush (the WAL disk is on the same datastore; local drives state no latency, so neither is bounded).
A database gets its VM's TPS in proportion to its clients; one whose stated peak_tps exceeds its share at
`targets.confidence` (P50, or P10 for P90: nine in ten runs reach it) is warned naming what binds and each bound
(CPU, storage IOPS with the share of reads the cache misses, storage latency, WAL flush).
The design's `tps` estimate sums the VMs' percentiles (the same draws for every VM: a common-cause reading).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from models.calibration_data import figure
from models.estate import socket_score
from models.fast_replace import replacer
from models.perf.pg_tps import PgTps, PgTpsInputs, pg_tps_many
from models.scenario import Scenario
from models.sizing.postgres.placement import PgVm
from models.sizing.postgres.state import Packing
from models.sizing.postgres.storage import GIB_PER_GB
from models.sizing.result import DatabaseDisks, PlacedVm, Warning
from models.uncertainty import Estimate

FIELD = "workload.databases"
DOCS = "pg_tuning_docs"


def specrate_per_core(p: Packing) -> float | None:
    """The design's CPU's SPECrate2017_int_base per core, None when the benchmark table has not got it."""
    score = socket_score(p.server.cpu.model)
    return None if score is None else score / p.server.cpu.cores


def _host_iops(scenario: Scenario, p: Packing) -> float:
    """Random read IOPS of one host's datastore: stated for external storage, else its data drives'."""
    stated = scenario.platform.datastore_iops
    if stated is not None:
        return float(stated)
    drives = p.vsan.capacity_per_host if p.vsan is not None else p.drives_per_host
    return drives * p.drive.random_read_iops


def vm_inputs(scenario: Scenario, specrate: float | None, host_iops: float, vm: PgVm, iops_share: float) -> PgTpsInputs:
    """The VM as the throughput model sees it on a CPU of `specrate` per core (`specrate_per_core`), with
    `iops_share` of its host's datastore IOPS (`host_iops`)."""
    # the cache the throughput law was calibrated with (pg_tps_law: RAM x PGTune's effective_cache_size share), not
    # the setting, which also counts the page cache beyond a study-sized shared_buffers
    cache_gib = vm.memory_gib * figure(DOCS, "effective_cache_size_ratio")
    ws_gib = sum(d.working_set_gb for d in vm.databases) * GIB_PER_GB
    return PgTpsInputs(
        vcpus=vm.vcpus, clients=max(1, vm.clients_at_once), cache_gib=cache_gib, working_set_gib=ws_gib,
        specrate_per_core=specrate, storage_iops=host_iops * iops_share,
        storage_latency_ms=scenario.platform.datastore_latency_ms, wal_flush_ms=scenario.platform.datastore_latency_ms,
    )


def vm_throughput(scenario: Scenario, p: Packing) -> dict[str, PgTps]:
    """Each VM's TPS and binding resource, by VM name. A VM's share of its host's IOPS is its share of the reads the
    host's VMs miss their caches for at their peaks (the datastore serves whoever asks; the storage was sized on
    their sum), by vCPUs where no VM misses. The model is read once for every distinct VM (`pg_tps_many`)."""
    specrate, host_iops = specrate_per_core(p), _host_iops(scenario, p)
    inputs: dict[str, PgTpsInputs] = {}
    for h in p.hosts:
        reads = {vm.name: sum(io.data_read_iops for io in vm.io) for vm in h.vms}
        total, host_vcpus = sum(reads.values()), sum(vm.vcpus for vm in h.vms)
        for vm in h.vms:
            share = reads[vm.name] / total if total > 0 else vm.vcpus / max(host_vcpus, 1)
            inputs[vm.name] = vm_inputs(scenario, specrate, host_iops, vm, share)
    tps = pg_tps_many(inputs.values())
    return {name: tps[x] for name, x in inputs.items()}


def total(tps: dict[str, PgTps]) -> Estimate:
    """The design's TPS at the busiest hour: the VMs' percentiles summed."""
    ests = [t.estimate for t in tps.values()]
    return Estimate(sum(e.p10 for e in ests), sum(e.p50 for e in ests), sum(e.p90 for e in ests), "TPS")


def _share(vm: PgVm, name: str) -> float:
    clients = {d.name: d.peak_clients for d in vm.databases}
    return clients[name] / max(sum(clients.values()), 1)


_with_tps = replacer(DatabaseDisks, "tps_p10", "tps_p50", "tps_p90", "tps_binding")
_with_disks = replacer(PlacedVm, "disks", "memory_reservation_gib")


def with_tps(placed: tuple[PlacedVm, ...], p: Packing, tps: dict[str, PgTps],
             reserved: Callable[[PlacedVm], float] | None = None) -> tuple[PlacedVm, ...]:
    """The placed VMs with each database's share of its VM's TPS in the database table and, given `reserved`, the
    memory reservation it gives each VM."""
    vms = {vm.name: vm for h in p.hosts for vm in h.vms}
    out = []
    for v in placed:
        vm, t = vms[v.name], tps[v.name]
        e = t.estimate
        clients = {d.name: d.peak_clients for d in vm.databases}  # `_share`, summed once a VM
        total = max(sum(clients.values()), 1)
        disks = []
        for d in v.disks:
            s = clients[d.database] / total
            disks.append(_with_tps(d, round(e.p10 * s, 1), round(e.p50 * s, 1), round(e.p90 * s, 1), t.binding))
        out.append(_with_disks(v, tuple(disks), v.memory_reservation_gib if reserved is None else reserved(v)))
    return tuple(out)


def short_warnings(p: Packing, tps: dict[str, PgTps], confidence: str) -> list[Warning]:
    """A warning per database whose stated peak TPS its VM cannot carry at the confidence asked, naming what binds;
    an info when the design's CPU has no SPECrate2017_int_base score (its cores then count as the study's)."""
    out: list[Warning] = []
    if specrate_per_core(p) is None:
        out.append(Warning("pg-tps-cpu-unscored", (
            f"No SPECrate2017_int_base score for the {p.server.cpu.vendor} {p.server.cpu.model} in the benchmark "
            "table: the transactions per second count its cores as study 001's Xeon E5620 cores, which understates a "
            "newer processor."), "info", "platform.server_id"))
    for h in p.hosts:
        for vm in h.vms:
            t = tps[vm.name]
            for d in vm.databases:
                if d.peak_tps is None:
                    continue
                s = _share(vm, d.name)
                reach = (t.estimate.p10 if confidence == "P90" else t.estimate.p50) * s
                if d.peak_tps > reach:
                    out.append(Warning("pg-tps-short", (
                        f"{d.name} asks {d.peak_tps:,.0f} TPS but VM {vm.name} ({vm.vcpus} vCPUs,"
                        f" {vm.memory_gib:g} GiB) carries about {reach:,.0f} for it at {confidence}; {t.binding}"
                        f" binds. {_bounds_text(t)}"),
                        "warning", FIELD))
    return out


def _bounds_text(t: PgTps) -> str:
    """Each bound's median in words: CPU, storage IOPS with the memory fit behind it, latency, WAL flush."""
    parts = [f"CPU {t.cpu_tps:,.0f}"]
    if math.isfinite(t.iops_tps):
        parts.append(f"storage IOPS {t.iops_tps:,.0f} ({t.miss_share:.0%} of page reads miss the VM's cache)")
    elif t.miss_share > 0:
        parts.append(f"memory fit: {t.miss_share:.0%} of page reads miss the VM's cache")
    parts += [f"{name} {v:,.0f}" for name, v in (("storage latency", t.latency_tps), ("WAL flush", t.wal_tps))
              if math.isfinite(v)]
    return "Medians, TPS: " + "; ".join(parts) + "."
