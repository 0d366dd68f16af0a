"""Study 003's test set-up, read from the calibration data once for the SAP IQ model and rule tests."""

from __future__ import annotations

from models.calibration_data import figure
from models.perf.sap_iq import DATASET, NETWORK, STORAGE

KEY = {STORAGE: "storage", NETWORK: "network"}
NODES = int(figure(DATASET, "servers"))
VCPUS = int(figure(DATASET, "vm_vcpus"))
S6 = int(figure(DATASET, "query_streams_throughput_test"))
SF = figure(DATASET, "scale_factor_gb")
QUERIES = figure(DATASET, "tpch_queries_per_stream")


def interval_s(throughput: float, streams: int = S6) -> float:
    """TPC-H: Throughput@Size = S * 22 * 3600 * SF / Ts, solved for Ts."""
    return streams * QUERIES * 3600 * SF / throughput
