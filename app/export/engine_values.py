"""What the engine used for each scenario field left empty: the form's placeholders and the report's workload tables.

A field the user leaves empty is not "unknown": the engine sizes with a value
(its recommendation, a rule, a study's figure). The form shows that value where
the user would type one, with where it comes from by title, never a file name
("Recommend: 1 (from Distributed Query Processing in SAP IQ ...)").
"""

from __future__ import annotations

from collections.abc import Iterable

from app.formatting import data_elsewhere, dqp_mode
from models.calibration_data import point
from models.references import reference_for
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing.result import SizingResult
from models.vocabulary import raid_label


def source_title(dataset: str, point_id: str) -> str:
    """The title of the document a calibration figure comes from (`resources/references.json`), without the
    kind of document it ends with ("(Performance Study)"): a placeholder has little room."""
    src = point(dataset, point_id).source
    found = reference_for(src.file)
    if found is None:
        return "the calibration data"  # never a file name in front of a user
    title = found[0].title
    return title.rsplit(" (", 1)[0] if title.endswith(")") else title


def _num(v: float, unit: str = "") -> str:
    text = f"{v:,.3g}" if v < 1000 else f"{v:,.0f}"
    return f"{text} {unit}" if unit else text


def _span(values: Iterable[float], unit: str) -> str:
    vs = sorted(set(values))
    if not vs:
        return ""
    if len(vs) == 1:
        return _num(vs[0], unit)
    return f"{_num(vs[0])}–{_num(vs[-1], unit)} (sized per VM)"


def _storage(result: SizingResult) -> str:
    """Where the design keeps the data, in a word: on vSAN (the design's `raid` is then a vSAN policy), else on
    an external SAN (SAP IQ) or the hosts' own drives (PostgreSQL)."""
    if result.design.raid.startswith("vsan"):
        return "vSAN"
    return "external SAN" if result.design.kind == "sap-iq-multiplex" else "local drives"


def reserve_gib(scenario: Scenario, host_memory_gib: float) -> float:
    """The hypervisor reserve a vSphere host keeps: the platform's figure, else the rule."""
    from models.sizing.rules import hypervisor_reserve_gib

    given = scenario.platform.hypervisor_reserve_gib
    return hypervisor_reserve_gib(host_memory_gib) if given is None else given


def used_values(scenario: Scenario, result: SizingResult) -> dict[str, str]:
    """Field path -> what the engine used, for every optional field `scenario` leaves empty (and only those);
    "not used ..." / "not priced ..." for a field the design has no use for."""
    from models.sizing.rules import RULES

    d = result.design
    w = scenario.workload
    p = scenario.platform
    out: dict[str, str] = {}
    elsewhere = data_elsewhere(d)  # SAP IQ on a SAN: no data drive on the hosts
    if p.drives_per_host is None:
        out["platform.drives_per_host"] = f"not used: {elsewhere}" if elsewhere else str(d.data_drives_per_host)
    if p.drive_id is None and elsewhere and d.drive_id is None:
        out["platform.drive_id"] = f"not used: {elsewhere}"
    if p.memory_gib is None:
        out["platform.memory_gib"] = _num(d.memory_gib_per_host, "GiB")
    if p.nics_per_host is None and d.nics_per_host:
        out["platform.nics_per_host"] = str(d.nics_per_host)
    if p.raid is None:
        out["platform.raid"] = raid_label(d.raid)
    if p.hypervisor_reserve_gib is None:
        out["platform.hypervisor_reserve_gib"] = (
            "not used on bare metal" if d.deployment != "vsphere" else
            f"{_num(reserve_gib(scenario, d.memory_gib_per_host), 'GiB')}"
            f" (from {source_title(RULES, 'hypervisor_reserve_fraction')})")
    if isinstance(w, GreenplumAnalytics | GreenplumOltp) and w.mirror_block_hosts is None:
        # block mirroring refuses an empty block size, so an empty field is always one the design does not use
        out["workload.mirror_block_hosts"] = ("not used: mirrors are off" if not w.mirrors else
                                              f"not used with {w.mirroring} mirroring")
    if isinstance(w, GreenplumAnalytics) and w.segment_tier is None:
        from models.sizing.greenplum import tier_choice

        out["workload.segment_tier"] = f"{tier_choice(w).tier}, from {w.concurrent_queries:,} concurrent queries"
    if isinstance(w, PostgresConsolidation):
        if w.vm_vcpus is None and result.vms:
            out["workload.vm_vcpus"] = _span((v.vcpus for v in result.vms), "vCPUs")
        if w.vm_memory_gib is None and result.vms:
            out["workload.vm_memory_gib"] = _span((v.memory_gib for v in result.vms), "GiB")
        sized_tps = {disk.database: disk.peak_tps for vm in result.vms for disk in vm.disks}
        for i, db in enumerate(w.databases):
            if db.peak_tps is None and db.name in sized_tps:
                # short enough for a table cell: the rate's source is in the cell's tooltip and under the table
                out[f"workload.databases[{i}].peak_tps"] = (
                    f"{_num(sized_tps[db.name], 'TPS')} (estimated from {db.peak_clients} clients)")
        if w.host_memory_available_gib is None:
            host = d.memory_gib_per_host
            out["workload.host_memory_available_gib"] = (
                f"{_num(host - reserve_gib(scenario, host), 'GiB')} (host memory less the hypervisor reserve)")
    if isinstance(w, PostgresConsolidation | SapIqMultiplex) and w.shared_storage is None:
        out["workload.shared_storage"] = _storage(result)
    if isinstance(w, SapIqMultiplex):
        if w.dqp_mode is None and d.dqp_mode:
            out["workload.dqp_mode"] = f"{dqp_mode(d.dqp_mode)}, for {w.query_streams} query streams"
        if w.nodes is None:
            out["workload.nodes"] = str(d.segment_hosts)
        if w.writer_nodes is None and result.iq is not None:
            out["workload.writer_nodes"] = str(result.iq.writers)
        if w.temp_to_main_ratio is None:
            # imported here: the window calls this for the first result on screen, often not a SAP IQ one
            from models.sizing.sap_iq import STUDY as IQ_STUDY

            ratio = point(IQ_STUDY, "temp_to_main_dbspace_ratio").value
            out["workload.temp_to_main_ratio"] = (
                f"{_num(ratio)} (from {source_title(IQ_STUDY, 'temp_to_main_dbspace_ratio')})")
        if w.san_price_per_tb is None:
            on_vsan = d.raid.startswith("vsan")
            out["workload.san_price_per_tb"] = ("not used: the data is on vSAN" if on_vsan else
                                                "not priced: the SAN is left out of the BOM")
    return out


def estimated_tps_source() -> str:
    """Where an empty peak TPS comes from, by title: the rate per client the engine multiplies the clients by."""
    from models.sizing.postgres import DS, tps_per_client

    return (f"{_num(tps_per_client())} TPS per client, the zero-think-time DBT-2 rate of"
            f" {source_title(DS, 'dbt2_new_orders_per_client_s')} (an upper bound)")


def estimated_tps_cites() -> tuple[str, str]:
    """The sources of that rate: the study's per-client New-Order rate and the TPC-C mix share it is divided by."""
    from models.sizing.postgres import cite

    return cite("dbt2_new_orders_per_client_s"), cite("tpcc_new_order_share")
