"""What a question is, worked out once per turn and handed down.

``parse(question, history)`` reads what the user's own words say: a follow-up of the previous
turn, in another language (CJK), a list ("which papers ..."), an aspect asked of a paper ("what
datasets did they use?"). The answerer then makes the query searched (a follow-up rewritten);
``Form.searched_as(query)`` reads what the query says: a comparison's two sides, the method a
"which paper introduces X?" asks about, and whether it has any content words at all. Search,
the decision and the answerers read these fields and never parse the question again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from assistant.query.aspects import Aspect, asked
from assistant.query.compare import sides
from assistant.query.followup import is_follow_up
from assistant.textutil import (
    asks_for_papers,
    asks_nothing,
    content_words,
    has_cjk,
    is_list_question,
)

Turn = tuple[str, str]  # (question, answer)

_ASKS = re.compile(
    r"\b(?:introduc|propos|invent|develop|first describ|came up with)\w*\s+"
    r"(?:the\s+|a\s+|an\s+)?(?P<name>(?:[A-Z][\w\-–]*|[a-z]+[A-Z][\w\-–]*)"
    r"(?:[\s\-](?:[A-Z][\w\-–]*|\d[\w\-–]*))*)"
    # the question is about the name itself: nothing follows it but what kind of thing it is
    r"(?:\s+(?:optimi[sz]er|algorithm|method|model|architecture|framework|network|loss|"
    r"dataset|benchmark|technique|approach))?\s*[?.!]*\s*$")
_GENERIC = frozenset(["paper", "papers", "method", "methods", "model", "models", "approach",
                      "framework", "we", "i", "a", "the"])


def asked_names(question: str) -> list[str]:
    """The method names a "which paper introduces X" question asks about ([] for others, and
    for a question that goes on to describe the work: "proposed an RNN-CNN model for ..." asks
    for a paper, not for the inventor of a name)."""
    out = []
    for m in _ASKS.finditer(question):
        name = m.group("name").strip(" -–?.!,;:")
        if name and name.lower() not in _GENERIC:
            out.append(name)
    return out


@dataclass(frozen=True)
class Form:
    question: str  # as asked
    follow_up: bool  # leans on the previous turn ("what did they evaluate on?")
    cjk: bool  # written in Chinese, Japanese or Korean
    listing: bool  # "which papers ...": the answer names several papers
    aspect: Aspect | None  # what it asks of one paper: its data, code, limitations ...
    # of the query searched (``searched_as``; the question itself until then)
    query: str = ""
    sides: tuple[str, str] | None = None  # "A vs B": each side is searched on its own
    introduces: tuple[str, ...] = ()  # "which paper introduces X?": X
    contentless: bool = False  # no content word at all ("the", "what is it?")
    asks_nothing: bool = False  # no question at all ("thanks", "ok", "谢谢"): never searched
    # as a follow-up, never answered
    # what retrieval searches when it is not ``query``: a Chinese question's glosses, several a
    # word (search/translate.py); ``query`` then holds the best one a word, what is judged
    terms: str = ""
    # a Chinese follow-up's own words in English, when its query also carries the previous
    # paper's title (which every sentence of that paper matches): what its sentences are read
    # against, as an English follow-up's sentences are read against the turn itself
    own: str = ""
    # asks for papers, several ("which papers ...", "any work on ..."), not only says a plural
    # ("... in earlier methods?"): a list then names its less sure papers too
    survey: bool = False
    # the author whose papers a question asks for and nothing else ("What did Nicholas Roy
    # publish?"): answered with the list of them, newest first (answer/pipeline.py ``searched``)
    by_author: str = ""

    @property
    def read_as(self) -> str:
        """The words abstract sentences are matched against: the question, or for one in
        another language its English (its own words' for a follow-up; else the search query,
        translated offline or by the LLM)."""
        if self.cjk and self.own and not has_cjk(self.own):
            return self.own
        return self.query if self.cjk and self.query and not has_cjk(self.query) \
            else self.question

    def searched_as(self, query: str) -> Form:
        """The form with the query that is searched (read once, here)."""
        pair = sides(query)
        return replace(self, query=query, terms="", sides=(pair[0], pair[1]) if pair else None,
                       introduces=tuple(asked_names(query)),
                       contentless=not content_words(query))


def parse(question: str, history: Sequence[Turn] = ()) -> Form:
    """What the user's words say (``Form``, before the query is made)."""
    nothing = asks_nothing(question)
    return Form(question=question, asks_nothing=nothing,
                follow_up=bool(history) and not nothing and is_follow_up(question,
                                                                          history[-1][0]),
                cjk=has_cjk(question), listing=is_list_question(question),
                aspect=asked(question), survey=asks_for_papers(question))


def of(question: str) -> Form:
    """A question asked on its own, searched as written (``search``, a benchmark)."""
    return parse(question).searched_as(question)
