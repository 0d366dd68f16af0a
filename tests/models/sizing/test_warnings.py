"""Warnings are structured: a stable code, a severity, and the scenario field they concern when there is one."""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from typing import get_args

import pytest

from models.field_words import field_info
from models.hardware import Cable, Drive, HardwareCatalog, Licence, Nic, Pdu, Rack, Server, Support, Switch
from models.money import ExchangeRates
from models.scenario import Scenario, load_project
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from models.sizing.result import SCENARIO_WIDE, Severity, Warning
from models.vocabulary import TARGETS
from models.warning_codes import WARNING_TITLES
from tests.models.sizing.conftest import SAMPLES, sample

SEVERITIES = {"info", "warning", "critical"}


@pytest.mark.parametrize("name", ["retail-dw-gen5", "gp-oltp", "pg-consolidation", "sap-iq", "study-000-vsphere"])
def test_every_warning_names_a_scenario_field_the_vocabulary_knows(catalog: HardwareCatalog, name: str) -> None:
    # a budget no design meets, so every sample also raises target warnings
    r = size(sample(name, targets={"max_capex": 1.0, "max_rack_u": 1}), catalog)
    assert r.warnings
    for w in r.warnings:
        assert w.code and w.code == w.code.strip().lower() and " " not in w.code
        assert w.severity in SEVERITIES
        assert w.field is None or field_info(w.field) is not None, (w.code, w.field)
        assert w.field is None or not w.text.startswith(w.field + ":"), w.text  # nothing to parse back
    critical = {w.field for w in r.warnings if w.severity == "critical"}
    for check in r.target_checks:
        assert check.target in TARGETS
        assert (f"targets.{check.target}" in critical) == (check.status != "met")


def test_parts_left_out_for_want_of_a_rate_name_the_currency_field(catalog: HardwareCatalog) -> None:
    chf_rack = Rack("ch-rack", "Rittal", "VX", 1000.0, "CHF", date(2026, 11, 1), "quote", rack_u=42, max_kw=20)
    cat = HardwareCatalog((*catalog.parts, chf_rack), ExchangeRates(()))  # USD project, no CHF rate
    r = size(sample("retail-dw-gen5"), cat)
    w = [x for x in r.warnings if x.code == "no-rate"]
    assert len(w) == 1 and "CHF" in w[0].text
    assert (w[0].field, w[0].severity) == ("commercial.currency", "warning")


# ----------------------------------------------------------------- every producer says its severity and field

def _sample_scenarios() -> list[tuple[str, Scenario]]:
    out = []
    for path in sorted(SAMPLES.glob("*.json")):
        out += [(f"{path.name}:{s.name}", s) for s in load_project(path).scenarios]
    return out


def _off_study(catalog: HardwareCatalog) -> list[tuple[str, Scenario, HardwareCatalog]]:
    """Inputs off the studies' points that reach the producers the samples leave quiet (bare catalogs, no HA,
    no RAID, one host, old prices, a tight rack budget, far more TPS than study 004 measured)."""
    bare = HardwareCatalog(tuple(p for p in catalog.parts if not isinstance(
        p, Switch | Rack | Pdu | Cable | Licence | Support | Nic)), catalog.rates)
    no_boot = HardwareCatalog(tuple(p for p in catalog.parts if not (
        isinstance(p, Drive) and (p.form_factor == "M.2" or p.interface == "SATA"))), catalog.rates)
    later = {"valuation_date": "2045-01-01", "price_max_age_months": 1, "rack_power_kw": 0.5}
    return [
        # Greenplum keeps its NICs: without one it is refused (test_greenplum_without_a_nic_is_refused)
        ("gp bare catalog", sample("retail-dw-gen5"), HardwareCatalog(
            tuple(p for p in catalog.parts if not isinstance(p, Switch | Rack | Pdu | Cable | Licence | Support)),
            catalog.rates)),
        ("pg bare catalog", sample("pg-consolidation", platform={"nic_id": None}), bare),
        ("iq bare catalog", sample("sap-iq", platform={"nic_id": None}), bare),
        ("no boot drive", sample("gp-oltp"), no_boot),
        ("no cables", sample("gp-oltp"), HardwareCatalog(tuple(p for p in catalog.parts if not isinstance(p, Cable)),
                                                          catalog.rates)),
        ("gp one host, no mirrors", sample(
            "retail-dw-gen5",
            workload={"data_tb": 0.1, "mirrors": False, "compression_ratio": 1, "concurrent_queries": 1},
            platform={"memory_gib": 64, "drives_per_host": 1, "nics_per_host": 1}, targets={}), catalog),
        ("gp prices judged in 2045", sample("retail-dw-dual-socket-sas", commercial=later), catalog),
        ("pg no HA, no RAID, small VMs", sample(
            "pg-consolidation", workload={"vsphere_ha": False, "vm_vcpus": 1, "vm_memory_gib": 1,
                                          "placement": "shared-vm"},
            platform={"raid": "none"}), catalog),
        ("pg HA on local disks", sample("pg-consolidation", workload={"shared_storage": "local"}), catalog),
        ("iq unpriced SAN, many streams", sample("sap-iq", workload={"shared_storage": "san", "san_price_per_tb": None,
                                                                      "nodes": 2, "query_streams": 40}), catalog),
        ("iq wide vSAN", sample("sap-iq", workload={"shared_storage": "vsan", "nodes": 64}), catalog),
        ("iq vSAN at the policy's minimum hosts", sample("sap-iq", workload={"nodes": 3}), catalog),
        ("pg clients far beyond the vCPUs", sample("pg-consolidation", workload={"vm_vcpus": 4, "databases": [
            {"name": "web", "size_gb": 50, "peak_clients": 2000, "working_set_gb": 10.0}]}), catalog),
        ("iq single node", sample("sap-iq", workload={"shared_storage": "san", "nodes": 1, "query_streams": 1}),
         catalog),
        ("oltp beyond study 004", sample("gp-oltp", workload={"target_tps": 2_000_000}), catalog),
        # many primaries on little memory per core (the recommender, free, now avoids this 2-socket server)
        # a server without a PCIe slot count: its NICs are sized unchecked, and the design says so
        ("unknown PCIe slots", sample("retail-dw-gen5"), HardwareCatalog(tuple(
            dataclasses.replace(p, pcie_slots=None) if isinstance(p, Server) else p for p in catalog.parts),
            catalog.rates)),
        # so many report queries that most wait in the resource group's queue
        ("5,000 concurrent reports", sample("retail-dw-gen5", workload={"concurrent_queries": 5000}, targets={}),
         catalog),
        # so little memory that even one report on one primary per host cannot get the default statement_mem
        ("8 GiB hosts", sample("retail-dw-gen5", platform={"memory_gib": 8, "swap_gib": 0}, targets={}), catalog),
        ("oltp beyond study 004 on a 2-socket host", sample(
            "gp-oltp", workload={"target_tps": 2_000_000},
            platform={"server_id": "dell-r670-10x-u3-2x-xeon-6740e"}), catalog),
    ]


def _cases(catalog: HardwareCatalog) -> list[tuple[str, Scenario, HardwareCatalog]]:
    return [(name, s, catalog) for name, s in _sample_scenarios()] + _off_study(catalog)


def test_every_warning_produced_says_its_severity_and_a_vocabulary_field_or_scenario_wide(
        catalog: HardwareCatalog) -> None:
    seen: dict[str, set[str | None]] = {}
    for name, scenario, cat in _cases(catalog):
        for w in size(scenario, cat).warnings:
            assert w.severity in get_args(Severity), (name, w.code, w.severity)
            assert w.field is SCENARIO_WIDE or field_info(w.field) is not None, (name, w.code, w.field)
            seen.setdefault(w.code, set()).add(w.field)
    # the cases reach the producers of every module the warnings come from, so the assertions above judged them
    reached = {"no-switch", "no-rack", "no-pdu", "no-cable", "no-boot-drive", "rack-power", "price-old",
               "no-licence", "no-support", "no-ha", "no-raid", "small-vm", "ha-local-storage", "san-unpriced",
               "vsan-cluster-size", "extrapolated", "single-segment-host", "no-redundancy", "few-data-drives",
               "memory-below-reference", "numa-multi-socket", "oltp-beyond-measured", "low-statement-mem",
               "nic-slots-unknown", "node-failure-streams", "node-failure-stops", "vsan-no-rebuild-host",
               "connection-pooler-cpu"}
    assert reached <= set(seen), sorted(reached - set(seen))
    # every code reached has a title a customer reads (a Warning cannot even be made without one)
    assert set(seen) <= set(WARNING_TITLES), sorted(set(seen) - set(WARNING_TITLES))


def _recased(code: str) -> str:
    """The code as words, whatever their case: what a renderer made of it before titles were declared."""
    return re.sub(r"[-_ ]+", " ", code).strip().lower()


@pytest.mark.parametrize(("code", "title"), sorted(WARNING_TITLES.items()))
def test_every_warning_title_is_worded_not_the_code_recased(code: str, title: str) -> None:
    assert code == code.strip().lower() and " " not in code
    assert title and title == title.strip() and not title.endswith("."), title
    assert _recased(title) != _recased(code), f"{code}: {title!r} is the code with its case changed"
    assert title[0].isupper() or title.split()[0] in _LOWER_FIRST, title
    for word in _ACRONYMS:  # acronyms keep their case ("Vsan", "Dqp", "Numa" read wrong)
        assert word.lower() not in title.lower().split() or word in title.split(), (code, title, word)


_LOWER_FIRST = {"vSAN", "vSphere", "statement_mem", "gp_vmem_protect_limit"}
_ACRONYMS = ("DQP", "vSAN", "NIC", "PCIe", "NUMA", "TPS", "SAN", "WAL", "OLTP", "RAID", "PDUs", "TB", "VM", "VMs",
             "HA", "vSphere", "vCPUs")


def test_a_warning_with_an_undeclared_code_is_refused() -> None:
    with pytest.raises(ValueError, match=re.escape("models.warning_codes")):
        Warning("no-such-code", "text", "info", SCENARIO_WIDE)
    assert Warning("vsan-no-rebuild-host", "t", "warning", "workload.nodes").title == "No host left for a vSAN rebuild"


def test_a_warning_cannot_be_made_without_its_severity_and_field() -> None:
    with pytest.raises(TypeError):
        Warning("no-rack", "The catalog has no rack.")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Warning("no-rack", "The catalog has no rack.", "warning")  # type: ignore[call-arg]
    assert Warning("no-rack", "The catalog has no rack.", "warning", SCENARIO_WIDE).to_dict()["field"] is None


@pytest.mark.parametrize("name", ["retail-dw-gen5", "gp-oltp"])
def test_greenplum_without_a_nic_is_refused_naming_the_nic_field(catalog: HardwareCatalog, name: str) -> None:
    """No interconnect, no estimate: before, the scan estimate came out as 'nan s' and the design was priced."""
    no_nic = HardwareCatalog(tuple(p for p in catalog.parts if not isinstance(p, Nic)), catalog.rates)
    with pytest.raises(SizingInputError) as caught:
        size(sample(name, platform={"nic_id": None}), no_nic)
    [problem] = caught.value.problems
    assert problem.path == "platform.nic_id"
    assert "no NIC" in problem.message and "GbE" in problem.message


def test_every_code_written_in_the_models_has_a_title() -> None:
    """Codes the sampled cases do not reach are checked where they are written: every `Warning("code", ...)`
    in models/ (a code built from a target status is one per status but "met")."""
    import ast
    from pathlib import Path

    from models.sizing.result import TargetStatus

    written: set[str] = {f"target-{s}" for s in get_args(TargetStatus) if s != "met"}
    for path in (Path(__file__).resolve().parents[3] / "models").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Warning" and node.args:
                code = node.args[0]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    written.add(code.value)
                else:
                    assert isinstance(code, ast.JoinedStr), (path, ast.unparse(code))  # an f-string: covered above
    assert len(written) > 40  # the walk found the producers
    assert written <= set(WARNING_TITLES), sorted(written - set(WARNING_TITLES))


@pytest.mark.parametrize("name", ["retail-dw-gen5", "pg-consolidation", "sap-iq"])
def test_a_result_says_each_warning_once_whoever_raised_it_twice(catalog: HardwareCatalog, name: str) -> None:
    # the rule sits on the result, not on each producer: a warning raised twice (two roles, two producers) reads once
    r = size(sample(name, targets={"max_capex": 1.0}), catalog)
    assert r.warnings and len(set(r.warnings)) == len(r.warnings)
    doubled = dataclasses.replace(r, warnings=r.warnings + r.warnings[:1] + r.warnings)
    assert doubled.warnings == r.warnings  # same findings, same order, nothing repeated
