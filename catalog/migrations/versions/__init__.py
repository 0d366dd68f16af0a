"""Catalog schema revisions, oldest first; never edit one that has been released."""
