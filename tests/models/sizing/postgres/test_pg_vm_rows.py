"""Each database's share of its VM's TPS and each VM's memory reservation, written in one pass over the placed VMs,
are what replacing them field by field gives: shares by clients within the VM, rounded to 0.1 TPS."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

from models.perf.pg_tps import PgTps
from models.sizing.postgres.throughput import with_tps
from models.sizing.result import DatabaseDisks, PlacedVm
from models.uncertainty import Estimate


def _reference(placed: tuple[PlacedVm, ...], p: Any, tps: dict[str, PgTps], reserve: dict[str, bool]) -> Any:
    vms = {vm.name: vm for h in p.hosts for vm in h.vms}
    out = []
    for v in placed:
        v = dataclasses.replace(v, memory_reservation_gib=v.memory_gib if reserve[v.name] else 0.0)
        clients = {d.name: d.peak_clients for d in vms[v.name].databases}
        e, disks = tps[v.name].estimate, []
        for d in v.disks:
            s = clients[d.database] / max(sum(clients.values()), 1)
            disks.append(dataclasses.replace(d, tps_p10=round(e.p10 * s, 1), tps_p50=round(e.p50 * s, 1),
                                             tps_p90=round(e.p90 * s, 1), tps_binding=tps[v.name].binding))
        out.append(dataclasses.replace(v, disks=tuple(disks)))
    return tuple(out)


def test_each_database_gets_its_clients_share_and_each_vm_its_reservation() -> None:
    """Four VMs of one, two, three and one databases (one with no clients at all, one with a single client), two
    reserving their memory."""
    clients = {"a": [7], "b": [3, 9], "c": [0, 0, 0], "d": [1]}
    pg = {n: SimpleNamespace(name=n, databases=tuple(SimpleNamespace(name=f"{n}{i}", peak_clients=c)
                                                     for i, c in enumerate(cs))) for n, cs in clients.items()}
    p = SimpleNamespace(hosts=[SimpleNamespace(vms=(pg["a"], pg["b"])), SimpleNamespace(vms=(pg["c"], pg["d"]))])
    placed = tuple(PlacedVm(n, 1 + (n == "c"), None, 4, 8.0 * (k + 1), tuple(d.name for d in pg[n].databases),
                            tuple(DatabaseDisks(d.name, 10.0 + i, 2.0, 100.0 * i, 5.0, 6.0, 0.5)
                                  for i, d in enumerate(pg[n].databases)), 1.5)
                   for k, n in enumerate(clients))
    tps = {n: PgTps(Estimate(1000.0 / (k + 3), 1234.567 * (k + 1), 2000.05, "TPS"), ("CPU", "storage IOPS")[k % 2],
                    1.0, 2.0, 3.0, 0.1, 0.5) for k, n in enumerate(clients)}
    reserve = {"a": True, "b": False, "c": True, "d": False}
    got = with_tps(placed, p, tps, lambda v: v.memory_gib if reserve[v.name] else 0.0)  # type: ignore[arg-type]
    assert got == _reference(placed, p, tps, reserve)
    assert [d.tps_p50 for d in got[1].disks] == [round(1234.567 * 2 * 3 / 12, 1), round(1234.567 * 2 * 9 / 12, 1)]
    assert [v.memory_reservation_gib for v in got] == [8.0, 0.0, 24.0, 0.0]
    assert got[3].disks[0].tps_p50 == round(1234.567 * 4, 1)  # the whole VM's
    kept = with_tps(placed, p, tps)  # type: ignore[arg-type]
    assert [v.memory_reservation_gib for v in kept] == [1.5] * 4 and [v.disks for v in kept] == [v.disks for v in got]
