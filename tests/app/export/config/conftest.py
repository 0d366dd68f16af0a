"""Sized samples and their configuration bundles, built once per session."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from app.export.config import ConfigBundle, build_config
from models.sizing.result import SizingResult
from tests.app.export.config.pg_server import PgCluster, require_pg

ConfigOf = Callable[[str], tuple[SizingResult, ConfigBundle]]


@pytest.fixture(scope="session")
def config_of(sized: Callable) -> ConfigOf:
    cache: dict[str, tuple[SizingResult, ConfigBundle]] = {}

    def get(name: str) -> tuple[SizingResult, ConfigBundle]:
        if name not in cache:
            _, result = sized(name)
            cache[name] = (result, build_config(result))
        return cache[name]

    return get


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    cluster = PgCluster(require_pg())
    try:
        yield cluster
    finally:
        cluster.stop()
