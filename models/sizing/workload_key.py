"""What work a scenario asks for, as one comparable key: two designs compete only when they answer the same work.

A 6 TB lab test bed is not a cheaper 60 TB warehouse, and a design for a 600 s scan target is not a faster
answer to a 900 s one: `models.whatif.compare` ranks options only among those whose keys are equal. The key holds
the workload kind, what the workload states (data, compression, growth and horizon, concurrency, clients and mix,
the databases, query streams) and the targets; never the platform or the commercial terms, which are how a design
answers the work, nor design choices on the workload (mirror placement, segment tier, release, VM sizes).
"""

from __future__ import annotations

import json

from models.scenario import Scenario

# the fields of each workload kind that state the work (the rest choose how a design does it)
WORK_FIELDS = frozenset({
    "kind", "data_tb", "compression_ratio", "growth_pct_per_year", "horizon_years",  # every kind that holds data
    "concurrent_queries", "scan_fraction_pct",  # Greenplum analytics
    "clients", "target_tps", "mix",  # Greenplum OLTP
    "databases",  # PostgreSQL consolidation
    "query_streams",  # SAP IQ
})


def workload_key(scenario: Scenario) -> str:
    """The scenario's work and targets as a canonical text (equal text, equal work).

    >>> a = Scenario.model_validate({"name": "a", "workload": {"kind": "greenplum-analytics", "data_tb": 60,
    ...     "concurrent_queries": 20, "mirroring": "spread"}, "targets": {"max_full_scan_s": 600}})
    >>> b = a.model_copy(update={"name": "b", "workload": a.workload.model_copy(update={"mirroring": "group"})})
    >>> workload_key(a) == workload_key(b)
    True
    >>> c = a.model_copy(update={"workload": a.workload.model_copy(update={"data_tb": 6.0})})
    >>> workload_key(a) == workload_key(c)
    False
    """
    work = {k: v for k, v in scenario.workload.model_dump(mode="json").items() if k in WORK_FIELDS}
    targets = {k: v for k, v in scenario.targets.model_dump(mode="json").items() if v is not None}
    return json.dumps({"work": work, "targets": targets}, sort_keys=True)
