"""Why an input cannot be used, as (path, message) pairs: one type and one translator for every layer.

The CLI prints them (`str(problem)`), the GUI marks the field at `problem.path` and words it with
the vocabulary's label; nothing parses the text back.

>>> from pydantic import BaseModel, Field, ValidationError
>>> class M(BaseModel):
...     n: int = Field(gt=0)
>>> try:
...     M(n=-1)
... except ValidationError as exc:
...     [str(p) for p in problems_of(exc)]
['n: must be greater than 0 (got -1)']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

ROOT = "(root)"  # the path of a problem no single field owns
# where a user reads which fields a scenario or project has (`refarch schema` prints the JSON Schema)
FIELDS_REFERENCE = "the fields are listed by `refarch schema` and in docs/SCENARIO.md"


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason an input cannot be used: where (a JSON path, "row 3, cores", "file") and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class FieldRuleError(ValueError):
    """A rule across fields, raised by a model validator, that names the field the user must change.

    `field` is relative to the model that raises it ("mirror_block_hosts", "platform.deployment").
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def json_path(loc: tuple[Any, ...], tags: Collection[str] = ()) -> str:
    """A pydantic location as a JSON path: ("workload", "databases", 2, "size_gb") -> "workload.databases[2].size_gb".

    `tags` are discriminator values pydantic inserts into locations; they are not JSON keys.
    """
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in tags:
            continue
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or ROOT


# what a field's pattern asks, in words: "String should match pattern '^[A-Z]{3}$'" names no rule a user knows
PATTERN_WORDS = {r"^[A-Z]{3}$": "a three-letter ISO 4217 currency code in capitals, such as USD or EUR"}


def _message(err: Mapping[str, Any], tags: Collection[str], root: type[BaseModel] | None) -> str:
    kind = err["type"]
    given = err.get("input")
    if kind == "missing" or (given is None and kind in ("float_type", "int_type", "string_type")):
        return "a value is required"
    if kind == "union_tag_invalid":
        import difflib  # only for a file that names a kind refarch lacks

        tag = given.get("kind") if isinstance(given, dict) else given
        close = difflib.get_close_matches(str(tag), list(tags), n=1, cutoff=0.7)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"unknown kind {tag!r}; {hint}allowed: {', '.join(tags)}"
    if kind == "extra_forbidden":
        from models.field_names import kinds_with, suggestion  # difflib, only when a file has an unknown key

        meant = suggestion(root, tuple(err["loc"])) if root is not None else None
        if meant is not None:
            return f"unknown field; did you mean {meant}? ({FIELDS_REFERENCE})"
        kind, others = kinds_with(root, tuple(err["loc"])) if root is not None else ("", [])
        if others:
            return f"a field of {' and '.join(others)} workloads, not of {kind} ({FIELDS_REFERENCE})"
        return f"unknown field (check the spelling; {FIELDS_REFERENCE})"
    if kind == "string_pattern_mismatch" and err.get("ctx", {}).get("pattern") in PATTERN_WORDS:
        return f"must be {PATTERN_WORDS[err['ctx']['pattern']]} (got {given!r})"
    msg = str(err["msg"]).removeprefix("Value error, ")
    # pydantic says "Input should be ..."; "must be ..." reads as the rule it is
    msg = msg.replace("Input should be", "must be", 1)
    if not isinstance(given, dict | list):
        msg += f" (got {given!r})"
    return msg


def problems_of(
    exc: ValidationError, tags: Collection[str] = (), root: type[BaseModel] | None = None
) -> list[Problem]:
    """Every problem of a validation error, with its JSON path, the rule and the value given; an unknown key
    names the field it probably meant when `root` (the model validated) is given."""
    out = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        rule = err.get("ctx", {}).get("error")
        if isinstance(rule, FieldRuleError):  # a cross-field rule: the problem belongs to the field it names
            out.append(Problem(json_path((*loc, *rule.field.split(".")), tags), rule.message))
            continue
        path = json_path(loc, tags)
        if err["type"] == "union_tag_invalid":
            path = f"{path}.kind" if path != ROOT else "kind"
        out.append(Problem(path, _message(err, tags, root)))
    return out
