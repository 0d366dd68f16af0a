"""Calibration fits kept on disk between processes.

Fitting the models (least squares over the study points) costs 0.1-0.5 s and scipy's import
about as much again; every `refarch size` used to pay both. A fit depends only on the
calibration data and on the code that fits it, so its result is stored under a fingerprint of
both (`resources/calibration/*.json`, the source of every module in the `models` package, the
Python and numpy versions): editing a calibration file or any model code makes the next process fit
again. The whole package, not only the module defining the fit, because a fit calls the law it fits
(scan_load.py, usl.py) from other modules; hashing ~100 small files costs about a millisecond.

The disk cache is off until the delivery layer names a directory (`configure`, done by the CLI
and the GUI) or `REFARCH_FIT_CACHE` is set, so library use and tests write nothing unless asked.
Any problem reading or writing the cache falls back to fitting: the cache can only save time.

Several installs can share one cache folder (two virtual environments, a checkout next to an install,
an upgrade and a downgrade): each keeps its own fits, the `KEEP_VERSIONS` most recently used per fit,
instead of deleting the others' on every write. When each write removed every other version, two
refarch versions run in turn fitted again in every process (`refarch size` 1.65 s instead of 0.85 s).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from models.cache_location import CacheLocation

ENV_VAR = "REFARCH_FIT_CACHE"
KEEP_VERSIONS = 8  # fits of other calibration data or code kept per fit (a few hundred bytes to 2 KB each)
T = TypeVar("T")

LOCATION = CacheLocation(ENV_VAR)
_fingerprints: dict[str, str] = {}


def configure(directory: Path | str | None) -> None:
    """Store fits under `directory` (None: keep them in memory only)."""
    LOCATION.configure(directory)


def cache_directory() -> Path | None:
    return LOCATION.directory()


def calibration_digest() -> str:
    """Digest of every calibration file's name and bytes."""
    h = hashlib.sha256()
    folder = resources.files("resources") / "calibration"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            h.update(entry.name.encode())
            h.update(entry.read_bytes())
    return h.hexdigest()


def model_sources() -> list[Path]:
    """Every Python source file of the `models` package, in a stable order."""
    return sorted(Path(__file__).resolve().parent.rglob("*.py"))


def fingerprint(module_name: str) -> str:
    """What a fit defined in `module_name` depends on: calibration data, the model code, runtimes.

    Keyed by module so a fit's file name stays tied to where it is defined; the digest covers all of
    `models`, since a fit in one module evaluates laws defined in others. That digest is read once per process
    (~3 ms: every source file) and shared by the modules whose fits a command loads (two for a Greenplum sizing).
    """
    if module_name not in _fingerprints:
        if _PACKAGE not in _fingerprints:
            _fingerprints[_PACKAGE] = _package_digest()
        key = f"{module_name}|{_fingerprints[_PACKAGE]}"
        _fingerprints[module_name] = hashlib.sha256(key.encode()).hexdigest()[:20]
    return _fingerprints[module_name]


_PACKAGE = ""  # the key of the package digest in `_fingerprints` (no module is named "")


def _package_digest() -> str:
    import numpy as np

    h = hashlib.sha256(calibration_digest().encode())
    for source in model_sources():
        h.update(source.name.encode())
        h.update(source.read_bytes())
    h.update(f"{sys.version}|{np.__version__}".encode())
    return h.hexdigest()


def disk_cached(fn: Callable[..., T]) -> Callable[..., T]:
    """Memoize `fn` in the process and, when a cache directory is configured, on disk.

    The arguments must have a stable `repr` (strings, numbers); the result must pickle.
    """

    @functools.cache
    def wrapper(*args: Any) -> T:
        folder = cache_directory()
        if folder is None:
            return fn(*args)
        name = f"{fn.__module__}.{fn.__qualname__}({','.join(map(repr, args))})"
        safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)
        path = folder / f"{safe}-{fingerprint(fn.__module__)}.pickle"
        try:
            with path.open("rb") as fh:
                found: T = pickle.load(fh)
            os.utime(path)  # used now: the versions pruned first are the ones no install has used for longest
            return found
        except Exception:  # missing, stale format, truncated: fit again
            pass
        result = fn(*args)
        _store(path, safe, result)
        return result

    wrapper.uncached = fn  # type: ignore[attr-defined]
    return wrapper


def _store(path: Path, stem: str, result: object) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _prune(path, stem)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".fit-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # another process reading sees the old file or the whole new one
    except OSError:
        pass  # a read-only or full disk only costs the next process a fit


def _prune(path: Path, stem: str) -> None:
    """Remove this fit's versions beyond the `KEEP_VERSIONS - 1` most recently used, making room for `path`."""
    others = []
    for old in path.parent.glob(f"{stem}-*.pickle"):
        if old != path:
            try:
                others.append((old.stat().st_mtime, old))
            except OSError:  # removed by another process meanwhile
                continue
    others.sort(reverse=True)
    for _, old in others[KEEP_VERSIONS - 1:]:
        old.unlink(missing_ok=True)
