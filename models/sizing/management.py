"""The management (out-of-band) network: every server's BMC port (iDRAC, iLO, XCC, IPMI) and every data switch's
management port land on a 1 GbE management switch in their own rack, sized by the rack's port count; a copper
patch cord per port, and one per management switch to the customer's out-of-band network (their end not ours).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from models.hardware import Cable, HardwareCatalog, Switch
from models.sizing import bom
from models.sizing.result import BomLine, Rationale, Warning

BMC_PORTS_PER_SERVER = 1  # one dedicated BMC port per server
UPLINK_PORTS = 1  # one port of each management switch goes to the customer's out-of-band network
MAX_MANAGEMENT_GBPS = 1.0


def choose(catalog: HardwareCatalog) -> Switch | None:
    """The 1 GbE switch with the most ports (the fewest per rack), then the cheapest."""
    fits = [s for s in catalog.current(catalog.switches) if s.speed_gbps <= MAX_MANAGEMENT_GBPS]
    return min(fits, key=lambda s: (-s.ports, s.price, s.id)) if fits else None


def switches_for(ports: int, switch: Switch | None) -> int:
    """Management switches a rack needs for `ports` management ports (one of each switch's ports uplinks).

    >>> from datetime import date
    >>> sw = Switch("m", "V", "M", 0.0, "USD", date(2026, 1, 1), "x", ports=48, speed_gbps=1, uplink_ports=4,
    ...             uplink_speed_gbps=100, rack_u=1, watts=100)
    >>> switches_for(0, sw), switches_for(47, sw), switches_for(48, sw), switches_for(94, sw), switches_for(5, None)
    (0, 1, 2, 2, 0)
    """
    if switch is None or ports <= 0:
        return 0
    return math.ceil(ports / max(switch.ports - UPLINK_PORTS, 1))


def patch_cord(catalog: HardwareCatalog) -> Cable | None:
    cords = [c for c in catalog.current(catalog.cables) if c.medium == "copper"]
    return min(cords, key=lambda c: (c.price, c.reach_m, c.id)) if cords else None


def lines(switch: Switch, per_rack: Sequence[tuple[int, int]], catalog: HardwareCatalog,
          warnings: list[Warning]) -> tuple[list[BomLine], Rationale]:
    """The management switches and patch cords for racks holding (servers, data switches) each."""
    ports = [servers * BMC_PORTS_PER_SERVER + data for servers, data in per_rack]
    switches = sum(switches_for(p, switch) for p in ports)
    out = [bom.line("management switch", switch, switches, 1, "switch", bom.Terms(
        "network", note=f"{len(per_rack)} rack(s); {sum(ports)} management ports, {switch.ports - UPLINK_PORTS} "
                        "per switch with one uplink"))]
    cord = patch_cord(catalog)
    if cord is None:
        warnings.append(Warning("no-cable", "The catalog has no copper (RJ45) patch cord: the management network's "
                                            "cords are counted but not priced.", "warning", "commercial.network"))
    else:
        out.append(bom.line("management links", cord, sum(ports) + switches * UPLINK_PORTS, 1, "cable",
                            bom.Terms("network", note="one per BMC and switch management port, one uplink per "
                                                      "management switch (the customer's end not included)")))
    servers = sum(s for s, _ in per_rack)
    why = Rationale(
        "Management network",
        f"{servers} server BMC port(s) and {sum(d for _, d in per_rack)} data switch management port(s) on "
        f"{switches} x {switch.vendor} {switch.model} ({switch.ports} x {switch.speed_gbps:g} GbE, one per rack "
        "at least, sized by the rack's ports), each uplinked once to the customer's out-of-band network.",
        "catalog")
    return out, why
