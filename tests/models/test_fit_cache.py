"""The on-disk fit cache: a second process reads the fit; changed calibration data or code fits again."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import fit_cache


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(fit_cache.LOCATION, "configured", tmp_path)
    monkeypatch.setattr(fit_cache, "_fingerprints", {})
    return tmp_path


def _counting() -> tuple[list[int], object]:
    calls: list[int] = []

    def fit(x: int) -> dict[str, int]:
        calls.append(x)
        return {"value": x * 2}

    fit.__module__ = __name__
    fit.__qualname__ = "fit"
    return calls, fit


def test_a_new_process_reads_the_stored_fit(cache_dir: Path) -> None:
    calls, fit = _counting()
    assert fit_cache.disk_cached(fit)(3) == {"value": 6}  # type: ignore[arg-type]
    again = fit_cache.disk_cached(fit)  # type: ignore[arg-type]  # a fresh memo, as in a new process
    assert again(3) == {"value": 6}
    assert calls == [3]
    assert len(list(cache_dir.glob("*.pickle"))) == 1


def test_changed_calibration_data_fits_again(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls, fit = _counting()
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
    monkeypatch.setattr(fit_cache, "_fingerprints", {})
    monkeypatch.setattr(fit_cache, "calibration_digest", lambda: "edited")
    assert fit_cache.disk_cached(fit)(3) == {"value": 6}  # type: ignore[arg-type]
    assert calls == [3, 3]
    assert len(list(cache_dir.glob("*.pickle"))) == 1  # the stale fit is removed


def test_an_edit_to_any_model_module_fits_again(cache_dir: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The fit lives in one module but evaluates laws from others (scan_load_fit -> scan_load):
    # editing a module other than the fit's own must invalidate it too.
    law = tmp_path / "law.py"
    law.write_text("SPEED = 1\n")
    monkeypatch.setattr(fit_cache, "model_sources", lambda: [law])
    calls, fit = _counting()
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
    assert calls == [3]
    law.write_text("SPEED = 2\n")
    monkeypatch.setattr(fit_cache, "_fingerprints", {})  # a new process
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
    assert calls == [3, 3]


def test_the_model_sources_are_the_whole_models_package() -> None:
    names = {p.relative_to(p.parents[2]).as_posix() for p in fit_cache.model_sources() if p.parent.name == "perf"}
    assert {"models/perf/scan_load.py", "models/perf/usl.py"} <= names


def test_a_broken_cache_file_only_costs_a_fit(cache_dir: Path) -> None:
    calls, fit = _counting()
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
    for f in cache_dir.glob("*.pickle"):
        f.write_bytes(b"not a pickle")
    assert fit_cache.disk_cached(fit)(3) == {"value": 6}  # type: ignore[arg-type]
    assert calls == [3, 3]


def test_the_digest_covers_every_calibration_file() -> None:
    from importlib import resources

    names = [e.name for e in (resources.files("resources") / "calibration").iterdir() if e.name.endswith(".json")]
    assert names and len(fit_cache.calibration_digest()) == 64
