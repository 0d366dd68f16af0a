"""Candidate designs as arrays: one element per (server, drive, drives per host, deployment, RAID).

`size` evaluates the candidates of one hardware choice and the optimizer those of
the whole catalog through the same functions, so both give the same numbers.
Everything here is numpy over the candidate axis; a per-candidate Python loop is
only used by the benchmark as the baseline.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.estate import socket_score
from models.hardware import BAY_ACCEPTS, FLASH_MIN_IOPS, Drive, Server
from models.perf import gp_bands
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
    cpu_doublings: FloatArray  # the CPU's distance from its generation's calibrated one, for the band (`gp_bands`)
    # drive attributes
    capacity_tb: FloatArray
    seq_read_mb_s: FloatArray
    seq_write_mb_s: FloatArray
    drive_price: FloatArray
    drive_w: FloatArray
    drive_random_read_iops: FloatArray  # tells a spinning drive (`models.hardware.is_spinning`) from flash

    @property
    def spinning(self) -> BoolArray:
        """Per candidate: its data drives are hard disks (`models.hardware.is_spinning`)."""
        return np.asarray(self.drive_random_read_iops < FLASH_MIN_IOPS)

    def __len__(self) -> int:
        return int(self.server_idx.shape[0])

    def take(self, index: IntArray | BoolArray) -> Candidates:
        return Candidates(**{f.name: getattr(self, f.name)[index] for f in fields(self)})


@dataclass(frozen=True, eq=False)  # one object per layout, hashed by identity (`fast.layouts` keys on it)
class Template:
    """The candidates of one server layout (bays, NUMA nodes, the drives its bays take), in search order, built
    once and shared, read-only, by every server of that layout (a vendor's line, a grown catalog)."""

    ints: IntArray  # 3 x m: drive index, drives per host, RAID code
    virtualized: BoolArray  # m
    drive: FloatArray  # Tables.DRIVE_ATTRS x m: the drives' attributes, looked up once per layout

    @property
    def size(self) -> int:
        return int(self.virtualized.size)


@dataclass(frozen=True)
class Choices:
    """What a set of candidates combines: the servers, the drives, the deployments and RAID levels, and the data
    drives per host (a fixed count, or None: every count the bays take from `min_drives_per_host` up)."""

    servers: Sequence[Server]
    drives: Sequence[Drive]
    deployments: Sequence[str]
    raids: Sequence[str]
    drives_per_host: int | None = None
    min_drives_per_host: int = 1

    def layouts(self, server: Server) -> Iterator[tuple[str, str, IntArray]]:
        """(deployment, RAID, valid drive counts) of one server, in search order."""
        return _layouts(server, self.deployments, self.raids, self.drives_per_host, self.min_drives_per_host)


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


def _server_templates(tables: Tables, ch: Choices) -> Iterator[tuple[int, Template]]:
    """(server index, its candidates' template) of each server with candidates, in the order the search has always
    used: server, deployment, RAID, drive, drive count. A server's candidates depend on its bays, NUMA nodes and
    the drives its bays take, so each such layout is built once and only the server index differs."""
    templates: dict[tuple[int, int, int], Template | None] = {}
    for si, (server, fitting) in enumerate(zip(ch.servers, _fitting_by_server(ch.servers, ch.drives), strict=True)):
        if fitting.size == 0:
            continue
        key = (server.data_bays, server.numa_nodes, id(fitting))  # `fitting` is shared per bay form factor
        if key not in templates:
            templates[key] = _template(tables, server, fitting, ch)
        template = templates[key]
        if template is not None:
            yield si, template


def _template(tables: Tables, server: Server, fitting: IntArray, ch: Choices) -> Template | None:
    """One server's candidates without its index, in search order (each (deployment, RAID) group the fitting drives
    repeated over the valid counts, the counts tiled over the drives); None: it has none. Written in place into one
    array per kind (a template is built per layout, per search)."""
    groups = list(ch.layouts(server))
    if not groups:
        return None
    ints = np.empty((3, sum(valid.size for *_, valid in groups) * fitting.size), dtype=np.int64)
    virt = np.empty(ints.shape[1], dtype=bool)
    at = 0
    for dep, raid, valid in groups:
        end = at + valid.size * fitting.size
        ints[0, at:end].reshape(fitting.size, valid.size)[...] = fitting[:, None]  # np.repeat(fitting, valid.size)
        ints[1, at:end].reshape(fitting.size, valid.size)[...] = valid  # np.tile(valid, fitting.size)
        ints[2, at:end] = raid_code(raid)
        virt[at:end] = dep == "vsphere"
        at = end
    template = Template(ints, virt, np.take(tables.drive, ints[0], axis=1))
    for a in (template.ints, template.virtualized, template.drive):
        a.flags.writeable = False  # shared by every server of the layout
    return template


Piece = tuple[int, Template, int, int]  # server index, its template, the template's rows [start, stop)


def _pieces(tables: Tables, ch: Choices, chunk: int) -> Iterator[tuple[list[Piece], int]]:
    """The candidates as (pieces, rows) of at most `chunk` rows each, in search order."""
    pieces: list[Piece] = []
    held = 0
    for si, template in _server_templates(tables, ch):
        start = 0
        while start < template.size:
            stop = min(template.size, start + chunk - held)
            pieces.append((si, template, start, stop))
            held += stop - start
            start = stop
            if held == chunk:
                yield pieces, held
                pieces, held = [], 0
    if held:
        yield pieces, held


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
    tables = Tables.of(servers, drives)
    every = list(_pieces(tables, Choices(servers, drives, deployments, raids, drives_per_host, min_drives_per_host),
                         sys.maxsize))
    return tables.assemble(*every[0])[0] if every else tables.assemble([], 0)[0]


def iter_candidates(ch: Choices, chunk: int) -> Iterator[tuple[int, Candidates]]:
    """The candidates of `enumerate_candidates`, in the same order, as (offset, chunk) pieces.

    Memory stays bounded by `chunk` whatever the catalog's size.
    """
    for offset, cands, _, _ in iter_columns(Tables.of(ch.servers, ch.drives), ch, chunk):
        yield offset, cands


def iter_columns(tables: Tables, ch: Choices, chunk: int) -> Iterator[tuple[int, Candidates, FloatArray, list[Piece]]]:
    """`iter_candidates` with the attributes of `tables` (`Tables.of` the same parts, which may set the memory
    and carry extra server rows), each chunk with its extra rows (extra x candidates) and the template pieces it
    was assembled from (`fast.layouts.chunk_layouts` reads its host layouts off them)."""
    offset = 0
    for pieces, rows in _pieces(tables, ch, chunk):
        cands, extra = tables.assemble(pieces, rows)
        yield offset, cands, extra, pieces
        offset += rows


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

    Each side is one 2-D table (attribute x part): each attribute comes out as a contiguous row of the result.
    The server table may carry rows after SERVER_COLUMNS (`extra`) that a caller wants per candidate too.
    """

    server: FloatArray  # SERVER_COLUMNS (then any extra rows) x servers
    drive: FloatArray  # DRIVE_ATTRS x drives

    SERVER_ATTRS: ClassVar[tuple[str, ...]] = (
        "cores_total", "threads_total", "sockets", "numa_nodes", "memory_gib", "price", "idle_w", "max_w", "rack_u")
    SERVER_COLUMNS: ClassVar[tuple[str, ...]] = (*SERVER_ATTRS, "cpu_generation", "cpu_doublings")
    DRIVE_ATTRS: ClassVar[tuple[str, ...]] = ("capacity_tb", "seq_read_mb_s", "seq_write_mb_s", "price", "watts",
                                               "random_read_iops")

    @classmethod
    def of(cls, servers: Sequence[Server], drives: Sequence[Drive], memory_gib: FloatArray | None = None,
           extra: Sequence[FloatArray] = ()) -> Tables:
        """The parts' tables; `memory_gib` per server replaces the servers' own (the design's memory), `extra`
        rows (one value per server each) are carried along."""
        def table(items: Sequence[object], attr: str) -> FloatArray:
            return np.array([float(getattr(x, attr)) for x in items] or [0.0])

        server = [table(servers, a) for a in cls.SERVER_ATTRS]
        server.append(np.array([cpu_generation(s) for s in servers] or [0.0]))
        server.append(np.array([cpu_doublings(s) for s in servers] or [0.0]))
        if memory_gib is not None and len(servers):
            server[cls.SERVER_ATTRS.index("memory_gib")] = np.asarray(memory_gib, dtype=float)
        server += [np.asarray(row, dtype=float) if len(servers) else np.zeros(1) for row in extra]
        return cls(np.stack(server), np.stack([table(drives, a) for a in cls.DRIVE_ATTRS]))

    def gather(self, s_idx: IntArray, d_idx: IntArray, counts: IntArray, virt: BoolArray,
               raid_codes: IntArray) -> Candidates:
        return self._candidates((s_idx, d_idx, counts, raid_codes), virt, np.take(self.server, s_idx, axis=1),
                                np.take(self.drive, d_idx, axis=1))

    def assemble(self, pieces: Sequence[Piece], rows: int) -> tuple[Candidates, FloatArray]:
        """The candidates of `pieces` (`rows` in all) and their extra server rows.

        What `gather` gives, built without a lookup per candidate: a server's attributes are the same on each of
        its rows (one broadcast per piece) and a template's drive attributes were looked up once (one copy).
        """
        # one allocation for every column, carved into rows: at 32,768 rows it passes 4 MiB, where numpy asks the
        # kernel for huge pages, and the chunk's ~5 MB then costs a few page faults, not ~1,300 (measured: ~10 %
        # less enumeration time than four separate arrays)
        n_s, n_d = self.server.shape[0], self.drive.shape[0]
        block = np.empty((4 + n_s + n_d) * rows * 8 + rows, dtype=np.uint8)
        ints = block[:4 * rows * 8].view(np.int64).reshape(4, rows)  # server index, then the template's rows
        server = block[4 * rows * 8:(4 + n_s) * rows * 8].view(np.float64).reshape(n_s, rows)
        drive = block[(4 + n_s) * rows * 8:(4 + n_s + n_d) * rows * 8].view(np.float64).reshape(n_d, rows)
        virt = block[(4 + n_s + n_d) * rows * 8:].view(bool)
        at = 0
        for si, template, start, stop in pieces:
            end = at + stop - start
            ints[0, at:end] = si
            ints[1:, at:end] = template.ints[:, start:stop]
            virt[at:end] = template.virtualized[start:stop]
            server[:, at:end] = self.server[:, si, None]
            drive[:, at:end] = template.drive[:, start:stop]
            at = end
        cands = self._candidates(ints, virt, server, drive)
        return cands, server[len(self.SERVER_COLUMNS):]

    def _candidates(self, ints: Sequence[IntArray] | IntArray, virt: BoolArray, server: FloatArray, drive: FloatArray
                    ) -> Candidates:
        """`ints`: each candidate's server index, drive index, drive count and RAID code, in rows."""
        s_idx, d_idx, counts, raid_codes = ints
        s = dict(zip(self.SERVER_COLUMNS, server, strict=False))  # rows after these are extra
        d = dict(zip(self.DRIVE_ATTRS, drive, strict=True))
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
            cpu_doublings=s["cpu_doublings"],
            capacity_tb=d["capacity_tb"],
            seq_read_mb_s=d["seq_read_mb_s"],
            seq_write_mb_s=d["seq_write_mb_s"],
            drive_price=d["price"],
            drive_w=d["watts"],
            drive_random_read_iops=d["random_read_iops"],
        )


# CPUs launched before this year belong to the calibration's older generation (study 000's 2012 Xeons);
# later ones to the study-002 generation. The catalog dates old parts by their era.
CPU_GENERATION_SPLIT_YEAR = 2016


def cpu_generation(server: Server) -> float:
    return 0.0 if server.cpu.price_as_of.year < CPU_GENERATION_SPLIT_YEAR else 1.0


GEN5_CPU = "EPYC 9454P"  # study 002's Gen5 reference processor (gp_nvme_ra_002, gen5_cores_per_host's quote)


def cpu_doublings(server: Server) -> float:
    """Doublings of the server's SPECrate2017_int_base per core from its generation's calibrated processor (the band
    widens with them, `gp_bands.cpu_doublings`); 0 for a processor the benchmark table has not got."""
    score, ref = socket_score(server.cpu.model), socket_score(GEN5_CPU)
    per_core = None if score is None or server.cpu.cores <= 0 else score / server.cpu.cores
    gen5 = None if ref is None else ref / figure("gp_nvme_ra_002", "gen5_cores_per_host")
    return gp_bands.cpu_doublings(per_core, cpu_generation(server), gen5)
