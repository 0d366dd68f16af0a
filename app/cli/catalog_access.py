"""Opening the catalog for commands that size against it (size, compare, optimize, report)."""

from __future__ import annotations

from app.cli.errors import CliError
from models.hardware import HardwareCatalog


def load_catalog(db_url: str | None) -> HardwareCatalog:
    """The catalog's snapshot: from the snapshot cache while the SQLite catalog is unchanged (no SQLAlchemy
    import), else read through `CatalogStore` (creating, upgrading or seeding it as needed) and cached."""
    from catalog import snapshot_cache
    from catalog.location import default_url

    url = default_url() if db_url is None else db_url
    from app.services import measurement_source

    measurement_source.register(measurement_source.store_loader(url))  # profiles a scenario names, read on demand
    cached = snapshot_cache.load(url)
    if cached is not None:
        return cached
    from catalog.errors import CatalogError
    from catalog.store import CatalogStore

    try:
        with CatalogStore.open(url) as store:
            token = snapshot_cache.read_token(url)
            catalog = store.snapshot()
    except CatalogError as exc:
        raise CliError(str(exc)) from None
    snapshot_cache.store(url, token, catalog)
    return catalog
