"""Counts and trends asked in Chinese, on generated requests over a multi-year collection.

    python bench/zh_trends.py [--collection ml-years] [--topics 30]

"有多少篇论文是关于强化学习的？", "强化学习的研究这些年有什么变化？", "扩散模型的发展趋势如何？"
(query/trend_ask.read_chinese): topics picked at an even stride through the shipped glossary's
terms (data/zh-glossary.tsv) whose English is in at least 20 of the collection's chunks (the
glossary holds other sciences' terms too: 免疫耐受 over ML papers is refused, as it should be),
each asked in three forms. A request is charted when the answer is a
trend; it matches when that trend has the years, the counts and the cited papers of "How has
work on <the topic it was translated to> changed over the years?", every [n] of its text is
one of its citations, and no English framing sentence is in it. No question of the natural
sets is phrased so (0 of the 429 dev and training Chinese texts read as a count or a trend),
so these generated requests are the measure. Writes bench/results/zh-trends-dev.json.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from report import write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.index.chunk_index import tokenize  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402
from assistant.search.translate import GLOSSARY  # noqa: E402

HELD = 20  # chunks holding a term's English: a topic of this collection
FORMS = ["有多少篇论文是关于{t}的？", "{t}的研究这些年有什么变化？", "{t}的发展趋势如何？"]
# the English trend answer's own sentences: none belongs in an answer to a Chinese asker
ENGLISH_FRAMING = ("The most papers", "papers in this collection", "of the papers", "Nothing in")


def _same(zh: Any, en: Any) -> bool:
    return (en.trend is not None and zh.trend["years"] == en.trend["years"]
            and zh.trend["members"] == en.trend["members"]
            and [c.paper.paper_id for c in zh.citations] ==
            [c.paper.paper_id for c in en.citations])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collection", default="ml-years")
    ap.add_argument("--topics", type=int, default=30)
    args = ap.parse_args()
    emb = LocalEmbedder()
    retriever = Retriever(store=PaperStore(collection=args.collection, embedder=emb,
                                           path=args.stores))
    answerer = ExtractiveAnswerer(embedder=emb)
    index = retriever.index()
    terms = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        term, _, english = line.partition("\t")
        stems = tokenize([english.split("/")[0]])[0] if english else []
        held = index.postings(stems) if stems else None
        if held is not None and len(held) >= HELD:
            terms.append(term)
    step = max(1, len(terms) // args.topics)
    rows = []
    for i, term in enumerate(terms[::step][:args.topics]):
        question = FORMS[i % len(FORMS)].format(t=term)
        zh = answer(question, retriever=retriever, answerer=answerer, ground=False)
        row: dict[str, Any] = {"question": question, "outcome": zh.outcome,
                               "charted": zh.trend is not None, "matches": False}
        if zh.trend is not None:
            topic = zh.trend["topic"]
            en = answer(f"How has work on {topic} changed over the years?", retriever=retriever,
                        answerer=answerer, ground=False)
            cited = {int(n) for n in re.findall(r"\[(\d+)\]", zh.text)}
            row.update(topic=topic, matches=_same(zh, en)
                       and cited <= {c.n for c in zh.citations}
                       and not any(s in zh.text for s in ENGLISH_FRAMING))
        rows.append(row)
    figures = {"asked": len(rows), "charted": sum(r["charted"] for r in rows),
               "charted_as_in_english": sum(r["matches"] for r in rows), "cases": rows}
    print(f"## counts and trends asked in Chinese, {len(rows)} generated requests over "
          f"{args.collection}\n")
    print("| asked | charted | charted as its English trend |\n|---|---|---|")
    print(f"| {figures['asked']} | {figures['charted']} | {figures['charted_as_in_english']} |")
    for r in rows:
        if not r["matches"]:
            print(f"- not charted as in English: {r['question']} ({r['outcome']}, "
                  f"topic {r.get('topic', '-')})")
    print(write_results("zh-trends", "dev", figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
