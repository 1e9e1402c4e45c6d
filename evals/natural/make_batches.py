"""Batches of abstracts for the helpers who write natural questions (../shared/QUESTIONS.md).

    python evals/natural/make_batches.py OUT_DIR      # OUT_DIR/batch-NN.json, never committed
    python evals/natural/make_batches.py --ingest bench/stores   # collection ml-theory (~2 min)
    python evals/natural/make_batches.py --compare DIR bench/stores   # comparison pairs, round 2
    python evals/natural/make_batches.py --training OUT_DIR BATCH_DIR   # the verifier's batches
    python evals/natural/make_batches.py --training2 OUT_DIR     # its second round, wider venues

Two collections of fit-venue papers (the ml-abstracts corpus, read from ../shared):

- ``ml-large``: the store of evals/ml-large.yaml (ICLR 2017-18, CoRL 2022-23, NeurIPS 2018), its
  120 held-out papers the absent ones;
- ``ml-theory``: COLT 2011-24 and UAI 2019-24, less ``HELD_OUT`` papers drawn by the seed.

Each batch mixes papers of one collection (in the store and held out, both parts of the split
registry): the helper sees the abstracts only, never the program or the other batches. The
papers held out of a store are not marked: a question about one becomes an ``absent`` case.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
THEORY = [("colt", y) for y in range(2011, 2025)] + [("uai", y) for y in range(2019, 2025)]
LARGE = [("iclr", 2017), ("iclr", 2018), ("corl", 2022), ("corl", 2023), ("nips", 2018)]
HELD_OUT = 100
SEED = 2026


def rows(corpus: Path, venues: list[tuple[str, int]]) -> list[dict]:
    want = set(venues)
    out = []
    with corpus.open() as fh:
        for line in fh:
            r = json.loads(line)
            if (r.get("venue"), r.get("year")) in want and len(r.get("abstract", "").split()) >= 40:
                out.append(r)
    return out


def theory_held_out(theory: list[dict]) -> list[str]:
    rng = random.Random(SEED)
    return sorted(rng.sample(sorted(r["uid"] for r in theory), HELD_OUT))


def large_held_out() -> list[str]:
    """The papers of the ml-large slice its store leaves out: evals/make_large_suite.py's draw
    (its defaults). Not the suite's held-out cases: a held-out paper whose same-title twin
    stays in the store has no case, yet is still not in the store."""
    sys.path.insert(0, str(ROOT))
    from assistant.evaluation.generate import (
        LARGE_HELD_OUT,
        LARGE_QUESTIONS,
        LARGE_SEED,
        make_cases,
        read_slice,
    )

    papers = read_slice(CORPUS, LARGE)
    store_rows, _ = make_cases(papers, questions=LARGE_QUESTIONS, held_out=LARGE_HELD_OUT,
                               seed=LARGE_SEED)
    kept = {r["uid"] for r in store_rows}
    return sorted(r["uid"] for r in papers if r["uid"] not in kept)


def ingest(store: Path) -> int:
    """Collection ``ml-theory`` in ``store``: the THEORY slice less its held-out papers."""
    sys.path.insert(0, str(ROOT))
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.sources.corpus import paper_from_record

    papers = rows(CORPUS, THEORY)
    held = set(theory_held_out(papers))
    keep = [r for r in papers if r["uid"] not in held]
    st = PaperStore(collection="ml-theory", embedder=LocalEmbedder(), path=store, create=True)
    report = st.ingest([paper_from_record(r) for r in keep], source=f"{CORPUS.resolve()}#ml-theory")
    print(report.summary())
    return 0


def training_batches(out: Path, used: Path) -> int:
    """Batches for the verifier's training questions (train/make_verifier_pairs.py): dev-part
    papers of the two stores that no evaluation batch holds, 100 a batch, 4 a collection."""
    sys.path.insert(0, str(ROOT))
    from assistant.evaluation.splits import paper_part

    seen = {p["paper_id"] for b in used.glob("batch-*.json")
            for p in json.loads(b.read_text())["papers"]}
    rng = random.Random(SEED + 1)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for name, venues in (("ml-large", LARGE), ("ml-theory", THEORY)):
        papers = rows(CORPUS, venues)
        held = set(large_held_out() if name == "ml-large" else theory_held_out(papers))
        pool = [r for r in papers if r["uid"] not in held and r["uid"] not in seen
                and paper_part(r["uid"]) == "dev"]
        pick = rng.sample(pool, 400)
        for i in range(0, 400, 100):
            n += 1
            doc = {"collection": name, "papers": [
                {"paper_id": r["uid"], "title": r["title"],
                 "abstract": " ".join(r["abstract"].split())} for r in pick[i:i + 100]]}
            (out / f"train-{n:02d}.json").write_text(json.dumps(doc, indent=1,
                                                                ensure_ascii=False))
    print(f"{n} training batches -> {out}")
    return 0


# the verifier's second round: venues the first never read (ml-years in bench/stores holds them:
# evals/trend/make_pools.py ingest), and more papers of the two question collections
WIDER = ([("acml", y) for y in range(2010, 2025)] + [("automl", y) for y in range(2022, 2025)]
         + [("corl", y) for y in (2021, 2024, 2025)])


def used_papers() -> set[str]:
    """Every paper an evaluation question, a survey pool or a first-round training question
    is about (none of them enters the second round; a second-round question's own paper is
    not counted, so the round can be gathered again)."""
    out: set[str] = set()
    for name in ("questions.jsonl", "surveys.jsonl"):
        for line in (ROOT / "evals" / "natural" / name).read_text().splitlines():
            r = json.loads(line)
            out.update(r.get("papers") or [])
            out.update((r.get("labels") or {}).keys())
    for line in (ROOT / "train" / "natural-train.jsonl").read_text().splitlines():
        if json.loads(line).get("round", 1) == 1:
            out.update(json.loads(line)["papers"])
    return out


def training_batches2(out: Path) -> int:
    """The second round's batches: 500 dev papers of ``WIDER`` (collection ``ml-years``, 100 a
    batch), 250 more of each question collection (125 a batch); no paper of ``used_papers``."""
    sys.path.insert(0, str(ROOT))
    from assistant.evaluation.splits import paper_part

    used = used_papers()
    rng = random.Random(SEED + 2)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for name, venues, count, size in (("ml-years", WIDER, 500, 100),
                                      ("ml-large", LARGE, 250, 125),
                                      ("ml-theory", THEORY, 250, 125)):
        papers = rows(CORPUS, venues)
        held = set() if name == "ml-years" else set(
            large_held_out() if name == "ml-large" else theory_held_out(papers))
        pool = [r for r in papers if r["uid"] not in held and r["uid"] not in used
                and paper_part(r["uid"]) == "dev"]
        pick = rng.sample(pool, count)
        for i in range(0, count, size):
            n += 1
            doc = {"collection": name, "papers": [
                {"paper_id": r["uid"], "title": r["title"],
                 "abstract": " ".join(r["abstract"].split())} for r in pick[i:i + size]]}
            (out / f"train2-{n:02d}.json").write_text(json.dumps(doc, indent=1,
                                                                 ensure_ascii=False))
    print(f"{n} second-round training batches -> {out}")
    return 0


def compare_batches(out: Path, stores: Path, pairs: int = 40) -> int:
    """Pairs of dev papers of each collection for comparison questions (round 2 of the kind:
    round 1 had 31, too few to see a form the rules miss): half a paper and its nearest dev
    neighbour by the collection's own search on its title (two papers on one problem, the
    comparison a researcher makes), half two papers drawn at random. Dev papers only: every
    question written from these is dev by the registry; never a paper the verifier's training
    questions are about (train/natural-train.jsonl), which no evaluation question may be."""
    sys.path.insert(0, str(ROOT))
    from assistant.evaluation.splits import paper_part
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    trained = {p for line in (ROOT / "train" / "natural-train.jsonl").read_text().splitlines()
               for p in json.loads(line)["papers"]}
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED + 2)
    emb = LocalEmbedder()
    for n, (name, venues) in enumerate((("ml-large", LARGE), ("ml-theory", THEORY)), 1):
        papers = rows(CORPUS, venues)
        held = set(large_held_out() if name == "ml-large" else theory_held_out(papers))
        dev = [r for r in papers if r["uid"] not in held and r["uid"] not in trained
               and paper_part(r["uid"]) == "dev"]
        by_id = {r["uid"]: r for r in dev}
        retr = Retriever(store=PaperStore(collection=name, embedder=emb, path=stores))
        firsts = rng.sample(dev, pairs * 2)
        chosen: list[tuple[dict, dict]] = []
        for i, a in enumerate(firsts[:pairs]):
            if i % 2 == 0:
                near = [rp.paper.paper_id for rp in retr.search(a["title"], k=8).papers]
                b_id = next((p for p in near if p != a["uid"] and p in by_id), None)
                b = by_id[b_id] if b_id else firsts[pairs + i]
            else:
                b = firsts[pairs + i]
            chosen.append((a, b))
        doc = {"collection": name, "pairs": [
            {"pair": k, "papers": [{"paper_id": r["uid"], "title": r["title"],
                                    "abstract": " ".join(r["abstract"].split())} for r in ab]}
            for k, ab in enumerate(chosen, 1)]}
        (out / f"compare-{n:02d}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False))
        print(f"compare-{n:02d}: {name}, {len(chosen)} pairs")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--compare"]:
        return compare_batches(Path(sys.argv[2]), Path(sys.argv[3]))
    if sys.argv[1:2] == ["--training2"]:
        return training_batches2(Path(sys.argv[2]))
    if sys.argv[1:2] == ["--ingest"]:
        return ingest(Path(sys.argv[2]))
    if sys.argv[1:2] == ["--training"]:
        return training_batches(Path(sys.argv[2]), Path(sys.argv[3]))
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    batches: list[tuple[str, list[dict]]] = []
    for name, venues, held in (("ml-large", LARGE, None), ("ml-theory", THEORY, None)):
        papers = rows(CORPUS, venues)
        held = set(large_held_out() if name == "ml-large" else theory_held_out(papers))
        by_id = {r["uid"]: r for r in papers}
        inside = [r for r in papers if r["uid"] not in held]
        pick = rng.sample(inside, 440) + [by_id[u] for u in sorted(held) if u in by_id][:80]
        rng.shuffle(pick)
        for i in range(0, len(pick), 65):
            batches.append((name, pick[i:i + 65]))
    for n, (name, papers) in enumerate(batches, 1):
        doc = {"collection": name, "papers": [
            {"paper_id": r["uid"], "title": r["title"], "abstract": " ".join(r["abstract"].split())}
            for r in papers]}
        (out / f"batch-{n:02d}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False))
        print(f"batch-{n:02d}: {name}, {len(papers)} papers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
