"""Chinese questions over a collection of thousands: how long `ask --json` takes, beside English.

    python bench/zh_scale.py                 # dev
    python bench/zh_scale.py --split test    # the test figures, once (bench/report.py)

Over ml-large (2,757 papers of ICLR 2017-18, CoRL 2022-23 and NeurIPS 2018 in bench/stores;
`make bench-large`), the part's natural lookups in Chinese and in English (evals/natural/):

- in process: ``answer()`` as `ask` runs it (offline, support check on), after one warm-up
  question: p50 and p95 per language (a Chinese question adds its translation);
- whole command: `assistant ask --json` in a new process, 5 questions a language (Python start,
  imports, the index and the models loaded): the median.

Writes bench/results/zh_scale.json (test) or zh_scale-dev.json.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import natural  # noqa: E402
from report import split_option, write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.evaluation.metrics import percentile  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

COLLECTION = "ml-large"
N_PROCESS = 5


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--n", type=int, default=40, help="questions a language, in process")
    split_option(ap)
    args = ap.parse_args()
    emb = LocalEmbedder()
    retr = Retriever(store=PaperStore(collection=COLLECTION, embedder=emb, path=args.stores))
    answerer = ExtractiveAnswerer(embedder=emb)
    asked = {lang: [q["question"] for q in natural.load(args.split, {kind})
                    if q["collection"] == COLLECTION][: args.n]
             for lang, kind in (("zh", "zh"), ("en", "lookup"))}
    answer(asked["en"][0], retriever=retr, answerer=answerer)  # warm: models and index loaded
    answer(asked["zh"][0], retriever=retr, answerer=answerer)  # and the dictionaries
    figures: dict[str, dict[str, float]] = {}
    exe = Path(sys.executable).with_name("assistant")
    env = {**os.environ, "OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}
    for lang, questions in asked.items():
        times = []
        for q in questions:
            t = time.perf_counter()
            answer(q, retriever=retr, answerer=answerer)
            times.append((time.perf_counter() - t) * 1000)
        whole = []
        for q in questions[:N_PROCESS]:
            t = time.perf_counter()
            subprocess.run([str(exe), "ask", "--json", "--store", str(args.stores),
                            "--collection", COLLECTION, q], check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            whole.append(time.perf_counter() - t)
        figures[lang] = {"questions": len(times), "answer_ms_p50": round(percentile(times, 0.5)),
                         "answer_ms_p95": round(percentile(times, 0.95)),
                         "ask_json_s_median": round(sorted(whole)[len(whole) // 2], 2)}
    print(f"{args.split}: {COLLECTION}, {retr.index().paper_count} papers")
    print("| language | questions | answer() p50 | p95 | `ask --json` median |\n"
          "|---|---|---|---|---|")
    for lang, f in figures.items():
        print(f"| {lang} | {f['questions']} | {f['answer_ms_p50']} ms | {f['answer_ms_p95']} ms "
              f"| {f['ask_json_s_median']} s |")
    print(write_results("zh_scale", args.split, {"collection": COLLECTION, **figures})
          .relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
