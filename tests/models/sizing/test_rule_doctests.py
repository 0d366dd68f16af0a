"""The worked examples in the sizing rules' docstrings hold, and every public rule in rules.py has one."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

from models.sizing import rules

MODULES = [
    "models.sizing.rules",
    "models.sizing.greenplum.mirroring",
    "models.sizing.greenplum.segments",
    "models.sizing.greenplum.memory",
    "models.sizing.greenplum.design_settings",
    "models.sizing.targets",
    "models.sizing.greenplum.evaluation",
    "models.sizing.greenplum.settle",
    "models.sizing.greenplum.shortlist",
    "models.sizing.greenplum.host_memory",
    "models.sizing.greenplum.capacity",
    "models.sizing.greenplum.density",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def _public_rules() -> list[str]:
    """The functions rules.py defines (cached ones too: `inspect.unwrap` sees through functools.cache)."""
    return [name for name, obj in vars(rules).items()
            if not name.startswith("_") and callable(obj) and inspect.isfunction(inspect.unwrap(obj))
            and inspect.unwrap(obj).__module__ == rules.__name__]


def test_rules_module_has_public_rules() -> None:
    assert {"segments_for_concurrency", "user_data_capacity_tb", "gp_vmem_mb", "coordinator_count"} <= set(
        _public_rules())


@pytest.mark.parametrize("name", _public_rules())
def test_every_public_rule_has_a_worked_example(name: str) -> None:
    fn = inspect.unwrap(getattr(rules, name))
    examples = doctest.DocTestParser().get_examples(inspect.getdoc(fn) or "")
    assert examples, f"rules.{name} has no worked example (>>>) in its docstring"
