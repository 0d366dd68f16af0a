"""The published schema of scenario and project files (JSON Schema, draft 2020-12), and their fields as rows.

Both come from the pydantic models that validate the files (`models.scenario`), with each field's label, unit
and help from the vocabulary (`models.field_words.FIELDS`), so an editor that reads the schema, the reference
page (docs/SCENARIO.md) and the messages of `refarch size` say the same thing. `refarch schema` prints them.

>>> schema = scenario_schema()
>>> schema["$schema"], sorted(schema["required"])
('https://json-schema.org/draft/2020-12/schema', ['name', 'workload'])
>>> schema["$defs"]["Targets"]["properties"]["min_load_tb_per_hour"]["title"]
'Min load rate (TB/h)'
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from models.field_names import is_list, models_in
from models.field_words import FIELDS, FieldInfo
from models.scenario import Project, Scenario
from models.vocabulary import KINDS, TARGETS

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCENARIO_ID = "https://refarch.example/schema/scenario.json"
PROJECT_ID = "https://refarch.example/schema/project.json"


def model_prefixes() -> dict[type[BaseModel], str]:
    """Each model of a scenario with the vocabulary prefix of its fields ("", "workload.", "platform.", ...)."""
    found: dict[type[BaseModel], str] = {Scenario: ""}
    queue: list[tuple[type[BaseModel], str]] = [(Scenario, "")]
    while queue:
        model, prefix = queue.pop(0)
        for name, field in model.model_fields.items():
            for inner in models_in(field.annotation):
                if inner not in found:
                    found[inner] = f"{prefix}{name}[]." if is_list(field.annotation) else f"{prefix}{name}."
                    queue.append((inner, found[inner]))
    return found


def _enum(prop: dict[str, Any]) -> list[Any] | None:
    """The values a property allows when it lists them (a choice, maybe nullable), else None."""
    if "enum" in prop:
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    return next((e for e in (_enum(p) for p in prop.get("anyOf", ())) if e is not None), None)


def _describe(info: FieldInfo, fallback: str, *, unit: bool = True, allowed: list[Any] | None = None) -> str:
    """The help (else the model's description), the unit and the labels of the choices `allowed` (None: all)."""
    text = info.help or fallback
    values = "; ".join(f"{value}: {label}" for value, label in info.choices if allowed is None or value in allowed)
    shown_unit = f"unit: {info.unit}" if info.unit and unit else ""
    parts = [p for p in (text, shown_unit, f"values: {values}" if values else "") if p]
    return ". ".join(p[:1].upper() + p[1:] for p in parts)


def _decorate(definition: dict[str, Any], prefix: str) -> None:
    for name, prop in definition.get("properties", {}).items():
        info = FIELDS.get(prefix + name)
        if info is None:
            continue
        prop["title"] = info.text
        description = _describe(info, str(prop.get("description", "")), allowed=_enum(prop))
        if description:
            prop["description"] = description


def _decorated(model: type[BaseModel], schema_id: str, title: str) -> dict[str, Any]:
    schema = copy.deepcopy(model.model_json_schema())
    defs: dict[str, Any] = schema.get("$defs", {})
    for sub, prefix in model_prefixes().items():
        if sub is Scenario and model is Scenario:
            _decorate(schema, prefix)
        elif sub.__name__ in defs:
            _decorate(defs[sub.__name__], prefix)
    for kind in KINDS:  # a workload names its kind (the model defaults it, but the file must say which)
        for definition in defs.values():
            kind_prop = definition.get("properties", {}).get("kind", {})
            if kind_prop.get("const") == kind and "kind" not in definition.setdefault("required", []):
                definition["required"].insert(0, "kind")
    return {"$schema": DIALECT, "$id": schema_id, **schema, "title": title}


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file (`refarch size SCENARIO.json`)."""
    return _decorated(Scenario, SCENARIO_ID, "refarch scenario")


def project_schema() -> dict[str, Any]:
    """The JSON Schema of a project file (`.refarch.json`, a list of scenarios)."""
    return _decorated(Project, PROJECT_ID, "refarch project")


# --------------------------------------------------------------------------- the fields as rows


@dataclass(frozen=True)
class FieldRow:
    """One field of a scenario as the reference page lists it."""

    path: str
    type: str
    unit: str
    default: str
    limits: str
    meaning: str


def _type_words(prop: dict[str, Any]) -> str:
    if "anyOf" in prop:
        kinds = [_type_words(p) for p in prop["anyOf"] if p.get("type") != "null"]
        nullable = any(p.get("type") == "null" for p in prop["anyOf"])
        return " or ".join(kinds) + (" or null" if nullable else "")
    if "const" in prop:
        return f"`{prop['const']}`"
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    if "$ref" in prop or "oneOf" in prop:
        return "object"
    kind = prop.get("type")
    if kind == "array":
        items = _type_words(prop.get("items", {}))
        return f"list of {items}s" if items == "object" else f"list of {items}"
    if kind == "object":
        values = prop.get("additionalProperties")
        return f"object of {_type_words(values)}" if isinstance(values, dict) else "object"
    if kind == "string" and prop.get("format") == "date":
        return "date (YYYY-MM-DD)"
    return {"number": "number", "integer": "integer", "string": "text", "boolean": "true/false"}.get(str(kind), "any")


_LIMITS = (("minimum", ">= {}"), ("exclusiveMinimum", "> {}"), ("maximum", "<= {}"), ("exclusiveMaximum", "< {}"),
           ("minLength", "at least {} characters"), ("maxLength", "at most {} characters"),
           ("minItems", "{} items or more"), ("maxItems", "at most {} items"), ("pattern", "matches `{}`"))


def _limit_words(prop: dict[str, Any]) -> str:
    for option in prop.get("anyOf", ()):
        if option.get("type") != "null":
            prop = {**option, **{k: v for k, v in prop.items() if k != "anyOf"}}
    words = ", ".join(words.format(_number(prop[key])) for key, words in _LIMITS if key in prop)
    return words.replace("at least 1 characters", "not empty").replace("1 items or more", "at least one item")


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _default_words(model: type[BaseModel], name: str) -> str:
    field = model.model_fields[name]
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        value: Any = field.default_factory()  # type: ignore[call-arg]
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return f"see {type(value).__name__}"
    return f"`{json.dumps(value)}`"


def _meaning(info: FieldInfo | None, prop: dict[str, Any], path: str) -> str:
    label = info.label if info else ""
    fallback = str(prop.get("description", ""))
    allowed = [] if "const" in prop else _enum(prop)  # a kind's own tag needs no list of the other kinds
    words = _describe(info, fallback, unit=False, allowed=allowed) if info else fallback
    if info and info.help:  # the model's own description adds what an empty value or false means, if it says
        extra = [c for c in fallback.split("; ")[1:] if c.startswith(("default", "null", "false"))]
        words += "".join(f". {c[:1].upper()}{c[1:]}" for c in extra)
    target = TARGETS.get(path.removeprefix("targets."))
    if target is not None and not target.budget:
        words = (words + ". " if words else "") + "For " + ", ".join(f"`{k}`" for k in target.kinds)
    return f"{label}. {words}" if label and words else label or words


def field_rows(model: type[BaseModel]) -> list[FieldRow]:
    """The fields of one model of a scenario (`Scenario`, a workload kind, `PgDatabase`, `Platform`, ...)."""
    prefix = model_prefixes()[model]
    properties = model.model_json_schema()["properties"]
    rows = []
    for name in model.model_fields:
        if name == "schema_version":
            continue
        path = prefix + name
        info = FIELDS.get(path)
        prop = properties[name]
        default = "required" if path == "workload.kind" else _default_words(model, name)  # the schema asks for it
        rows.append(FieldRow(path, _type_words(prop), info.unit if info else "", default,
                             _limit_words(prop), _meaning(info, prop, path)))
    return rows
