"""What a question is, worked out once per turn and handed down.

``parse(question, history)`` reads what the user's own words say: a follow-up of the previous
turn, in another language (CJK), a list ("which papers ..."), an aspect asked of a paper ("what
datasets did they use?"). The answerer then makes the query searched (a follow-up rewritten);
``Form.searched_as(query)`` reads what the query says: a comparison's two sides (and the
names a side is no more than), the method a "which paper introduces X?" asks about, and whether
it has any content words at all. Search, the decision and the answerers read these fields and
never parse the question again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from assistant.query import numbered
from assistant.query.aspects import CHALLENGES, Aspect, asked
from assistant.query.compare import MAX_SIDES, of_its_own, read_comparison, sides_zh
from assistant.query.conjunction import on_both
from assistant.query.counted import asks_counted, papers_counted
from assistant.query.followup import is_follow_up
from assistant.query.imperative import record_asked
from assistant.sources.titles import names_written
from assistant.textutil import (
    asks_for_papers,
    asks_nothing,
    compares_nothing,
    content_words,
    has_cjk,
    is_list_question,
    names_a_topic,
    stem,
)

Turn = tuple[str, str]  # (question, answer)

# what kind of thing a name is ("the Adam optimizer", "the Gumbel-softmax trick")
_KIND = (r"(?:optimi[sz]er|algorithm|method|model|architecture|framework|network|loss|dataset|"
         r"benchmark|technique|approach|trick|estimator|relaxation|distribution|objective|"
         r"regulari[sz]er|layer|operator|procedure|attack|defen[sc]e|metric|kernel|prior|"
         r"sampler|module|mechanism|encoder|decoder|embedding|initiali[sz]ation|"
         r"normali[sz]ation|activation|bound|library|toolkit|system)")
_ASKS = re.compile(
    r"\b(?:introduc|propos|invent|develop|first describ|came up with)\w*\s+"
    r"(?:the\s+|a\s+|an\s+)?(?P<name>(?:[A-Z][\w\-–]*|[a-z]+[A-Z][\w\-–]*)"
    r"(?:[\s\-](?:[A-Z][\w\-–]*|\d[\w\-–]*))*)"
    # the question is about the name itself: nothing follows it but what kind of thing it is
    rf"(?:\s+{_KIND})?\s*[?.!]*\s*$")
# "Who wrote the paper on the Gumbel-softmax trick?", "Which paper is about BinGAN?": the paper
# of a name, one no field is called: a digit (Q2D2), capitals inside (BinGAN, IPMark), a
# proper name joined to a word (Gumbel-softmax); not "Adam", "Bayesian", an acronym (RLHF,
# MCTS, GANs: fields many papers are on) nor "Meta-Learning"
_PAPER_OF = re.compile(
    r"\b(?:the\s+|a\s+)?(?:paper|work|article)\s+(?:is\s+)?(?:on|about|behind|that\s+"
    r"(?:introduced|proposed))\s+(?:the\s+|a\s+|an\s+)?(?P<name>(?![A-Z]+s?\b)"
    r"(?=\S*\d|\S*[a-z][A-Z]|[A-Z]{2,}[a-z]|[A-Z][a-z]+-[a-z])(?:[A-Z][\w\-–]*|[a-z]+[A-Z][\w\-–]*))"
    rf"(?:\s+{_KIND})?\s*[?.!]*\s*$")
_GENERIC = frozenset(["paper", "papers", "method", "methods", "model", "models", "approach",
                      "framework", "we", "i", "a", "the"])


def asked_names(question: str) -> list[str]:
    """The method names a "which paper introduces X" question asks about ([] for others, and
    for a question that goes on to describe the work: "proposed an RNN-CNN model for ..." asks
    for a paper, not for the inventor of a name)."""
    out = []
    for m in [*_ASKS.finditer(question), *_PAPER_OF.finditer(question)]:
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
    # "A vs B", "Compare PPO, SAC and TD3" (2 to compare.MAX_SIDES): each side is searched on
    # its own
    sides: tuple[str, ...] | None = None
    introduces: tuple[str, ...] = ()  # "which paper introduces X?": X
    # what it asks of a paper's record ("bibtex": "Give me the BibTeX for X"; "bibtex_all":
    # "BibTeX for all papers on X", each listed paper's; "status": "Was X
    # accepted?"; query/imperative.py), "" for any other question
    record: str = ""
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
    # a topic named with nothing around it ("differential privacy"): listed as the papers on
    # it, unless it is a paper's title or the name its title starts with (``searched``)
    topic: bool = False
    # who works on a topic ("Who works on bandits?", query/field_ask.py): its list names each
    # paper's authors, and those on several of its papers
    who: bool = False
    # the sentence that asks, in English, of a question that first describes its paper in
    # sentences of its own ("有篇论文 ...。找出这些候选中心需要多少时间？"): its words say which
    # sentence of the paper answers, the description's only which paper it is (``asking``)
    ask: str = ""
    # how many papers of a recent answer the question sifts ("which of them use domain
    # randomization?", query/numbered.py ``among``): searched among those alone, and judged
    sifts: int = 0
    # how many papers of a recent answer are each summed up ("Summarize each of these papers",
    # query/numbered.py ``summed_up``): every one listed, each with what it does
    each: int = 0
    # how many papers a list asks for by number ("Give me three papers on X", "the top 5 papers
    # about Y", "三篇论文"): the list shows at most that many (judge/decision.py); 0: none said
    count: int = 0
    # the two things a list asks its papers to be about at once ("both differential privacy
    # and bandits", query/conjunction.py): each listed paper is about each (judge/decision.py)
    both: tuple[str, str] | None = None
    # each side of a comparison that is no more than method names ("Compare PPO and SAC"), its
    # names as written; () for a side that describes a paper, naming things in passing
    # (``searched_as``; judge/decision.py: a side none of whose results introduces its name
    # stands for the closest paper, not the method's own)
    named_sides: tuple[tuple[str, ...], ...] = ()
    # a comparison asked in Chinese ("A 和 B 有什么区别？"), its sides as written: searched
    # each in its English (``with_sides``), as the English query holds no comparison's shape
    asked_sides: tuple[str, ...] | None = None
    # the point a comparison is made on, as said ("sample efficiency" of "Compare PPO, SAC and
    # TD3 on sample efficiency"): the side-by-side answer quotes each paper on it first
    compared_on: str = ""
    # the question as asked, read as a comparison by ``parse`` (``compare.read_comparison``'s
    # sides and point; no sides: it is none; None: not read), so searching it as written reads
    # it once
    reading: tuple[tuple[str, ...], str] | None = None

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
        if query == self.question and self.reading is not None:  # read by ``parse``
            found = (list(self.reading[0]), self.reading[1]) if self.reading[0] else None
        else:
            found = read_comparison(query)
        form = replace(self, query=query, terms="", sides=None, named_sides=(), compared_on="",
                       introduces=tuple(asked_names(query)),
                       contentless=not content_words(query))
        if found is None:
            return form
        compared = form.with_sides(found[0])
        return replace(compared, compared_on=found[1]) if compared.sides else compared

    def with_sides(self, pair: Sequence[str]) -> Form:
        """The form comparing ``pair``, a comparison's sides in the collection's English (a
        Chinese question's ``asked_sides``, translated)."""
        if not 2 <= len(pair) <= MAX_SIDES or not all(pair) or \
                len({side.lower() for side in pair}) < len(pair):
            return self
        return replace(self, sides=tuple(pair),
                       named_sides=tuple(_only_names(side) for side in pair))


def _only_names(side: str) -> tuple[str, ...]:
    """The method names a comparison's side is no more than, as written and in lower-case
    order ("PPO"; not a side that mentions a dataset or a method in passing: "CNN embeddings
    that stand in for hand-designed features")."""
    written = {name.lower(): name for name in names_written(side)}
    said = {w.lower() for w in content_words(side)}
    return tuple(written[n] for n in sorted(written)) if written and said <= set(written) \
        else ()


# words of any paper's parts: a fragment of these after an answer asks about its paper
# ("datasets used", "limitations", "training time", "sample complexity")
_ANY_PAPER = frozenset(stem(w) for w in (
    "data", "dataset", "benchmark", "code", "github", "implementation", "limitation", "weakness",
    "drawback", "baseline", "result", "experiment", "evaluation", "metric", "contribution",
    "novelty", "idea", "intuition", "assumption", "proof", "theorem", "bound", "guarantee",
    "hyperparameter", "training", "time", "cost", "speed", "runtime", "memory", "compute",
    "accuracy", "performance", "author", "venue", "year", "detail", "summary", "takeaway",
    "ablation", "comparison", "setup", "setting", "architecture", "loss", "label", "sample",
    "complexity", "regret", "rate", "error", "gain", "improvement", "speedup", "size",
    "parameter", "future", "application", "task", "real", "hardware", "simulation"))
_RE_ASKS = frozenset(("and", "also", "but", "same", "so", "then", "now", "only", "just", "or",
                      "plus", "again", "more", "less", "without", "with"))


def new_topic(question: str, turn: Turn) -> bool:
    """In a conversation, is a named topic a new one rather than a fragment about the previous
    turn ("differential privacy" after an answer on robot policies)? Said plainly (no question
    mark, not "and for 2-bit"), none of its words is the previous turn's or a word of any
    paper's parts ("datasets used", "sample complexity" ask about the answer's paper). Such a
    topic was read as a follow-up, searched with the previous paper's title appended, and that
    paper was named as the answer, sure."""
    # "open problems in X" names X: the words that ask what is open are no topic of their own
    # (an answer's text says "problem" often: "problem: ..." heads each side of a comparison)
    said = content_words(CHALLENGES.asked.sub(" ", question))
    if "?" in question or not said or said[0] in _RE_ASKS or \
            question.split()[0].lower() in _RE_ASKS:
        return False
    before = {stem(w) for w in content_words(" ".join(turn))} | _ANY_PAPER
    return not {stem(w) for w in said} & before


# where a Chinese sentence ends ("。", "？", "；"), or an English one before a capital (never
# inside "U.S. Census")
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[a-z0-9)\]][.!?;])\s+(?=[A-Z\u4e00-\u9fff])")


def asking(question: str) -> str:
    """The sentence that asks, of a question of several: the last that ends in a question mark
    ("A paper does X. What did it find?", "Which board did it top? The driving one with sensor
    fusion."), else the last; "" for a question of one sentence."""
    parts = [p.strip() for p in _SENTENCE_END.split(question.strip()) if p.strip(" 。？！；.?!;")]
    if len(parts) < 2:
        return ""
    return next((p for p in reversed(parts) if p.endswith(("?", "？"))), parts[-1])


def parse(question: str, history: Sequence[Turn] = ()) -> Form:
    """What the user's words say (``Form``, before the query is made)."""
    # "[1] vs [2]" has no content word, but names two papers of the previous answer
    nothing = (asks_nothing(question) or (not history and compares_nothing(question))) and \
        not numbered.named(question, history)
    topic = not nothing and names_a_topic(question) and (not history or new_topic(
        question, history[-1]))
    cjk = has_cjk(question)
    compared = read_comparison(question)
    # only a Chinese question's words read so; papers named by number ("[1] 和 [2] 有什么区别？",
    # "这两篇论文有什么区别？") by their titles (their numbers were searched, and refused)
    titled = numbered.with_titles(question, history) if cjk and history else question
    pair = sides_zh(titled)
    pair = pair if cjk and not nothing else None
    pair = [side.strip("“”\"") for side in pair] if pair else None
    # "Compare Hyperband and successive halving" (or "测试时训练和测试时自适应有什么区别？")
    # after another answer compares things of its own: a question of its own (read as a
    # follow-up, its sides were searched with the previous answer's titles, and a side named
    # that answer's paper)
    own = of_its_own((list(pair), "") if pair else None) if cjk else of_its_own(compared)
    follow_up = bool(history) and not nothing and not topic and is_follow_up(
        question, history[-1][0]) and not own
    count = 0 if pair or compared else papers_counted(question)
    # "What are the top 5 papers about bandits?" asks for a list however it is worded
    listing = topic or is_list_question(question) or (count > 0 and asks_counted(question))
    both = on_both(question)
    record = record_asked(question, follow_up=follow_up, listing=listing)
    every = record == "bibtex_all"  # "BibTeX for all papers on X": X's papers, a list
    return Form(question=question, asks_nothing=nothing, follow_up=follow_up,
                cjk=cjk, listing=(listing and not pair) or every,
                count=count if listing else 0, aspect=asked(question),
                survey=topic or asks_for_papers(question) or bool(count and listing) or every,
                topic=topic, both=both if listing else None,
                asked_sides=tuple(pair) if pair else None,
                reading=(tuple(compared[0]), compared[1]) if compared else ((), ""),
                record=record)


def of(question: str) -> Form:
    """A question asked on its own, searched as written (``search``, a benchmark)."""
    return parse(question).searched_as(question)
