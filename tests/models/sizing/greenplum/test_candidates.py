"""Candidate enumeration equals the plain nested loop over the catalog, in the search's order, whole or in chunks."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.hardware import BAY_ACCEPTS, Drive, HardwareCatalog, Server
from models.sizing.greenplum.candidates import (
    Choices,
    Tables,
    count_candidates,
    enumerate_candidates,
    iter_candidates,
    iter_columns,
)
from models.sizing.rules import drives_valid_for_raid
from models.vocabulary import DEPLOYMENTS, RAID_LEVELS, raid_code


def _loop(servers: list[Server], drives: list[Drive], deployments: tuple[str, ...], raids: tuple[str, ...],
          drives_per_host: int | None, min_drives: int) -> list[tuple[int, int, int, bool, int]]:
    """Server, deployment, RAID, drive, drive count: one candidate at a time."""
    out = []
    for si, server in enumerate(servers):
        accepted = BAY_ACCEPTS.get(server.data_bay_form_factor, frozenset())
        fitting = [di for di, d in enumerate(drives) if d.form_factor in accepted]
        if drives_per_host is None:
            counts = range(min(max(min_drives, 1), server.data_bays), server.data_bays + 1)
        else:
            counts = range(drives_per_host, drives_per_host + 1) if drives_per_host <= server.data_bays else range(0)
        for dep in deployments:
            vms = server.numa_nodes if dep == "vsphere" else 1
            for raid in raids:
                for di in fitting:
                    for n in counts:
                        ok = bool(drives_valid_for_raid(raid, n)) and n % vms == 0
                        if raid != "none" and dep == "vsphere":
                            ok = ok and bool(drives_valid_for_raid(raid, n // vms))
                        if ok:
                            out.append((si, di, n, dep == "vsphere", raid_code(raid)))
    return out


def _rows(arrays: tuple[np.ndarray, ...]) -> list[tuple[int, int, int, bool, int]]:
    return [(int(s), int(d), int(n), bool(v), int(r)) for s, d, n, v, r in zip(*arrays, strict=True)]


@pytest.mark.parametrize("drives_per_host", [None, 4])
def test_enumeration_is_the_nested_loop_whole_and_in_chunks(catalog: HardwareCatalog,
                                                            drives_per_host: int | None) -> None:
    # copies share every layout: the per-layout templates must still give each server its own index
    copies = [dataclasses.replace(p, id=f"{p.id}-copy") for p in catalog if isinstance(p, Server | Drive)]
    grown = HardwareCatalog.of([*catalog, *copies])
    servers, drives = grown.servers, grown.drives
    args = (servers, drives, DEPLOYMENTS, RAID_LEVELS, drives_per_host, 2)
    expected = _loop(*args)
    assert len(expected) > 1000  # not vacuous
    c = enumerate_candidates(*args)
    assert _rows((c.server_idx, c.drive_idx, c.drives_per_host, c.virtualized, c.raid_code)) == expected
    assert count_candidates(*args) == len(expected)
    for chunk in (997, 65_536):
        got = []
        for offset, part in iter_candidates(Choices(*args), chunk):
            assert offset == len(got)
            got += _rows((part.server_idx, part.drive_idx, part.drives_per_host, part.virtualized, part.raid_code))
        assert got == expected


def _same_columns(got: object, expected: object) -> None:
    for f in dataclasses.fields(got):  # type: ignore[arg-type]
        a, b = getattr(got, f.name), getattr(expected, f.name)
        assert a.dtype == b.dtype and np.array_equal(a, b), f.name


def test_chunks_carry_the_looked_up_attributes_and_extra_server_rows(catalog: HardwareCatalog) -> None:
    servers, drives = catalog.servers, catalog.drives
    args = (servers, drives, DEPLOYMENTS, RAID_LEVELS, None, 2)
    plain = Tables.of(servers, drives)
    memory = np.arange(len(servers), dtype=float) * 64 + 128
    price = np.arange(len(servers), dtype=float) * 10 + 5
    own = Tables.of(servers, drives, memory, [price])
    whole = enumerate_candidates(*args)
    _same_columns(whole, plain.gather(whole.server_idx, whole.drive_idx, whole.drives_per_host, whole.virtualized,
                                      whole.raid_code))
    seen = 0
    for offset, part, extra, _ in iter_columns(own, Choices(*args), 997):
        assert offset == seen
        seen += len(part)
        expected = plain.gather(part.server_idx, part.drive_idx, part.drives_per_host, part.virtualized,
                                part.raid_code)
        _same_columns(part, dataclasses.replace(expected, memory_gib=memory[part.server_idx]))
        assert extra.shape == (1, len(part)) and np.array_equal(extra[0], price[part.server_idx])
    assert seen == len(whole) > 1000
