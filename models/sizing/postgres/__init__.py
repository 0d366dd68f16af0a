"""PostgreSQL databases consolidated on vSphere: the engine sizes a scenario with `size_postgres`; the app cites the
transaction rate per client an empty peak TPS is estimated at (`tps_per_client`, `cite`, dataset `DS`).

Everything else (placement, storage, datastores, limits, postgresql.conf, the cluster's memory state and the
warnings) is private to this package (an import-linter contract in pyproject.toml).
"""

from models.sizing.postgres.design import size_postgres
from models.sizing.postgres.placement import clients_per_vcpu
from models.sizing.postgres.storage import DS, cite, study_tps_per_client, tps_per_client

__all__ = ["DS", "cite", "clients_per_vcpu", "size_postgres", "study_tps_per_client", "tps_per_client"]
