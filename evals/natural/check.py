"""Check a helper's questions against the rules a script can check (../shared/QUESTIONS.md).

    python evals/natural/check.py BATCH.json QUESTIONS.jsonl

Prints one line per broken rule and a summary; exit 1 when any rule is broken. The rules:
every line is JSON of a known kind with the fields it needs; every paper id is in the batch;
no run of four words (lower-cased, punctuation removed) shared between a lookup, a follow-up's
first turn or a Chinese lookup's English words and the paper's abstract or title; a fact's
expected string is in the abstract body and not in the question or the title; at least half
the lookups use no content word of the title.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

KINDS = {"lookup", "fact", "compare", "followup", "zh", "survey"}
STOP = frozenset(["a", "an", "the", "of", "for", "and", "or", "in", "on", "to", "with", "by",
    "from", "at", "as", "is", "are", "be", "we", "our", "via", "its", "it", "this", "that",
    "these", "those", "using", "based", "learning", "model", "models", "method", "methods",
    "approach", "approaches", "new", "towards", "toward", "into", "under", "over", "can", "how",
    "what", "which", "do", "does", "when", "why"])


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def grams(text: str, n: int = 4) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def title_words(title: str) -> set[str]:
    return {w for w in words(title) if w not in STOP and len(w) > 2}


def check(batch: dict, lines: list[str]) -> tuple[list[str], dict[str, int]]:
    papers = {p["paper_id"]: p for p in batch["papers"]}
    errors: list[str] = []
    counts: dict[str, int] = {}
    lookups = titled = 0
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"line {n}: not JSON ({exc})")
            continue
        kind = q.get("kind")
        if kind not in KINDS:
            errors.append(f"line {n}: kind {kind!r} is not one of {sorted(KINDS)}")
            continue
        counts[kind] = counts.get(kind, 0) + 1
        ids = q.get("paper_ids") or []
        if not ids or any(i not in papers for i in ids):
            errors.append(f"line {n}: paper_ids {ids} not all in the batch")
            continue
        if kind == "compare" and len(set(ids)) != 2:
            errors.append(f"line {n}: a compare names two different papers")
        if kind != "compare" and len(ids) != 1:
            errors.append(f"line {n}: a {kind} names one paper")
        turns = q.get("turns") if kind == "followup" else [q.get("question", "")]
        if kind == "followup" and (not isinstance(turns, list) or len(turns) != 2
                                   or not all(isinstance(t, str) and t.strip() for t in turns)):
            errors.append(f"line {n}: a followup has 'turns': [first, second]")
            continue
        first = turns[0]
        if not isinstance(first, str) or (len(first.split()) < 4 and kind != "zh"):
            errors.append(f"line {n}: the question is missing or too short")
            continue
        for pid in ids:
            p = papers[pid]
            shared = grams(first) & (grams(p["abstract"]) | grams(p["title"]))
            if shared and kind in ("lookup", "followup", "zh", "compare", "survey"):
                errors.append(f"line {n}: shares '{' '.join(sorted(shared)[0])}' with {pid}")
        if kind == "lookup":
            lookups += 1
            if title_words(papers[ids[0]]["title"]) & set(words(first)):
                titled += 1
        if kind == "fact":
            exp = q.get("expect", "")
            p = papers[ids[0]]
            if not exp or exp.lower() not in p["abstract"].lower():
                errors.append(f"line {n}: expect {exp!r} is not in the abstract")
            elif exp.lower() in first.lower() or exp.lower() in p["title"].lower():
                errors.append(f"line {n}: expect {exp!r} is in the question or the title")
        if kind == "followup" and q.get("expect") and \
                q["expect"].lower() not in papers[ids[0]]["abstract"].lower():
            errors.append(f"line {n}: expect {q['expect']!r} is not in the abstract")
        if kind == "zh" and not re.search(r"[\u4e00-\u9fff]", first):
            errors.append(f"line {n}: a zh question is written in Chinese")
    if lookups and titled > lookups / 2:
        errors.append(f"{titled} of {lookups} lookups use a content word of the title: "
                      "at most half may")
    counts["lookups_with_title_words"] = titled
    return errors, counts


def main() -> int:
    batch = json.loads(Path(sys.argv[1]).read_text())
    lines = Path(sys.argv[2]).read_text(encoding="utf-8").splitlines()
    errors, counts = check(batch, lines)
    for e in errors:
        print(e)
    print(f"{len(errors)} problems; counts {counts}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
