"""What the collection cannot say about citations, said plainly (query/cites_ask.py).

A paper list holds titles and abstracts, not reference lists or citation counts. "Which papers
cite X?" gets that said, then the papers here most like X when X is here (some may build on
it; none is known to cite it); "How many citations does X have?" and "Which papers are the
most cited?" get it said alone; "the most cited papers on T" gets it said before T's papers.
Nothing here is generated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.answer.types import Answer

if TYPE_CHECKING:
    from assistant.paper import Paper
    from assistant.query.cites_ask import CitesAsk


@dataclass(frozen=True)
class _Words:
    citing: str  # {title}: before the papers like it
    citing_absent: str  # {what}
    count: str  # {named}
    ranking: str  # {topic}: before the topic's papers
    ranking_alone: str
    named: str  # {title} {where}: a paper the collection holds


_EN = _Words(
    citing="(This collection holds titles and abstracts, not the papers' reference lists, so "
           "which papers cite **{title}** cannot be told from it. The papers here most like "
           "it follow: some may build on it; none is known to cite it.)",
    citing_absent="This collection holds titles and abstracts, not the papers' reference "
                  "lists, so it cannot tell which papers cite “{what}”, and no paper here is "
                  "titled or named so. For the papers on a topic, ask “Which papers are about "
                  "...?”.",
    count="This collection holds titles and abstracts, not citation counts, so how often "
          "{named} is cited cannot be told from it.",
    ranking="(This collection holds no citation counts, so which papers on “{topic}” are the "
            "most cited cannot be told from it; its papers on it follow, the closest first.)",
    ranking_alone="This collection holds titles and abstracts, not citation counts, so which "
                  "of its papers are the most cited cannot be told from it. For the papers on "
                  "a topic, ask “Which papers are about ...?”.",
    named="**{title}**{where}")
_ZH = _Words(
    citing="（本文集只有标题和摘要，没有参考文献列表，无法判断哪些论文引用了 **{title}**。"
           "以下是本文集中与它最相近的论文：有的可能以它为基础，但都不能确定引用了它。）",
    citing_absent="本文集只有标题和摘要，没有参考文献列表，无法判断哪些论文引用了“{what}”，"
                  "本文集中也没有以此为题或为名的论文。要查看某一主题的论文，可以问“关于……的论文有哪些？”。",
    count="本文集只有标题和摘要，没有引用次数，无法知道{named}被引用了多少次。",
    ranking="（本文集没有引用次数，无法判断关于“{topic}”的论文中哪些被引用最多；"
            "以下是关于它的论文，最相关的在前。）",
    ranking_alone="本文集只有标题和摘要，没有引用次数，无法判断哪些论文被引用最多。"
                  "要查看某一主题的论文，可以问“关于……的论文有哪些？”。",
    named=" **{title}**{where} ")


def _words(chinese: bool) -> _Words:
    return _ZH if chinese else _EN


def citing_note(paper: Paper, *, chinese: bool = False) -> str:
    """What is said before the papers like ``paper`` when its citing papers are asked for."""
    return _words(chinese).citing.format(title=paper.display_title)


def ranking_note(topic: str, *, chinese: bool = False) -> str:
    """What is said before a topic's papers when its most cited ones are asked for."""
    return _words(chinese).ranking.format(topic=topic)


def unanswerable(ask: CitesAsk, question: str, *, paper: Paper | None,
                 chinese: bool = False) -> Answer:
    """Citations asked of a paper the collection does not hold, a paper's citation count, or
    the most cited papers with no topic: said that the collection cannot tell, nothing cited
    (outcome "refused")."""
    say = _words(chinese)
    if ask.kind == "count":
        named = say.named.format(title=paper.display_title, where=f" ({paper.venue_year})"
                                 if paper.venue_year else "") if paper else f"“{ask.what}”"
        text = say.count.format(named=named)
    elif ask.kind == "citing":
        text = say.citing_absent.format(what=ask.what)
    else:
        text = say.ranking_alone
    return Answer(question, text, "extractive", "citations-v1", [], [], refused=True,
                  outcome="refused", search_query=ask.what)
