"""Candidate designs as arrays: one element per (server, drive, drives per host, deployment, RAID).

`size` evaluates the candidates of one hardware choice and the optimizer those of
the whole catalog through the same functions, so both give the same numbers.
Everything here is numpy over the candidate axis; a per-candidate Python loop is
only used by the benchmark as the baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from models.hardware import BAY_ACCEPTS, Drive, Nic, Server
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
    threads_total: FloatArray  # logical cores (the density check counts them)
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


Blocks = tuple[IntArray, IntArray, IntArray, BoolArray, IntArray]  # server, drive, count, virtualized, RAID


def _fitting_by_server(servers: Sequence[Server], drives: Sequence[Drive]) -> list[IntArray]:
    """Per server, the indices (ascending) of the drives its bays take: one lookup per bay form factor."""
    by_form: dict[str, list[int]] = {}
    for di, drive in enumerate(drives):
        by_form.setdefault(drive.form_factor, []).append(di)
    by_bay: dict[str, IntArray] = {}
    out = []
    for server in servers:
        bay = server.data_bay_form_factor
        if bay not in by_bay:
            accepted = [di for form in BAY_ACCEPTS.get(bay, frozenset()) for di in by_form.get(form, [])]
            by_bay[bay] = np.array(sorted(accepted), dtype=np.int64)
        out.append(by_bay[bay])
    return out


def _layouts(server: Server, deployments: Sequence[str], raids: Sequence[str], drives_per_host: int | None,
             min_drives_per_host: int) -> Iterator[tuple[str, str, IntArray]]:
    """(deployment, RAID, valid drive counts) of one server, in search order."""
    if drives_per_host is not None:
        if drives_per_host > server.data_bays:
            return  # a design that cannot be built is never priced: the drives must fit the bays
        n = np.array([drives_per_host], dtype=np.int64)
    else:
        n = np.arange(min(max(min_drives_per_host, 1), server.data_bays), server.data_bays + 1, dtype=np.int64)
    for dep in deployments:
        vms = server.numa_nodes if dep == "vsphere" else 1
        for raid in raids:
            ok = drives_valid_for_raid(raid, n) & (n % vms == 0)
            if raid != "none" and dep == "vsphere":
                ok &= drives_valid_for_raid(raid, n // vms)  # one RAID group per VM
            valid = n[ok]
            if valid.size:
                yield dep, raid, valid


def _server_blocks(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None,
    min_drives_per_host: int,
) -> Iterator[Blocks]:
    """Per server, the index arrays of its candidates, in the order the search has always used.

    Order: server, deployment, RAID, drive, drive count. Each (deployment, RAID) group is one
    repeat/tile over the fitting drives, so the cost is per server, not per server x drive pair.
    """
    # A server's block depends on its bays, NUMA nodes and the drives its bays take, which many servers share
    # (a vendor's line, a grown catalog): each such template is built once, read-only, and only the server
    # index is filled per server.
    templates: dict[tuple[int, int, int], tuple[IntArray, IntArray, BoolArray, IntArray] | None] = {}
    for si, (server, fitting) in enumerate(zip(servers, _fitting_by_server(servers, drives), strict=True)):
        if fitting.size == 0:
            continue
        key = (server.data_bays, server.numa_nodes, id(fitting))  # `fitting` is shared per bay form factor
        if key not in templates:
            templates[key] = _template(server, fitting, deployments, raids, drives_per_host, min_drives_per_host)
        template = templates[key]
        if template is not None:
            yield (np.full(template[0].size, si, dtype=np.int64), *template)


def _template(server: Server, fitting: IntArray, deployments: Sequence[str], raids: Sequence[str],
              drives_per_host: int | None, min_drives_per_host: int) -> tuple[IntArray, IntArray, BoolArray,
                                                                               IntArray] | None:
    """(drive, count, virtualized, RAID) of one server's candidates, in search order; None: it has none."""
    parts: list[Blocks] = []
    for dep, raid, valid in _layouts(server, deployments, raids, drives_per_host, min_drives_per_host):
        size = valid.size * fitting.size
        parts.append((
            np.zeros(0, dtype=np.int64),
            np.repeat(fitting, valid.size),
            np.tile(valid, fitting.size),
            np.full(size, dep == "vsphere"),
            np.full(size, raid_code(raid), dtype=np.int64),
        ))
    if not parts:
        return None
    _, d_idx, counts, virt, codes = _concat(parts)
    for a in (d_idx, counts, virt, codes):
        a.flags.writeable = False  # shared by every server of the template
    return d_idx, counts, virt, codes


def _concat(parts: Sequence[Blocks]) -> Blocks:
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(5))  # type: ignore[return-value]


def count_candidates(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None = None,
    min_drives_per_host: int = 1,
) -> int:
    """How many candidates `enumerate_candidates` would give, without building them."""
    per_drive: dict[tuple[int, int], int] = {}  # candidates per fitting drive, by (bays, NUMA nodes)
    total = 0
    for server, fitting in zip(servers, _fitting_by_server(servers, drives), strict=True):
        key = (server.data_bays, server.numa_nodes)
        if key not in per_drive:
            per_drive[key] = sum(int(v.size) for _, _, v in _layouts(server, deployments, raids, drives_per_host,
                                                                     min_drives_per_host))
        total += int(fitting.size) * per_drive[key]
    return total


def enumerate_candidates(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None = None,
    min_drives_per_host: int = 1,
) -> Candidates:
    """Every compatible server x drive x drive count (within bays) x deployment x RAID."""
    blocks = list(_server_blocks(servers, drives, deployments, raids, drives_per_host, min_drives_per_host))
    tables = Tables.of(servers, drives)
    if not blocks:
        empty = np.zeros(0, dtype=np.int64)
        return tables.gather(empty, empty, empty, np.zeros(0, bool), empty)
    return tables.gather(*_concat(blocks))


def iter_candidates(
    servers: Sequence[Server],
    drives: Sequence[Drive],
    deployments: Sequence[str],
    raids: Sequence[str],
    drives_per_host: int | None,
    min_drives_per_host: int,
    chunk: int,
) -> Iterator[tuple[int, Candidates]]:
    """The candidates of `enumerate_candidates`, in the same order, as (offset, chunk) pieces.

    Memory stays bounded by `chunk` (plus one server's block) whatever the catalog's size.
    """
    tables = Tables.of(servers, drives)
    pending: list[Blocks] = []
    held = 0
    offset = 0
    for block in _server_blocks(servers, drives, deployments, raids, drives_per_host, min_drives_per_host):
        pending.append(block)
        held += block[0].size
        if held < chunk:
            continue
        merged = _concat(pending)
        start = 0
        while held - start >= chunk:
            sl = slice(start, start + chunk)
            s_idx, d_idx, counts, virt, raid_codes = merged
            yield offset, tables.gather(s_idx[sl], d_idx[sl], counts[sl], virt[sl], raid_codes[sl])
            offset += chunk
            start += chunk
        pending = [tuple(a[start:] for a in merged)] if held > start else []  # type: ignore[list-item]
        held -= start
    if held:
        yield offset, tables.gather(*_concat(pending))


def per_drive_set(fn: Callable[[IntArray, IntArray], tuple[FloatArray, ...]], codes: IntArray, counts: IntArray
                  ) -> tuple[FloatArray, ...]:
    """`fn(RAID codes, drive counts)`, a function of each element's pair alone, for every element: computed once
    per (code, count) pair present and looked up (a chunk of candidates holds a few dozen such drive sets).

    >>> from models.sizing.rules import raid_capacity_factor
    >>> f = lambda c, n: (raid_capacity_factor(c, n),)
    >>> per_drive_set(f, np.array([1, 0, 1, 1]), np.array([4, 8, 4, 8]))[0].tolist() == f(
    ...     np.array([1, 0, 1, 1]), np.array([4, 8, 4, 8]))[0].tolist()
    True
    """
    codes, counts = np.asarray(codes), np.asarray(counts)
    if (codes.size < 256 or codes.shape != counts.shape or not np.issubdtype(codes.dtype, np.integer)
            or not np.issubdtype(counts.dtype, np.integer) or counts.min() < 0 or codes.min() < 0):
        return fn(codes, counts)  # few elements, or not integer pairs: as is
    width = int(counts.max()) + 1
    key = codes * width + counts
    seen = np.zeros(int(key.max()) + 1, dtype=bool)
    seen[key] = True
    present = np.flatnonzero(seen)
    return tuple(_by_key(table, present, key) for table in fn(present // width, present % width))


def _by_key(values: FloatArray, present: IntArray, key: IntArray) -> FloatArray:
    table = np.zeros(int(present[-1]) + 1, dtype=np.asarray(values).dtype)
    table[present] = values
    return table[key]


@dataclass(frozen=True)
class Tables:
    """Per-server and per-drive attribute columns, looked up by index for each chunk.

    Each side is one 2-D table (attribute x part): a chunk's lookups are one `np.take` per side, not one fancy
    index per attribute, and each attribute comes out as a contiguous row of the result.
    """

    server: FloatArray  # SERVER_COLUMNS x servers
    drive: FloatArray  # DRIVE_ATTRS x drives

    SERVER_ATTRS: ClassVar[tuple[str, ...]] = (
        "cores_total", "threads_total", "sockets", "numa_nodes", "memory_gib", "price", "idle_w", "max_w", "rack_u")
    SERVER_COLUMNS: ClassVar[tuple[str, ...]] = (*SERVER_ATTRS, "cpu_generation")
    DRIVE_ATTRS: ClassVar[tuple[str, ...]] = ("capacity_tb", "seq_read_mb_s", "seq_write_mb_s", "price", "watts")

    @classmethod
    def of(cls, servers: Sequence[Server], drives: Sequence[Drive]) -> Tables:
        def table(items: Sequence[object], attr: str) -> FloatArray:
            return np.array([float(getattr(x, attr)) for x in items] or [0.0])

        server = [table(servers, a) for a in cls.SERVER_ATTRS]
        server.append(np.array([cpu_generation(s) for s in servers] or [0.0]))
        return cls(np.stack(server), np.stack([table(drives, a) for a in cls.DRIVE_ATTRS]))

    def gather(self, s_idx: IntArray, d_idx: IntArray, counts: IntArray, virt: BoolArray,
               raid_codes: IntArray) -> Candidates:
        s = dict(zip(self.SERVER_COLUMNS, np.take(self.server, s_idx, axis=1), strict=True))
        d = dict(zip(self.DRIVE_ATTRS, np.take(self.drive, d_idx, axis=1), strict=True))
        return Candidates(
            server_idx=s_idx,
            drive_idx=d_idx,
            drives_per_host=counts,
            virtualized=virt,
            raid_code=raid_codes,
            cores_total=s["cores_total"],
            threads_total=s["threads_total"],
            sockets=s["sockets"],
            numa_nodes=s["numa_nodes"],
            memory_gib=s["memory_gib"],
            server_price=s["price"],
            idle_w=s["idle_w"],
            max_w=s["max_w"],
            rack_u=s["rack_u"],
            cpu_generation=s["cpu_generation"],
            capacity_tb=d["capacity_tb"],
            seq_read_mb_s=d["seq_read_mb_s"],
            seq_write_mb_s=d["seq_write_mb_s"],
            drive_price=d["price"],
            drive_w=d["watts"],
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
