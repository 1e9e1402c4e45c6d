"""A third question collection from another field: biomedical abstracts (SciFact's corpus).

    python evals/natural/make_bio.py ingest bench/stores     # collection ``bio`` (~5 min)
    python evals/natural/make_bio.py batches OUT_DIR         # OUT_DIR/bio-NN.json, never committed
    python evals/natural/make_bio.py assemble OUT_DIR        # OUT_DIR/bio-NN.jsonl -> bio.jsonl

The two ML collections are what the decision was fitted on; a researcher's own collection may
be of another field. ``bio`` is SciFact's 5,183 biomedical abstracts (../shared/bench/scifact,
a public benchmark the project tunes on) with at least 40 words, less ``HELD_OUT`` drawn by the
seed. Helpers who see only abstracts write questions about ``BATCHES`` batches of papers the
same way as for the ML collections (evals/natural/README.md, ../shared/QUESTIONS.md): a
question about a held-out paper becomes ``absent``. No paper a SciFact train claim cites is in
a batch (the verifier trained on the dev part of those claims and the decision was fitted on
them), so every question here is about a paper nothing was fitted on. Split by paper through the
one registry (evals/make_splits.py); ``bench/natural.py`` reports the collection on its own
(``@bio``), beside the ML figures and never inside them.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from assemble import questions_of  # noqa: E402

SCIFACT = ROOT.parent / "shared" / "bench" / "scifact"
OUT = HERE / "bio.jsonl"
COLLECTION = "bio"
HELD_OUT = 60
BATCHES, IN_BATCH, HELD_IN_BATCH = 6, 40, 10
SEED = 2027


def rows() -> list[dict]:
    """SciFact's abstracts with at least 40 words, as corpus records (uid, title, abstract)."""
    out = []
    with (SCIFACT / "corpus.jsonl").open() as fh:
        for line in fh:
            r = json.loads(line)
            abstract = " ".join(str(r.get("text", "")).split())
            if len(abstract.split()) >= 40:
                out.append({"uid": str(r["_id"]), "title": " ".join(r["title"].split()),
                            "abstract": abstract})
    return out


def held_out(papers: list[dict]) -> list[str]:
    rng = random.Random(SEED)
    return sorted(rng.sample(sorted(r["uid"] for r in papers), HELD_OUT))


def ingest(store: Path) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.sources.corpus import paper_from_record

    papers = rows()
    held = set(held_out(papers))
    keep = [r for r in papers if r["uid"] not in held]
    st = PaperStore(collection=COLLECTION, embedder=LocalEmbedder(), path=store, create=True)
    report = st.ingest([paper_from_record(r) for r in keep],
                       source=f"{(SCIFACT / 'corpus.jsonl').resolve()}#bio")
    print(report.summary())
    return 0


def claimed() -> set[str]:
    """Papers a SciFact train claim cites (its qrels)."""
    out = set()
    for line in (SCIFACT / "qrels_train_cited.tsv").read_text().splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) >= 2:
            out.add(parts[1])
    return out


def batches(out: Path) -> int:
    papers = rows()
    held = set(held_out(papers))
    cited = claimed()
    free = [r for r in papers if r["uid"] not in cited]
    rng = random.Random(SEED + 1)
    inside = rng.sample([r for r in free if r["uid"] not in held], BATCHES * IN_BATCH)
    outside = [r for r in free if r["uid"] in held]
    rng.shuffle(outside)
    out.mkdir(parents=True, exist_ok=True)
    for n in range(BATCHES):
        pick = inside[n * IN_BATCH:(n + 1) * IN_BATCH] + \
            outside[n * HELD_IN_BATCH:(n + 1) * HELD_IN_BATCH]
        rng.shuffle(pick)
        doc = {"collection": COLLECTION, "papers": [
            {"paper_id": r["uid"], "title": r["title"], "abstract": r["abstract"]} for r in pick]}
        (out / f"bio-{n + 1:02d}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False))
        print(f"bio-{n + 1:02d}: {len(pick)} papers")
    return 0


def assemble(where: Path) -> int:
    """The helpers' bio-NN.jsonl -> bio.jsonl: ids ``bio-NN-LLL``; a lookup (or Chinese lookup)
    about a held-out paper is ``absent`` (``zh-absent``); any other kind about one is dropped;
    a line check.py refuses is dropped and counted."""
    from assistant.evaluation.generate import twinned

    papers = rows()
    held = set(held_out(papers))
    twins = twinned(papers, held)
    out, dropped = [], 0
    for path in sorted(where.glob("bio-*.jsonl")):
        batch = json.loads(path.with_suffix(".json").read_text())
        # a survey is dropped: no pool of its was judged
        items, refused = questions_of(path, batch, held=held, twins=twins, skip=("survey",))
        out += items
        dropped += refused
    OUT.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in out))
    counts: dict[str, int] = {}
    for i in out:
        counts[i["kind"]] = counts.get(i["kind"], 0) + 1
    print(f"{len(out)} questions ({dropped} lines dropped by check.py) -> {OUT}: {counts}")
    return 0


def main() -> int:
    what, where = sys.argv[1], Path(sys.argv[2])
    return {"ingest": ingest, "batches": batches, "assemble": assemble}[what](where)


if __name__ == "__main__":
    raise SystemExit(main())
