"""Where a sizing finds the measurement profiles a scenario names: the catalog the CLI or the window opened.

`platform.measurements` names profiles stored in the catalog; the engine takes them as data. Every sizing goes
through `app.services.sizing.size`, which asks `profiles(names)`; the CLI (`catalog_access.load_catalog`) and the
window register how to read them from the catalog they use, so no command or view passes them by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from app.services.errors import ServiceError
from models.problems import Problem

if TYPE_CHECKING:
    from models.measurements.profile import MeasurementProfile

Loader = Callable[[Sequence[str]], Mapping[str, "MeasurementProfile"]]
_loader: Loader | None = None


def register(loader: Loader | None) -> None:
    """Read profiles with `loader` from now on (None: no catalog to read them from)."""
    global _loader
    _loader = loader


def profiles(names: Sequence[str]) -> dict[str, MeasurementProfile]:
    """The profiles named, as stored; those the catalog lacks are left out (the engine names them)."""
    if not names:
        return {}
    if _loader is None:
        raise ServiceError("the scenario names measurement profiles but no catalog is open to read them from",
                           [Problem("platform.measurements", "open a catalog that holds them")])
    return dict(_loader(names))


def store_loader(url: str | None) -> Loader:
    """A loader reading profiles from the catalog at `url` (opened when a scenario first names some)."""

    def load(names: Sequence[str]) -> Mapping[str, MeasurementProfile]:
        from catalog.errors import CatalogError
        from catalog.measurements import UnknownProfileError
        from catalog.store import CatalogStore

        out: dict[str, MeasurementProfile] = {}
        try:
            with CatalogStore.open(url) as store:
                for n in dict.fromkeys(names):
                    try:
                        out[n] = store.measurement_profile(n)
                    except UnknownProfileError:
                        continue
        except CatalogError as exc:
            raise ServiceError(str(exc), [Problem("platform.measurements", str(exc))]) from None
        return out

    return load
