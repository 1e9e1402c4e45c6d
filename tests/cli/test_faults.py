"""The fault report's fast subset, as CI runs it: every case of bench/faults.py --fast (bad
files, a fault server on 127.0.0.1 for the LLM and embeddings endpoints, damaged stores,
secrets, several collections) is handled with one line, the expected exit code and nothing
lost. The report runs the real CLI in subprocesses."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_fault_of_the_fast_report_is_handled(tmp_path):
    out = tmp_path / "faults.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "faults.py"), "--fast",
                           "--out", str(out)], capture_output=True, text=True, timeout=1200,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    cases = json.loads(out.read_text())
    bad = [c for c in cases if not c["ok"]]
    assert len(cases) >= 130 and not bad, (bad, done.stdout[-3000:])
    assert not any(c["lost"] for c in cases)
