"""What evaluating and settling Greenplum candidates reads besides the candidates, frozen once per search."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from models.scenario import GreenplumAnalytics, GreenplumOltp, Platform, Scenario, Targets
from models.sizing.greenplum.coordinator import CoordinatorOptions
from models.sizing.parts import NetworkChoice
from models.sizing.rules import data_needed_tb

GpWorkload = GreenplumAnalytics | GreenplumOltp


def needed_tb(workload: GpWorkload) -> float:
    """The user data the cluster must hold at the horizon, compressed (`rules.data_needed_tb`)."""
    return data_needed_tb(
        workload.data_tb, workload.growth_pct_per_year, workload.horizon_years, workload.compression_ratio
    )


@dataclass(frozen=True)
class SearchContext:
    """The workload and its targets, the network of every host, the utilization the draw is priced at, the platform
    settings, and (OLTP) the coordinator hosts searched apart (None: each design's coordinator is a segment host's
    server): one per search, shared by every evaluation and settling of its candidates."""

    workload: GpWorkload
    targets: Targets
    net: NetworkChoice
    utilization: float
    platform: Platform | None = None
    coordinators: CoordinatorOptions | None = None

    @classmethod
    def of(cls, scenario: Scenario, workload: GpWorkload, net: NetworkChoice,
           coordinators: CoordinatorOptions | None = None) -> SearchContext:
        """The scenario's context: its targets, its utilization assumption and its platform."""
        return cls(workload, scenario.targets, net, scenario.assumptions.utilization_pct / 100.0, scenario.platform,
                   coordinators)

    @cached_property
    def need_tb(self) -> float:
        """`needed_tb` of the workload, computed once for the search."""
        return needed_tb(self.workload)


class Fixed(NamedTuple):
    """Host counts an evaluation takes as given in place of searching them: segment hosts, ETL hosts and (OLTP) the
    coordinator option (None: searched; -1: the segment hosts' server)."""

    hosts: int
    etl_hosts: int | None = None
    coordinator: int | None = None


class Start(NamedTuple):
    """Where a candidate's settling starts: its point hosts and (OLTP) its coordinator option (-1: the segment
    hosts' server)."""

    hosts: int
    coordinator: int = -1
