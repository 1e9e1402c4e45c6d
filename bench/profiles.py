"""Where the time goes at scale: pyinstrument profiles of the costs the scale targets name.

    python bench/profiles.py [--store /tmp/scale-store]

Over the store bench/scale.py leaves (22,912 papers, collection ml-all), each in a fresh
process: an unchanged re-ingest, a whole-process `ask --json`, a query's retrieval (warm, 50
questions), and an `ask --json` that rebuilds the derived index (its folder moved aside, then
put back). Each profile's call tree goes to bench/results/profiles/NAME.txt; the table prints
each one's wall time and its first frames in this package.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
OUT = ROOT / "bench" / "results" / "profiles"
COLLECTION = "ml-all"

RETRIEVAL = """
import json, sys
from pathlib import Path
from assistant.index.embeddings import LocalEmbedder
from assistant.search.retrieval import Retriever
from assistant.index.store import PaperStore
store = PaperStore(collection=sys.argv[2], embedder=LocalEmbedder(), path=Path(sys.argv[1]))
retriever = Retriever(store=store)
retriever.index().dense  # loaded outside the profile's interest: a warm chat
retriever.search("warm up", k=6)
from pyinstrument import Profiler
rows = [json.loads(l) for _, l in zip(range(5000), open(sys.argv[3]))]
qs = [r.get("tldr") or r.get("title") for r in rows[::100]][:50]
with Profiler(interval=0.0005) as prof:
    for q in qs:
        retriever.rank(q)
Path(sys.argv[4]).write_text(prof.output_text(unicode=True, color=False))
"""


def profile(name: str, argv: list[str], env: dict[str, str], *, wrap: bool = True) -> None:
    """Run argv under pyinstrument (``wrap``), or as a script that writes its own profile."""
    target = OUT / f"{name}.txt"
    pre = ["-m", "pyinstrument", "-o", str(target)] if wrap else []
    subprocess.run([sys.executable, *pre, *argv], env=env, cwd=ROOT, check=True,
                   capture_output=True)
    lines = [line.rstrip() for line in target.read_text().splitlines() if line.strip()]
    import re

    found = re.search(r"Duration: ([0-9.]+)", target.read_text())
    wall = found.group(1) if found else "?"
    heavy = [line.strip(" │├└─") for line in lines if "assistant/" in line][:3]
    print(f"{name:<16} {wall:>8} s   " + " | ".join(h[:60] for h in heavy), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", type=Path, default=Path("/tmp/scale-store"))
    args = ap.parse_args()
    if not (args.store / "chroma.sqlite3").exists():
        sys.exit(f"no store at {args.store}: run bench/scale.py first")
    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "ASSISTANT_STORE": str(args.store), "ASSISTANT_COLLECTION": COLLECTION,
           "ASSISTANT_BACKEND": "extractive"}
    cli = ["-m", "assistant"]
    profile("reingest", [*cli, "ingest", str(CORPUS)], env)
    profile("ask-json", [*cli, "ask", "--json",
                         "Which paper learns to navigate with a differentiable planner?"], env)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(RETRIEVAL)
    try:
        profile("retrieval-x50", [fh.name, str(args.store), COLLECTION, str(CORPUS),
                                  str(OUT / "retrieval-x50.txt")], env, wrap=False)
    finally:
        Path(fh.name).unlink()
    index = args.store / "index" / COLLECTION
    aside = index.with_name(index.name + ".aside")
    shutil.move(index, aside)
    try:
        profile("ask-index-build", [*cli, "ask", "--json", "Which papers learn to plan?"], env)
    finally:
        shutil.rmtree(index, ignore_errors=True)
        shutil.move(aside, index)


if __name__ == "__main__":
    main()
