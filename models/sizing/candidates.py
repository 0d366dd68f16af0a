"""Candidate designs as arrays: one element per (server, drive, drives per host, deployment, RAID).

`size` evaluates the candidates of one hardware choice and the optimizer those of
the whole catalog through the same functions, so both give the same numbers.
Everything here is numpy over the candidate axis; a per-candidate Python loop is
only used by the benchmark as the baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from numpy.typing import NDArray

from models.hardware import Drive, Nic, Server
from models.sizing.rules import drives_valid_for_raid
from models.vocabulary import raid_code

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class Candidates:
    """Struct of arrays; index i of every field describes candidate i."""

    server_idx: IntArray
    drive_idx: IntArray
    drives_per_host: IntArray
    virtualized: BoolArray
    raid_code: IntArray
    # server attributes, gathered per candidate
    cores_total: FloatArray
    sockets: FloatArray
    numa_nodes: FloatArray
    memory_gib: FloatArray
    server_price: FloatArray
    idle_w: FloatArray
    max_w: FloatArray
    rack_u: FloatArray
    cpu_generation: FloatArray  # 0: the study-000 era CPUs the scan model was fitted on, 1: the study-002 era
    # drive attributes
    capacity_tb: FloatArray
    seq_read_mb_s: FloatArray
    seq_write_mb_s: FloatArray
    drive_price: FloatArray
    drive_w: FloatArray

    def __len__(self) -> int:
        return int(self.server_idx.shape[0])

    def take(self, index: IntArray | BoolArray) -> Candidates:
        return Candidates(**{f.name: getattr(self, f.name)[index] for f in fields(self)})


def enumerate_candidates(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None = None,
    min_drives_per_host: int = 1,
) -> Candidates:
    """Every compatible server x drive x drive count (within bays) x deployment x RAID."""
    s_idx: list[IntArray] = []
    d_idx: list[IntArray] = []
    counts: list[IntArray] = []
    virt: list[BoolArray] = []
    raid_codes: list[IntArray] = []
    for si, server in enumerate(servers):
        vms_options = {dep: (server.numa_nodes if dep == "vsphere" else 1) for dep in deployments}
        fitting = [di for di, drive in enumerate(drives) if server.accepts(drive)]
        if not fitting:
            continue
        if drives_per_host is not None:
            if drives_per_host > server.data_bays:
                continue  # a design that cannot be built is never priced: the drives must fit the bays
            n = np.array([drives_per_host], dtype=np.int64)
        else:
            n = np.arange(min(max(min_drives_per_host, 1), server.data_bays), server.data_bays + 1, dtype=np.int64)
        for dep in deployments:
            vms = vms_options[dep]
            for raid in raids:
                ok = drives_valid_for_raid(raid, n) & (n % vms == 0)
                if raid != "none" and dep == "vsphere":
                    ok &= drives_valid_for_raid(raid, n // vms)  # one RAID group per VM
                valid = n[ok]
                if valid.size == 0:
                    continue
                for di in fitting:
                    s_idx.append(np.full(valid.size, si, dtype=np.int64))
                    d_idx.append(np.full(valid.size, di, dtype=np.int64))
                    counts.append(valid)
                    virt.append(np.full(valid.size, dep == "vsphere"))
                    raid_codes.append(np.full(valid.size, raid_code(raid), dtype=np.int64))
    if not s_idx:
        return _gather(servers, drives, *(np.zeros(0, dtype=np.int64) for _ in range(3)), np.zeros(0, bool),
                       np.zeros(0, dtype=np.int64))
    return _gather(
        servers,
        drives,
        np.concatenate(s_idx),
        np.concatenate(d_idx),
        np.concatenate(counts),
        np.concatenate(virt),
        np.concatenate(raid_codes),
    )


def _gather(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    s_idx: IntArray,
    d_idx: IntArray,
    counts: IntArray,
    virt: BoolArray,
    raid_codes: IntArray,
) -> Candidates:
    def col(items: Sequence[object], attr: str, idx: IntArray) -> FloatArray:
        table = np.array([float(getattr(x, attr)) for x in items] or [0.0])
        return table[idx] if idx.size else np.zeros(0)

    return Candidates(
        server_idx=s_idx,
        drive_idx=d_idx,
        drives_per_host=counts,
        virtualized=virt,
        raid_code=raid_codes,
        cores_total=col(servers, "cores_total", s_idx),
        sockets=col(servers, "sockets", s_idx),
        numa_nodes=col(servers, "numa_nodes", s_idx),
        memory_gib=col(servers, "memory_gib", s_idx),
        server_price=col(servers, "price", s_idx),
        idle_w=col(servers, "idle_w", s_idx),
        max_w=col(servers, "max_w", s_idx),
        rack_u=col(servers, "rack_u", s_idx),
        cpu_generation=(np.array([cpu_generation(s) for s in servers] or [0.0])[s_idx] if s_idx.size else np.zeros(0)),
        capacity_tb=col(drives, "capacity_tb", d_idx),
        seq_read_mb_s=col(drives, "seq_read_mb_s", d_idx),
        seq_write_mb_s=col(drives, "seq_write_mb_s", d_idx),
        drive_price=col(drives, "price", d_idx),
        drive_w=col(drives, "watts", d_idx),
    )


# CPUs launched before this year belong to the calibration's older generation (study 000's 2012 Xeons);
# later ones to the study-002 generation. The catalog dates old parts by their era.
CPU_GENERATION_SPLIT_YEAR = 2016


def cpu_generation(server: Server) -> float:
    return 0.0 if server.cpu.price_as_of.year < CPU_GENERATION_SPLIT_YEAR else 1.0


@dataclass(frozen=True)
class NetworkChoice:
    nic: Nic | None
    nics_per_host: int

    @property
    def ports(self) -> int:
        return self.nic.ports * self.nics_per_host if self.nic else 0

    @property
    def gbps_per_host(self) -> float:
        return self.nic.speed_gbps * self.ports if self.nic else 0.0

    @property
    def price_per_host(self) -> float:
        return self.nic.price * self.nics_per_host if self.nic else 0.0

    @property
    def watts_per_host(self) -> float:
        return self.nic.watts * self.nics_per_host if self.nic else 0.0
