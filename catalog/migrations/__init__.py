"""Alembic migrations of the catalog schema (a package so that wheels ship them)."""
