"""Scaled catalogs for the benchmarks: the seed with every server and drive repeated `factor` times.

Copies get their own ids and a price 0.3 % dearer per copy, so they are distinct parts that tie on
every performance figure: the optimizer must search all of them and break the ties the same way
(servers x drives grows with factor squared, like a catalog grown by a real vendor list).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from models.hardware import Drive, HardwareCatalog, Server

PRICE_STEP = 0.003


def scaled_catalog(base: HardwareCatalog, factor: int) -> HardwareCatalog:
    extra = [dataclasses.replace(p, id=f"{p.id}-x{j}", price=round(p.price * (1 + PRICE_STEP * j), 2))
             for p in base if isinstance(p, Server | Drive) for j in range(1, factor)]
    return HardwareCatalog.of([*base, *extra])


def scaled_database(directory: Path, factor: int) -> str:
    """A SQLite catalog at `directory` holding the seed scaled by `factor`; returns its URL."""
    from catalog.store import CatalogStore

    path = directory / f"catalog-{factor}x.db"
    url = f"sqlite:///{path}"
    if path.exists():
        return url
    with CatalogStore.open(url) as store:
        if factor > 1:
            base = store.snapshot()
            rows = [r for r in store.export_rows() if r["kind"] in ("server", "drive")]
            by_id = {p.id: p for p in base}
            extra = []
            for row in rows:
                for j in range(1, factor):
                    price = round(by_id[row["id"]].price * (1 + PRICE_STEP * j), 2)
                    copy = dict(row, id=f"{row['id']}-x{j}", price=price)
                    copy.pop("cores_total", None)
                    extra.append(copy)
            store.import_rows(extra)
    return url
