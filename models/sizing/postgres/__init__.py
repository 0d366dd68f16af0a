"""PostgreSQL databases consolidated on vSphere: the engine sizes a scenario with `size_postgres`; the app cites the
rule an empty peak TPS is estimated by (`clients_tps`: the throughput model's rate for the database's clients on a
server's CPU, `host_cpu`) and study 001's figures it cites (`cite`, dataset `DS`).

Everything else (placement, storage, datastores, limits, postgresql.conf, the cluster's memory state and the
warnings) is private to this package (an import-linter contract in pyproject.toml).
"""

from models.sizing.postgres.design import size_postgres
from models.sizing.postgres.storage import DS, cite
from models.sizing.postgres.tps_vcpus import HostCpu, clients_per_vcpu, clients_tps, host_cpu, model_rates

__all__ = ["DS", "HostCpu", "cite", "clients_per_vcpu", "clients_tps", "host_cpu", "model_rates", "size_postgres"]
