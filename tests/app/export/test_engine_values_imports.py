"""The values the engine used, for a Greenplum result, without loading the SAP IQ engine modules: the window shows
them for the first result on screen, before the other scenarios are sized."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = """
import json, sys
from pathlib import Path
from app.export.engine_values import used_text, used_values
from app.services.sizing import size
from catalog.seed import seed_catalog
from models.scenario import load_scenario
out = {}
for name in sys.argv[1:]:
    scenario = load_scenario(Path("resources/samples") / name)
    values = {k: used_text(u) for k, u in used_values(size(scenario, seed_catalog())).items()}
    out[name] = {"iq_loaded": "models.sizing.sap_iq.design" in sys.modules, "values": values}
print(json.dumps(out))
"""


def _used(*samples: str) -> dict[str, dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *samples], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_a_greenplum_result_does_not_load_the_sap_iq_modules_and_sap_iq_still_cites_its_study() -> None:
    seen = _used("retail-dw-gen5.json", "sap-iq.json")
    assert seen["retail-dw-gen5.json"]["iq_loaded"] is False
    assert seen["retail-dw-gen5.json"]["values"]
    iq = seen["sap-iq.json"]["values"]
    assert isinstance(iq, dict)
    assert "(from " in iq["workload.temp_to_main_ratio"]  # the SAP IQ study's figure, by title
