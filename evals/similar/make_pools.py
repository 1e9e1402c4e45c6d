"""Query-by-example pools for "papers like this one" (issue 26), for helpers to judge.

    python evals/similar/make_pools.py pools OUT_DIR     # OUT_DIR/pool-NN.json, 60 queries
    python evals/similar/make_pools.py labels OUT_DIR    # -> evals/similar/labels.jsonl

60 query papers drawn at random (seed 26) from the two natural-questions collections of
fit-venue papers in bench/stores (30 of ml-large: ICLR 2017-18, CoRL 2022-23, NeurIPS 2018; 30
of ml-theory: COLT 2011-24, UAI 2019-24), each with at least five sentences of abstract. Each
gets one pool of ``POOL`` other papers of its collection, pooled from eight searches taken in
turn (so each contributes its best): BM25 and MiniLM over the whole abstract, and over each
facet's sentences (background, method, result; found by the cue rules below, which are only
for pooling). The pool is shuffled and shown without scores or ranks; a helper who has not
seen the program grades every pooled paper against the query on each facet, 0-3 (TREC-style:
0 not related, 1 related, 2 highly, 3 the same problem / method / result). ``labels`` reads
the helpers' ``pool-NN.labels.json`` ({paper_id: {"background": g, "method": g, "result": g}})
into labels.jsonl; a pool whose labels do not cover it is left out, and said. Queries are dev
or test by their paper (the one split registry, assistant/evaluation/splits.py).
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
POOL = 40
QUERIES = {"ml-large": 30, "ml-theory": 30}
FACETS = ("background", "method", "result")
OUT = HERE / "labels.jsonl"
_METHOD = re.compile(r"\b(?:we|this paper|this work)\s+(?:propose|introduce|present|develop|"
                     r"design|formulate|describe|study|consider|give|provide)\b|\bour "
                     r"(?:method|approach|model|framework|algorithm)\b", re.IGNORECASE)
_RESULT = re.compile(r"\b(?:we (?:show|demonstrate|prove|find|establish|obtain)|results?|"
                     r"experiments?|outperform\w*|achiev\w*|improv\w*|state-of-the-art|"
                     r"bound|regret)\b|\d+(?:\.\d+)?\s*%", re.IGNORECASE)


def facet_text(abstract: str) -> dict[str, str]:
    """The abstract's sentences of each facet, by cue rules (for pooling only)."""
    from assistant.textutil import split_sentences

    sents = split_sentences(abstract)
    method = [i for i, s in enumerate(sents) if _METHOD.search(s)]
    result = [i for i, s in enumerate(sents) if _RESULT.search(s) and i not in method[:1]]
    first_method = method[0] if method else max(1, len(sents) // 3)
    background = list(range(0, max(1, first_method)))
    if not method:
        method = list(range(first_method, max(first_method + 1, 2 * len(sents) // 3)))
    if not result:
        result = list(range(2 * len(sents) // 3, len(sents)))
    return {f: " ".join(sents[i] for i in idx if i < len(sents))
            for f, idx in (("background", background), ("method", method),
                           ("result", result))}


def pools(out: Path, stores: Path) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever
    from assistant.textutil import split_sentences

    emb = LocalEmbedder()
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(26)
    n = 0
    for collection, count in QUERIES.items():
        retr = Retriever(store=PaperStore(collection=collection, embedder=emb, path=stores))
        papers = [p for p in retr.store.papers() if len(split_sentences(p.abstract)) >= 5]
        for query in rng.sample(papers, count):
            texts = [query.abstract, *facet_text(query.abstract).values()]
            runs = [[rp.paper for rp in retr.search(t, k=POOL + 1, mode=m).papers
                     if rp.paper.paper_id != query.paper_id]
                    for t in texts for m in ("lexical", "dense")]
            picked: dict[str, Any] = {}
            for i in range(POOL + 1):
                for run in runs:
                    if i < len(run) and len(picked) < POOL:
                        picked.setdefault(run[i].paper_id, run[i])
            pool = list(picked.values())
            rng.shuffle(pool)
            n += 1
            doc = {"query": query.paper_id, "collection": collection,
                   "query_abstract": query.abstract,
                   "papers": [{"paper_id": p.paper_id, "abstract": p.abstract} for p in pool]}
            (out / f"pool-{n:02d}.json").write_text(json.dumps(doc, indent=1,
                                                               ensure_ascii=False))
    print(f"{n} pools -> {out}")
    return 0


def labels(out: Path) -> int:
    rows, missing = [], []
    for path in sorted(out.glob("pool-*.json")):
        if path.name.endswith(".labels.json"):
            continue
        doc = json.loads(path.read_text())
        lab_path = path.with_name(path.stem + ".labels.json")
        lab = json.loads(lab_path.read_text()) if lab_path.exists() else {}
        pool = [p["paper_id"] for p in doc["papers"]]
        if not all(pid in lab and all(f in lab[pid] for f in FACETS) for pid in pool):
            missing.append(path.name)
            continue
        rows.append({"query": doc["query"], "collection": doc["collection"],
                     "labels": {pid: {f: int(lab[pid][f]) for f in FACETS} for pid in pool}})
    OUT.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} labelled pools -> {OUT}" + (f"; left out: {', '.join(missing)}"
                                                     if missing else ""))
    return 0


def main() -> int:
    cmd, out = sys.argv[1], Path(sys.argv[2])
    if cmd == "pools":
        return pools(out, ROOT / "bench" / "stores")
    return labels(out)


if __name__ == "__main__":
    raise SystemExit(main())
