"""The approximate cost of ownership of every Greenplum candidate: what a search ranks on when the scenario
minimises TCO (`commercial.optimize_for = "tco"`, `size` and `optimize` alike).

Capex plus `commercial.tco_years` of licences, support, energy and the hosts' operations, per candidate, in the
catalog's (project) currency. Network, racks and rack space are left out: they follow the host count and are priced
exactly, with the full BOM, on the few candidates the search re-ranks. Where per-core database licences dominate,
this order differs from the capex order: fewer, larger cores can cost more in hardware and far less over the years.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.hardware import HardwareCatalog, Licence, Server
from models.perf import cost_power
from models.scenario import Scenario
from models.sizing import running_costs, software
from models.sizing.greenplum import evaluation
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.greenplum.coordinator import coordinator_hosts

FloatArray = NDArray[np.float64]


Offers = list[tuple[str, list[Licence]]]  # each product the design runs, with its licences (`licence_offers`)


def approx_tco(ev: evaluation.Evaluated, servers: list[Server], scenario: Scenario,
               catalog: HardwareCatalog, offers: Offers | None = None) -> FloatArray:
    """Capex plus N years of licences, support and energy for every candidate of `ev` (`servers`: the search's,
    indexed by the candidates' server_idx). vSphere licences apply to the candidates deployed on vSphere, whatever
    the scenario's own deployment (the optimizer searches both). Of a product's licences each candidate takes the
    one of lowest price for its units, as the BOM does (`software.licence_lines`). `offers`: the scenario's
    `licence_offers`, when the caller has them."""
    return _tco(ev, servers, scenario, catalog, offers, over_the_horizon=False)


def tco_floor(ev: evaluation.Evaluated, servers: list[Server], scenario: Scenario,
              catalog: HardwareCatalog, offers: Offers | None = None) -> FloatArray:
    """A lower bound of `approx_tco` for every candidate of `ev` at its hosts or more (settling only adds hosts).

    `approx_tco` is not monotone in the hosts: a product's licence is the one of lowest price for the units, and
    where a perpetual licence (paid once) and a subscription (paid each year) both apply, more hosts can switch it
    from the subscription to the perpetual licence and lower the cost of ownership. Here each product costs its
    least over the horizon at the candidate's units, which no host count lowers; support and energy grow with the
    hosts. Where a product's licences share one term it is `approx_tco` itself (the same offer, the same sums).
    """
    return _tco(ev, servers, scenario, catalog, offers, over_the_horizon=True)


def _tco(ev: evaluation.Evaluated, servers: list[Server], scenario: Scenario, catalog: HardwareCatalog,
         offers: Offers | None, over_the_horizon: bool) -> FloatArray:
    com, a = scenario.commercial, scenario.assumptions
    hosts = (ev.segment_hosts + coordinator_hosts(scenario.workload) + ev.etl_hosts).astype(float)
    offers = offers if offers is not None else licence_offers(scenario, catalog)
    once, yearly = _licences(ev.candidates, hosts, ev.etl_hosts.astype(float), scenario, offers, over_the_horizon)
    if com.support:
        yearly += _support(ev, servers, hosts, catalog)
    energy = ev.power_w * a.pue * cost_power.HOURS_PER_YEAR / 1000.0 * a.energy_price_per_kwh
    operations = hosts * running_costs.host_cost_per_year(scenario, catalog.rates)
    return ev.capex + once + com.tco_years * (yearly + energy + operations)


@dataclass(frozen=True)
class FloorGain:
    """How much `tco_floor` grows at least with more segment hosts, for the scenario and its licence `offers`
    (`settle.Gain`): the shortlist's walk bounds a candidate's settled cost with it where its search must add
    hosts."""

    scenario: Scenario
    offers: Offers
    host_per_year: float = 0.0  # one host's operations a year (`running_costs.host_cost_per_year`)

    def __call__(self, c1: Candidates, hosts: int, etl: int, more: int, capex: float, watts: float) -> float:
        """The growth of candidate `c1` (one, with `hosts` segment and ETL hosts, `etl` of them ETL hosts) with
        `more` segment hosts adding `capex` and `watts`: their capex, the licences' least cost over the horizon
        at the hosts then (no less than before), their energy and operations; support, which only grows, is left
        out."""
        scenario, offers = self.scenario, self.offers
        com, a = scenario.commercial, scenario.assumptions
        n = float(hosts + coordinator_hosts(scenario.workload))
        once, yearly = _licences(c1, np.array([n, n + more]), np.array([float(etl)] * 2), scenario, offers, True)
        licences = float(once[1] - once[0]) + com.tco_years * float(yearly[1] - yearly[0])
        energy = watts * a.pue * cost_power.HOURS_PER_YEAR / 1000.0 * a.energy_price_per_kwh
        return capex + max(licences, 0.0) + com.tco_years * (energy + more * self.host_per_year)


def _licences(c: Candidates, hosts: FloatArray, etl: FloatArray, scenario: Scenario, offers: Offers,
              over_the_horizon: bool) -> tuple[FloatArray, FloatArray]:
    """Every candidate's licences at `hosts` (one count each, or several of one candidate), `etl` of them ETL hosts:
    paid once (perpetual) and per year; of a product's licences the one of lowest price for the units, or
    (`over_the_horizon`) of least cost over `commercial.tco_years`. The ETL hosts run gpfdist, not the database:
    they take the OS and hypervisor licences only, as the BOM counts them (`software.UNLICENSED_ROLES`)."""
    once, yearly = np.zeros(len(hosts)), np.zeros(len(hosts))
    for product, licences in offers:
        licensed = hosts if product in software.EVERY_HOST_PRODUCTS else hosts - etl
        costs = [(_licence_cost(lic, c, licensed, scenario), lic.term) for lic in licences]
        raw = np.stack([x for x, _ in costs])
        best = np.argmin(raw, axis=0)
        if over_the_horizon and len({term for _, term in costs}) > 1:
            horizon = np.stack([x if term == "perpetual" else scenario.commercial.tco_years * x for x, term in costs])
            # the least over the horizon; of equal ones, the lowest price (the order `argmin` alone would take)
            best = np.argmin(np.where(horizon == horizon.min(axis=0), raw, np.inf), axis=0)
        applies = np.broadcast_to(c.virtualized, hosts.shape) if product == "vsphere" else \
            np.ones(len(hosts), dtype=bool)
        for k, (cost, term) in enumerate(costs):
            sel = (best == k) & applies
            (once if term == "perpetual" else yearly)[sel] += cost[sel]
    return once, yearly


def licence_offers(scenario: Scenario, catalog: HardwareCatalog) -> Offers:
    """Each product the design runs (vSphere included: the search may deploy on it) with its licences."""
    bare = scenario.model_copy(update={"platform": scenario.platform.model_copy(update={"deployment": "bare-metal"})})
    products = software.products(bare)
    products.insert(1, "vsphere")  # where software.products puts it: the same sums, added in the same order
    com, out = scenario.commercial, []
    for product in products:
        offers = [lic for lic in catalog.current(catalog.licences) if lic.applies_to == product]
        if com.licence_ids is not None:
            offers = [lic for lic in catalog.licences if lic.id in com.licence_ids and lic.applies_to == product]
        if offers:
            out.append((product, offers))
    return out


def _support(ev: evaluation.Evaluated, servers: list[Server], hosts: FloatArray, catalog: HardwareCatalog
             ) -> FloatArray:
    """The cheapest support contract fitting each candidate's server vendor, per year (0 where none fits)."""
    c = ev.candidates
    vendors = np.array([s.vendor.casefold() for s in servers])[c.server_idx] if servers else np.array([], dtype=str)
    support = np.full(len(c), np.inf)
    for sup in catalog.current(catalog.supports):
        fits = (vendors == sup.applies_to.casefold()) | (sup.applies_to == "*")
        cost = hosts * sup.price if sup.basis == "host" else ev.capex * sup.pct_of_hardware / 100.0
        support = np.where(fits, np.minimum(support, cost), support)
    return np.where(np.isfinite(support), support, 0.0)


def _licence_cost(lic: Licence, c: Candidates, hosts: FloatArray, scenario: Scenario) -> FloatArray:
    """One licence's cost per candidate at `hosts`, counted per its metric with its minimums ("socket-pair" per host
    here; the exact BOM, re-ranked, counts a vSphere design's guests in pairs)."""
    sockets = c.sockets.astype(float)
    per_cpu = c.cores_total / np.maximum(sockets, 1)
    # per TB: the TB on disk the design keeps, growth included, as the BOM counts them (`software.units`)
    data_tb = float(max(1, math.ceil(round(needed_tb(scenario.workload), 3))))  # type: ignore[arg-type]
    units = {"core": hosts * sockets * np.maximum(per_cpu, lic.min_cores_per_cpu),
             "socket": hosts * sockets, "socket-pair": hosts * np.ceil(sockets / 2),
             "host": hosts}.get(lic.metric, np.full(len(hosts), data_tb))
    return np.asarray(np.maximum(units, lic.min_units) * lic.price, dtype=np.float64)
