"""`refarch bench` runs and reports its metrics; no assertion here is about speed."""

from __future__ import annotations

import argparse
import json

import pytest

from app.bench import registry
from app.bench.models import MODEL_MODULES
from app.cli.commands import bench
from app.cli.errors import CliError


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="refarch")
    bench.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.handler(args)


def test_json_has_model_metrics_and_machine(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["bench", "--format", "json", "--only", "models"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"cpu_count", "python"} <= set(data["machine"])
    for key in ("models.sap_iq.prediction_us", "models.sap_iq.monte_carlo_10k_ms"):
        assert isinstance(data[key], float)
    for name in MODEL_MODULES:
        measured = f"models.{name}.prediction_us" in data and f"models.{name}.monte_carlo_10k_ms" in data
        noted = any(f"models.perf.{name}" in n for n in data["notes"])
        assert measured or noted, name


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["bench", "--only", "models"]) == 0
    out = capsys.readouterr().out
    assert "models.sap_iq.prediction_us" in out
    assert "machine:" in out


def test_registry_extends_and_reports_broken_benchmarks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))

    @registry.benchmark("example")
    def example() -> dict[str, float]:
        return {"example.size_ms": registry.time_median(lambda: sum(range(10)), repeat=3) * 1e3}

    @registry.benchmark("broken")
    def broken() -> dict[str, float]:
        raise RuntimeError("not wired yet")

    with pytest.raises(ValueError):
        registry.benchmark("example")(lambda: {})

    assert _run(["bench", "--format", "json", "--only", "example", "--only", "broken"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert "example.size_ms" in data
    assert "not wired yet" in captured.err


def test_unknown_benchmark_name_is_bad_input() -> None:
    with pytest.raises(CliError) as err:
        _run(["bench", "--only", "no-such-bench"])
    assert err.value.exit_code == 2
    assert any("no-such-bench" in p and "models" in p for p in err.value.problems)


def test_bench_children_keep_fits_and_catalog_snapshots_of_their_own() -> None:
    # In the user's cache folder, another refarch version run meanwhile could replace them between two rounds.
    from pathlib import Path

    import platformdirs

    from app.bench import processes

    env = processes._env()
    home = processes._home()
    user_cache = Path(platformdirs.user_cache_dir("refarch", appauthor=False))
    for var in ("REFARCH_FIT_CACHE", "REFARCH_CATALOG_CACHE", "PYTHONPYCACHEPREFIX"):
        assert Path(env[var]).parent == home
        assert not Path(env[var]).is_relative_to(user_cache)
