"""The model cards of the Greenplum scan / load roofline and of concurrent analytics, from its calibration.

What they report comes from `models.perf.scan_load_fit` (the fit on studies 000 and 002); the notes
say what that fit can and cannot show.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from models.calibration_data import figure
from models.model_card import ModelCard
from models.perf import gp_bands
from models.perf.scan_load import STUDY_000, STUDY_002, ScanParams, default_scan_fraction
from models.perf.scan_load_fit import calibration


def _card_params(p: ScanParams) -> dict[str, float]:
    return {k: round(v, 6) for k, v in p.as_floats().items()}


def band_rule(queries: bool) -> str:
    """The band rule in words, with its figures and one worked distance (`models.perf.gp_bands`)."""
    per = figure(gp_bands.GP000, "band_sd_per_doubling")
    hosts = figure(gp_bands.GP000, "segment_hosts")
    streams = figure(gp_bands.GP002, "tpcds_streams")
    far = float(gp_bands.queries_sd(1.0, 16 * hosts, 4 * streams) if queries else gp_bands.scan_sd(1.0, 16 * hosts))
    z90 = NormalDist().inv_cdf(0.9)
    also = (f", and the queries running at once against study 002's single stream and {streams:g} concurrent streams"
            if queries else "")
    return (" Band rule (a refarch assumption, not fitted to any study: the studies measure a few clusters, so nothing"
            " in them says how fast the error grows away from them): each Monte Carlo draw is multiplied by"
            " exp(z x sd), z ~ N(0, 1),"
            f" sd = {per:g} per doubling of distance from the calibration clusters, in quadrature over the CPU"
            " (SPECrate2017_int_base per core against its generation's calibrated processor: study 000's Xeon E5-2470"
            " by its stand-in, study 002's EPYC 9454P;"
            f" none for a processor without a score), the segment hosts against the studies' {hosts:g}{also}; a time is"
            " divided by the factor. sd is 0 at a calibration point, so an extrapolated design never gets the in-sample"
            f" band. E.g. {16 * hosts:g} hosts on a processor one doubling from its generation's"
            f"{f', {4 * streams:g} queries at once' if queries else ''}: sd {far:.2f}, which alone puts P10 and P90 at"
            f" x{math.exp(-z90 * far):.2f} and x{math.exp(z90 * far):.2f} of the median.")


def scan_load_card() -> ModelCard:
    fit = calibration()
    return ModelCard(
        name="gp-scan-load-roofline",
        description=(
            "Greenplum full-scan time and load rate as a roofline over drives, CPU (primaries x per-core rate), "
            "interconnect and gpfdist ETL hosts, with vSphere overhead and NUMA-locality gain"
        ),
        parameters=_card_params(fit.params),
        residuals=fit.residuals_scan_load,
        sources=(
            f"{STUDY_000}, Performance Comparison: Physical to Virtual; Performance of Multiple Greenplum VMs",
            f"{STUDY_002}, Performance benchmark test results, Table 2; Table 1",
        ),
        note=(
            "In-sample fit: 5 parameters (per-core scan and load rates, two NUMA gains, the sequential overhead) "
            "from 7 study-000 observations (the 4 times, the two '2 VMs x % faster than physical' statements, "
            "the 5-6 % overhead), least squares in log space: 2 degrees of freedom, so the sub-1 % residuals "
            "show the statements agree, not predictive accuracy. The synthetic 48x "
            "defines the previous appliance's drive rate and the 10.6x load ratio fixes load_gen_speedup, so both "
            "are exact by construction. The 2 VM NUMA-disabled case (2 % gain) is not modelled: numa_local=0 "
            "gives no gain. The previous appliance's cores, primaries and ports and the Gen5 test's 32 "
            "primaries are assumptions (study 002 does not state them); scan work is the derived 3.65 TB fact "
            "table, not the 6 TB database, and assumes heap bytes per row equal load-file bytes per row. "
            "Absolute Gen5 rates rest on these assumptions; 002 gives only ratios."
            + band_rule(queries=False)
        ),
        extra={"rms_log_residual_000": fit.rms_000},
    )


def dw_throughput_card() -> ModelCard:
    fit = calibration()
    p = fit.params
    return ModelCard(
        name="gp-dw-throughput",
        description=(
            "Concurrent Greenplum analytics (queries/h): c queries keep min(c x primaries, cores) busy, share "
            "drives and interconnect; a typical report scans 000's PartialScanSQL fraction"
        ),
        parameters={
            "scan_gen_speedup": float(p.scan_gen_speedup),
            "numa_gain_scan": float(p.numa_gain_scan),
            "virt_overhead_mixed": float(p.virt_overhead_mixed),
            "motion_fraction": float(p.motion_fraction),
            "default_scan_fraction": default_scan_fraction(),
        },
        residuals=fit.residuals_dw,
        sources=(
            f"{STUDY_002}, Performance benchmark test results, Table 2; Number of Greenplum segments per machine; "
            "Network",
            f"{STUDY_000}, Test and Measurement Tools (PartialScanSQL rows)",
        ),
        note=(
            "One parameter (scan_gen_speedup) for two ratios: the single-stream/concurrent pair is a real check "
            "of the parallelism rule min(c x P, C), given the assumed 32 primaries on the Gen5 host and 8 "
            "primaries on 16 cores for the previous appliance. Absolute queries/h is not calibrated by any "
            "study (002 reports ratios only): it rests on 000's per-core scan rate and the scan-fraction "
            "assumption. Concurrent streams on spinning drives lose sequential efficiency; not modelled."
            + band_rule(queries=True)
        ),
        extra={"rms_log_residual_002": fit.rms_002_dw},
    )
