"""The rack and PDU model a design is racked in: the scenario's, else the catalog's cheapest standard one, with
the rack's power budget and the U its PDUs take."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.hardware import HardwareCatalog, Pdu, Rack
from models.scenario import Commercial
from models.sizing.result import Warning


def choose_rack(catalog: HardwareCatalog, commercial: Commercial) -> Rack | None:
    if commercial.rack_id:
        rack = catalog.get(commercial.rack_id, "rack")
        assert isinstance(rack, Rack)
        return rack
    racks = catalog.current(catalog.racks)
    standard = [r for r in racks if r.rack_u == 42] or racks
    return min(standard, key=lambda r: r.price) if standard else None


def choose_pdu(catalog: HardwareCatalog, commercial: Commercial, kw: float) -> Pdu | None:
    if commercial.pdu_id:
        pdu = catalog.get(commercial.pdu_id, "pdu")
        assert isinstance(pdu, Pdu)
        return pdu
    pdus = catalog.current(catalog.pdus)
    big = [p for p in pdus if p.max_kw >= kw]
    return min(big, key=lambda p: p.price) if big else (max(pdus, key=lambda p: p.max_kw) if pdus else None)


@dataclass(frozen=True)
class RackChoice:
    rack: Rack | None
    rack_u: int
    budget_kw: float
    pdu: Pdu | None
    pdu_u: int  # U the PDUs of a full rack take (0 for zero-U PDUs)


def rack_choice(catalog: HardwareCatalog, commercial: Commercial, warnings: list[Warning]) -> RackChoice:
    """The rack and PDU model, the rack's U and power budget (the scenario's, within the rack's rating) and
    the U its PDUs take; a 42U unpriced rack (with a warning) when the catalog has none."""
    rack = choose_rack(catalog, commercial) if commercial.racks else None
    if commercial.racks and rack is None:
        warnings.append(Warning("no-rack", "The catalog has no rack: 42U racks are assumed and not priced.",
                                "warning", "commercial.rack_id"))
    rack_u = rack.rack_u if rack else 42
    budget_kw = min(commercial.rack_power_kw, rack.max_kw) if rack else commercial.rack_power_kw
    pdu = choose_pdu(catalog, commercial, budget_kw) if commercial.racks else None
    if commercial.racks and pdu is None:
        warnings.append(Warning("no-pdu", "The catalog has no PDU: rack power distribution is not priced.",
                                "warning", "commercial.pdu_id"))
    pdu_pairs_max = math.ceil(budget_kw / pdu.max_kw) if pdu else 0
    pdu_u = 2 * pdu_pairs_max * pdu.rack_u if pdu else 0
    return RackChoice(rack, rack_u, budget_kw, pdu, pdu_u)
