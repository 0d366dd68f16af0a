"""The worked examples in the sizing rules' docstrings hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "models.sizing.mirroring",
    "models.sizing.segments",
    "models.sizing.gp_memory",
    "models.sizing.design_settings",
    "models.sizing.confidence",
    "models.sizing.greenplum",
    "models.sizing.gp_settle",
    "models.sizing.gp_host_memory",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
