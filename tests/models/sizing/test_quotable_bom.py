"""A BOM a reseller can quote (issue 29, item 4): each server configured to order (chassis, CPUs, DIMMs, drives,
NICs and the storage controller its drives need), rails and a power cord per supply rated for it, the management
network (a BMC port per server on 1 GbE switches sized per rack), installation as an optional line; parts with no
public price named, never priced by a guess."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from models.hardware import Accessory, Controller, HardwareCatalog, Switch
from models.scenario import Commercial, Scenario
from models.sizing import bom, controller_fit, host_parts, infrastructure, management
from models.sizing.result import BomLine, SizingResult
from tests.models.sizing.conftest import SizeOnce, sample

R670 = "dell-r670-10x-u3-2x-xeon-6740e"


def _r670(drive_id: str, raid: str = "none", **commercial: object) -> Scenario:
    return sample("retail-dw-dual-socket-sas", targets={}, platform={
        "server_id": R670, "drive_id": drive_id, "drives_per_host": 10, "raid": raid,
        "nic_id": "nvidia-connectx-6-lx-2x25gbe"}, commercial=dict(commercial) or {"currency": "USD"})


def _role(r: SizingResult, role: str, kind: str) -> list[BomLine]:
    return [ln for ln in r.bom if ln.role == role and ln.kind == kind]


def test_an_r670_with_sas_drives_lists_a_controller_a_management_switch_rails_and_cords(
        size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    r = size_once(_r670("kioxia-pm7-r-7680gb-sas-sff"))
    hosts = next(ln.hosts for ln in r.bom if ln.role == "segment host" and ln.kind == "server")
    # SAS drives in U.3 tri-mode bays hang off a controller: no RAID on the segment hosts, so the drives pass
    # through the Dell card made for the R670 (its HBA's servers are not stated in the catalog)
    (hba,) = _role(r, "segment host", "controller")
    card = catalog.get(hba.part_id)
    assert isinstance(card, Controller) and controller_fit.fit(card, catalog.server(R670)) == "made-for"
    assert card.vendor == "Dell" and hba.hosts == hosts and "passes the drives through" in hba.note
    # the coordinators' mirrored pair is RAID 1 in hardware: a RAID controller with its part number
    (raid,) = _role(r, "coordinator host", "controller")
    assert catalog.get(raid.part_id).builds("raid1") and raid.part_number  # type: ignore[union-attr]
    # rails per server, two cords per server (one per supply), with the Dell part number the seed sourced
    (rails,) = _role(r, "segment host", "rails")
    (cords,) = _role(r, "segment host", "power-cord")
    assert rails.qty == hosts and cords.qty == 2 * hosts and cords.part_number
    # the management switch carries every server's BMC port and every data switch's management port
    (mgmt,) = [ln for ln in r.bom if ln.role == "management switch"]
    assert mgmt.part_number and catalog.get(mgmt.part_id).speed_gbps <= 1  # type: ignore[union-attr]
    servers = sum(ln.hosts for ln in r.bom if ln.kind == "server")
    data_switches = sum(ln.qty for ln in r.bom if ln.role in ("leaf switch", "spine switch"))
    (links,) = [ln for ln in r.bom if ln.role == "management links"]
    assert links.qty == servers + data_switches + mgmt.qty
    assert mgmt.qty >= r.totals.racks  # one per rack at least
    # every server is configured to order: its CPUs and base DIMMs itemised, priced in the server line
    cpus = _role(r, "segment host", "cpu")
    assert cpus[0].qty_per_host == catalog.server(R670).sockets and cpus[0].extended_price == 0
    assert any("no public list price" in w.text or w.code == "price-missing" for w in r.warnings)


def test_nvme_direct_attach_needs_no_controller(size_once: SizeOnce) -> None:
    r = size_once(_r670("kioxia-cm7-r-7680gb-u3", raid="raid5"))
    assert not [ln for ln in r.bom if ln.kind == "controller"]
    assert any("need no controller" in x.text for x in r.rationale if x.decision == "Server build")
    assert [ln for ln in r.bom if ln.kind == "rails"] and [ln for ln in r.bom if ln.kind == "power-cord"]


def test_the_new_lines_leave_capex_as_the_parts_price_it(size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    """The CPUs and base DIMMs are in the server's configured price and the seed's new parts have no public price:
    capex is the sum of the priced lines, each unpriced part is named in a warning."""
    r = size_once(_r670("kioxia-pm7-r-7680gb-sas-sff"))
    free = {ln.part_id for ln in r.bom if ln.unit_price == 0 and ln.category not in ("software", "support")}
    unpriced = {pid for pid in free if catalog.get(pid).price == 0}
    (w,) = [w for w in r.warnings if w.code == "price-missing"]
    assert f"{len(unpriced)} BOM part(s)" in w.text
    for ln in r.bom:
        if ln.kind in ("cpu",) or "base memory" in ln.note:
            assert ln.unit_price == 0 and catalog.get(ln.part_id).price > 0


def test_an_hpe_server_takes_its_own_cords_and_rails_and_a_raid5_card_that_builds_it(
        size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    hpe = "hpe-dl380-gen12-24x-u3-2x-xeon-6767p"
    r = size_once(sample("retail-dw-dual-socket-sas", targets={}, platform={
        "server_id": hpe, "drive_id": "samsung-pm1653-3840gb-sas-sff", "drives_per_host": 24, "raid": "raid5",
        "nic_id": "nvidia-connectx-6-lx-2x25gbe"}))
    (card,) = _role(r, "segment host", "controller")
    controller = catalog.get(card.part_id)
    # HPE's catalog card builds RAID 0/1/10 only: RAID 5 takes the vendor-neutral card that builds it
    assert controller.builds("raid5") and controller.applies_to == "*"  # type: ignore[union-attr]
    assert card.qty_per_host == math.ceil(24 / controller.max_drives)  # type: ignore[union-attr]
    (cords,) = _role(r, "segment host", "power-cord")
    (rails,) = _role(r, "segment host", "rails")
    assert catalog.get(cords.part_id).vendor == "HPE" and catalog.get(rails.part_id).vendor == "HPE"
    r10 = size_once(sample("retail-dw-dual-socket-sas", targets={}, platform={
        "server_id": hpe, "drive_id": "samsung-pm1653-3840gb-sas-sff", "drives_per_host": 24, "raid": "raid10",
        "nic_id": "nvidia-connectx-6-lx-2x25gbe"}))
    (own,) = _role(r10, "segment host", "controller")
    assert catalog.get(own.part_id).vendor == "HPE" and own.part_number


def test_a_2000_w_supermicro_supply_gets_16_a_cords_and_its_nvme_bays_no_controller(
        size_once: SizeOnce, catalog: HardwareCatalog) -> None:
    smc = catalog.server("supermicro-as-2125hs-tnr-24x-u2-2x-epyc-9654")
    assert host_parts.cord_amps_needed(smc.psu_w) > 10  # a C13/C14 cord's 10 A is not enough
    r = size_once(sample("retail-dw-dual-socket-sas", targets={}, platform={
        "server_id": smc.id, "drive_id": "samsung-pm1743-7680gb-u2", "drives_per_host": 24,
        "nic_id": "nvidia-connectx-6-lx-2x25gbe"}))
    (cords,) = _role(r, "segment host", "power-cord")
    cord = catalog.get(cords.part_id)
    assert isinstance(cord, Accessory) and cord.amps >= host_parts.cord_amps_needed(smc.psu_w)
    assert not [ln for ln in r.bom if ln.kind == "controller"]
    (rails,) = _role(r, "segment host", "rails")
    assert catalog.get(rails.part_id).applies_to == "*"  # type: ignore[union-attr]


def test_installation_is_an_optional_line(size_once: SizeOnce) -> None:
    plain = size_once(_r670("kioxia-pm7-r-7680gb-sas-sff"))
    assert not [ln for ln in plain.bom if ln.kind == "installation"]
    served = size_once(_r670("kioxia-pm7-r-7680gb-sas-sff", installation_services=True))
    (line,) = [ln for ln in served.bom if ln.kind == "installation"]  # one line for every server it installs
    servers = sum(ln.hosts for ln in served.bom if ln.kind == "server")
    assert line.category == "services" and line.qty == servers and "coordinator host" in line.note


def _servers(catalog: HardwareCatalog, hosts: int) -> list[BomLine]:
    server, nic = catalog.server(R670), catalog.nic("nvidia-connectx-6-lx-2x25gbe")
    return bom.host_lines("segment host", hosts, bom.HostBuild(server, nic=nic, nics=1))


@pytest.mark.parametrize("hosts", [3, 200])
def test_management_switches_scale_with_racks_and_ports(catalog: HardwareCatalog, hosts: int) -> None:
    out = infrastructure.plan(_servers(catalog, hosts), catalog, Commercial())
    (mgmt,) = [ln for ln in out.lines if ln.role == "management switch"]
    switch = catalog.get(mgmt.part_id)
    assert isinstance(switch, Switch)
    per_rack = []
    for rack in out.racks:
        servers = sum(1 for s in rack.slots if s.kind == "server")
        data = sum(1 for s in rack.slots if s.role in ("leaf switch", "spine switch"))
        boxes = sum(1 for s in rack.slots if s.role == "management switch")
        assert boxes == management.switches_for(servers + data, switch) >= 1  # in the rack's U and power
        per_rack.append(boxes)
    assert mgmt.qty == sum(per_rack) and len(per_rack) == len(out.racks)
    if hosts == 200:
        assert mgmt.qty >= 200 / (switch.ports - management.UPLINK_PORTS)  # sized by port count, not one box


def test_a_small_management_switch_is_doubled_in_a_full_rack(catalog: HardwareCatalog) -> None:
    """A 24-port management switch cannot carry a rack of 1U servers: the rack gets two, in its U and power."""
    big = next(s for s in catalog.switches if s.speed_gbps <= 1)
    small = dataclasses.replace(big, id="mgmt-24", ports=24, model="24-port")
    others = [p for p in catalog.parts if not (isinstance(p, Switch) and p.speed_gbps <= 1)]
    out = infrastructure.plan(_servers(catalog, 30), HardwareCatalog((*others, small), catalog.rates),
                              Commercial(rack_power_kw=40))
    (mgmt,) = [ln for ln in out.lines if ln.role == "management switch"]
    assert mgmt.part_id == "mgmt-24" and mgmt.qty >= 2
    first = out.racks[0]
    ports = sum(1 for s in first.slots if s.kind == "server") + sum(
        1 for s in first.slots if s.role == "leaf switch")
    assert sum(1 for s in first.slots if s.role == "management switch") == math.ceil(ports / 23)


def test_controller_choice_follows_drives_raid_and_vendor(catalog: HardwareCatalog) -> None:
    dell = catalog.server(R670)
    assert host_parts.choose_controller(catalog, dell, "SAS", "raid10").builds("raid10")  # type: ignore[union-attr]
    # no RAID, or vSAN that must see the drives: an HBA made for the server before a RAID card passing them through
    hba = HardwareCatalog.of([dataclasses.replace(p, servers="PowerEdge R670") if p.id == "dell-hba465i-front" else p
                              for p in catalog.parts], catalog.rates)
    assert not host_parts.choose_controller(hba, dell, "SATA", "none").raid_levels  # type: ignore[union-attr]
    assert not host_parts.choose_controller(hba, dell, "SAS", "vsan-raid5-ftt1").raid_levels  # type: ignore[union-attr]
    passing = host_parts.choose_controller(catalog, dell, "SAS", "none")
    assert passing is not None and controller_fit.fit(passing, dell) == "made-for"
    lonely = dataclasses.replace(dell, vendor="Acme")
    assert host_parts.choose_controller(catalog, lonely, "SAS", "raid5").applies_to == "*"  # type: ignore[union-attr]


def test_an_unknown_vendor_without_generic_parts_is_warned_not_guessed(catalog: HardwareCatalog) -> None:
    server = dataclasses.replace(catalog.server(R670), vendor="Acme")
    parts = [p for p in catalog.parts
             if not (isinstance(p, Accessory) and p.applies_to == "*") and p.id != R670] + [server]
    cat = HardwareCatalog(tuple(parts), catalog.rates)
    lines = bom.host_lines("segment host", 4, bom.HostBuild(server, catalog.drive("kioxia-pm7-r-7680gb-sas-sff"), 10,
                                                            catalog.nic("nvidia-connectx-6-lx-2x25gbe"), 1))
    out = host_parts.plan(lines, cat, _r670("kioxia-pm7-r-7680gb-sas-sff"), {"segment host": "none"})
    assert not [ln for ln in out.lines if ln.kind in ("rails", "power-cord")]
    assert [w for w in out.warnings if w.code == "no-accessory"]
    assert [ln for ln in out.lines if ln.kind == "controller"]  # the vendor-neutral HBA still fits


def test_base_dimms_are_balanced_and_within_the_slots(catalog: HardwareCatalog) -> None:
    for server in catalog.servers:
        base = host_parts.base_dimms(server, catalog.dimms, None)
        if base is None:
            continue
        dimm, n = base
        assert n * dimm.size_gib == server.memory_gib and n <= server.dimm_slots and n % server.sockets == 0
        assert server.takes(dimm)



def test_base_dimms_match_the_seed_servers_stated_build_where_it_fills_every_channel(
        catalog: HardwareCatalog) -> None:
    """The seed prices each server as "chassis + CPUs + N x G GiB DIMMs": where N puts one DIMM on every channel,
    the rule finds that same build from the slots alone."""
    checked = 0
    for server in catalog.servers:
        stated = re.search(r"(\d+)x (\d+) GiB DIMMs", server.source)
        if stated is None or int(stated[1]) != host_parts.channels_per_socket(server) * server.sockets:
            continue
        base = host_parts.base_dimms(server, catalog.dimms, None)
        assert base is not None and (base[1], base[0].size_gib) == (int(stated[1]), int(stated[2])), server.id
        checked += 1
    assert checked >= 20


def test_m2_boot_drives_sit_on_the_vendors_boot_module_which_draws_rack_power(catalog: HardwareCatalog) -> None:
    """Dell and HPE put the mirrored M.2 boot pair on a boot module (BOSS-N1, NS204i) that builds RAID 1; a vendor
    with none in the catalog (M.2 slots on the board) gets none; the module's watts count in the rack."""
    dell = infrastructure.plan(_servers(catalog, 4), catalog, Commercial())
    (module,) = [ln for ln in dell.lines if ln.kind == "boot-module"]
    boot = next(ln for ln in dell.lines if ln.kind == "boot-drive")
    part = catalog.get(module.part_id)
    assert part.vendor == "Dell" and part.builds("raid1") and module.hosts == 4  # type: ignore[union-attr]
    assert module.qty_per_host == math.ceil(boot.qty_per_host / part.max_drives)  # type: ignore[union-attr]
    server = catalog.server(R670)
    peak = sum(s.peak_w for r in dell.racks for s in r.slots if s.kind == "server")
    drive_w = catalog.get(boot.part_id).watts * boot.qty_per_host  # type: ignore[union-attr]
    nic_w = catalog.nic("nvidia-connectx-6-lx-2x25gbe").watts
    assert peak == pytest.approx(4 * (server.max_w + nic_w + drive_w + part.watts))  # type: ignore[union-attr]
    acme = dataclasses.replace(server, vendor="Acme")
    others = HardwareCatalog((*(p for p in catalog.parts if p.id != R670), acme), catalog.rates)
    lines = bom.host_lines("segment host", 4, bom.HostBuild(acme, nic=catalog.nic("nvidia-connectx-6-lx-2x25gbe"),
                                                            nics=1))
    assert not [ln for ln in infrastructure.plan(lines, others, Commercial()).lines if ln.kind == "boot-module"]


@pytest.mark.parametrize(("hosts", "kw"), [(65, 6.0), (60, 3.0), (120, 9.5)])
def test_racks_of_spines_keep_their_management_switch_within_the_power_budget(catalog: HardwareCatalog, hosts: int,
                                                                              kw: float) -> None:
    """Spines that do not fit beside a host get racks of their own; each such rack holds a management switch too,
    and the budget counts it (a 6 kW budget once drew 6.05 kW: the spines filled it before the switch came)."""
    server, nic = catalog.server("dell-r7625-24x-u3-2x-epyc-9654"), catalog.nic("nvidia-connectx-7-2x100gbe")
    lines = bom.host_lines("segment host", hosts, bom.HostBuild(server, nic=nic, nics=1))
    out = infrastructure.plan(lines, catalog, Commercial(rack_power_kw=kw))
    assert any(s.role == "spine switch" for r in out.racks for s in r.slots)
    for rack in out.racks:
        servers = sum(1 for s in rack.slots if s.kind == "server")
        assert rack.peak_kw <= rack.budget_kw + 1e-6 or servers == 1, (rack.name, rack.peak_kw)
        assert sum(1 for s in rack.slots if s.role == "management switch") >= 1


def test_a_server_playing_two_roles_is_warned_of_missing_accessories_once(catalog: HardwareCatalog) -> None:
    """Segment and coordinator hosts on one server: the catalog's missing rails and cords are said once, not per
    role (the window listed the same warning twice)."""
    server = dataclasses.replace(catalog.server(R670), vendor="Acme")
    parts = [p for p in catalog.parts
             if not (isinstance(p, Accessory) and p.applies_to == "*") and p.id != R670] + [server]
    cat = HardwareCatalog(tuple(parts), catalog.rates)
    build = bom.HostBuild(server, catalog.drive("kioxia-pm7-r-7680gb-sas-sff"), 10,
                          catalog.nic("nvidia-connectx-6-lx-2x25gbe"), 1)
    lines = [*bom.host_lines("segment host", 4, build), *bom.host_lines("coordinator", 2, build)]
    out = host_parts.plan(lines, cat, _r670("kioxia-pm7-r-7680gb-sas-sff"),
                          {"segment host": "none", "coordinator": "raid1"})
    assert len([w for w in out.warnings if w.code == "no-accessory"]) == 1
