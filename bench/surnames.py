"""Authors named by surname alone, on generated requests over real collections.

    python bench/surnames.py [--collections ml-large,ml-theory] [--unique 40] [--shared 20]

"Papers by Bubeck", "What did Srebro publish?" (search/query_filters.by_surname): from each
collection's own author list, surnames one person here has (spellings aside) and surnames
several people have, picked at an even stride through the sorted list, each asked in four
phrasings. A unique surname is read when the answer's filter is that author (or, spelt two
ways, the surname) and every paper it lists has an author of that surname; a shared one is
read when no filter is applied and the answer opens by naming the people who have it. No
question of the natural sets is phrased so (0 of the 3,419 dev and training texts read an
author differently), so these generated requests are the measure. Writes
bench/results/surnames-dev.json.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
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
from assistant.search.retrieval import Retriever  # noqa: E402

FORMS = ["Papers by {s}", "What did {s} publish?", "Which papers did {s} write?",
         "{s}'s papers"]


def _folded(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name.lower())
                   if not unicodedata.combining(c))


def _surnames(names: dict[str, str]) -> dict[str, set[str]]:
    """surname as written -> the people (folded names) here who have it"""
    people: dict[str, set[str]] = {}
    for said in set(names.values()):
        last = said.split()[-1]
        if len(last) >= 3 and last[0].isupper() and last.replace("-", "").isalpha():
            people.setdefault(last, set()).add(_folded(said))
    # a surname spelt two ways ("Schölkopf", "Scholkopf") is two keys: keep the first
    seen: dict[str, str] = {}
    for last in sorted(people):
        seen.setdefault(_folded(last), last)
    return {last: people[last] for last in seen.values()}


def _stride(items: list[str], n: int) -> list[str]:
    step = max(1, len(items) // n)
    return items[::step][:n]


def _holds(paper: Any, surname: str) -> bool:
    return any(_folded(a).split()[-1:] == [_folded(surname)] for a in paper.authors)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stores", type=Path, default=ROOT / "bench" / "stores")
    ap.add_argument("--collections", default="ml-large,ml-theory")
    ap.add_argument("--unique", type=int, default=40, help="one-person surnames a collection")
    ap.add_argument("--shared", type=int, default=20, help="several-person surnames a collection")
    args = ap.parse_args()
    emb = LocalEmbedder()
    answerer = ExtractiveAnswerer(embedder=emb)
    figures: dict[str, Any] = {}
    for collection in args.collections.split(","):
        retriever = Retriever(store=PaperStore(collection=collection, embedder=emb,
                                               path=args.stores))
        surnames = _surnames(retriever.author_names())
        unique = _stride(sorted(s for s, p in surnames.items() if len(p) == 1), args.unique)
        shared = _stride(sorted(s for s, p in surnames.items() if len(p) > 1), args.shared)
        rows = []
        for i, surname in enumerate(unique + shared):
            question = FORMS[i % len(FORMS)].format(s=surname)
            said = answer(question, retriever=retriever, answerer=answerer, ground=False)
            listed = [c.paper for c in said.citations] if said.outcome == "answered" else []
            if surname in unique:
                author = (said.filters_read or {}).get("author", "")
                ok = (bool(author) and _folded(author).split()[-1] == _folded(surname)
                      and bool(listed) and all(_holds(p, surname) for p in listed))
            else:
                ok = not said.filters_read and f"have the surname {surname}" in said.text
            rows.append({"question": question, "kind": "unique" if surname in unique else
                         "shared", "read": ok, "outcome": said.outcome, "listed": len(listed),
                         "theirs": sum(_holds(p, surname) for p in listed)})
        figures[collection] = {
            kind: {"asked": sum(r["kind"] == kind for r in rows),
                   "read": sum(r["read"] for r in rows if r["kind"] == kind),
                   "papers_listed": sum(r["listed"] for r in rows if r["kind"] == kind),
                   "of_them_theirs": sum(r["theirs"] for r in rows if r["kind"] == kind)}
            for kind in ("unique", "shared")}
        figures[collection]["cases"] = rows
    print("## surnames alone, generated requests\n")
    print("| collection | unique: read / asked | papers listed (theirs) | shared: said / asked |\n"
          "|---|---|---|---|")
    for collection, f in figures.items():
        u, s = f["unique"], f["shared"]
        print(f"| {collection} | {u['read']} / {u['asked']} | {u['papers_listed']} "
              f"({u['of_them_theirs']}) | {s['read']} / {s['asked']} |")
    print(write_results("surnames", "dev", figures).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
