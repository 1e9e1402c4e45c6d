"""Retrieval with another embedder model (one train/train_embedder.py made), against the shipped.

    python bench/embedder_eval.py --model train/data/embedder-int8.onnx      # dev only

Copies the papers of the dev question collections (ml-large, ml-theory and bio of bench/stores)
into a store of their own embedded with the model (bench/stores/emb-<model>/, made once),
then asks the dev natural lookups and facts (evals/natural, the one registry's dev part) of
both stores and prints, per model: dense alone, hit@1/5/10 of the asked paper (a paper's best
chunk); and the hybrid ranking as `search` fuses it (dense + BM25, normalised score sum) at
fusion weights of the dense side around the shipped 1.0. Fits nothing, writes nothing but
the store. The test part is never read (this compares candidates; a model that is shipped
is measured by `make report`'s steps).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.query_filters import Filters  # noqa: E402
from assistant.search.retrieval import FusionParams, Retriever  # noqa: E402

COLLECTIONS = ("ml-large", "ml-theory", "bio")
WEIGHTS = (0.6, 0.8, 1.0, 1.2, 1.5, 2.0)


def model_embedder(model: Path) -> LocalEmbedder:
    """The shipped local embedder's code (tokenizer, pooling, 256-token cap) over another
    model file."""

    class Other(LocalEmbedder):
        name = f"experiment:{model.stem}"

        @staticmethod
        def files() -> tuple[Path, Path]:
            return model, LocalEmbedder.files()[1]

    return Other()


def dev_questions() -> list[dict[str, Any]]:
    dev = set(json.loads((ROOT / "evals" / "splits" / "natural.json").read_text())["dev"])
    out = []
    for name in ("questions.jsonl", "bio.jsonl"):
        for line in (ROOT / "evals" / "natural" / name).read_text().splitlines():
            q = json.loads(line)
            asked = q["kind"] in ("lookup", "fact") and q["collection"] in COLLECTIONS
            if q["id"] in dev and asked:
                out.append(q)
    return out


def copy_store(stores: Path, model: Path, emb: LocalEmbedder) -> Path:
    path = stores / f"emb-{model.stem}"
    base = LocalEmbedder()
    for c in COLLECTIONS:
        src = PaperStore(collection=c, embedder=base, path=stores)
        dst = PaperStore(collection=c, embedder=emb, path=path, create=True)
        if not dst.exists() or dst.paper_count() != src.paper_count():
            dst.ingest(src.papers(), source=f"bench/embedder_eval.py copy of {c}")
    return path


def measure(path: Path, emb: LocalEmbedder, questions: list[dict[str, Any]]
            ) -> dict[str, Any]:
    retr = {c: Retriever(store=PaperStore(collection=c, embedder=emb, path=path))
            for c in COLLECTIONS}
    dense_ranks: dict[str, list[int]] = {c: [] for c in COLLECTIONS}
    fused_hits: dict[str, dict[float, list[bool]]] = {c: {w: [] for w in WEIGHTS}
                                                      for c in COLLECTIONS}
    for q in questions:
        r, want = retr[q["collection"]], q["papers"][0]
        _, sides = r.rank(q["question"], filters=Filters(), mode=None, timings={})
        dense = sorted(sides.dense.items(), key=lambda kv: -kv[1][0])
        order = [pid for pid, _ in dense]
        dense_ranks[q["collection"]].append(order.index(want) + 1 if want in order else 10**6)
        for w in WEIGHTS:
            r.params = FusionParams("score", w, 1.2, 60.0)
            fused = r._fuse(sides.dense, sides.lexical, None)
            fused_hits[q["collection"]][w].append(bool(fused) and fused[0][0] == want)
    out: dict[str, Any] = {}
    for c in COLLECTIONS:
        ranks = np.array(dense_ranks[c])
        out[c] = {"n": len(ranks),
                  **{f"dense_hit{k}": round(float((ranks <= k).mean()), 3) for k in (1, 5, 10)},
                  **{f"fused_hit1_w{w}": round(float(np.mean(fused_hits[c][w])), 3)
                     for w in WEIGHTS}}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    args = ap.parse_args()
    questions = dev_questions()
    emb = model_embedder(args.model.resolve())
    path = copy_store(args.stores, args.model, emb)
    rows = {"shipped": measure(args.stores, LocalEmbedder(), questions),
            args.model.name: measure(path, emb, questions)}
    print(f"dev lookups and facts ({len(questions)}); dense side alone, then fused as search "
          "does (normalised score sum, BM25 weight 1.2) by the dense side's weight\n")
    keys = [k for k in next(iter(rows["shipped"].values())) if k != "n"]
    print("| model | collection | n | " + " | ".join(keys) + " |")
    print("|---|---|---|" + "---|" * len(keys))
    for name, by in rows.items():
        for c, vals in by.items():
            print(f"| {name} | {c} | {vals['n']} | " + " | ".join(str(vals[k]) for k in keys)
                  + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
