"""Whole-process time of `assistant ingest` and `assistant ask` on the bundled ICML 2026 list.

    python bench/ask_latency.py [--runs 7]

Prints a table and writes bench/results/ask_latency.json. "warm" means the OS file cache and
the tiktoken cache are warm (one untimed run first); each timed run is a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTIONS = [
    "Which paper generates ultra-high-resolution images with diffusion transformers?",
    "What accuracy gains does CPMöbius report?",
    "Which papers are about quantization?",
    "What is the best recipe for sourdough bread?",
]


def timed(args: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "assistant", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    store = Path(tempfile.mkdtemp(prefix="bench-store-"))
    env = {**os.environ, "ASSISTANT_STORE": str(store), "ASSISTANT_BACKEND": "extractive"}
    rows: dict[str, dict[str, float]] = {}
    rows["ingest (full, 19 papers)"] = {"s": timed(["ingest"], env)}
    rows["ingest (unchanged)"] = {"s": timed(["ingest"], env)}
    timed(["ask", QUESTIONS[0]], env)  # warm-up
    samples: list[float] = []
    for i in range(args.runs):
        samples.append(timed(["ask", "--json", QUESTIONS[i % len(QUESTIONS)]], env))
    rows["ask (warm, extractive)"] = {"p50_s": statistics.median(samples), "min_s": min(samples),
                                      "max_s": max(samples), "runs": len(samples)}
    print(f"{'what':<28} {'seconds':>10}")
    for name, r in rows.items():
        value = r.get("s", r.get("p50_s"))
        extra = f"  (min {r['min_s']:.2f}, max {r['max_s']:.2f}, n={r['runs']})" if "p50_s" in r \
            else ""
        print(f"{name:<28} {value:>10.2f}{extra}")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    result = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "target_ask_warm_s": 2.0, "rows": rows, "when": time.strftime("%Y-%m-%dT%H:%M")}
    (out / "ask_latency.json").write_text(json.dumps(result, indent=2))
    print(f"wrote {out / 'ask_latency.json'}")


if __name__ == "__main__":
    main()
