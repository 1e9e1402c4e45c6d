"""Is each sentence of an answer supported by the paper it cites, and by no other paper better?

An answer is split into sentences, and each sentence into claims at its citation groups: the
words before ``[2]`` (back to the previous citation) are what source 2 is cited for. A claim is
compared with the units of the cited paper: its title line (title, venue, year), each abstract
sentence, and each pair of neighbouring sentences. A unit's score mixes the embedding cosine
and the share of the claim's content words the unit holds; the best unit is the evidence.

- **Verdict**: ``supported`` at or above ``SUPPORTED``, ``weak`` at or above ``WEAK``, else
  ``unsupported``; a number in the claim that the cited paper does not state makes it
  ``unsupported`` whatever the score. The two cut-offs were fitted by
  ``bench/grounding_judge.py`` on labelled pairs (dev split; make report scores the test split).
- **Attribution**: the same score against every retrieved paper. A claim is *misattributed*
  when another retrieved paper supports it (``supported`` level) clearly better than every paper
  it cites: a claim taken from paper A but cited to B.
"""

from __future__ import annotations

import itertools
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.citations import parse_group
from assistant.textutil import clean_markup, content_words, defang_refs, split_sentences, stem

if TYPE_CHECKING:
    import numpy as np

    from assistant.citations import Citation
    from assistant.index.embeddings import Embedder
    from assistant.paper import Paper
    from assistant.search.retrieval import RetrievedPaper

# fitted by bench/grounding_judge.py --fit on the dev pairs (the split registry's dev papers);
# the test figures come from make report (bench/results/grounding_judge.json)
SUPPORTED = 0.66
WEAK = 0.58
W_COSINE = 0.7  # score = W_COSINE * cosine + (1 - W_COSINE) * word containment
MISATTRIBUTION_MARGIN = 0.08  # how much better another paper must support a claim

# words that frame a claim rather than state it ("The most relevant paper is ...")
_FRAMING = frozenset(["authors", "relevant", "related", "collection", "bear", "bears", "closest",
                      "answer", "answers", "indexed", "mentioned", "according", "abstract", "match",
                      "exactly", "sure", "possibly", "side", "sides", "comparison", "clearly",
                      "matches", "one"])
# phrases that frame where their words alone may be claimed: a comparison's side named by its
# place ("The third side of this comparison is ...", not "the first method to ..."), a tie
# ("Two papers here match this about equally well: ...", not "two datasets", "works well")
_FRAMING_PHRASE = re.compile(r"\b(?:first|second|third|fourth|fifth|sixth) side\b|"
                             r"^two papers here match this about equally well\b", re.IGNORECASE)
_CITE = re.compile(r"\[\s*(\d{1,3}(?:\s*(?:[,;]|[-–—]|and)\s*\d{1,3})*)\s*\]")
_LEADING_CITES = re.compile(r"^((?:\s*\[\s*\d[\d\s,;–—-]*\])+)\s*")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)*(?![\w])")
_CACHE_SIZE = 20000
_cache: OrderedDict[tuple[str, str], Any] = OrderedDict()


def sentence_vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Embeddings of short texts, cached (the answerer and the judge embed the same sentences)."""
    import numpy as np

    name = getattr(embedder, "name", "")
    missing = list(dict.fromkeys(t for t in texts if (name, t) not in _cache))
    new = dict(zip(missing, embedder.embed(missing), strict=True)) if missing else {}
    rows = []
    for t in texts:  # read before the cache makes room: a full cache drops its oldest, which
        # may be these texts' own (a long chat crashed with a KeyError here)
        if t in new:
            rows.append(new[t])
        else:
            _cache.move_to_end((name, t))
            rows.append(_cache[(name, t)])
    for t, v in new.items():
        _cache[(name, t)] = v
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    if not rows:
        return np.zeros((0, 1), dtype=np.float32)
    return np.vstack(rows)


def stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(_FRAMING_PHRASE.sub(" ", clean_markup(text)))
            if w not in _FRAMING}


def numbers(text: str) -> set[str]:
    return {m.group(0).lstrip("+-").replace(",", "") for m in _NUMBER.finditer(text)}


def claim_text(text: str) -> str:
    """What a claim says, without citations, markdown and list bullets."""
    text = _CITE.sub("", text).replace("**", "")
    return re.sub(r"\s+", " ", text).strip(" -:;,.\n")


# -- splitting an answer ------------------------------------------------------------------------
_BOLD = re.compile(r"\*\*[^*\n]+\*\*")
_HIDE = str.maketrans({".": "\ue000", "?": "\ue001", "!": "\ue002"})
_SHOW = str.maketrans({"\ue000": ".", "\ue001": "?", "\ue002": "!"})
# an author's initial or title ("by Aaron D. Tucker and Robert E. Schapire", "Y. X. Rachel
# Wang", "Dr. Nadereh Hatami"): no sentence ends there
_INITIAL = re.compile(r"(?:(?<=\b[A-Z])|(?<=\bDr)|(?<=\bMr)|(?<=\bMs)|(?<=\bMrs)|(?<=\bProf)|"
                      r"(?<=\bJr)|(?<=\bSr))\.(?= [A-Z](?:[a-z]|\.))")


def answer_sentences(text: str) -> list[str]:
    """The answer's sentences; a citation group after a full stop stays with its sentence, and
    a **title** is never cut at its own punctuation ("Do GANs learn the distribution? ..."),
    nor a name at its initial ("Robert E. Schapire")."""
    out: list[str] = []
    text = _INITIAL.sub("\ue000", _BOLD.sub(lambda m: m.group(0).translate(_HIDE), text))
    for line in text.split("\n"):
        for piece in (p.translate(_SHOW) for p in split_sentences(line)):
            m = _LEADING_CITES.match(piece)
            if m and out:
                out[-1] = f"{out[-1]} {m.group(1).strip()}"
                piece = piece[m.end():]
            if piece.strip():
                out.append(piece.strip())
    return out


def claims(sentence: str) -> list[tuple[str, list[int]]]:
    """(claim text, cited numbers) per citation group; a group right after another one (or
    after only punctuation) is cited for the same words."""
    out: list[tuple[str, list[int]]] = []
    start, previous = 0, ""
    for m in _CITE.finditer(sentence):
        said = claim_text(sentence[start:m.start()])
        said = said or previous
        out.append((said, parse_group(m.group(1))))
        previous, start = said, m.end()
    return out


# -- evidence units of a paper ------------------------------------------------------------------
@dataclass
class Units:
    """A paper's evidence units; their vectors are computed only when a claim needs them."""

    texts: list[str]  # title line, sentences, neighbouring pairs
    index: list[int]  # the abstract sentence each unit starts at; -1 for the title line
    n_base: int  # the title line and the sentences (pairs follow)
    numbers: set[str]
    embedder: Any
    stems: list[set[str]] = field(default_factory=list)
    _vectors: Any = None

    def __post_init__(self) -> None:
        self.stems = [stems(t) for t in self.texts]

    def vectors(self) -> Any:
        import numpy as np

        if self._vectors is None:
            base = sentence_vectors(self.embedder, self.texts[: self.n_base])
            pairs = base[1:-1] + base[2:]
            pairs = pairs / np.maximum(np.linalg.norm(pairs, axis=1, keepdims=True), 1e-9)
            self._vectors = np.vstack([base, pairs]) if len(pairs) else base
        return self._vectors

    def containment(self, want: set[str]) -> list[float]:
        return [len(want & have) / len(want) if want else 0.0 for have in self.stems]


def units_of(paper: Paper, embedder: Embedder) -> Units:
    from assistant.judge.injection import MARKER, instructions_in

    # text planted to steer an assistant is never evidence for a claim (injection.py)
    text = defang_refs(clean_markup(paper.abstract))
    is_planted = instructions_in(text)
    sentences = [MARKER if is_planted(s) else s for s in split_sentences(text)]
    name = paper.display_title  # the title as answers show it (marked when not published)
    title = f"{name} ({paper.venue_year})" if paper.venue_year else name
    if paper.authors:  # "... (CORL 2025), by A, B and C": an answer may say who wrote it
        title += f", by {paper.author_names(most=len(paper.authors))}"
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(sentences)]
    return Units([title, *sentences, *pairs], [-1, *range(len(sentences)), *range(len(pairs))],
                 1 + len(sentences), numbers(f"{paper.title} {paper.venue_year} {paper.abstract}"),
                 embedder)


def score_units(claim: str, vector: Any, units: Units, *, beat: float | None = None
                ) -> tuple[float, int]:
    """The best unit's score and its position in ``units.texts``. With ``beat``, a paper whose
    words alone show it cannot reach that score is not embedded: (its bound, -1)."""
    contained = units.containment(stems(claim))
    bound = W_COSINE + (1 - W_COSINE) * max(contained, default=0.0)
    if beat is not None and bound <= beat:
        return bound, -1
    cos = units.vectors() @ vector
    best, best_i = -1.0, 0
    for i, c in enumerate(contained):
        s = W_COSINE * float(cos[i]) + (1 - W_COSINE) * c
        if s > best:
            best, best_i = s, i
    return best, best_i


def verdict(score: float, *, numbers_ok: bool = True) -> str:
    if not numbers_ok:
        return "unsupported"
    return "supported" if score >= SUPPORTED else "weak" if score >= WEAK else "unsupported"


# -- an answer's grounding ----------------------------------------------------------------------
@dataclass
class Claim:
    text: str
    cites: list[int]
    verdict: str
    score: float
    n: int | None  # the cited source whose abstract supports it best
    paper_id: str | None
    evidence: str  # that paper's best unit (a sentence, two neighbouring ones, or the title)
    evidence_index: int  # abstract sentence index; -1 the title line
    best_paper_id: str | None = None  # among all retrieved papers
    best_score: float = 0.0
    misattributed: bool = False
    missing_numbers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "cites": self.cites, "verdict": self.verdict,
                "score": round(self.score, 3), "n": self.n, "paper_id": self.paper_id,
                "evidence": self.evidence, "evidence_index": self.evidence_index,
                "best_paper_id": self.best_paper_id, "best_score": round(self.best_score, 3),
                "misattributed": self.misattributed, "missing_numbers": self.missing_numbers}


@dataclass
class Sentence:
    text: str
    claims: list[Claim]

    @property
    def cites(self) -> list[int]:
        return list(dict.fromkeys(n for c in self.claims for n in c.cites))

    @property
    def verdict(self) -> str:
        if not self.claims:
            return "uncited"
        order = ("unsupported", "weak", "supported")
        return min((c.verdict for c in self.claims), key=order.index)

    @property
    def weakest(self) -> Claim | None:
        return min(self.claims, key=lambda c: c.score) if self.claims else None

    def to_dict(self) -> dict[str, Any]:
        w = self.weakest
        return {"text": self.text, "cites": self.cites, "verdict": self.verdict,
                "score": round(w.score, 3) if w else None,
                "evidence": ({"n": w.n, "paper_id": w.paper_id, "sentence": w.evidence,
                              "index": w.evidence_index} if w else None),
                "misattributed": any(c.misattributed for c in self.claims),
                "claims": [c.to_dict() for c in self.claims]}


@dataclass
class Grounding:
    sentences: list[Sentence]

    @property
    def claims(self) -> list[Claim]:
        return [c for s in self.sentences for c in s.claims]

    def summary(self) -> dict[str, int]:
        cs = self.claims
        return {"claims": len(cs),
                "supported": sum(c.verdict == "supported" for c in cs),
                "weak": sum(c.verdict == "weak" for c in cs),
                "unsupported": sum(c.verdict == "unsupported" for c in cs),
                "misattributed": sum(c.misattributed for c in cs)}

    def to_dict(self) -> dict[str, Any]:
        return {"sentences": [s.to_dict() for s in self.sentences],
                "attribution": self.summary()}

    def flagged(self) -> list[Sentence]:
        """Sentences a reader should not take on trust: weak, unsupported or misattributed."""
        return [s for s in self.sentences if s.claims and
                (s.verdict != "supported" or any(c.misattributed for c in s.claims))]

    def marked(self, text: str) -> str:
        """``text`` with a mark after each flagged sentence (``⚠ weak support``...)."""
        for s in self.flagged():
            at = text.find(s.text)
            if at < 0:
                continue
            end = at + len(s.text)
            text = f"{text[:end]} ⚠ _{mark_of(s)}_{text[end:]}"
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Grounding:
        """The inverse of ``to_dict`` (a saved conversation keeps its checks)."""
        keys = Claim.__dataclass_fields__
        return cls([Sentence(s["text"], [Claim(**{k: v for k, v in c.items() if k in keys})
                                         for c in s.get("claims", [])])
                    for s in data.get("sentences", [])])

    def evidence_for(self, paper_id: str) -> list[int]:
        """Abstract sentence indexes this answer's claims rest on, for one paper."""
        out: set[int] = set()
        for c in self.claims:
            if c.paper_id == paper_id and c.evidence_index >= 0:
                out.add(c.evidence_index)
                if len(split_sentences(c.evidence)) > 1:  # a pair of neighbouring sentences
                    out.add(c.evidence_index + 1)
        return sorted(out)


def mark_of(sentence: Sentence) -> str:
    if any(c.misattributed for c in sentence.claims):
        return "another retrieved paper says this, not the one cited"
    if sentence.verdict == "weak":
        return "weak support in the cited abstract"
    return "not supported by the cited abstract"


def names(claim: str, paper: Paper, units: Units) -> bool:
    """Whether ``claim`` only names ``paper`` ("The closest match is **Learning to Infer**",
    "The third side of this comparison is **T**"): it holds the paper's title, and its words
    but for the framing are all the title line's (title, venue, authors)."""
    words = stems(claim)
    return (paper.display_title.lower() in claim.lower() and bool(words)
            and words <= stems(units.texts[0]))


def ground(text: str, citations: Sequence[Citation], retrieved: Sequence[RetrievedPaper], *,
           embedder: Embedder) -> Grounding:
    """Check every cited claim of ``text`` against the papers ``citations`` number."""
    by_n = {c.n: c.paper for c in citations}
    sentences = [(s, claims(s)) for s in answer_sentences(text)]
    said = [c for _, cs in sentences for c, ns in cs if any(n in by_n for n in ns)]
    vectors = dict(zip(said, sentence_vectors(embedder, said), strict=True)) if said else {}
    papers: dict[str, Paper] = {rp.paper.paper_id: rp.paper for rp in retrieved}
    papers.update({p.paper_id: p for p in by_n.values()})
    units: dict[str, Units] = {}

    def units_for(paper: Paper) -> Units:
        if paper.paper_id not in units:
            units[paper.paper_id] = units_of(paper, embedder)
        return units[paper.paper_id]

    out: list[Sentence] = []
    for sentence, cs in sentences:
        checked: list[Claim] = []
        for said_text, ns in cs:
            cited = [(n, by_n[n]) for n in ns if n in by_n]
            if not cited:
                continue
            vec = vectors[said_text]
            best: tuple[float, int, Paper, int] | None = None
            for n, paper in cited:
                s, i = score_units(said_text, vec, units_for(paper))
                if best is None or s > best[0]:
                    best = (s, n, paper, i)
            assert best is not None
            score, n, paper, i = best
            u = units_for(paper)
            if score < SUPPORTED and names(said_text, paper, u):  # a short title is far from
                score, i = SUPPORTED, 0  # the framing words around it
            missing = sorted(numbers(said_text) - u.numbers)
            claim = Claim(said_text, [c for c, _ in cited], verdict(score, numbers_ok=not missing),
                          score, n, paper.paper_id, u.texts[i], u.index[i],
                          missing_numbers=missing)
            top_id, top = paper.paper_id, score
            for pid, other in papers.items():
                if pid == paper.paper_id:
                    continue
                s, i = score_units(said_text, vec, units_for(other),
                                   beat=max(top, score + MISATTRIBUTION_MARGIN, SUPPORTED))
                if i >= 0 and s > top:
                    top_id, top = pid, s
            claim.best_paper_id, claim.best_score = top_id, top
            cited_ids = {p.paper_id for _, p in cited}
            claim.misattributed = (top_id not in cited_ids and top >= SUPPORTED
                                   and top - score > MISATTRIBUTION_MARGIN)
            checked.append(claim)
        out.append(Sentence(sentence, checked))
    return Grounding(out)
