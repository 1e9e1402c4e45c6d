"""Papers on a topic that do not use something, on generated requests over a real collection.

    python bench/exclusion.py [--collection ml-large]

"Which papers on X do not use Y?" (query/exclusion.py, judge/uses.py): 20 topics of the fit
venues, each asked without three things in four phrasings (60 requests). For each, the answer
as shipped and the answer with the request read as typed (``exclusion.read`` off): how often a
listed paper's title or abstract mentions Y other than negated (the answer says the opposite of
what was asked), the outcome, the papers listed, and the claims misattributed (grounded); and
ten requests on other fields' topics (answered is wrong: nothing here is on them). No
question of the natural sets is phrased so (0 of 3,419 dev and training texts read as one), so
these generated requests are the measure. Writes bench/results/exclusion-dev.json.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from report import write_results  # noqa: E402

from assistant.answer.extractive import ExtractiveAnswerer  # noqa: E402
from assistant.answer.pipeline import answer  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.index.store import PaperStore  # noqa: E402
from assistant.judge.uses import uses  # noqa: E402
from assistant.query import exclusion  # noqa: E402
from assistant.search.retrieval import Retriever  # noqa: E402

TOPICS = ["robot grasping", "image generation", "machine translation", "object detection",
          "few-shot learning", "domain adaptation", "neural architecture search",
          "adversarial examples", "graph neural networks", "continual learning",
          "meta-learning", "question answering", "speech recognition", "model compression",
          "imitation learning", "language modeling", "semi-supervised learning",
          "visual navigation", "representation learning", "program synthesis"]
THINGS = ["reinforcement learning", "GANs", "labels", "attention", "convolutional networks",
          "simulation", "pretraining"]
# topics of other fields: nothing in an ML collection is on them, excluded thing or not
OFF_TOPICS = [("sourdough baking", "yeast"), ("medieval French poetry", "rhyme"),
              ("marathon training", "carbohydrate loading"), ("coral reef bleaching", "satellites"),
              ("tax law", "case studies"), ("opera singing", "microphones"),
              ("beekeeping", "pesticides"), ("wine tasting", "experts"),
              ("knitting patterns", "wool"), ("volcanic eruptions", "seismometers")]
FORMS = ["Which papers on {x} do not use {y}?", "Papers on {x} without {y}",
         "Are there papers that don't use {y} for {x}?", "Show me work on {x} that doesn't "
         "need {y}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collection", default="ml-large")
    args = ap.parse_args()
    emb = LocalEmbedder()
    retriever = Retriever(store=PaperStore(collection=args.collection, embedder=emb,
                                           path=args.stores))
    answerer = ExtractiveAnswerer(embedder=emb)
    asks = [(FORMS[(i + j) % len(FORMS)].format(x=x, y=THINGS[(3 * i + j) % len(THINGS)]),
             THINGS[(3 * i + j) % len(THINGS)]) for i, x in enumerate(TOPICS) for j in range(3)]
    offs = [(FORMS[i % len(FORMS)].format(x=x, y=y), y) for i, (x, y) in enumerate(OFF_TOPICS)]
    read = exclusion.read
    figures: dict[str, Any] = {}
    for arm in ("shipped", "as_typed"):
        exclusion.read = read if arm == "shipped" else (lambda question: None)
        rows, off_rows = [], []
        for question, _thing in offs:  # another field's topic: answered is wrong
            said = answer(question, retriever=retriever, answerer=answerer, ground=False)
            off_rows.append({"question": question, "outcome": said.outcome,
                             "confident": bool(said.to_dict().get("confident"))})
        for question, thing in asks:
            said = answer(question, retriever=retriever, answerer=answerer, ground=True)
            listed = [c.paper for c in said.citations] if said.outcome == "answered" else []
            attribution = said.to_dict().get("attribution") or {}
            rows.append({"question": question, "outcome": said.outcome,
                         "listed": len(listed), "using": sum(uses(p, thing) for p in listed),
                         "misattributed": attribution.get("misattributed", 0)})
        answered = [r for r in rows if r["outcome"] == "answered"]
        figures[arm] = {
            "requests": len(rows), "outcomes": dict(Counter(r["outcome"] for r in rows)),
            "answers_listing_a_paper_that_uses_it": sum(r["using"] > 0 for r in answered),
            "papers_listed": sum(r["listed"] for r in answered),
            "papers_listed_that_use_it": sum(r["using"] for r in answered),
            "misattributed_claims": sum(r["misattributed"] for r in rows),
            "off_domain": len(off_rows),
            "off_domain_answered": sum(r["outcome"] == "answered" for r in off_rows),
            "cases": rows, "off_domain_cases": off_rows}
    exclusion.read = read
    print(f"## papers on X without Y, {len(asks)} generated requests over {args.collection}\n")
    print("| arm | answered | answers listing a paper that uses Y | papers listed | of them "
          "using Y | misattributed claims | other fields' topics answered |\n"
          "|---|---|---|---|---|---|---|")
    for arm, f in figures.items():
        print(f"| {arm} | {f['outcomes'].get('answered', 0)} | "
              f"{f['answers_listing_a_paper_that_uses_it']} | {f['papers_listed']} | "
              f"{f['papers_listed_that_use_it']} | {f['misattributed_claims']} | "
              f"{f['off_domain_answered']} of {f['off_domain']} |")
    print(write_results("exclusion", "dev", figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
