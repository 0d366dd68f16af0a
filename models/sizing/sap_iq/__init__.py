"""SAP IQ multiplex sizing: the engine sizes a scenario with `size_sap_iq`; the app cites study 003 (`STUDY`) for the
temp:main dbspace ratio an empty input takes.

Everything else (the node shape, the DQP and cache rules, a node failure and the warnings) is private to this
package (an import-linter contract in pyproject.toml).
"""

from models.sizing.sap_iq.design import size_sap_iq
from models.sizing.sap_iq.node import STUDY

__all__ = ["STUDY", "size_sap_iq"]
