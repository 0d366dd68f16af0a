"""Memory of a Greenplum segment host as bought: the server's base raised with whole DIMMs of the server's DRAM
generation (`Server.takes`) within its slots."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from models.hardware import Dimm, Server


def recommended_memory_gib(server: Server, floor_gib: float, dimm: Dimm | None) -> int:
    """Memory refarch recommends for a host left on "server default": the server's base memory, raised with DIMMs
    to `floor_gib` (the reference architecture's minimum) when the server's DIMM slots can hold it, so the
    recommendation never trips the minimum it cites.

    >>> from datetime import date
    >>> d = Dimm("d", "v", "32 GiB", 100.0, "USD", date(2025, 1, 1), "s", 32, 4800)
    >>> s = Server("s", "v", "m", 1.0, "USD", date(2025, 1, 1), "s", "1U", 1, 1, None, 1, 384, 24, 8, "SFF", 2,
    ...            800, 100, 500)
    >>> recommended_memory_gib(s, 512, d), recommended_memory_gib(s, 0, d), recommended_memory_gib(s, 2048, d)
    (512, 384, 384)
    """
    base = server.memory_gib
    if dimm is None or floor_gib <= base:
        return base
    target = base + math.ceil((floor_gib - base) / dimm.size_gib) * dimm.size_gib
    return int(target) if target <= server.dimm_slots * dimm.size_gib else base


@dataclass(frozen=True)
class HostMemory:
    """Memory of one server model as sized: what the hosts get and the DIMMs added to its base."""

    memory_gib: float
    dimm: Dimm | None
    extra_dimms: int
    price: float
    fits: bool  # False: the DIMM slots cannot hold it with any DIMM of the catalog


def host_memory(server: Server, wanted_gib: float, dimms: Sequence[Dimm]) -> HostMemory:
    """Memory above the base is added in whole DIMMs that fit the free slots (the base counted in the same DIMMs).

    The cheapest DIMM that fits wins; a DIMM of another DRAM generation never does (a DDR4 module does not go
    into a DDR5 slot). Below the base the server keeps its base DIMMs (no credit).

    >>> from datetime import date
    >>> d32 = Dimm("d32", "v", "32 GiB", 100.0, "USD", date(2025, 1, 1), "s", 32, 4800)
    >>> d128 = Dimm("d128", "v", "128 GiB", 1250.0, "USD", date(2025, 1, 1), "s", 128, 5600)
    >>> s = Server("s", "v", "m", 1.0, "USD", date(2025, 1, 1), "s", "1U", 1, 1, None, 1, 384, 24, 8, "SFF", 2,
    ...            800, 100, 500)
    >>> m = host_memory(s, 512, [d32, d128]); (m.dimm.id, m.extra_dimms, m.fits)
    ('d32', 4, True)
    >>> m = host_memory(s, 2048, [d32, d128]); (m.dimm.id, m.extra_dimms, m.fits)
    ('d128', 13, True)
    >>> host_memory(s, 65536, [d32, d128]).fits
    False
    >>> import dataclasses
    >>> ddr5 = dataclasses.replace(s, memory_type="DDR5")
    >>> ddr4 = dataclasses.replace(d32, id="ddr4", price=50.0, memory_type="DDR4")
    >>> m = host_memory(ddr5, 512, [ddr4, dataclasses.replace(d32, memory_type="DDR5")]); m.dimm.id
    'd32'
    >>> host_memory(ddr5, 512, [ddr4]).fits
    False
    """
    base = server.memory_gib
    dimms = fitting_dimms(server, dimms)
    if wanted_gib <= base or not dimms:
        return HostMemory(float(wanted_gib), None, 0, 0.0, wanted_gib <= base)
    options = []
    for d in dimms:
        extra = math.ceil((wanted_gib - base) / d.size_gib)
        if math.ceil(base / d.size_gib) + extra <= server.dimm_slots:
            options.append((extra * d.price, extra, d))
    if not options:
        return HostMemory(float(wanted_gib), None, 0, 0.0, False)
    price, extra, d = min(options, key=lambda o: (o[0], o[1]))
    return HostMemory(float(wanted_gib), d, extra, float(price), True)


def fitting_dimms(server: Server, dimms: Sequence[Dimm]) -> list[Dimm]:
    """The DIMMs of the server's DRAM generation (all of them when the server's generation is unknown)."""
    return [d for d in dimms if server.takes(d)]


def max_memory_gib(server: Server, dimms: Sequence[Dimm]) -> int:
    """The most memory a server's slots hold with the catalog's DIMMs of its generation (its base when none is
    bigger)."""
    best = server.memory_gib
    for d in fitting_dimms(server, dimms):
        free = server.dimm_slots - math.ceil(server.memory_gib / d.size_gib)
        best = max(best, server.memory_gib + max(free, 0) * d.size_gib)
    return int(best)


def memory_plan(
    servers: list[Server], memory_gib: int | None, dimms: Sequence[Dimm], floor_gib: float = 0.0
) -> list[HostMemory]:
    """Per server: the scenario's memory, or the recommendation (base raised to `floor_gib` where slots allow)."""
    return [host_memory(s, memory_gib or recommended_memory_gib(s, floor_gib, cheapest_dimm(s, dimms)), dimms)
            for s in servers]


def cheapest_dimm(server: Server, dimms: Sequence[Dimm]) -> Dimm | None:
    """The server's generation's DIMM with the lowest price per GiB (the bigger on a tie)."""
    own = fitting_dimms(server, dimms)
    return min(own, key=lambda d: (d.price / d.size_gib, -d.size_gib)) if own else None
