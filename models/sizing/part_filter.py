"""The parts a scenario may choose from: `platform.vendors` (server vendors) and `platform.excluded_parts`.

A customer buys from one vendor ("Dell only"), or has ruled parts out (a drive with a known firmware issue, a switch
the network team does not run). Both are applied to the catalog once, before any part is chosen, so `size`, the
optimizer and every ranking see the same narrower catalog and no step can pick a part the customer ruled out.
"""

from __future__ import annotations

import threading
import weakref

from models.hardware import KIND_OF, HardwareCatalog, Server, UnknownPartError
from models.problems import Problem
from models.scenario import Scenario

# commercial.* fields that name one part, and the kind they name
_NAMED_COMMERCIAL = ("switch_id", "spine_switch_id", "rack_id", "pdu_id", "boot_drive_id", "support_id")

_recent: dict[tuple[object, ...], tuple[weakref.ref[HardwareCatalog], HardwareCatalog]] = {}
_recent_lock = threading.Lock()


def filter_problems(scenario: Scenario, catalog: HardwareCatalog) -> list[Problem]:
    """Every way the scenario's vendor list and exclusions contradict each other, the parts it names or the catalog.

    >>> from models.hardware import ExchangeRates
    >>> cat = HardwareCatalog.of([], ExchangeRates(()))
    >>> s = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 1,
    ...     "query_streams": 1}, "platform": {"vendors": ["Dell"], "excluded_parts": ["nope"]}})
    >>> [p.path for p in filter_problems(s, cat)]
    ['platform.excluded_parts[0]', 'platform.vendors[0]']
    """
    plat = scenario.platform
    problems: list[Problem] = []
    excluded = set(plat.excluded_parts)
    for i, part_id in enumerate(plat.excluded_parts):
        if part_id not in catalog:
            problems.append(Problem(f"platform.excluded_parts[{i}]", str(UnknownPartError(
                part_id, None, catalog.closest_ids(part_id)))))
    server_vendors = sorted({s.vendor for s in catalog.servers})
    wanted = {v.casefold() for v in plat.vendors or ()}
    for i, vendor in enumerate(plat.vendors or ()):
        if vendor.casefold() not in {v.casefold() for v in server_vendors}:
            known = ", ".join(server_vendors) or "none"
            problems.append(Problem(f"platform.vendors[{i}]",
                                    f"the catalog has no server of vendor '{vendor}' (server vendors: {known})"))
    named = [(f"platform.{f}", getattr(plat, f)) for f in ("server_id", "drive_id", "nic_id")]
    named += [(f"commercial.{f}", getattr(scenario.commercial, f)) for f in _NAMED_COMMERCIAL]
    named += [(f"commercial.licence_ids[{i}]", lid) for i, lid in enumerate(scenario.commercial.licence_ids or [])]
    for where, part_id in named:
        if part_id and part_id in excluded:
            problems.append(Problem(where, f"{part_id} is also in platform.excluded_parts; name it in one place only"))
    try:
        server = catalog.get(plat.server_id, "server") if plat.server_id else None
    except UnknownPartError:  # resolve() names it with the closest ids
        server = None
    if wanted and isinstance(server, Server) and server.vendor.casefold() not in wanted:
        problems.append(Problem("platform.server_id", f"{server.id} is made by {server.vendor}, not one of "
                                f"platform.vendors ({', '.join(plat.vendors or ())})"))
    if not problems and (wanted or excluded) and catalog.servers and not allowed(scenario, catalog).servers:
        problems.append(Problem("platform.vendors", "no server of the catalog is left once platform.vendors and "
                                "platform.excluded_parts are applied"))
    return problems


def allowed(scenario: Scenario, catalog: HardwareCatalog) -> HardwareCatalog:
    """The catalog without the servers of other vendors and without the excluded parts; the same object when the
    scenario restricts nothing, and the same filtered object for the same catalog and restrictions (the sizing's
    per-catalog memos then hold across the optimizer's many `size` calls).

    >>> from models.hardware import ExchangeRates
    >>> cat = HardwareCatalog.of([], ExchangeRates(()))
    >>> s = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 1,
    ...     "query_streams": 1}})
    >>> allowed(s, cat) is cat
    True
    """
    plat = scenario.platform
    if not plat.vendors and not plat.excluded_parts:
        return catalog
    wanted = frozenset(v.casefold() for v in plat.vendors or ())
    excluded = frozenset(plat.excluded_parts)
    key = (id(catalog), wanted, excluded)
    with _recent_lock:
        hit = _recent.get(key)
    if hit is not None and hit[0]() is catalog:
        return hit[1]
    kept = tuple(p for p in catalog.parts if p.id not in excluded
                 and not (wanted and KIND_OF[type(p)] == "server" and p.vendor.casefold() not in wanted))
    if len(kept) == len(catalog.parts):  # already narrowed (the optimizer's `size` calls): keep its memos
        return catalog
    narrowed = HardwareCatalog(kept, catalog.rates, catalog.currency)
    with _recent_lock:
        if len(_recent) >= 8:
            del _recent[next(iter(_recent))]
        _recent[key] = (weakref.ref(catalog), narrowed)
    return narrowed
