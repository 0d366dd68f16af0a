"""platform.vendors and platform.excluded_parts (issue 29, item 3): what the customer rules out is never chosen,
by `size` or the optimizer, on every workload kind; a contradiction is bad input naming its field."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.optimizer import optimize
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

FREE = {"server_id": None, "drive_id": None, "nic_id": None}


def servers_of(result: SizingResult, catalog: HardwareCatalog) -> set[str]:
    return {catalog.get(ln.part_id).vendor for ln in result.bom if ln.kind == "server"}


@pytest.mark.parametrize(("name", "vendor"), [
    ("retail-dw-dual-socket-sas", "Dell"), ("retail-dw-dual-socket-sas", "HPE"), ("gp-oltp", "Lenovo"),
    ("pg-consolidation", "HPE"), ("sap-iq", "Dell")])
def test_a_vendor_list_leaves_only_that_vendors_servers(name: str, vendor: str, catalog: HardwareCatalog) -> None:
    s = sample(name, platform={**FREE, "vendors": [vendor.lower()]})  # spelled as the customer types it
    r = size(s, catalog)
    assert servers_of(r, catalog) == {vendor}


def test_a_one_vendor_optimizer_picks_that_vendor_on_every_row(catalog: HardwareCatalog) -> None:
    free = optimize(sample("retail-dw-gen5", platform=FREE), catalog, pareto_limit=20)
    assert free.best is not None and catalog.get(free.best.server_id).vendor == "Dell"  # unrestricted: Dell wins
    out = optimize(sample("retail-dw-gen5", platform={**FREE, "vendors": ["HPE"]}), catalog, pareto_limit=20)
    assert out.best is not None and catalog.get(out.best.server_id).vendor == "HPE"
    assert {catalog.get(p.server_id).vendor for p in out.pareto} == {"HPE"}


def test_excluded_parts_are_never_chosen(catalog: HardwareCatalog) -> None:
    base = size(sample("retail-dw-dual-socket-sas", platform=FREE), catalog)
    chosen = {ln.part_id for ln in base.bom if ln.kind in ("server", "drive")}
    s = sample("retail-dw-dual-socket-sas", platform={**FREE, "excluded_parts": sorted(chosen)})
    r = size(s, catalog)
    assert not chosen & {ln.part_id for ln in r.bom}
    assert r.design.worker_hosts > 0


def refused(s: Scenario, catalog: HardwareCatalog) -> dict[str, str]:
    with pytest.raises(SizingInputError) as e:
        size(s, catalog)
    return {p.path: p.message for p in e.value.problems}


def test_contradictions_name_their_field(catalog: HardwareCatalog) -> None:
    got = refused(sample("retail-dw-gen5", platform={"vendors": ["Dell"], "excluded_parts": ["samsung-pm1743-3840"]}),
                  catalog)
    assert "is made by Supermicro, not one of platform.vendors (Dell)" in got["platform.server_id"]
    assert "did you mean samsung-pm1743-3840gb-e3s" in got["platform.excluded_parts[0]"]
    got = refused(sample("retail-dw-gen5", platform={**FREE, "vendors": ["Dell", "Acme"]}), catalog)
    assert list(got) == ["platform.vendors[1]"] and "Dell" in got["platform.vendors[1]"]
    s = sample("retail-dw-gen5", platform={"excluded_parts": ["samsung-pm1743-3840gb-e3s"]})
    assert "also in platform.excluded_parts" in refused(s, catalog)["platform.drive_id"]
    every_dell = [p.id for p in catalog.servers if p.vendor == "Dell"]
    s = sample("retail-dw-gen5", platform={**FREE, "vendors": ["Dell"], "excluded_parts": every_dell})
    assert "no server of the catalog is left" in refused(s, catalog)["platform.vendors"]
