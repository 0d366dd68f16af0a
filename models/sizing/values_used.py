"""What the engine used for each optional scenario field left empty, recorded on the result (`SizingResult.values_used`,
`models.sizing.result.UsedValue`).

A field the user leaves empty is not "unknown": the engine sizes with a value (its recommendation, a rule, a
study's figure), or has no use for the field in this design. `values_used` names that value, its unit, the
references behind it and what it follows from, once, when the scenario is sized; the form's placeholders and the
report's workload tables render these (`app.export.engine_values`) and derive nothing themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from models.calibration_data import point
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing import running_costs
from models.sizing.result import Design, NotUsed, SizingResult, UsedValue, data_elsewhere
from models.sizing.rules import RULES, hypervisor_reserve_gib


def hypervisor_reserve(scenario: Scenario, host_memory_gib: float) -> float:
    """The hypervisor reserve a vSphere host keeps: the platform's figure, else the rule."""
    given = scenario.platform.hypervisor_reserve_gib
    return hypervisor_reserve_gib(host_memory_gib) if given is None else given


def values_used(scenario: Scenario, result: SizingResult) -> tuple[UsedValue, ...]:
    """One `UsedValue` for every optional field `scenario` leaves empty that the design sized with or has no use
    for (a field the user set is not listed)."""
    w = scenario.workload
    out = [*_platform_values(scenario, result)]
    if scenario.platform.vendors is None:  # a restriction left empty restricts nothing
        out.append(UsedValue("platform.vendors", NotUsed("any vendor")))
    pg = isinstance(w, PostgresConsolidation)  # external-storage figures bound PostgreSQL's TPS only
    if scenario.platform.datastore_iops is None:
        out.append(UsedValue("platform.datastore_iops", NotUsed("the data drives' IOPS" if pg else
                                                                "not used: PostgreSQL consolidation only")))
    if scenario.platform.datastore_latency_ms is None:
        out.append(UsedValue("platform.datastore_latency_ms", NotUsed("reads and WAL flushes not bounded" if pg else
                                                                      "not used: PostgreSQL consolidation only")))
    if isinstance(w, GreenplumAnalytics | GreenplumOltp):
        out += _greenplum_values(w)
    if isinstance(w, PostgresConsolidation):
        out += _postgres_values(scenario, w, result)
    if isinstance(w, PostgresConsolidation | SapIqMultiplex) and w.shared_storage is None:
        out.append(UsedValue("workload.shared_storage", _storage(result.design)))
    if isinstance(w, SapIqMultiplex):
        out += _sap_iq_values(w, result)
    out += _running_costs(scenario, result)
    return tuple(out)


def _running_costs(scenario: Scenario, result: SizingResult) -> Iterator[UsedValue]:
    """The rack space and operations a year the cost of ownership counted where the scenario left them empty."""
    c, t = scenario.commercial, result.totals
    rack, host = running_costs.sources()
    if c.rack_cost_per_year is None:
        yield UsedValue("commercial.rack_cost_per_year", t.space_per_rack_year, t.currency, (rack,),
                        f"the rack's {c.rack_power_kw:g} kW budget at a published colocation rate")
    if c.host_operations_per_year is None:
        yield UsedValue("commercial.host_operations_per_year", t.operations_per_host_year, t.currency, (host,),
                        "an administrator's published mean wage over the servers one runs")


def _platform_values(scenario: Scenario, result: SizingResult) -> Iterator[UsedValue]:
    d = result.design
    p = scenario.platform
    elsewhere = data_elsewhere(d)  # SAP IQ on a SAN: no data drive on the hosts
    if p.drives_per_host is None:
        yield UsedValue("platform.drives_per_host", NotUsed(f"not used: {elsewhere}") if elsewhere
                        else d.data_drives_per_host)
    if p.drive_id is None and elsewhere and d.drive_id is None:
        yield UsedValue("platform.drive_id", NotUsed(f"not used: {elsewhere}"))
    if p.memory_gib is None:
        yield UsedValue("platform.memory_gib", d.memory_gib_per_host, "GiB")
    if p.nics_per_host is None and d.nics_per_host:
        yield UsedValue("platform.nics_per_host", d.nics_per_host)
    if p.raid is None:
        yield UsedValue("platform.raid", d.raid)
    if p.hypervisor_reserve_gib is None:
        if d.deployment != "vsphere":
            yield UsedValue("platform.hypervisor_reserve_gib", NotUsed("not used on bare metal"))
        else:
            yield UsedValue("platform.hypervisor_reserve_gib", hypervisor_reserve(scenario, d.memory_gib_per_host),
                            "GiB", (_cite(RULES, "hypervisor_reserve_fraction"),))


def _greenplum_values(w: GreenplumAnalytics | GreenplumOltp) -> Iterator[UsedValue]:
    if w.mirror_block_hosts is None:
        # block mirroring refuses an empty block size, so an empty field is always one the design does not use
        yield UsedValue("workload.mirror_block_hosts", NotUsed("not used: mirrors are off") if not w.mirrors else
                        NotUsed(f"not used with {w.mirroring} mirroring"))
    if isinstance(w, GreenplumOltp) and w.target_tps is None:
        yield UsedValue("workload.target_tps", NotUsed("no target"))
    if isinstance(w, GreenplumOltp) and w.min_segment_hosts is None:
        yield UsedValue("workload.min_segment_hosts", NotUsed("none: the data and the targets set the hosts"))
    if isinstance(w, GreenplumAnalytics) and w.segment_tier is None:
        from models.sizing.greenplum import tier_choice

        choice = tier_choice(w)
        yield UsedValue("workload.segment_tier", choice.tier, source=choice.rationale.source,
                        basis=f"from {w.concurrent_queries:,} concurrent queries")


def _postgres_values(scenario: Scenario, w: PostgresConsolidation, result: SizingResult) -> Iterator[UsedValue]:
    from models.sizing.postgres import cite

    if w.vm_vcpus is None and result.vms:
        yield UsedValue("workload.vm_vcpus", _span(v.vcpus for v in result.vms), "vCPUs")
    if w.vm_memory_gib is None and result.vms:
        yield UsedValue("workload.vm_memory_gib", _span(v.memory_gib for v in result.vms), "GiB")
    sized_tps = {disk.database: disk.peak_tps for vm in result.vms for disk in vm.disks}
    for i, db in enumerate(w.databases):
        if db.peak_tps is None and db.name in sized_tps:
            yield UsedValue(f"workload.databases[{i}].peak_tps", sized_tps[db.name], "TPS",
                            (cite("notpm_per_pcpu", "pg_tps_model"), cite("pgbench_rds_m5_4vcpu_100gb",
                                                                          "pg_published_runs")),
                            f"estimated from {db.peak_clients} clients")
    if w.vsan_architecture is None:
        arch = result.design.vsan_architecture
        yield UsedValue("workload.vsan_architecture", arch if arch else NotUsed("not used: local datastores"),
                        basis="the cheaper layout the server allows" if arch else "")
    if w.host_memory_available_gib is None:
        host = result.design.memory_gib_per_host
        yield UsedValue("workload.host_memory_available_gib", host - hypervisor_reserve(scenario, host), "GiB",
                        basis="host memory less the hypervisor reserve")


def _sap_iq_values(w: SapIqMultiplex, result: SizingResult) -> Iterator[UsedValue]:
    from models.sizing.sap_iq import STUDY

    d = result.design
    if w.dqp_mode is None and d.dqp_mode:
        yield UsedValue("workload.dqp_mode", d.dqp_mode, basis=f"for {w.query_streams} query streams")
    if w.nodes is None:
        yield UsedValue("workload.nodes", d.segment_hosts)
    if w.writer_nodes is None and result.iq is not None:
        yield UsedValue("workload.writer_nodes", result.iq.writers)
    if w.temp_to_main_ratio is None:
        yield UsedValue("workload.temp_to_main_ratio", point(STUDY, "temp_to_main_dbspace_ratio").value,
                        source=(_cite(STUDY, "temp_to_main_dbspace_ratio"),
                                _cite(STUDY, "temp_store_size_vendor_rule")))  # the study by title; the rationale
        # says SAP states no fixed ratio
    if w.san_price_per_tb is None:
        yield UsedValue("workload.san_price_per_tb", NotUsed("not used: the data is on vSAN") if
                        d.raid.startswith("vsan") else NotUsed("not priced: the SAN is on quote, out of the capex"))
    if w.vsan_architecture is None:
        yield UsedValue("workload.vsan_architecture", d.vsan_architecture if d.vsan_architecture else
                        NotUsed("not used: the dbspaces are on an external SAN"),
                        basis="the cheaper layout the server allows" if d.vsan_architecture else "")


def _storage(d: Design) -> str:
    """Where the design keeps the data, in a word: on vSAN (the design's `raid` is then a vSAN policy), else on
    an external SAN (SAP IQ) or the hosts' own drives (PostgreSQL)."""
    if d.raid.startswith("vsan"):
        return "vSAN"
    return "external SAN" if d.kind == "sap-iq-multiplex" else "local drives"


def _span(values: Iterable[float]) -> float | tuple[float, float]:
    vs = sorted(set(values))
    return vs[0] if len(vs) == 1 else (vs[0], vs[-1])


def _cite(dataset: str, point_id: str) -> str:
    return point(dataset, point_id).source.cite()
