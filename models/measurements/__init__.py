"""Measurements of the customer's own hardware: gpcheckperf, pgbench and HammerDB output read into data.

Pure parsers (no catalog, no Qt): `detect.read_measurement(path)` reads a file through the hardened reader,
detects which tool wrote it from its content and returns its results, or refuses the whole file with a
`FileInputError` naming the line. Each parser's docstring cites the source of the format it reads.
"""
