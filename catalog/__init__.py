"""The hardware catalog: persistence of the parts refarch sizes with (SQLite or PostgreSQL).

Entry point: `catalog.store.CatalogStore.open(url)`, which hands out `models.hardware`
value objects. `rows`/`validation`/`files` hold the catalog file format (seed, import,
export); `orm`/`migrate`/`migrations` the schema; `seed` the bundled starter catalog.
"""
