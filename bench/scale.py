"""Scale: the 22,912 papers of ../shared/corpus/ml-abstracts.jsonl ingested, re-ingested,
resumed after a kill, searched and asked, on this machine. Prints a table, writes JSON.

    python bench/scale.py [--store /tmp/scale] [--resume-papers 4000] [--skip-ingest]
                          [--latency-only]

1. the embedding model's raw throughput on a sample of the same chunk texts (the bound);
2. `assistant ingest` of the whole corpus into a fresh store, as a separate process: wall
   time, papers/s, peak RSS (the child's ru_maxrss);
3. the same command again (nothing changed);
4. resume: a fresh ingest of the first --resume-papers papers killed (SIGKILL) once half of
   them are written, then run again: chunks embedded twice, papers left half-written;
5. retrieval latency p50/p95 for dense, lexical and hybrid over up to 200 TL;DR questions (warm);
6. whole-process `assistant ask --json` (first run after the index is built, then 5 more),
   and the chat's first paint and ready-to-answer time (bench/tui_first_paint.py's probe);
7. size on disk: chroma.sqlite3, Chroma's vector segment, the derived index.
Results go to bench/results/scale.json. Not part of the test suite (about 40 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
BIN = Path(sys.executable).parent
COLLECTION = "ml-all"

RESUME_CHILD = """
import sys
from pathlib import Path
from assistant.index import ingest  # noqa: E402
from assistant.sources.corpus import load_papers  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
papers = load_papers(sys.argv[1])[: int(sys.argv[3])]
store = PaperStore(collection="resume", embedder=LocalEmbedder(), path=Path(sys.argv[2]),
                   create=True)
def tick(state):
    print(state.papers_done, state.papers_total, state.chunks_done, flush=True)
report = ingest.run(store, papers, source="resume", progress=tick)
print("done", report.chunks_embedded, flush=True)
"""


def du(path: Path) -> int:
    if not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, str, str]:
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return took, proc.stdout, proc.stderr


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", type=Path, default=Path("/tmp/scale-store"))
    ap.add_argument("--resume-papers", type=int, default=4000)
    ap.add_argument("--skip-ingest", action="store_true", help="reuse the store")
    ap.add_argument("--latency-only", action="store_true",
                    help="measure retrieval latency on the store again, keep the rest")
    args = ap.parse_args()
    from assistant.index.chunking import chunk_paper, embed_text
    from assistant.index.embeddings import LocalEmbedder
    from assistant.sources.corpus import load_papers

    env = {**os.environ, "ASSISTANT_STORE": str(args.store), "ASSISTANT_COLLECTION": COLLECTION}
    papers = load_papers(CORPUS)
    out: dict = {"papers": len(papers)}

    results = ROOT / "bench" / "results" / "scale.json"
    if args.latency_only:  # the rest as the last run measured it
        out = json.loads(results.read_text())
        emb = LocalEmbedder()
    else:
        # 1. raw throughput on a sample of the same texts (every 20th paper)
        sample = [embed_text(p.title, c.text) for p in papers[::20]
                  for c in chunk_paper(p, max_tokens=200, overlap=40)]
        emb = LocalEmbedder()
        emb.embed(sample[:32])  # load the model outside the timing
        t = time.perf_counter()
        emb.embed(sample)
        raw = len(sample) / (time.perf_counter() - t)
        chunks_total = sum(len(chunk_paper(p, max_tokens=200, overlap=40)) for p in papers)
        out["raw"] = {"sample_chunks": len(sample), "chunks_per_s": raw,
                      "chunks_total": chunks_total, "seconds_for_all": chunks_total / raw}
        print(f"raw embedding: {raw:.1f} chunks/s on {len(sample)} sample chunks -> "
              f"{chunks_total / raw:.0f} s for all {chunks_total} chunks", flush=True)

        # 2-3. ingest, then again
        if not args.skip_ingest:
            shutil.rmtree(args.store, ignore_errors=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            took, _, err = run([str(BIN / "assistant"), "ingest", str(CORPUS)], env)
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            out["ingest"] = {"seconds": took, "papers_per_s": len(papers) / took,
                             "vs_raw": took / out["raw"]["seconds_for_all"],
                             "peak_rss_mb": max(rss, before) / 1024, "summary": err.strip()[-300:]}
            print(f"ingest: {took:.0f} s ({len(papers) / took:.1f} papers/s, "
                  f"{took / out['raw']['seconds_for_all']:.2f}x raw), peak RSS "
                  f"{max(rss, before) / 1024:.0f} MB", flush=True)
        took, _, err = run([str(BIN / "assistant"), "ingest", str(CORPUS)], env)
        out["reingest"] = {"seconds": took, "summary": err.strip()[-300:]}
        print(f"unchanged re-ingest: {took:.1f} s", flush=True)

    # 5. retrieval latency, in process, warm
    from assistant.evaluation.generate import tldr_question
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    store = PaperStore(collection=COLLECTION, embedder=emb, path=args.store)
    retriever = Retriever(store=store)
    retriever.index()
    qs = [q for p in papers[::20] if (t_ := p.extra.get("tldr"))
          and (q := tldr_question(str(t_)))][:200]
    out["latency_ms"] = {}
    for mode in ("dense", "lexical", "hybrid"):
        times, embeds = [], []
        for q in qs:
            parts: dict[str, float] = {}
            t = time.perf_counter()
            retriever.rank(q, mode=mode, timings=parts)
            times.append((time.perf_counter() - t) * 1000)
            embeds.append(parts.get("embed_ms", 0.0))
        search = [t - e for t, e in zip(times, embeds, strict=True)]
        out["latency_ms"][mode] = {"p50": pct(times, 0.5), "p95": pct(times, 0.95),
                                   "search_p50": pct(search, 0.5), "search_p95": pct(search, 0.95),
                                   "embed_p50": pct(embeds, 0.5), "queries": len(times)}
        print(f"{mode}: p50 {pct(times, 0.5):.1f} ms, p95 {pct(times, 0.95):.1f} ms; without "
              f"the query embedding ({pct(embeds, 0.5):.1f} ms) p50 {pct(search, 0.5):.1f} ms, "
              f"p95 {pct(search, 0.95):.1f} ms", flush=True)

    if args.latency_only:
        results.write_text(json.dumps(out, indent=2))
        return

    # 6. whole-process ask --json
    asks = []
    for _ in range(6):
        took, _, _ = run([str(BIN / "assistant"), "ask", "--json",
                          "Which paper learns to navigate with a differentiable planner?"], env)
        asks.append(took)
    out["ask_json_s"] = {"first": asks[0], "warm_median": statistics.median(asks[1:])}
    print(f"ask --json: first {asks[0]:.2f} s, then median {statistics.median(asks[1:]):.2f} s",
          flush=True)

    # 6b. the chat over the same store: first paint and ready to answer (fresh processes)
    sys.path.insert(0, str(ROOT / "bench"))
    from tui_first_paint import headless

    chat_env = {**env, "ASSISTANT_HISTORY": str(args.store.parent / "scale-history.db"),
                "ASSISTANT_BACKEND": "extractive"}
    marks = [headless(chat_env) for _ in range(4)][1:]
    out["chat_s"] = {"first_paint": statistics.median(m[0] for m in marks),
                     "ready": statistics.median(m[1] for m in marks)}
    print(f"chat: first paint {out['chat_s']['first_paint']:.2f} s, ready to answer "
          f"{out['chat_s']['ready']:.2f} s", flush=True)

    # 7. size on disk
    index = args.store / "index" / COLLECTION
    segments = [d for d in args.store.iterdir() if d.is_dir() and d.name != "index"]
    out["size_mb"] = {"total": du(args.store) / 1e6,
                      "chroma.sqlite3": du(args.store / "chroma.sqlite3") / 1e6,
                      "vector segment": sum(du(d) for d in segments) / 1e6,
                      "derived index": du(index) / 1e6}
    print("size MB: " + ", ".join(f"{k} {v:.0f}" for k, v in out["size_mb"].items()), flush=True)

    # 4. resume after a kill at 50%, on the first --resume-papers papers
    rstore = args.store.with_name(args.store.name + "-resume")
    shutil.rmtree(rstore, ignore_errors=True)
    n = args.resume_papers
    child = subprocess.Popen([sys.executable, "-c", RESUME_CHILD, str(CORPUS), str(rstore),
                              str(n)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    embedded_before_kill = 0
    assert child.stdout is not None
    for line in child.stdout:
        done, total, chunks = (int(x) for x in line.split()[:3])
        embedded_before_kill = chunks
        if done >= total / 2:
            child.send_signal(signal.SIGKILL)
            break
    child.wait()
    resumed = subprocess.run([sys.executable, "-c", RESUME_CHILD, str(CORPUS), str(rstore),
                              str(n)], capture_output=True, text=True, cwd=ROOT, check=True)
    again = int(resumed.stdout.strip().splitlines()[-1].split()[1])
    whole = sum(len(chunk_paper(p, max_tokens=200, overlap=40)) for p in papers[:n])
    rs = PaperStore(collection="resume", embedder=emb, path=rstore)
    counts: dict[str, int] = {}
    for _, _, meta in rs.chunks():
        counts[meta["paper_id"]] = counts.get(meta["paper_id"], 0) + 1
    out["resume"] = {"papers": n, "chunks": whole, "embedded_before_kill": embedded_before_kill,
                     "embedded_after": again,
                     "embedded_twice": embedded_before_kill + again - whole,
                     "papers_in_store": len(counts)}
    print(f"resume ({n} papers, {whole} chunks): {embedded_before_kill} embedded before the "
          f"kill, {again} after; embedded twice: {embedded_before_kill + again - whole}; "
          f"{len(counts)} papers in the store", flush=True)
    res = ROOT / "bench" / "results"
    res.mkdir(exist_ok=True)
    results.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
