"""Speed code behind the plain model: each module here gives, bit for bit, what the plain function it imports gives,
and its test (tests/models/sizing/greenplum/fast/) checks it against that one counterpart.

* `scan.FullScan`: `models.perf.scan_load.full_scan_seconds` at many host counts, the host-free rates paid once;
* `scan_hosts.scan_hosts`: `hosts.search_hosts` (the bisection and the helpful limit) for a full-scan-only target,
  in closed form where that is exact;
* `layouts.chunk_layouts`: `segments.host_layouts` of a chunk, read off the candidates' templates;
* `stream`: `evaluation.pick` (and the cheapest feasible rows) over a streamed search, one chunk in memory.

A formula is changed in the plain function first; the fast one follows, and its test says whether it still equals.
A fast path stays only while `refarch bench` shows it earns its place.
"""
