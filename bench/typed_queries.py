"""Queries as typed into a search box, on dev only: a topic typed alone, and typos.

    python bench/typed_queries.py        # both, over bench/stores (make bench-large first)
    python bench/typed_queries.py --likely 0   # typos with any one edit respelt (not shipped)

- Topics: each dev topic of evals/trend/labels.jsonl (its name, typed alone) asked of ml-years;
  the papers its list answer names, judged by the topic's labelled sample (on the topic =
  graded 1 or 2; a listed paper the sample lacks is counted apart): how many are listed as
  sure, and what share of them is on the topic; the same with the less sure papers. And the dev
  off-domain topics (evals/trend/offdomain.json) asked of ml-years and bio: the outcomes.
- Typos: each dev lookup of evals/natural/questions.jsonl over ml-large and ml-theory given
  one random typo (a letter left out, two swapped, one changed or one added: seed 7) in a word
  of six letters or more: restored exactly, respelt into another word, or left as typed; and
  how many of the well-spelt dev questions (natural, bio, off-domain) are respelt at all.

No test part: the natural questions are all questions (none is a topic typed alone) and none of
them is misspelt; these figures are what the choices in search/spelling.py and
textutil.names_a_topic were made on. Writes bench/results/typed_queries-dev.json.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from report import write_results  # noqa: E402
from trend_eval import judged, part_of  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.evaluation.splits import question_part  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

STORES = ROOT / "bench" / "stores"
NATURAL = ROOT / "evals" / "natural"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def retriever(collection: str, embedder: LocalEmbedder) -> Retriever:
    return Retriever(store=PaperStore(collection=collection, embedder=embedder, path=STORES))


def topics(embedder: LocalEmbedder) -> dict[str, Any]:
    retr = retriever("ml-years", embedder)
    answerer = ExtractiveAnswerer(embedder=embedder)
    rows = [json.loads(line) for line in (ROOT / "evals/trend/labels.jsonl").open()]
    sure = sure_on = listed = listed_on = unjudged = 0
    for row in rows:
        if part_of(row) != "dev":
            continue
        labels = judged(row)
        result = answer(row["topic"], retriever=retr, answerer=answerer)
        for c in result.citations:
            pid = c.paper.paper_id
            if pid not in labels:
                unjudged += 1
                continue
            on = labels[pid][0] >= 1
            listed, listed_on = listed + 1, listed_on + on
            if not c.less_sure:
                sure, sure_on = sure + 1, sure_on + on
    off: dict[str, Counter[str]] = {}
    names = json.loads((ROOT / "evals/trend/offdomain.json").read_text())["topics"]
    for collection in ("ml-years", "bio"):
        retr_c = retriever(collection, embedder)
        off[collection] = Counter()
        for name in names:
            if question_part([], "trend-off:" + name) != "dev":
                continue
            result = answer(name, retriever=retr_c, answerer=answerer)
            sure_said = result.outcome == "answered" and result.confident
            off[collection]["answered sure" if sure_said else result.outcome] += 1
    return {"sure": sure, "sure_on_topic": round(sure_on / max(1, sure), 3),
            "listed": listed, "listed_on_topic": round(listed_on / max(1, listed), 3),
            "listed_unjudged": unjudged,
            "off_domain": {k: dict(v) for k, v in off.items()}}


def typo(word: str, rng: random.Random) -> str:
    i, kind = rng.randrange(1, len(word) - 1), rng.randrange(4)
    if kind == 0:
        return word[:i] + word[i + 1:]
    if kind == 1:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 2:
        return word[:i] + rng.choice(_LETTERS.replace(word[i], "")) + word[i + 1:]
    return word[:i] + rng.choice(_LETTERS) + word[i:]


def typos(embedder: LocalEmbedder) -> dict[str, Any]:
    rng = random.Random(7)
    out: dict[str, Any] = {}
    questions = [json.loads(line) for line in (NATURAL / "questions.jsonl").open()]
    for collection in ("ml-large", "ml-theory"):
        retr = retriever(collection, embedder)
        counts = Counter()
        for q in questions:
            if q["collection"] != collection or q["kind"] != "lookup" or \
                    question_part(q["papers"], q["id"]) != "dev":
                continue
            text = q["question"]
            words = list(re.finditer(r"(?<![\w-])[a-z]{6,}(?![\w-])", text))
            if not words:
                continue
            m = rng.choice(words)
            bad = typo(m.group(0), rng)
            if bad == m.group(0):
                continue
            said, fixes = retr.respelt(text[:m.start()] + bad + text[m.end():])
            counts["typos"] += 1
            counts["restored" if said == text else "respelt wrong" if bad in fixes
                   else "left as typed"] += 1
        out[collection] = dict(counts)
    touched = total = 0
    retrs = {c: retriever(c, embedder) for c in ("ml-large", "ml-theory", "bio")}
    for name in ("questions.jsonl", "bio.jsonl", "offdomain.jsonl"):
        for line in (NATURAL / name).open():
            q = json.loads(line)
            if "question" not in q or question_part(q.get("papers") or [], q["id"]) != "dev":
                continue
            for collection in [q["collection"]] if q.get("collection") else list(retrs):
                if collection in retrs:
                    total += 1
                    touched += bool(retrs[collection].respelt(q["question"])[1])
    out["well_spelt"] = {"questions": total, "respelt": touched}
    return out


def main() -> int:
    if "--likely" in sys.argv:  # the edits respelt: 0 any, 2 (shipped) a letter left out or
        from assistant.search import spelling  # two swapped

        spelling.MIN_LIKELY = int(sys.argv[sys.argv.index("--likely") + 1])
    embedder = LocalEmbedder()
    figures = {"topics": topics(embedder), "typos": typos(embedder)}
    t = figures["topics"]
    print("## typed queries, dev\n")
    print("| topic typed alone (18 dev trend topics, ml-years) | papers | on the topic |")
    print("|---|---|---|")
    print(f"| listed as sure | {t['sure']} | {t['sure_on_topic']} |")
    print(f"| listed, the less sure too | {t['listed']} | {t['listed_on_topic']} |")
    print(f"\noff-domain topics: {t['off_domain']}\n")
    print("| typos (one per dev lookup) | typos | restored | respelt wrong | left as typed |")
    print("|---|---|---|---|---|")
    for collection in ("ml-large", "ml-theory"):
        c = figures["typos"][collection]
        print(f"| {collection} | {c.get('typos', 0)} | {c.get('restored', 0)} | "
              f"{c.get('respelt wrong', 0)} | {c.get('left as typed', 0)} |")
    w = figures["typos"]["well_spelt"]
    print(f"\nwell-spelt dev questions respelt: {w['respelt']} of {w['questions']}")
    print(write_results("typed_queries", "dev", figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
