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
    assert len(list(cache_dir.glob("*.pickle"))) == 2  # each version keeps its fit


def test_two_versions_sharing_the_cache_keep_each_their_fit(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two installs (calibration data or code differing) run in turn: neither fits again after its first run.
    calls, fit = _counting()
    for digest in ("one", "two", "one", "two"):
        monkeypatch.setattr(fit_cache, "_fingerprints", {})  # a new process of that install
        monkeypatch.setattr(fit_cache, "calibration_digest", lambda d=digest: d)
        assert fit_cache.disk_cached(fit)(3) == {"value": 6}  # type: ignore[arg-type]
    assert calls == [3, 3]


def test_versions_beyond_the_kept_number_are_removed_least_recently_used_first(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    calls, fit = _counting()
    versions = [f"v{i}" for i in range(fit_cache.KEEP_VERSIONS + 2)]
    for n, digest in enumerate(versions):
        monkeypatch.setattr(fit_cache, "_fingerprints", {})
        monkeypatch.setattr(fit_cache, "calibration_digest", lambda d=digest: d)
        fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]
        for f in cache_dir.glob("*.pickle"):  # mtimes one second apart, oldest first, whatever the clock grain
            if f.stat().st_mtime > 1_000_000 + n:
                os.utime(f, (1_000_000 + n, 1_000_000 + n))
    assert len(list(cache_dir.glob("*.pickle"))) == fit_cache.KEEP_VERSIONS
    monkeypatch.setattr(fit_cache, "_fingerprints", {})
    monkeypatch.setattr(fit_cache, "calibration_digest", lambda: versions[-1])
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]  # the newest is still there
    monkeypatch.setattr(fit_cache, "_fingerprints", {})
    monkeypatch.setattr(fit_cache, "calibration_digest", lambda: versions[0])
    fit_cache.disk_cached(fit)(3)  # type: ignore[arg-type]  # the oldest was removed: fitted again
    assert calls == [3] * len(versions) + [3]


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
