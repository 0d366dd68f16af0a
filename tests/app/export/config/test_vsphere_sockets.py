"""vms.json lays a VM wider than a NUMA node over virtual sockets that each fit a node, and says so; a PostgreSQL VM
whose buffer pool is in huge pages on a host not overcommitted gets its full memory reservation."""

from __future__ import annotations

from app.export.config.naming import Naming
from app.export.config.vsphere import cores_per_socket, postgres_vms, sap_iq_vms
from catalog.seed import seed_catalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


def test_a_14_vcpu_iq_vm_on_8_core_nodes_is_two_sockets_of_seven() -> None:
    """Study 003's 14-vCPU IQ VM on 2 x 8 cores: before one virtual socket of 14 with the note 'fit the node'."""
    r = size(sample("sap-iq"), seed_catalog())
    vm = sap_iq_vms(r, Naming())[0]
    assert (vm["vcpus"], vm["cores_per_socket"]) == (14, 7)
    note = next(n for n in vm["notes"] if n["field"] == "cores_per_socket")
    assert "2 virtual sockets of 7 vCPUs" in note["reason"] and "fit the node" not in note["reason"]
    assert cores_per_socket(30, 12) == 10 and cores_per_socket(12, 12) == 12


def test_huge_pages_reserve_the_vm_only_where_the_host_is_not_overcommitted() -> None:
    catalog = seed_catalog()
    plain = size(sample("pg-consolidation"), catalog)
    vms = {vm["name"]: vm for vm in postgres_vms(plain, {v.name: v.name for v in plain.vms}, Naming())}
    for spec in plain.vms:
        reserved = spec.memory_reservation_gib > 0
        huge = next(g for g in plain.design.settings if g.target == spec.name).get("huge_pages")
        assert huge is not None and reserved == (huge.value == "try")
    assert any(vm["memory_reservation_gib"] > 0 for vm in vms.values())
    squeezed = size(sample("pg-consolidation", workload={"host_memory_available_gib": 24, "vm_memory_gib": 16}),
                    catalog)
    assert squeezed.design.overcommit_rate and squeezed.design.overcommit_rate > 0
    listed = {vm["name"]: vm for vm in postgres_vms(squeezed, {v.name: v.name for v in squeezed.vms}, Naming())}
    huge = {g.target for g in squeezed.design.settings if g.product == "postgresql"
            and (s := g.get("huge_pages")) is not None and s.value == "try"}
    unreserved = [n for n in huge if listed[n]["memory_reservation_gib"] == 0]
    assert unreserved  # huge pages on an overcommitted host: no full reservation there
    for n in unreserved:
        reason = next(g for g in squeezed.design.settings if g.target == n).get("huge_pages")
        assert reason is not None and "no full memory reservation" in reason.reason
