"""What one optimizer run searches besides servers, drives and drive counts: the deployments and RAID levels, the
ones the scenario names kept as `size` keeps them."""

from __future__ import annotations

from dataclasses import dataclass

from models.scenario import Scenario
from models.vocabulary import DEPLOYMENTS, RAID_LEVELS


@dataclass(frozen=True)
class Searched:
    """The deployments and RAID levels one optimizer run searches, and what it kept as the scenario names it."""

    deployments: tuple[str, ...]
    raids: tuple[str, ...]
    kept: tuple[str, ...]

    @staticmethod
    def of(scenario: Scenario, any_deployment: bool) -> Searched:
        """The scenario's RAID level where it names one (null: every level) and its deployment unless
        `any_deployment`.

        >>> from models.scenario import Scenario
        >>> s = Scenario.model_validate({"name": "x", "workload": {"kind": "greenplum-analytics", "data_tb": 10,
        ...     "concurrent_queries": 5}, "platform": {"raid": "raid10", "deployment": "vsphere"}})
        >>> Searched.of(s, False).deployments, Searched.of(s, False).raids
        (('vsphere',), ('raid10',))
        >>> len(Searched.of(s.model_copy(update={"platform": s.platform.model_copy(update={"raid": None})}),
        ...     True).raids) == len(RAID_LEVELS)
        True
        """
        plat = scenario.platform
        kept = []
        if plat.raid is not None:
            kept.append(f"RAID level {plat.raid} kept as the scenario names it (platform.raid; null lets the"
                        " optimizer try every level)")
        if not any_deployment:
            kept.append(f"deployment {plat.deployment} kept as the scenario names it")
        return Searched(DEPLOYMENTS if any_deployment else (plat.deployment,),
                        (plat.raid,) if plat.raid is not None else RAID_LEVELS, tuple(kept))
