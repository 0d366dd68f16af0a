"""The field names a pydantic model accepts at each place of a file, and the one a misspelt or misplaced key meant.

A scenario refuses unknown keys (`extra="forbid"`); a bare "unknown field" leaves the user to find the right
spelling or level alone. `suggestion` names it: a close spelling among the key's siblings
(`targets.min_load_tb_per_h` -> `targets.min_load_tb_per_hour`), or the same name one level away (`currency` at the
top of a scenario -> `commercial.currency`).

>>> from models.scenario import Scenario
>>> suggestion(Scenario, ("currency",)), suggestion(Scenario, ("targets", "min_load_tb_per_h"))
('commercial.currency', 'targets.min_load_tb_per_hour')
>>> suggestion(Scenario, ("zzz",)) is None
True
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterator, Sequence

from pydantic import BaseModel

SIBLING_CUTOFF = 0.7  # difflib ratio: `min_load_tb_per_h` / `min_load_tb_per_hour` 0.92, `data` / `data_tb` 0.73
DISTANT_CUTOFF = 0.8  # a name elsewhere in the file must be closer to be worth naming


def models_in(annotation: object) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds: itself, the members of a union, a list's items, an Annotated's type.

    >>> from models.scenario import PgDatabase
    >>> models_in(list[PgDatabase] | None) == [PgDatabase], models_in(int)
    (True, [])
    """
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        for model in models_in(arg):
            if model not in found:
                found.append(model)
    return found


def is_list(annotation: object) -> bool:
    """True when the annotation is a list (optionally in a union with None or inside Annotated)."""
    if typing.get_origin(annotation) is list:
        return True
    return any(is_list(arg) for arg in typing.get_args(annotation) if arg is not type(None))


def _tagged(models: list[type[BaseModel]], tag: object) -> list[type[BaseModel]]:
    """The union members a discriminator value in a location selects (`kind` defaults to the member's tag)."""
    picked = [m for m in models if "kind" in m.model_fields and m.model_fields["kind"].default == tag]
    return picked or models


def _step(models: list[type[BaseModel]], item: str | int) -> list[type[BaseModel]]:
    if isinstance(item, int):
        return models  # a list item: the models are the items' already
    inner: list[type[BaseModel]] = []
    for model in models:
        field = model.model_fields.get(item)
        if field is not None:
            inner += [m for m in models_in(field.annotation) if m not in inner]
    return inner if inner else _tagged(models, item)


def _leaves(models: list[type[BaseModel]], prefix: tuple[str, ...], depth: int = 0) -> Iterator[tuple[str, ...]]:
    """Every field path under `models`, relative, list items written as "[]" parts."""
    if depth > 8:
        return
    seen: set[tuple[str, ...]] = set()
    for model in models:
        for name, field in model.model_fields.items():
            path = (*prefix, name)
            if path not in seen:
                seen.add(path)
                yield path
            inner = models_in(field.annotation)
            if inner:
                yield from _leaves(inner, (*path, "[]") if is_list(field.annotation) else path, depth + 1)


def _text(path: Sequence[str | int]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int) or part == "[]":
            out += f"[{part}]" if isinstance(part, int) else "[]"
        else:
            out += ("." if out else "") + part
    return out


def _concrete(loc: Sequence[str | int], models: list[type[BaseModel]]) -> list[str | int]:
    """The location without discriminator tags (they are not JSON keys)."""
    out: list[str | int] = []
    current = models
    for item in loc:
        if not isinstance(item, int) and not any(item in m.model_fields for m in current):
            current = _tagged(current, item)
            continue
        out.append(item)
        current = _step(current, item)
    return out


def suggestion(root: type[BaseModel], loc: Sequence[str | int]) -> str | None:
    """What an unknown key at `loc` (a pydantic error location) probably meant, or None.

    Every answer is a full path from the root. The same name under the nearest enclosing object that has it
    comes first (`currency` -> `commercial.currency`), then a sibling spelt alike (`targets.min_load_tb_per_h`
    -> `targets.min_load_tb_per_hour`), then a close spelling anywhere under the root.
    """
    if not loc or isinstance(loc[-1], int):
        return None
    key = str(loc[-1])
    chain: list[tuple[list[str | int], list[type[BaseModel]]]] = []
    models: list[type[BaseModel]] = [root]
    done: list[str | int] = []
    chain.append(([], models))
    for item in loc[:-1]:
        models = _step(models, item)
        done.append(item)
        chain.append((_concrete(done, [root]), models))
    siblings = sorted({name for m in models for name in m.model_fields})
    close = difflib.get_close_matches(key, siblings, n=1, cutoff=SIBLING_CUTOFF)
    own = _text([*chain[-1][0], key])
    for prefix, ancestors in reversed(chain):
        same = [p for p in _leaves(ancestors, ()) if p[-1] == key]
        if same and (meant := _text([*prefix, *min(same, key=len)])) != own:  # not itself, in another kind
            return meant
    if close:
        return _text([*chain[-1][0], close[0]])
    names = {p[-1]: p for p in _leaves([root], ()) if _text(p) != own}
    distant = difflib.get_close_matches(key, list(names), n=1, cutoff=DISTANT_CUTOFF)
    return _text(names[distant[0]]) if distant else None


def kinds_with(root: type[BaseModel], loc: Sequence[str | int]) -> tuple[str, list[str]]:
    """For an unknown key right under a tagged union member (a workload of one kind): that kind, and the other kinds
    that have a field of that name (("greenplum-analytics", ["postgres-consolidation"]) for `databases`).

    >>> from models.scenario import Scenario
    >>> kinds_with(Scenario, ("workload", "greenplum-analytics", "databases"))
    ('greenplum-analytics', ['postgres-consolidation'])
    >>> kinds_with(Scenario, ("workload", "greenplum-analytics", "xyzzy"))
    ('greenplum-analytics', [])
    """
    if len(loc) < 2 or isinstance(loc[-2], int):
        return "", []
    models: list[type[BaseModel]] = [root]
    for item in loc[:-2]:
        models = _step(models, item)
    tag = loc[-2]
    if any(tag in m.model_fields for m in models):
        return "", []  # a field, not a tag
    others = [str(m.model_fields["kind"].default) for m in models if "kind" in m.model_fields
              and m.model_fields["kind"].default != tag and loc[-1] in m.model_fields]
    return str(tag), sorted(others)
