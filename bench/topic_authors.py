"""Who works on a topic, on generated requests over real collections.

    python bench/topic_authors.py [--collections ml-theory,ml-years,ml-large]

"Who works on X?", "Which authors have the most papers on X?", "Who are the leading researchers
in X?" (answer/topic_authors.py): topics made from the titles of papers picked at an even
stride through each collection (two content words, as a user might type them), and the ten
other fields' topics of
bench/exclusion.py. For each answer, checked against the collection's own paper records: each
person named has exactly the count said of the trend's members (one person however accented),
no one left out has more, every paper cited beside a name is that person's and a member, every
[n] one paper; another field's topic is refused. Prints the counts and the p50 of ``answer``;
writes bench/results/topic-authors-dev.json.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from exclusion import OFF_TOPICS  # noqa: E402
from report import write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.textutil import content_words  # noqa: E402

FORMS = ["Who works on {t}?", "Which authors have the most papers on {t}?",
         "Who are the leading researchers in {t}?"]


def _person(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name.lower())
    return " ".join("".join(c for c in folded if not unicodedata.combining(c)).split())


def _violations(said: Any, papers: Any) -> list[str]:
    """What in one answer disagrees with the collection's own records."""
    members = [m["paper_id"] for m in said.trend["papers_on_topic"]]
    own = {p.paper_id: p for p in papers(members)}
    counts: Counter[str] = Counter()
    for pid in members:
        counts.update({_person(a) for a in own[pid].authors})
    wrong = []
    named = {}
    for line in (x for x in said.text.splitlines() if x.startswith("- **")):
        name, n = re.match(r"- \*\*(.+?)\*\*, (\d+) papers?: ", line).groups()
        named[_person(name)] = int(n)
        if counts[_person(name)] != int(n):
            wrong.append(f"count {name}")
        for k in (int(x) for x in re.findall(r"\[(\d+)\]", line)):
            paper = said.citations[k - 1].paper
            if _person(name) not in {_person(a) for a in paper.authors} or \
                    paper.paper_id not in own:
                wrong.append(f"cited {name} [{k}]")
    if named and max((c for p, c in counts.items() if p not in named), default=0) > \
            min(named.values()):
        wrong.append("left out one with more")
    ids = [c.paper.paper_id for c in said.citations]
    if len(ids) != len(set(ids)):
        wrong.append("one paper, two numbers")
    return wrong


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collections", default="ml-theory,ml-years,ml-large")
    ap.add_argument("--topics", type=int, default=30, help="a collection")
    args = ap.parse_args()
    emb = LocalEmbedder()
    answerer = ExtractiveAnswerer(embedder=emb)
    figures: dict[str, Any] = {}
    for collection in args.collections.split(","):
        retriever = Retriever(store=PaperStore(collection=collection, embedder=emb,
                                               path=args.stores))
        everything = retriever.index().all_paper_ids
        step = max(1, len(everything) // args.topics)
        topics = []
        for paper in retriever.papers(list(everything[::step][:args.topics])):
            words = [w for w in content_words(paper.title) if len(w) > 3][:2]
            if len(words) == 2:
                topics.append(" ".join(words))
        rows, ms = [], []
        for i, topic in enumerate(topics):
            question = FORMS[i % len(FORMS)].format(t=topic)
            t0 = time.perf_counter()
            said = answer(question, retriever=retriever, answerer=answerer, ground=False)
            ms.append((time.perf_counter() - t0) * 1000)
            authors = said.trend is not None and "authors" in said.trend
            rows.append({"question": question, "outcome": said.outcome, "authors": authors,
                         "violations": _violations(said, retriever.papers) if authors else []})
        off = [answer(f"Who works on {x}?", retriever=retriever, answerer=answerer,
                      ground=False).outcome for x, _ in OFF_TOPICS]
        figures[collection] = {
            "asked": len(rows), "authors_named": sum(r["authors"] for r in rows),
            "answers_with_a_violation": sum(bool(r["violations"]) for r in rows),
            "other_fields_refused": sum(o == "refused" for o in off), "other_fields": len(off),
            "ms_p50": round(statistics.median(ms), 1), "cases": rows}
    print("## who works on a topic, generated requests\n")
    print("| collection | asked | authors named | answers with a violation | other fields "
          "refused | p50 ms |\n|---|---|---|---|---|---|")
    for collection, f in figures.items():
        print(f"| {collection} | {f['asked']} | {f['authors_named']} | "
              f"{f['answers_with_a_violation']} | {f['other_fields_refused']} of "
              f"{f['other_fields']} | {f['ms_p50']} |")
    print(write_results("topic-authors", "dev", figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
