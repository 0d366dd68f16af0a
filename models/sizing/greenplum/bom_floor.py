"""A lower bound of what a design's BOM adds to the search's capex (`evaluation._totals`: servers, data drives,
NICs, DIMMs, coordinators), per candidate: the storage controllers of the segment hosts' SAS/SATA drives and the
management switches every host's BMC port takes.

The optimizer ranks its shortlist on the search's capex plus this (`optimizer._Stream`), so a design whose drives
need a controller (a SAS SSD behind a tri-mode HBA) no longer ranks before one whose drives need none (NVMe on the
backplane) when the controller makes it the dearer build: the full sizing (`size`) judges the shortlist on the
BOM, and a design left off it is never judged.

Each term is at most what the BOM prices (`host_parts._controller_lines`, `management.lines`): the segment hosts'
cards as `host_parts.controller_choice` picks them (the coordinator and ETL hosts' cards come on top), and the
management switches of one rack holding every host (each rack's switches are rounded up on their own, and the data
switches' management ports add more); settling only adds hosts, so the bound holds at the settled design too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.hardware import Drive, HardwareCatalog, Server
from models.sizing import management
from models.sizing.greenplum.coordinator import coordinator_hosts
from models.sizing.greenplum.evaluation import Evaluated
from models.sizing.host_parts import choose_controller
from models.vocabulary import RAID_LEVELS

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class BomFloor:
    """Per (server, drive, RAID level) of a search: one controller card's price and the drives it connects (price 0:
    NVMe drives or no card in the catalog), and the management switch's price and the hosts one switch takes."""

    card_price: FloatArray  # servers x drives x RAID levels
    card_drives: FloatArray  # the same shape; at least 1
    switch_price: float
    hosts_per_switch: int
    coordinators: int

    @classmethod
    def of(cls, catalog: HardwareCatalog, servers: list[Server], drives: list[Drive], workload: object,
           network: bool = True) -> BomFloor:
        """The search's table (`network`: the BOM networks the hosts, `commercial.network`, and so prices the
        management switches)."""
        shape = (len(servers), len(drives), len(RAID_LEVELS))
        price, per = np.zeros(shape), np.ones(shape)
        wired = {drive.interface for drive in drives if not drive.interface.startswith("NVMe")}
        for s, server in enumerate(servers):
            for interface in wired:  # the choice depends on the drive's interface alone: once per interface
                at = [d for d, drive in enumerate(drives) if drive.interface == interface]
                for r, raid in enumerate(RAID_LEVELS):
                    card = choose_controller(catalog, server, interface, raid)
                    if card is not None:
                        price[s, at, r], per[s, at, r] = card.price, max(card.max_drives, 1)
        switch = management.choose(catalog) if network else None
        ports = switch.ports - management.UPLINK_PORTS if switch is not None else 0
        return cls(price, per, switch.price if switch is not None and ports > 0 else 0.0, max(ports, 1),
                   coordinator_hosts(workload))

    def __call__(self, ev: Evaluated) -> FloatArray:
        """Per candidate of `ev`, the controllers and management switches its BOM prices at least.

        >>> f = BomFloor(np.array([[[0.0], [500.0]]]), np.array([[[1.0], [16.0]]]), 900.0, 47, 2)
        >>> from types import SimpleNamespace as N
        >>> c = N(server_idx=np.array([0, 0, 0]), drive_idx=np.array([0, 1, 1]), raid_code=np.array([0, 0, 0]),
        ...       drives_per_host=np.array([12, 12, 20]))
        >>> f(N(candidates=c, segment_hosts=np.array([4, 4, 46]), etl_hosts=np.array([0, 0, 0]))).tolist()
        [900.0, 2900.0, 47800.0]
        """
        c = ev.candidates
        at = (c.server_idx, c.drive_idx, c.raid_code)
        cards = np.ceil(c.drives_per_host / self.card_drives[at]) * self.card_price[at]
        hosts = ev.segment_hosts + ev.etl_hosts + self.coordinators
        switches = np.ceil(hosts / self.hosts_per_switch) * self.switch_price
        return np.asarray(ev.segment_hosts * cards + switches, dtype=np.float64)
