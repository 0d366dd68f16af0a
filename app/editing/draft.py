"""Scenario drafts: the JSON a user is editing, which may be invalid for a while.

The form edits a plain dict (the scenario's JSON) so that a half-typed value can
live in the document, be undone and be shown in red; `Scenario.model_validate`
decides whether the draft is usable. A field is addressed by its JSON path, a
tuple like ("workload", "databases", 0, "size_gb").
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from models.problems import ROOT, problems_of
from models.scenario import (
    Assumptions,
    GreenplumAnalytics,
    GreenplumOltp,
    Platform,
    PostgresConsolidation,
    SapIqMultiplex,
    Scenario,
    Targets,
    scenario_to_json,
)
from models.vocabulary import WORKLOAD_KINDS

Path = tuple[str | int, ...]


def path_str(path: Path) -> str:
    """("workload", "databases", 0, "name") -> "workload.databases[0].name" (the CLI's notation)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def get_in(data: Any, path: Path, default: Any = None) -> Any:
    cur = data
    for part in path:
        try:
            cur = cur[part]
        except (KeyError, IndexError, TypeError):
            return default
    return cur


def set_in(data: dict[str, Any], path: Path, value: Any) -> None:
    """Set a value at a path, creating the intermediate objects a new field needs."""
    if not path:
        raise ValueError("empty path")
    cur: Any = data
    for part, nxt in itertools.pairwise(path):
        if isinstance(cur, dict) and part not in cur:
            cur[part] = [] if isinstance(nxt, int) else {}
        cur = cur[part]
    last = path[-1]
    value = copy.deepcopy(value)  # the undo stack keeps the old value: never share it with the draft
    if isinstance(cur, list) and isinstance(last, int) and last == len(cur):
        cur.append(value)
    else:
        cur[last] = value


@dataclass(frozen=True)
class Issues:
    """Why a draft is not a valid scenario: messages by field path, and the ones no field owns."""

    by_field: Mapping[str, str] = field(default_factory=dict)
    general: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.by_field or self.general)

    def count(self) -> int:
        return len(self.by_field) + len(self.general)

    def lines(self, label: Callable[[str], str] | None = None) -> list[str]:
        """One line per problem; `label` turns a JSON path into the name the user sees."""
        name = label or (lambda p: p)
        field_lines = [f"{name(p)}: {m}" for p, m in self.by_field.items()]
        return field_lines + [g for g in self.general if not any(g == m for m in self.by_field.values())]


def issues_of(exc: ValidationError) -> Issues:
    """The validation problems by field path (`models.problems.problems_of`); the rest are general."""
    by_field: dict[str, str] = {}
    general: list[str] = []
    for p in problems_of(exc, WORKLOAD_KINDS, Scenario):
        if p.path == ROOT:
            general.append(p.message)
        else:
            by_field[p.path] = f"{by_field[p.path]}; {p.message}" if p.path in by_field else p.message
    return Issues(by_field, tuple(general))


def validate(draft: Mapping[str, Any]) -> tuple[Scenario | None, Issues]:
    try:
        return Scenario.model_validate(draft), Issues()
    except ValidationError as exc:
        return None, issues_of(exc)


_SECTIONS: dict[str, type[BaseModel]] = {"platform": Platform, "targets": Targets, "assumptions": Assumptions}
_KINDS: dict[str, type[BaseModel]] = {
    "greenplum-analytics": GreenplumAnalytics,
    "greenplum-oltp": GreenplumOltp,
    "postgres-consolidation": PostgresConsolidation,
    "sap-iq-multiplex": SapIqMultiplex,
}
MISSING = object()


def model_default(draft: Mapping[str, Any], path: Path) -> Any:
    """The value the engine uses for a field the draft leaves out (the schema's default), MISSING if it has none.

    A hand-written file or a draft from before a kind switch may omit `mirrors`; the form must then show
    what will be sized (mirrors on), not an unchecked box.
    """
    if len(path) == 1:
        model: type[BaseModel] | None = Scenario
    elif len(path) == 2 and path[0] == "workload":
        kind = get_in(draft, ("workload", "kind"))
        model = _KINDS.get(kind) if isinstance(kind, str) else None
    elif len(path) == 2:
        model = _SECTIONS.get(str(path[0]))
    else:
        model = None
    field_info = model.model_fields.get(str(path[-1])) if model is not None else None
    if field_info is None or field_info.is_required():
        return MISSING
    value = field_info.get_default(call_default_factory=True)
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def shown_value(draft: Mapping[str, Any], path: Path) -> Any:
    """What a field shows: the draft's value, or the schema default when the draft leaves the field out."""
    value = get_in(draft, path, MISSING)
    if value is MISSING:
        value = model_default(draft, path)
    return None if value is MISSING else value


def with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A valid scenario's JSON with every default written out, so a new scenario shows what will be sized."""
    return scenario_to_json(Scenario.model_validate(data))
