"""What the SAP IQ and PostgreSQL sizers rank a server (and drive) on: hardware and the licences that follow it.

Per-core database licences can cost many times the hardware (SAP IQ per core, EDB Postgres per core per year,
vSphere per core per year), so a server with fewer, faster cores can be far cheaper than the one of lowest hardware
price. Each option is ranked on what the scenario minimises (`commercial.optimize_for`):

* "capex": the hosts' hardware plus the perpetual licences (bought once: `Totals.capex` counts them);
* "tco": that plus `commercial.tco_years` years of subscriptions and of the hosts' operations.

The licences are those the BOM quotes for the option's hosts (`software.licence_cost`, the choice
`software.licence_lines` makes). Left out of the ranking, as they follow the host count rather than the server's
cores: boot drives, network, racks and PDUs, support contracts and energy (the full BOM and TCO price them).
"""

from __future__ import annotations

import dataclasses

from models.hardware import Licence, Server
from models.money import cents
from models.scenario import Scenario
from models.sizing import running_costs, software
from models.sizing.infrastructure import HostGroup
from models.sizing.result import Rationale


def ranked_cost(basis: software.Licensing, hosts: HostGroup, hardware: float, vms: int) -> float:
    """The option's `hardware` capex plus the licences of its `hosts` (one role, one server) as the scenario weighs
    them; `vms`: the guests those hosts run on vSphere (an OS subscription per 1-2 VMs counts them).

    >>> from datetime import date
    >>> from models.hardware import Cpu, HardwareCatalog, Licence
    >>> cpu = Cpu("c", "AMD", "EPYC", 1.0, "USD", date(2026, 1, 1), "x", cores=16, threads=32, base_ghz=3, tdp_w=200)
    >>> srv = Server("s", "Dell", "R", 1.0, "USD", date(2026, 1, 1), "x", form_factor="2U", rack_u=2, sockets=2,
    ...              cpu=cpu, numa_nodes_per_socket=1, memory_gib=256, dimm_slots=24, data_bays=12,
    ...              data_bay_form_factor="U.3", os_drives=2, psu_w=1400, idle_w=200, max_w=700)
    >>> db = Licence("iq", "SAP", "IQ", 100.0, "USD", date(2026, 1, 1), "x", metric="core", term="perpetual",
    ...              applies_to="sap-iq", min_cores_per_cpu=0, min_units=0)
    >>> os = Licence("os", "SUSE", "SLES", 10.0, "USD", date(2026, 1, 1), "x", metric="host", term="annual",
    ...              applies_to="os", min_cores_per_cpu=0, min_units=0)
    >>> sc = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 10,
    ...                               "query_streams": 4}, "platform": {"deployment": "bare-metal"},
    ...                               "commercial": {"tco_years": 4, "optimize_for": "capex"}})
    >>> cat = HardwareCatalog((srv, db, os))
    >>> three = HostGroup("IQ node", srv, 3, 0.0, 0, 0.0)
    >>> ranked_cost(software.Licensing(sc, cat, 10.0), three, 5000.0, 0)  # 5,000 + 3 x 32 cores x 100
    14600.0
    >>> tco = sc.model_copy(update={"commercial": sc.commercial.model_copy(update={"optimize_for": "tco"})})
    >>> ranked_cost(software.Licensing(tco, cat, 10.0), three, 5000.0, 0)  # + 4 years x 3 hosts x (10 + 2,947)
    50084.0
    """
    scenario = basis.scenario
    if scenario.platform.deployment == "vsphere":
        basis = dataclasses.replace(basis, guests={hosts.role: vms})
    once, yearly = software.licence_cost(basis, [hosts])
    cost = hardware + once
    if scenario.commercial.optimize_for == "tco":  # and the hosts' operations, which the TCO counts per host
        ops = hosts.hosts * running_costs.host_cost_per_year(scenario, basis.catalog.rates)
        cost += scenario.commercial.tco_years * (yearly + ops)
    return cost


def least_cost(basis: software.Licensing, hosts: HostGroup, hardware: float, vms: int) -> float:
    """A lower bound of `ranked_cost` for any option of `hosts.server` with at least `hosts.hosts` hosts, at least
    `hardware` capex and `vms` guests, on at least `basis.data_tb` TB: per product the offer of least weighted cost
    at these counts (each licence's units only grow with hosts and TB, and whichever offer the BOM then chooses
    costs at least the least of them), the scenario's named licences as they are, and the hosts' operations.

    >>> from datetime import date
    >>> from models.hardware import Cpu, HardwareCatalog, Licence
    >>> cpu = Cpu("c", "AMD", "EPYC", 1.0, "USD", date(2026, 1, 1), "x", cores=16, threads=32, base_ghz=3, tdp_w=200)
    >>> srv = Server("s", "Dell", "R", 1.0, "USD", date(2026, 1, 1), "x", form_factor="2U", rack_u=2, sockets=2,
    ...              cpu=cpu, numa_nodes_per_socket=1, memory_gib=256, dimm_slots=24, data_bays=12,
    ...              data_bay_form_factor="U.3", os_drives=2, psu_w=1400, idle_w=200, max_w=700)
    >>> per_core = Licence("a", "SAP", "IQ", 100.0, "USD", date(2026, 1, 1), "x", metric="core", term="perpetual",
    ...                    applies_to="sap-iq", min_cores_per_cpu=0, min_units=0)
    >>> per_host = dataclasses.replace(per_core, id="b", metric="host", price=3000.0, term="annual", min_units=4)
    >>> sc = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 10,
    ...                               "query_streams": 4}, "platform": {"deployment": "bare-metal"},
    ...                               "commercial": {"tco_years": 4, "optimize_for": "capex"}})
    >>> basis = software.Licensing(sc, HardwareCatalog((srv, per_core, per_host)), 10.0)
    >>> three, four = (HostGroup("IQ node", srv, n, 0.0, 0, 0.0) for n in (3, 4))
    >>> # 3 hosts: the per-core licence (9,600 < 12,000); 4: the subscription (12,000 < 12,800), which capex leaves out
    >>> ranked_cost(basis, three, 5000.0, 0), ranked_cost(basis, four, 5000.0, 0)
    (14600.0, 5000.0)
    >>> least_cost(basis, three, 5000.0, 0)  # below both: the least offer at 3 hosts, the subscription at 0
    5000.0
    """
    scenario = basis.scenario
    if scenario.platform.deployment == "vsphere":
        basis = dataclasses.replace(basis, guests={hosts.role: vms})
    years = scenario.commercial.tco_years if scenario.commercial.optimize_for == "tco" else 0

    def weighted(lic: Licence) -> float:
        n = software.units(lic, software.licensed_groups(lic, [hosts]), basis.data_tb, basis.guests)[0]
        return cents(lic.price * n) * (1.0 if lic.term == "perpetual" else years)

    if scenario.commercial.licence_ids is not None:
        licences = sum(weighted(lic) for lic in software.licence_choice(basis, [hosts])[0])
    else:
        licences = sum(min((weighted(lic) for lic in software.licence_offers(basis, product)), default=0.0)
                       for product in software.products(scenario))
    ops = hosts.hosts * running_costs.host_cost_per_year(scenario, basis.catalog.rates) if years else 0.0
    return hardware + licences + years * ops


def words(scenario: Scenario) -> str:
    """What the ranking minimises, as the rationale says it."""
    c = scenario.commercial
    if c.optimize_for == "tco":
        return (f"{c.tco_years}-year cost of ownership (the hosts' hardware and perpetual licences plus {c.tco_years}"
                " years of subscriptions and of the hosts' operations)")
    return "capex including licences (the hosts' hardware and the perpetual licences bought with it)"


def rationale(scenario: Scenario, server: Server, what: str) -> Rationale:
    """Why the server (and drive): `what` the option gives, at the lowest cost the scenario minimises; a server the
    scenario names was not chosen, only its drives and host count."""
    pick = (f"{server.vendor} {server.model} (named in the scenario): of the drives and host counts it takes, the one"
            if scenario.platform.server_id is not None else
            f"{server.vendor} {server.model}: of the candidate servers and drives, the one")
    return Rationale(
        "Recommended parts",
        f"{pick} that {what} at the lowest {words(scenario)}, the licences counted as the BOM quotes them (per core,"
        " socket, host or VM with their minimums), so fewer, faster cores can win over cheaper hardware. Left out of"
        " the ranking: boot drives, network, racks, support and energy, which follow the host count (the BOM and TCO"
        " price them).",
        "catalog",
    )
