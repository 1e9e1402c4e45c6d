"""Time from `assistant chat` starting to its first paint, and to being ready to answer.

    python bench/tui_first_paint.py [--runs 7] [--no-tmux]

Each run is a fresh process. "headless" runs the same code path as `assistant chat` (CLI
imports, settings, the App) under Textual's headless driver and stamps the App's Ready event
("the first frame has been displayed") and the moment the store is open. "tmux" starts the real
`assistant chat` in a 100x30 tmux pane and polls the pane until the input's placeholder shows:
what a person sees. Prints a table and writes bench/results/tui_first_paint.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 1.0

CHILD = r"""
import sys, time
t0 = float(sys.argv[1])
from assistant.cli import main as cli  # the CLI's own imports, as `assistant chat` pays them
from assistant.cli.chat import _settings
import argparse
settings = _settings(argparse.Namespace())
from assistant.tui.app import AssistantApp
marks = {}

class Bench(AssistantApp):
    def on_ready(self):
        marks["paint"] = time.time() - t0
        super().on_ready()
        self.set_interval(0.01, self._poll)

    def _poll(self):
        ready = self._store_ready
        if ready is not None and ready.done():
            marks["store"] = time.time() - t0
            self.exit()

Bench(settings).run(headless=True, size=(100, 30))
print(marks["paint"], marks.get("store", -1))
"""


def headless(env: dict[str, str]) -> tuple[float, float]:
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", CHILD, repr(t0)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)
    paint, store = out.stdout.split()[-2:]
    return float(paint), float(store)


def tmux(env: dict[str, str]) -> float | None:
    exe = shutil.which("tmux")
    if exe is None:
        return None
    name = f"bench-paint-{os.getpid()}"
    assistant = Path(sys.executable).with_name("assistant")
    cmd = f"{assistant} chat" if assistant.exists() else f"{sys.executable} -m assistant chat"
    envs = " ".join(f"{k}={v}" for k, v in env.items() if k.startswith("ASSISTANT_"))
    t0 = time.time()
    subprocess.run([exe, "new-session", "-d", "-s", name, "-x", "100", "-y", "30",
                    f"env {envs} {cmd}"], check=True)
    try:
        while time.time() - t0 < 30:
            pane = subprocess.run([exe, "capture-pane", "-p", "-t", name], capture_output=True,
                                  text=True).stdout
            if "Ask about the papers" in pane:
                return time.time() - t0
            time.sleep(0.005)
        return None
    finally:
        subprocess.run([exe, "send-keys", "-t", name, "C-q"], check=False)
        time.sleep(0.3)
        subprocess.run([exe, "kill-session", "-t", name], check=False,
                       stderr=subprocess.DEVNULL)


def summary(samples: list[float]) -> dict[str, float]:
    return {"p50_s": statistics.median(samples), "min_s": min(samples), "max_s": max(samples),
            "runs": len(samples)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--no-tmux", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-tui-"))
    env = {**os.environ, "ASSISTANT_STORE": str(work / "store"),
           "ASSISTANT_HISTORY": str(work / "history.db"), "ASSISTANT_BACKEND": "extractive"}
    first_paint, first_store = headless(env)  # first run: ingests the bundled list
    headless(env)  # warm the OS file cache
    paints, stores = [], []
    for _ in range(args.runs):
        paint, store = headless(env)
        paints.append(paint)
        stores.append(store)
    rows: dict[str, dict[str, float]] = {
        "first paint, headless (first run, empty store)": {"s": first_paint},
        "store ready (first run: ingest 19 papers)": {"s": first_store},
        "first paint, headless (warm)": summary(paints),
        "store ready to answer (warm)": summary(stores),
    }
    if not args.no_tmux and shutil.which("tmux"):
        seen = [t for t in (tmux(env) for _ in range(max(3, args.runs // 2))) if t is not None]
        if seen:
            rows["first paint, real terminal (tmux, warm)"] = summary(seen)
    print(f"{'what':<48} {'seconds':>8}")
    for name, r in rows.items():
        value = r.get("s", r.get("p50_s", 0.0))
        extra = (f"  (min {r['min_s']:.2f}, max {r['max_s']:.2f}, n={r['runs']:.0f})"
                 if "p50_s" in r else "")
        print(f"{name:<48} {value:>8.2f}{extra}")
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    result = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "target_first_paint_s": TARGET_S, "rows": rows,
              "when": time.strftime("%Y-%m-%dT%H:%M")}
    (out / "tui_first_paint.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out / 'tui_first_paint.json'}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
