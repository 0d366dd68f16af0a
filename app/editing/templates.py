"""Scenario templates: a valid scenario of each workload kind to start from, with every field written out.

`refarch new KIND` writes one; the window's "Add scenario" adds one. Each sizes as it is on the seed catalog
(tests/app/editing/test_templates.py), and carries the project's customer and currency where the caller gives
them, so a new scenario of a project prices in the project's currency from the start.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from app.editing.fields import workload_for_kind
from models.scenario import parse_scenario, scenario_to_json
from models.vocabulary import KINDS, WORKLOAD_KINDS, kind_short_label

# The workload of each template beyond workload_for_kind's start: a few databases show what a list looks like
_TEMPLATE_WORKLOADS: dict[str, dict[str, Any]] = {
    "postgres-consolidation": {"databases": [
        {"name": "orders", "size_gb": 200.0, "peak_clients": 80, "working_set_gb": 40.0, "peak_tps": 1500.0},
        {"name": "billing", "size_gb": 120.0, "peak_clients": 40, "working_set_gb": 24.0,
         "busy_hours": [1, 2, 3, 4]},
        {"name": "intranet", "size_gb": 30.0, "peak_clients": 20, "working_set_gb": 6.0,
         "busy_hours": [8, 9, 10, 11, 12, 13, 14, 15, 16, 17]},
    ]},
}

FIELDS_NOTE = "Every field, its unit and default: docs/SCENARIO.md (or `refarch schema`)."
NOTES = f"Template from refarch: replace the workload's figures with the customer's, then size it. {FIELDS_NOTE}"


def default_name(kind: str) -> str:
    """ "Greenplum analytics" for greenplum-analytics: the kind's short label."""
    return kind_short_label(kind)


def scenario_template(kind: str, name: str | None = None, *, customer: str = "",
                      currency: str | None = None) -> dict[str, Any]:
    """A valid scenario of `kind` as JSON, every default written out; ValueError for a kind refarch has not,
    `models.scenario.ScenarioFileError` naming the field for a name, customer or currency the schema refuses."""
    if kind not in KINDS:
        raise ValueError(f"unknown workload kind {kind!r}; the kinds are: {', '.join(WORKLOAD_KINDS)}")
    workload = workload_for_kind(kind, None)
    workload.update(copy.deepcopy(_TEMPLATE_WORKLOADS.get(kind, {})))
    data: dict[str, Any] = {"name": name or default_name(kind), "customer": customer, "workload": workload,
                            "notes": NOTES}
    if kind == "postgres-consolidation":
        data["platform"] = {"deployment": "vsphere"}  # the databases run in VMs
    if currency:
        data["commercial"] = {"currency": currency}
    return scenario_to_json(parse_scenario(data, "the new scenario"))


def project_defaults(scenarios: Iterable[Mapping[str, Any]]) -> tuple[str, str | None]:
    """The customer and currency a project's scenarios agree on ("" and None where they differ or are unset).

    >>> project_defaults([{"customer": "Acme", "commercial": {"currency": "EUR"}}, {"customer": "Acme"}])
    ('Acme', None)
    """
    customers: set[str] = set()
    currencies: set[str] = set()
    for s in scenarios:
        customer = s.get("customer")
        customers.add(customer if isinstance(customer, str) else "")
        commercial = s.get("commercial")
        currency = commercial.get("currency") if isinstance(commercial, Mapping) else None
        currencies.add(currency if isinstance(currency, str) else "USD")
    customer = customers.pop() if len(customers) == 1 else ""
    currency = currencies.pop() if len(currencies) == 1 else None
    return customer, currency
