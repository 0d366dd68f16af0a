"""The optimizer's shortlist counts the storage controllers and management switches the BOM will price
(`greenplum.BomFloor`): a SAS SSD a little cheaper than an NVMe drive of the same capacity, but needing a quoted
controller per host the NVMe drive does without, must not win the shortlist of its server on the drives alone, so
the first pick is the cheapest design by `size`'s own BOM."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace as N
from typing import Any, cast

import numpy as np
import pytest

from models.hardware import Controller, HardwareCatalog, Switch
from models.optimizer import optimize
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.greenplum import BomFloor
from models.sizing.result import SizingResult
from models.vocabulary import raid_code
from tests.models.sizing.conftest import sample

SERVER, SAS, NVME = "dell-r670-10x-u3-2x-xeon-6740e", "kioxia-pm7-r-7680gb-sas-sff", "kioxia-cm7-r-7680gb-u3"
PARTS = (SERVER, "intel-xeon-6740e", SAS, NVME, "nvidia-connectx-6-lx-2x25gbe")
CARD_USD, SWITCH_USD = 30_000.0, 4_100.0


@pytest.fixture(scope="module")
def quoted(catalog: HardwareCatalog) -> HardwareCatalog:
    """One server, a SAS SSD priced 50 USD below an NVMe drive of its capacity, every controller and the 1 GbE
    management switches at a quoted price."""
    nvme_usd = catalog.drive(NVME).price

    def priced(p: Any) -> Any:
        if isinstance(p, Controller):
            return dataclasses.replace(p, price=CARD_USD, price_basis="quote")
        if isinstance(p, Switch) and p.speed_gbps <= 1:
            return dataclasses.replace(p, price=SWITCH_USD, price_basis="quote")
        return dataclasses.replace(p, price=nvme_usd - 50.0) if getattr(p, "id", "") == SAS else p

    keep = [p for p in catalog.parts if p.id in PARTS or type(p).__name__ not in ("Server", "Drive", "Nic", "Cpu")]
    return HardwareCatalog.of([priced(p) for p in keep], catalog.rates)


def _scenario(data_tb: float) -> Scenario:
    return sample("retail-dw-dual-socket-sas", workload={"data_tb": data_tb}, targets={},
                  commercial={"currency": "USD", "optimize_for": "capex"},
                  platform={"server_id": None, "drive_id": None, "drives_per_host": None, "nic_id": None})


def _pinned(s: Scenario, drive: str, catalog: HardwareCatalog, drives: int | None = None) -> SizingResult:
    return size(s.model_copy(update={"platform": s.platform.model_copy(update={
        "server_id": SERVER, "drive_id": drive, "drives_per_host": drives})}), catalog)


@pytest.mark.parametrize("data_tb", [30.0, 120.0])
def test_the_first_pick_is_the_cheapest_bom_controllers_counted(quoted: HardwareCatalog, data_tb: float) -> None:
    """No drive `size` is pinned to (its drive count its own) gives a cheaper BOM than the optimizer's pick, and the
    pick takes the drive whose BOM is the cheaper once its controllers are priced."""
    s = _scenario(data_tb)
    by_drive = {d: _pinned(s, d, quoted) for d in (SAS, NVME)}
    assert any(ln.kind == "controller" and ln.extended_price > 0 for ln in by_drive[SAS].bom)  # a priced card
    assert not any(ln.kind == "controller" for ln in by_drive[NVME].bom)
    out = optimize(s, quoted)
    assert out.best is not None and out.best_sizing is not None
    assert out.best_sizing.totals.capex <= min(r.totals.capex for r in by_drive.values())
    assert out.best.drive_id == min(by_drive, key=lambda d: by_drive[d].totals.capex)


def test_the_floor_is_at_most_what_the_bom_prices(quoted: HardwareCatalog) -> None:
    """Per host, the floor's cards are the BOM's controller lines' and its switches at most the BOM's."""
    s = _scenario(30.0)
    r = _pinned(s, SAS, quoted)
    floor = BomFloor.of(quoted, [quoted.server(SERVER)], [quoted.drive(SAS)], s.workload)
    d = r.design
    c = N(server_idx=np.array([0]), drive_idx=np.array([0]), raid_code=np.array([raid_code(d.raid)]),
          drives_per_host=np.array([d.data_drives_per_host]))
    ev = cast(Any, N(candidates=c, segment_hosts=np.array([d.segment_hosts]), etl_hosts=np.array([0])))
    low = float(floor(ev)[0])
    bom = sum(ln.extended_price for ln in r.bom if ln.kind == "controller" or ln.role == "management switch")
    assert 0 < low <= bom
