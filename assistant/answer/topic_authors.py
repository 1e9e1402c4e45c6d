"""Who works on a topic here: "Who works on bandits?", "Which authors have the most papers on
online learning?".

The topic's papers are the trend's members (judge/membership.py: every paper of the collection
judged on its own, the year's totals and all); their authors are counted, one person however
their name is accented, and the most frequent named with the papers that count, each cited as
``[n]`` (one number a paper, however many of its authors are named). Nothing is generated.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.answer.listing import LISTED, trend_answer, trend_dict
from assistant.answer.types import Answer
from assistant.citations import Citation
from assistant.search.retrieval import RetrievedPaper
from assistant.textutil import folded

if TYPE_CHECKING:
    from assistant.answer.trend import Member, Trend
    from assistant.paper import Paper

AUTHORS = 5  # people named
TITLES = 3  # of each one's papers on the topic, named; the rest counted


@dataclass(frozen=True)
class _Words:
    """The answer's own sentences, in the asker's language (the titles stay as written)."""
    head: str  # {n}, {topic}
    alone: str  # no one has two of the papers
    anonymous: str  # the papers carry no authors
    line: str  # {name}, {count}
    papers: Callable[[int], str]
    joined: str
    more: str  # {n}


_EN = _Words(
    head="The authors with the most of the **{n:,}** papers on {topic} in this collection "
         "(each paper judged on its own: its 0-1 chance of being on the topic beside it):",
    alone="No author has more than one of the **{n:,}** papers on {topic} in this "
          "collection; the authors of the surest:",
    anonymous="(The papers in this collection carry no author names, so no one can be named; "
              "the papers on it follow.)\n\n",
    line="- **{name}**, {count}: ", papers=lambda k: f"{k} papers" if k > 1 else "1 paper",
    joined="; ", more="; and {n} more")
_ZH = _Words(
    head="本文集中关于{topic}的 **{n:,}** 篇论文里，论文最多的作者"
         "（每篇论文单独判断，旁注其属于该主题的 0-1 概率）：",
    alone="本文集中关于{topic}的 **{n:,}** 篇论文里，没有作者超过一篇；"
          "最有把握的几篇的作者：",
    anonymous="（本文集的论文没有作者信息，无法列出作者；以下是相关论文。）\n\n",
    line="- **{name}**，{count}：", papers=lambda k: f"{k} 篇", joined="；", more="；另有 {n} 篇")


def _person(name: str) -> str:
    """One key a person: accents and spacing aside ("Sébastien Bubeck")."""
    return " ".join(folded(name).split())


def authors_answer(t: Trend, *, papers: Callable[[list[str]], list[Paper]],
                   question: str = "", asked: str = "") -> Answer:
    """The authors with the most of the topic's papers (at most ``AUTHORS``, those with two or
    more when any has), each with their papers on it, surest first. The topic not in the
    collection: the trend's own answer says so; a collection whose papers carry no authors:
    its papers on the topic, and that it names no one. ``asked``: the topic as a Chinese
    question named it (``t.topic`` its English): the answer is in Chinese."""
    if not t.members:  # (a collection without years has authors all the same)
        return trend_answer(t, papers=papers, question=question, asked=asked)
    say = _ZH if asked else _EN
    records = {p.paper_id: p for p in papers([m.paper_id for m in t.members])}
    members = [m for m in t.members if m.paper_id in records]
    by_person: dict[str, list[Member]] = defaultdict(list)
    spelt: dict[str, Counter[str]] = defaultdict(Counter)
    for m in members:  # best first: each person's papers stay in that order
        for name in dict.fromkeys(records[m.paper_id].authors):
            key = _person(name)
            if key and m not in by_person[key]:
                by_person[key].append(m)
                spelt[key][name] += 1
    if not by_person:
        said = trend_answer(t, papers=papers, question=question, asked=asked)
        said.text = say.anonymous + said.text
        return said
    ranked = sorted(by_person, key=lambda k: (-len(by_person[k]), -by_person[k][0].score))
    several = [k for k in ranked if len(by_person[k]) > 1]
    topic = f"“{asked}”（{t.topic}）" if asked else f"“{t.topic}”"
    cited: dict[str, int] = {}
    people: list[dict[str, object]] = []  # what ``ask --json`` gives beside the trend
    lines = [(say.head if several else say.alone).format(n=len(members), topic=topic), ""]
    for key in (several or ranked)[:AUTHORS]:
        mine = by_person[key]
        name = spelt[key].most_common(1)[0][0]
        shown = []
        for m in mine[:TITLES]:
            n = cited.setdefault(m.paper_id, len(cited) + 1)
            shown.append(f"*{records[m.paper_id].display_title}* ({m.score:.2f}) [{n}]")
        more = say.more.format(n=len(mine) - TITLES) if len(mine) > TITLES else ""
        lines.append(say.line.format(name=name, count=say.papers(len(mine)))
                     + say.joined.join(shown) + more)
        people.append({"name": name, "papers": len(mine),
                       "paper_ids": [m.paper_id for m in mine]})
    score = {m.paper_id: m.score for m in members}
    citations = [Citation(n, records[pid]) for pid, n in cited.items()]
    retrieved = [RetrievedPaper(c.paper, score[c.paper.paper_id], c.n,
                                verified=score[c.paper.paper_id]) for c in citations]
    return Answer(question or f"who works on “{t.topic}”", "\n".join(lines), "extractive",
                  "trend-v1", citations, retrieved, refused=False, outcome=LISTED,
                  trend={**trend_dict(t), "authors": people})
