"""Cost and power: host draw, energy, price/performance, and study 002's cost claim as a check.

Power of one host, in W (vectorized: every argument a scalar or a broadcastable array):

    host_power_w = idle_w + (max_w - idle_w) x clip(utilization, 0, 1)
                   + drives x drive_w + nics x nic_w

A server's `idle_w` / `max_w` cover what its `price` covers (chassis, CPUs, memory; see
`models.hardware`); data drives and add-in NICs are their own BOM lines, so their watts
are added on top. Draw between idle and max is taken as linear in CPU utilization, the
usual first-order server power model; drives and NICs at their rated watts.

    annual_kwh  = power_w x hours / 1000                 (hours = 8,760 by default)
    energy_cost = kwh x price_per_kwh x years            (kwh per year)

Study 002 (002_feb9b45e1f157a35.txt, Architecture cost analysis, Table 3) claims the
single-socket Gen5 platform (8 x PM1743, 512 GB) is "up to approximately 30 percent less
expensive" than a dual-socket platform with the same total cores, 512 GB and 24 SAS
drives. `cost_ratio_check` compares a pair of BOM totals priced from the catalog against
that claim (`gp_nvme_ra_002/gen5_cost_ratio` = 0.70); `cost_comparison_spec` lists the two
configurations to price. The study gives no power figures (only "reduced power
consumption" and a 1,600 W PSU rating), so nothing here is fitted on power.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import figure, point
from models.hardware import HardwareCatalog
from models.model_card import ModelCard, Residual

FloatArray = NDArray[np.float64]

GP002 = "gp_nvme_ra_002"
STUDY_002 = "002_feb9b45e1f157a35.txt"
HOURS_PER_YEAR = 24.0 * 365.0  # calendar constant, not a study figure
WH_PER_KWH = 1000.0


def _a(x: ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=float)


def host_power_w(
    idle_w: ArrayLike,
    max_w: ArrayLike,
    utilization: ArrayLike,
    drives: ArrayLike,
    drive_w: ArrayLike,
    nics: ArrayLike,
    nic_w: ArrayLike,
) -> FloatArray:
    """Average draw of one host in W: linear in utilization between idle and max, plus drives and NICs."""
    # idle + (max_w - idle) x u + drives x drive_w + nics x nic_w, term by term into the first array (the same
    # operations, so the same bits; an optimizer chunk's host draws cost a third less without the temporaries)
    return with_parts_w(server_draw_w(idle_w, max_w, utilization), drives, drive_w, nics, nic_w)


def server_draw_w(idle_w: ArrayLike, max_w: ArrayLike, utilization: ArrayLike) -> FloatArray:
    """`host_power_w`'s first terms, the server's own draw: idle + (max_w - idle) x u (a function of the server and
    the utilization alone, which a caller may find once per server and spread before `with_parts_w`)."""
    u = _clipped(_a(utilization))  # a utilization estimate above 100 % still draws max_w
    idle = _a(idle_w)
    return _into(_into(_a(max_w) - idle, u, np.multiply), idle, np.add)


def with_parts_w(server_w: FloatArray, drives: ArrayLike, drive_w: ArrayLike, nics: ArrayLike, nic_w: ArrayLike
                 ) -> FloatArray:
    """`host_power_w` from the `server_draw_w` of each host: + drives x drive_w + nics x nic_w, in that order
    (written into `server_w` where it is an array of the result's shape: the caller's own)."""
    return _into(_into(server_w, _a(drives) * _a(drive_w), np.add), _a(nics) * _a(nic_w), np.add)


def _clipped(u: FloatArray) -> FloatArray | float:
    """`np.clip(u, 0, 1)`; one utilization (the usual case) in plain floats, as clip compares (NaN kept, -0.0 kept):
    clip costs ~6 us a call, a twelfth of an optimizer chunk's host draw.

    >>> [_clipped(np.asarray(x)) for x in (-0.5, 0.25, 1.5)], _clipped(np.array([-0.5, 2.0])).tolist()
    ([0.0, 0.25, 1.0], [0.0, 1.0])
    """
    if u.ndim:
        return np.clip(u, 0.0, 1.0)
    v = float(u)
    if v == v:
        v = v if v >= 0.0 else 0.0
        v = v if v <= 1.0 else 1.0
    return v


def _into(total: FloatArray, term: FloatArray | float, op: np.ufunc) -> FloatArray:
    """op(total, term) (a commutative `op`), written into `total` where it is an array of the result's shape: the
    caller's own array, computed for it."""
    into = isinstance(total, np.ndarray) and total.ndim and np.shape(term) in ((), total.shape)
    out: FloatArray = op(total, term, out=total) if into else op(total, term)
    return out


def annual_kwh(power_w: ArrayLike, hours: ArrayLike = HOURS_PER_YEAR) -> FloatArray:
    """Energy in kWh of a constant draw `power_w` over `hours` (a year by default)."""
    return _a(power_w) * _a(hours) / WH_PER_KWH


def energy_cost(kwh: ArrayLike, price_per_kwh: ArrayLike, years: ArrayLike) -> FloatArray:
    """Cost of `kwh` per year at `price_per_kwh` over `years` (no discounting, no price drift)."""
    return _a(kwh) * _a(price_per_kwh) * _a(years)


def _ratio(num: ArrayLike, den: ArrayLike) -> FloatArray:
    # A free or powerless design has no meaningful ratio: NaN rather than inf or an error.
    n, d = np.broadcast_arrays(_a(num), _a(den))
    out = np.full(n.shape, np.nan)
    np.divide(n, d, out=out, where=d > 0)
    return out


def perf_per_dollar(perf: ArrayLike, dollars: ArrayLike) -> FloatArray:
    """Performance per currency unit (e.g. queries/h per dollar of capex); NaN where dollars <= 0."""
    return _ratio(perf, dollars)


def perf_per_watt(perf: ArrayLike, watts: ArrayLike) -> FloatArray:
    """Performance per W of draw; NaN where watts <= 0."""
    return _ratio(perf, watts)


def cost_comparison_spec() -> dict[str, dict[str, float]]:
    """The two per-server configurations of study 002's Table 3, to be priced from the catalog."""
    cores = figure(GP002, "gen5_cores_per_host")
    memory = figure(GP002, "cost_memory_gb")
    return {
        "gen5": {
            "sockets": figure(GP002, "gen5_sockets"),
            "cores_total": cores,
            "memory_gb": memory,
            "data_drives": figure(GP002, "cost_gen5_drives"),  # PM1743 (PCIe Gen5 NVMe)
        },
        "baseline": {
            "sockets": figure(GP002, "cost_baseline_sockets"),
            "cores_total": cores,  # "Dual-socket (with same total number of cores)"
            "memory_gb": memory,
            "data_drives": figure(GP002, "cost_baseline_drives"),  # SAS
        },
    }


def cost_ratio_check(gen5_capex: float, baseline_capex: float) -> Residual:
    """Residual of catalog BOM totals against 002's claim: gen5 / baseline capex = 0.70.

    The claim reads "up to approximately 30 percent", so a ratio between 0.70 and 1.0
    is consistent with it; below 0.70 the catalog is more favourable than the study.
    """
    if gen5_capex <= 0 or baseline_capex <= 0:
        raise ValueError("BOM totals must be positive")
    pt = point(GP002, "gen5_cost_ratio")
    return Residual(f"{GP002}/{pt.id}", pt.value, gen5_capex / baseline_capex, pt.unit)


def price_cost_claim(catalog: HardwareCatalog) -> tuple[float, float] | None:
    """Per-host capex of the two Table 3 configurations priced from `catalog`, or None if it lacks them.

    Only current parts are priced, as in the study ("older hardware is no longer available").
    Gen5: the cheapest single-socket server with the spec's cores and memory that takes a PCIe Gen5
    drive, with the spec's count of the cheapest such drive. Baseline: the cheapest dual-socket server
    with the same cores and memory and bays for the spec's SAS drive count, with the cheapest SAS drive.
    """
    spec = cost_comparison_spec()

    def host(cfg: dict[str, float], interface: str) -> float | None:
        prices = []
        for server in catalog.current(catalog.servers):
            if server.sockets != cfg["sockets"] or server.cores_total != cfg["cores_total"]:
                continue
            if server.memory_gib < cfg["memory_gb"] or server.data_bays < cfg["data_drives"]:
                continue
            drives = [d for d in catalog.current(catalog.drives) if d.interface == interface and server.accepts(d)]
            if drives:
                cheapest = min(d.price for d in drives)
                prices.append(server.price + cfg["data_drives"] * cheapest)
        return min(prices) if prices else None

    gen5, baseline = host(spec["gen5"], "NVMe Gen5"), host(spec["baseline"], "SAS")
    return (gen5, baseline) if gen5 is not None and baseline is not None else None


def cost_power_card(
    gen5_capex: float | None = None, baseline_capex: float | None = None, catalog: HardwareCatalog | None = None
) -> ModelCard:
    """The cost/power card; with both BOM totals (given, or priced from `catalog`) it carries the
    residual against 002's cost claim."""
    residuals: tuple[Residual, ...] = ()
    if gen5_capex is None and catalog is not None:
        priced = price_cost_claim(catalog)
        if priced is not None:
            gen5_capex, baseline_capex = priced
    if gen5_capex is not None and baseline_capex is not None:
        residuals = (cost_ratio_check(gen5_capex, baseline_capex),)
    return ModelCard(
        name="gp-cost-power",
        description=(
            "Host power linear in utilization between idle and max plus drives and NICs; annual energy and "
            "its cost; perf per dollar and per watt; 002's single-socket Gen5 cost claim as a check"
        ),
        parameters={"gen5_cost_ratio_claim": figure(GP002, "gen5_cost_ratio"), "hours_per_year": HOURS_PER_YEAR},
        residuals=residuals,
        sources=(f"{STUDY_002}, Architecture cost analysis, Table 3",),
        note=(
            "No fitted parameters: power comes from catalog idle/max/part watts (the studies give none). "
            "The cost check needs BOM totals: a catalog with both of the study's Table 3 configurations; "
            "the claim is an upper bound ('up to approximately 30 percent'), so ratios in 0.70-1.0 agree with it."
            if not residuals
            else "Residual: catalog BOM ratio vs 002's 'up to approximately 30 percent less expensive' (0.70); "
            "the claim is an upper bound, so ratios in 0.70-1.0 agree with it."
        ),
        validation=(
            "Catalog prices of study 002's two Table 3 configurations against its claim of up to about 30 % lower "
            "cost for the single-socket Gen5 platform (no parameter is set from it)." if residuals else ""
        ),
        residuals_are_checks=bool(residuals),
    )
