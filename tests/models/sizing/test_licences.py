"""Software licences a procurement team can order: the quantity is in the unit the part is sold by."""

from __future__ import annotations

import math
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import Cpu, HardwareCatalog, Licence, Server
from models.scenario import Commercial
from models.sizing import software
from models.sizing.engine import size
from models.sizing.infrastructure import HostGroup
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

PAIR_OS = ("suse-sles-1-2-socket", "rhel-server-2-socket")
# (sample, deployment): the OS runs on the hosts (bare metal) or in the VMs (vSphere)
CASES = [("pg-consolidation", "vsphere"), ("sap-iq", "vsphere"), ("sap-iq", "bare-metal"),
         ("retail-dw-gen5", "bare-metal"), ("study-000-vsphere", "vsphere")]


def _guests_by_role(r: SizingResult) -> dict[str, int]:
    out: dict[str, int] = {}
    for h in r.design.hosts:
        out[h.bom_role] = out.get(h.bom_role, 0) + h.count * len(h.vms)
    return out


def _server(sockets: int) -> Server:
    cpu = Cpu("c", "AMD", "EPYC", 1.0, "USD", date(2026, 1, 1), "x", cores=16, threads=32, base_ghz=3, tdp_w=200)
    return Server("s", "Dell", "R", 1.0, "USD", date(2026, 1, 1), "x", form_factor="2U", rack_u=2,
                  sockets=sockets, cpu=cpu, numa_nodes_per_socket=1, memory_gib=256, dimm_slots=24, data_bays=12,
                  data_bay_form_factor="U.3", os_drives=2, psu_w=1400, idle_w=200, max_w=700)


@pytest.mark.parametrize("os_id", PAIR_OS)
@pytest.mark.parametrize(("name", "deployment"), CASES)
def test_an_os_subscription_for_1_2_sockets_or_1_2_vms_is_counted_in_those_units(
    catalog: HardwareCatalog, os_id: str, name: str, deployment: str
) -> None:
    """SUSE and Red Hat sell one subscription per 1-2 sockets of a physical host or per 1-2 virtual machines:
    a 2-socket host takes one (not two), a 1-socket host one (not half), and on vSphere the guests count."""
    s = sample(name, platform={"deployment": deployment})
    ids = [lic.id for lic in catalog.licences if lic.applies_to != "os"] + [os_id]
    r = size(s.model_copy(update={"commercial": Commercial(licence_ids=ids)}), catalog)
    line = next(ln for ln in r.bom if ln.part_id == os_id)
    guests = _guests_by_role(r)
    expected = 0
    for ln in r.bom:
        if ln.kind != "server":
            continue
        server = catalog.server(ln.part_id)
        vms = guests.get(ln.role, 0) if deployment == "vsphere" else 0
        expected += math.ceil(vms / 2) if vms else ln.hosts * math.ceil(server.sockets / 2)
    assert line.qty == expected, (line.qty, expected, line.note)
    assert "1-2 sockets or 1-2 VMs" in line.description


@settings(max_examples=60, deadline=None)
@given(sockets=st.integers(1, 8), hosts=st.integers(1, 40), vms=st.integers(0, 200))
def test_socket_pair_units_cover_every_host_or_guest_and_no_more(sockets: int, hosts: int, vms: int) -> None:
    lic = Licence("os", "SUSE", "SLES", 860.0, "USD", date(2026, 1, 1), "x", metric="socket-pair", term="annual",
                  applies_to="os", min_cores_per_cpu=0, min_units=1)
    g = HostGroup("host", _server(sockets), hosts, 700.0, 2, 25.0)
    n, how = software.units(lic, [g], 1.0, {"host": vms})
    if vms:
        assert n == math.ceil(vms / 2) and f"{vms} VMs" in how
    else:
        assert n == hosts * math.ceil(sockets / 2) and f"{hosts} hosts" in how
    assert n >= 1


TIB = 2**40 / 1e12  # TB per TiB
VSAN_CASES = [("pg-consolidation", {}), ("sap-iq", {}), ("pg-consolidation", {"vsan_policy": "raid5-ftt1"}),
              ("sap-iq", {"data_tb": 60})]
NO_VSAN_CASES = [("sap-iq", {"shared_storage": "san", "san_price_per_tb": 1000}),
                 ("pg-consolidation", {"shared_storage": "local", "vsphere_ha": False}), ("study-000-vsphere", {})]


def _vsphere_line(r: SizingResult, catalog: HardwareCatalog) -> tuple[Licence, int]:
    for ln in r.bom:
        lic = catalog.get(ln.part_id) if ln.part_id in catalog else None
        if isinstance(lic, Licence) and lic.applies_to == "vsphere":
            return lic, ln.qty
    raise AssertionError("no vSphere licence line")


@pytest.mark.parametrize(("name", "workload"), VSAN_CASES)
def test_a_design_on_vsan_is_licensed_for_vsan_and_its_raw_capacity(
    catalog: HardwareCatalog, name: str, workload: dict[str, object]
) -> None:
    """vSphere Standard includes no vSAN: a vSAN datastore needs vSphere Foundation (100 GiB of raw vSAN capacity
    per licensed core, Broadcom KB 326663) or Cloud Foundation; raw capacity above what the cores include needs a
    vSAN capacity licence for the whole cluster, which the design must say."""
    r = size(sample(name, **({"workload": workload} if workload else {})), catalog)
    assert r.design.raid.startswith("vsan-")
    lic, cores = _vsphere_line(r, catalog)
    assert lic.vsan_gib_per_core != 0, lic.id
    raw_tib = r.design.raw_capacity_tb / TIB
    codes = {w.code for w in r.warnings}
    assert "vsan-not-licensed" not in codes
    if lic.vsan_gib_per_core is None or raw_tib > lic.vsan_gib_per_core * cores / 1024 + 1e-9:
        w = next(w for w in r.warnings if w.code == "vsan-capacity-licence")
        assert f"{raw_tib:,.1f} TiB" in w.text and lic.model in w.text and w.field == "commercial.licence_ids"
    else:
        assert "vsan-capacity-licence" not in codes


@pytest.mark.parametrize(("name", "workload"), NO_VSAN_CASES)
def test_a_design_without_vsan_takes_the_cheapest_vsphere_licence(
    catalog: HardwareCatalog, name: str, workload: dict[str, object]
) -> None:
    r = size(sample(name, **({"workload": workload} if workload else {})), catalog)
    assert not r.design.raid.startswith("vsan-")
    lic, cores = _vsphere_line(r, catalog)
    offers = [x for x in catalog.current(catalog.licences) if x.applies_to == "vsphere"]
    assert lic.price * cores == min(x.price * software.units(x, [g for g in _groups(r, catalog)], 1.0)[0]
                                    for x in offers)
    assert not {"vsan-not-licensed", "vsan-capacity-licence"} & {w.code for w in r.warnings}


def _groups(r: SizingResult, catalog: HardwareCatalog) -> list[HostGroup]:
    from models.sizing import infrastructure
    return infrastructure.host_groups(r.bom, catalog)


def test_a_named_licence_without_vsan_on_a_vsan_design_is_a_warning(catalog: HardwareCatalog) -> None:
    ids = ["vmware-vsphere-standard", "suse-sles-1-2-socket", "postgresql-community"]
    r = size(sample("pg-consolidation").model_copy(update={"commercial": Commercial(licence_ids=ids)}), catalog)
    w = next(w for w in r.warnings if w.code == "vsan-not-licensed")
    assert "vSphere Standard" in w.text and w.field == "commercial.licence_ids"


@pytest.mark.parametrize(("name", "deployment"), [("sap-iq", "vsphere"), ("sap-iq", "bare-metal"),
                                                  ("pg-consolidation", "vsphere"), ("retail-dw-gen5", "bare-metal")])
def test_a_perpetual_licence_says_its_yearly_maintenance_is_not_in_the_cost(
    catalog: HardwareCatalog, name: str, deployment: str
) -> None:
    """A perpetual licence is bought once and maintained every year: the 5-year cost of ownership carried SAP IQ's
    licence in year 1 and nothing for it after, without a word. Subscriptions include their support."""
    r = size(sample(name, platform={"deployment": deployment}), catalog)
    perpetual = [ln for ln in r.bom if ln.kind == "licence" and not ln.recurring]
    found = [w for w in r.warnings if w.code == "licence-maintenance"]
    assert len(found) == (1 if perpetual else 0)
    for ln in perpetual:
        lic = catalog.get(ln.part_id)
        assert f"{lic.vendor} {lic.model}" in found[0].text
        assert f"{ln.extended_price:,.2f} {r.totals.currency}" in found[0].text
        assert found[0].field == "commercial.licence_ids"
