"""The Chinese surveys and facts (issue 25) -> questions.jsonl and surveys.jsonl.

    python evals/natural/assemble_zh.py /tmp/zhwrite   # once; the helper's files are not kept

A helper who saw only abstracts (never the program, its answers or the other questions) wrote,
in Chinese, in its own words:

- ``surveys-zh.jsonl``: one survey question for each labelled survey topic, given the English
  topic line (its scope) and up to six abstracts on it; the 40-paper pool's labels are the
  English survey's (the same topic), so recall and precision are measured alike;
- ``facts-zh.jsonl``: one fact question for 120 of the English fact items (seed 25), given the
  abstract and the expected string only (never the English question); the expected string is
  not in the question.

Each becomes a row with id ``zh-<the English item's id>``, the same papers (so the one split
registry puts it in the same part) and kind ``zh-survey`` or ``zh-fact``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    src = Path(sys.argv[1])
    questions = [json.loads(x) for x in (HERE / "questions.jsonl").read_text().splitlines()]
    surveys = [json.loads(x) for x in (HERE / "surveys.jsonl").read_text().splitlines()]
    by_id = {q["id"]: q for q in questions}
    have = {q["id"] for q in questions}
    new_q, new_s = [], []
    for line in (src / "surveys-zh.jsonl").read_text().splitlines():
        zh = json.loads(line)
        en = next(s for s in surveys if s["id"] == zh["id"])
        row = {"id": f"zh-{en['id']}", "collection": en["collection"], "kind": "zh-survey",
               "papers": en["papers"], "question": zh["question"]}
        if row["id"] not in have:
            new_q.append(row)
            new_s.append({**row, "labels": en["labels"]})
    for line in (src / "facts-zh.jsonl").read_text().splitlines():
        zh = json.loads(line)
        if "question" not in zh:
            continue
        en = by_id[zh["id"]]
        assert zh.get("question") and en["expect"].lower() not in zh["question"].lower()
        row = {"id": f"zh-{en['id']}", "collection": en["collection"], "kind": "zh-fact",
               "papers": en["papers"], "question": zh["question"], "expect": en["expect"]}
        if row["id"] not in have:
            new_q.append(row)
    with (HERE / "questions.jsonl").open("a") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in new_q)
    with (HERE / "surveys.jsonl").open("a") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in new_s)
    print(f"{len(new_q)} questions, {len(new_s)} labelled surveys added")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
