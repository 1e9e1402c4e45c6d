"""Are the lookups the program gets wrong mislabelled, or misread? A blind second reading.

    python evals/natural/adjudicate.py packets KEY.json PACKET_DIR   # from natural-dev.json
    python evals/natural/adjudicate.py score KEY.json JUDGED.jsonl... [--out FILE.jsonl]

``packets`` takes the dev lookups that ``bench/natural.py --split dev`` answered with a wrong
paper first (``bench/results/natural-dev.json``; never a test run), and as many it answered
right (controls, seeded), and pairs each question with two papers in a random order: the one
it was written about and the one the program named first (for a control, the best other paper
retrieval ranks). Helpers who see only a packet (the question and the two titles and
abstracts, never which is which, nor the program's answer) judge which paper the question
asks about: A, B, both or neither. The key (which is which) is written apart, for ``score``.
If the helpers pick the labelled paper for the misses about as often as for the controls, the
misses are the program's misreadings, not the labels' ambiguity.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "natural-dev.json"
QUESTIONS = tuple(ROOT / "evals" / "natural" / f for f in ("questions.jsonl", "bio.jsonl"))


def packets(args: argparse.Namespace) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    run = json.loads(RESULTS.read_text())
    if run["figures"].get("split") != "dev":
        raise SystemExit("natural-dev.json is not a dev run: run bench/natural.py --split dev")
    cases = [c for c in run["figures"]["cases"] if c["kind"] == "lookup"]
    qs = {r["id"]: r for f in QUESTIONS for r in map(json.loads, f.read_text().splitlines())}
    rng = random.Random(args.seed)
    wrong = [c for c in cases if c["wrong_first"]]
    controls = rng.sample([c for c in cases if c["right_first"]], len(wrong))
    emb, retr = LocalEmbedder(), {}
    items = []
    for kind, group in (("miss", wrong), ("control", controls)):
        for c in group:
            q, col = qs[c["id"]], c["collection"]
            r = retr.setdefault(col, Retriever(store=PaperStore(
                collection=col, embedder=emb, path=args.stores)))
            label = q["papers"][0]
            other = c["first"] if kind == "miss" else next(
                rp.paper.paper_id for rp in r.search(q["question"], k=4).papers
                if rp.paper.paper_id not in q["papers"])
            papers = {p.paper_id: p for p in r.store.papers([label, other])}
            pair = [label, other]
            rng.shuffle(pair)
            items.append({"id": c["id"], "kind": kind, "label": label, "other": other,
                          "question": q["question"], "A": pair[0], "B": pair[1],
                          "texts": [f"{papers[p].title}. {papers[p].abstract}" for p in pair]})
    rng.shuffle(items)
    for n, it in enumerate(items, 1):
        it["n"] = n
    args.key.write_text(json.dumps([{k: v for k, v in it.items() if k != "texts"}
                                    for it in items], indent=1))
    args.dir.mkdir(parents=True, exist_ok=True)
    half = (len(items) + 1) // 2
    for part, chunk in enumerate((items[:half], items[half:]), 1):
        (args.dir / f"packet{part}.md").write_text("".join(
            f"## Item {it['n']}\n\nQuestion: {it['question']}\n\nPaper A: {it['texts'][0]}\n\n"
            f"Paper B: {it['texts'][1]}\n\n" for it in chunk))
    print(f"{len(items)} items ({len(wrong)} misses, {len(controls)} controls) in "
          f"{args.dir}/packet1.md and packet2.md; the key in {args.key}")
    return 0


def score(args: argparse.Namespace) -> int:
    key = {it["n"]: it for it in json.loads(args.key.read_text())}
    judged = {r["n"]: r for f in args.judged for r in map(json.loads, f.read_text().splitlines())
              if r}
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for n, it in sorted(key.items()):
        r = judged.get(n)
        if r is None:
            continue
        choice = r["choice"]
        verdict = choice if choice in ("both", "neither") else (
            "label" if it[choice] == it["label"] else "other")
        field = "bio" if it["id"].startswith("bio") else "ML"
        tally[it["kind"]][verdict] += 1
        tally[f"{it['kind']}@{field}"][verdict] += 1
        rows.append({"id": it["id"], "kind": it["kind"], "label": it["label"],
                     "other": it["other"], "A": it["A"], "B": it["B"], "judged": verdict,
                     "why": r.get("why", "")})
    print(f"{len(rows)} of {len(key)} judged")
    for k, v in sorted(tally.items()):
        print(f"  {k}: " + ", ".join(f"{name} {v[name]}" for name in
                                    ("label", "other", "both", "neither")))
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("packets")
    p.add_argument("key", type=Path)
    p.add_argument("dir", type=Path)
    p.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    p.add_argument("--seed", type=int, default=7)
    s = sub.add_parser("score")
    s.add_argument("key", type=Path)
    s.add_argument("judged", type=Path, nargs="+")
    s.add_argument("--out", type=Path)
    args = ap.parse_args()
    return packets(args) if args.cmd == "packets" else score(args)


if __name__ == "__main__":
    raise SystemExit(main())
