"""BibTeX (.bib) from PMLR, the ACL Anthology, Zotero or JabRef, to paper records.

A small parser (``@type{key, name = {nested {braces}} | "quoted" | 2023 | macro # ..., ...}``)
with @string macros and month names resolved and @comment/@preamble skipped; LaTeX accents and
markup become plain text, "Last, First" names become "First Last", long venue names their
acronym (``short_venue``, also used for JSON venues). ``bibtex_records`` is the entry point.
The other way, ``bibtex_entry``: one paper as an entry (an answer that is asked for it, an
exported conversation's references).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from assistant.errors import CorpusFormatError
from assistant.textutil import year_of

if TYPE_CHECKING:
    from assistant.paper import Paper

# -- LaTeX to text ---------------------------------------------------------------------------
_MARKS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
          "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
          "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331"}
_ACCENT = re.compile(  # \'e \'{e} \'\i, and letter accents with braces or a space: \c{c} \v c
    r"\\([`'^\"~=.])\s*(?:\{\s*(\\[ij]|[^\W\d_])\s*\}|(\\[ij])(?![A-Za-z])|([A-Za-z]))"
    r"|\\([uvHckrdb])(?:\s*\{\s*(\\[ij]|[^\W\d_])\s*\}|\s+([A-Za-z])(?![A-Za-z]))")
_LETTERS = {"ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å",
            "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ"}
_LETTER = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])(?:\{\}|[ \t]+)?")
_SYMBOLS = {"textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…", "LaTeX": "LaTeX",
            "TeX": "TeX", "textquoteright": "’", "textquoteleft": "‘", "textquotedblleft": "“",
            "textquotedblright": "”", "textasciitilde": "~", "textunderscore": "_"}
_ESCAPES = {"&": "&", "%": "%", "$": "\x02", "#": "#", "_": "_", "{": "\x00", "}": "\x01"}
_MATH = re.compile(r"(?<!\\)(\$\$?).+?(?<!\\)\1", re.DOTALL)


def _accent(m: re.Match[str]) -> str:
    mark = _MARKS[m.group(1) or m.group(5)]
    letter = m.group(2) or m.group(3) or m.group(4) or m.group(6) or m.group(7)
    return unicodedata.normalize("NFC", letter.lstrip("\\") + mark)


def _plain(text: str, markup: bool) -> str:
    """LaTeX outside math to text; ``markup`` also drops commands, braces and ~."""
    text = re.sub(r"\\([&%$#_{}])", lambda m: _ESCAPES[m.group(1)], text)
    for _ in range(2):  # twice: \~{\^e} is an accent on an accented letter
        text = _ACCENT.sub(_accent, text)
    text = _LETTER.sub(lambda m: _LETTERS[m.group(1)], text)
    if not markup:
        return re.sub(r"\{(\w)\}", r"\1", text)
    text = re.sub(r"\\(?:\\|[ ,;:!])", " ", text).replace("\\-", "")
    text = re.sub(r"\s*\\(?:cite[a-z]*|ref|label)\*?(?:\[[^\]]*\])*\{[^{}]*\}", "", text)
    text = re.sub(r"\\[A-Za-z]+\*?\s*(?=\{)", "", text)  # \emph{x}, \textbf{x} -> {x}
    text = re.sub(r"\\([A-Za-z]+)\*?", lambda m: _SYMBOLS.get(m.group(1), ""), text)
    text = text.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    return text.replace("~", " ").replace("{", "").replace("}", "")


def latex_to_text(text: str, *, markup: bool = True) -> str:
    """Accents (``\\'e``, ``{\\"o}``, ``\\c{c}``), escapes (``\\&``) and, with ``markup``,
    commands, braces, ``~`` and ``--`` to plain Unicode text. Math (``$...$``) is kept as is."""
    out: list[str] = []
    last = 0
    for m in _MATH.finditer(text):
        out += [_plain(text[last:m.start()], markup), m.group(0)]
        last = m.end()
    out.append(_plain(text[last:], markup))
    joined = "".join(out).replace("\x00", "{").replace("\x01", "}").replace("\x02", "$")
    return " ".join(unicodedata.normalize("NFC", joined).split())


# -- names and venues ------------------------------------------------------------------------
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r",")


def _split_top(value: str, sep: re.Pattern[str]) -> list[str]:
    """Split ``value`` where ``sep`` matches outside braces."""
    masked: list[str] = []
    depth = 0
    for ch in value:
        depth += (ch == "{") - (ch == "}" and depth > 0)
        masked.append(ch if depth == 0 or ch in "{}" else "_")
    parts: list[str] = []
    last = 0
    for m in sep.finditer("".join(masked)):
        parts.append(value[last:m.start()])
        last = m.end()
    return [*parts, value[last:]]


def bib_names(value: str) -> list[str]:
    """BibTeX ``author``: "Last, First and First Last and Last, Jr, First" to "First Last"."""
    names = []
    for part in _split_top(value, _AND):
        pieces = [" ".join(p.split()) for p in _split_top(part, _COMMA)]
        if len(pieces) >= 3:
            pieces = [pieces[2], pieces[0], pieces[1]]
        elif len(pieces) == 2:
            pieces = [pieces[1], pieces[0]]
        name = latex_to_text(" ".join(p for p in pieces if p))
        if name and name.lower() != "others":
            names.append(name)
    return names


_KNOWN_VENUES = (  # phrase in a lower-cased name (without "the", "annual") -> acronym
    ("asian conference on machine learning", "ACML"),
    ("international conference on machine learning", "ICML"),
    ("neural information processing systems", "NeurIPS"),
    ("international conference on learning representations", "ICLR"),
    ("artificial intelligence and statistics", "AISTATS"),
    ("conference on learning theory", "COLT"),
    ("uncertainty in artificial intelligence", "UAI"),
    ("conference on robot learning", "CoRL"),
    ("algorithmic learning theory", "ALT"),
    ("conference on language modeling", "COLM"),
    ("automated machine learning", "AutoML"),
    ("transactions on machine learning research", "TMLR"),
    ("journal of machine learning research", "JMLR"),
    ("transactions of association for computational linguistics", "TACL"),
    ("north american chapter of association for computational linguistics", "NAACL"),
    ("european chapter of association for computational linguistics", "EACL"),
    ("meeting of association for computational linguistics", "ACL"),
    ("empirical methods in natural language processing", "EMNLP"),
    ("international conference on computational linguistics", "COLING"),
    ("computer vision and pattern recognition", "CVPR"),
    ("international conference on computer vision", "ICCV"),
    ("european conference on computer vision", "ECCV"),
    ("aaai conference on artificial intelligence", "AAAI"),
    ("international joint conference on artificial intelligence", "IJCAI"),
    ("knowledge discovery and data mining", "KDD"),
    ("research and development in information retrieval", "SIGIR"),
)
_ACRONYM = r"[A-Z][A-Za-z]*[A-Z][A-Za-z]*"
_SHORT = re.compile(rf"(?:proc(?:eedings|\.)\s+(?:of\s+)?(?:the\s+)?)?({_ACRONYM})"
                    r"(?:[-\s']*\d{2,4})?", re.IGNORECASE)
_PAREN = re.compile(rf"\(\s*({_ACRONYM}(?:-{_ACRONYM})?)(?:[-\s'’]*\d{{2,4}})?\s*\)")
_TRAILING = re.compile(rf",\s*({_ACRONYM})(?:[-\s'’]*\d{{2,4}})?\s*$")
_PUBLISHERS = frozenset({"ACM", "IEEE", "PMLR", "SIAM", "MIT", "AAAI Press"})
_FINDINGS = re.compile(r"findings of (?:the )?association for computational linguistics\W*([a-z]*)")


def _acronym(name: str) -> str | None:
    """The short name a long venue name goes by, if it says so or is well known."""
    low = " ".join(re.sub(r"\([^)]*\)|\b(?:the|annual)\b", " ", name.lower()).split())
    if re.fullmatch(r"(?:arxiv(?:\.org)?|corr)|arxiv preprint.*", low):
        return "arXiv"
    m = _SHORT.fullmatch(name)
    if m and any(c.isupper() for c in m.group(1)[1:]) and m.group(1) not in _PUBLISHERS:
        return m.group(1)
    for m in (_PAREN.search(name), _TRAILING.search(name)):
        if m and m.group(1) not in _PUBLISHERS:
            return m.group(1)
    m = _FINDINGS.search(low)
    if m:
        return f"Findings of {(m.group(1) or 'acl').upper()}"
    if "workshop" in low:
        return None
    for phrase, short in _KNOWN_VENUES:
        if re.search(rf"\b{phrase}(?=\s*(?:$|[,:;]|\d))", low):
            return short
    return None


def short_venue(name: str) -> str:
    """"Proceedings of the 40th International Conference on Machine Learning" -> "ICML";
    a name with an acronym in parentheses -> that acronym; any other name is kept."""
    name = latex_to_text(name)
    return _acronym(name) or name


# -- BibTeX ----------------------------------------------------------------------------------
_MONTHS = {m[:3].lower(): m for m in ("January", "February", "March", "April", "May", "June",
                                      "July", "August", "September", "October", "November",
                                      "December")}


@dataclass
class BibEntry:
    kind: str  # lower case: "inproceedings", "article", ...
    key: str
    fields: dict[str, str]  # lower-case names; values as written, without their delimiters
    line: int


class _BibParser:
    _AT = re.compile(r"@[ \t]*([A-Za-z][\w-]*)\s*([{(])")
    _KEY = re.compile(r"\s*([^\s,{}()]*)\s*")
    _NAME = re.compile(r"([A-Za-z_][\w\-:.+]*)\s*=\s*")
    _BARE = re.compile(r"[\w\-.:+/]+")
    _WS = re.compile(r"\s*")
    _STOP: ClassVar[dict[str, re.Pattern[str]]] = {
        "{": re.compile(r"[{}\\\n]"), '"': re.compile(r'[{}"\\\n]')}
    _NEXT_ENTRY = re.compile(r"\n[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]")
    _STRAY = re.compile(r"(?:^|,)\s*(?P<field>[A-Za-z][\w\-]*\s*=\s*[{\"\d])"
                        r"|^[ \t,]*(?P<brace>\})", re.MULTILINE)

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.macros = dict(_MONTHS)
        self.last = "the entry above"  # the last entry read, for an error after it

    def line(self, pos: int) -> int:
        return bisect_left(self.newlines, pos) + 1

    def fail(self, pos: int, what: str) -> CorpusFormatError:
        return CorpusFormatError(f"{self.source}:{self.line(pos)}: {what}")

    def unclosed(self, at: int, label: str) -> CorpusFormatError:
        return self.fail(at, f"entry {label} is not closed (unbalanced braces or quotes); add "
                         "the missing '}' or remove the stray '{'")

    def entries(self) -> list[BibEntry]:
        text, pos = self.text, 0
        out: list[BibEntry] = []
        while True:
            at = text.find("@", pos)
            self._check_gap(pos, len(text) if at < 0 else at)
            if at < 0:
                return out
            m = self._AT.match(text, at)
            if not m:
                pos = at + 1
                continue
            kind, close = m.group(1).lower(), "}" if m.group(2) == "{" else ")"
            if kind in ("comment", "preamble"):
                pos = self._skip(m.end() - 1)
                continue
            if kind == "string":
                fields, pos = self._fields(m.end(), close, at, "@string")
                self.macros.update(fields)
                continue
            k = self._KEY.match(text, m.end())
            assert k is not None  # matches the empty string
            key, pos = k.group(1), k.end()
            label = f"'{key}'"
            if text.startswith(",", pos):
                pos += 1
            elif not text.startswith(close, pos):
                raise self.fail(pos, f"entry {label} needs a comma after its key; add one")
            fields, pos = self._fields(pos, close, at, label)
            out.append(BibEntry(kind, key, fields, self.line(at)))
            self.last = f"entry {label} (line {self.line(at)})"

    def _check_gap(self, start: int, end: int) -> None:
        """Text between entries is a comment, unless it looks like the rest of an entry that an
        extra '}' closed early."""
        m = self._STRAY.search(self.text[start:end])
        if m:
            what = "a field" if m.lastgroup == "field" else "a '}'"
            raise self.fail(start + m.start(m.lastgroup or 0), f"{what} outside any entry: "
                            f"{self.last} closes early; remove the extra '}}' there")

    def _skip(self, pos: int) -> int:
        """Past a balanced @comment{...}/@preamble{...}, or past its line if unbalanced."""
        try:
            if self.text[pos] == "{":
                return self._delimited(pos, pos, "@comment")[1]
        except CorpusFormatError:
            pass
        nl = self.text.find("\n", pos)
        return len(self.text) if nl < 0 else nl + 1

    def _fields(self, pos: int, close: str, at: int, label: str) -> tuple[dict[str, str], int]:
        text = self.text
        fields: dict[str, str] = {}
        while True:
            pos = self._ws(pos)
            if pos >= len(text):
                raise self.unclosed(at, label)
            if text[pos] == close:
                return fields, pos + 1
            m = self._NAME.match(text, pos)
            if not m:
                raise self.fail(pos, f"in entry {label} (line {self.line(at)}): expected "
                                "'name = value'; check that entry's braces and commas")
            name = m.group(1).lower()
            value, pos = self._value(m.end(), at, label)
            while text.startswith("#", pos := self._ws(pos)):
                more, pos = self._value(self._ws(pos + 1), at, label)
                value += more
            fields.setdefault(name, value)
            if pos >= len(text) or text[pos] == "@":  # a value ran over the entry's end
                raise self.unclosed(at, label)
            if text[pos] == ",":
                pos += 1
            elif text[pos] != close:
                raise self.fail(pos, f"in entry {label} (line {self.line(at)}): expected ',' or "
                                f"'{close}' after field '{name}'; check its braces and commas")

    def _ws(self, pos: int) -> int:
        m = self._WS.match(self.text, pos)
        return m.end() if m else pos

    def _value(self, pos: int, at: int, label: str) -> tuple[str, int]:
        if pos >= len(self.text):
            raise self.unclosed(at, label)
        if self.text[pos] in "{\"":
            return self._delimited(pos, at, label)
        m = self._BARE.match(self.text, pos)
        if not m:
            raise self.fail(pos, f"in entry {label}: a value must be {{...}}, \"...\", a number "
                            "or a @string name; fix that value")
        word = m.group(0)
        return (word if word.isdigit() else self.macros.get(word.lower(), word)), m.end()

    def _delimited(self, pos: int, at: int, label: str) -> tuple[str, int]:
        """A {braced} or "quoted" value from ``pos`` (its opening delimiter): (inside, end)."""
        text = self.text
        quoted = text[pos] == '"'
        stop, depth, i = self._STOP[text[pos]], 0 if quoted else 1, pos + 1
        while m := stop.search(text, i):
            j, ch = m.start(), m.group(0)
            i = j + 1
            if ch == "\\":
                i = j + 2  # an escaped brace or quote does not count
            elif ch == "\n":
                if (depth or quoted) and self._NEXT_ENTRY.match(text, j):
                    break  # the next entry starts inside this value
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    break
                if depth == 0 and not quoted:
                    return text[pos + 1:j], i
            elif depth == 0:  # the closing quote
                return text[pos + 1:j], i
        raise self.unclosed(at, label)


def parse_bibtex(text: str, source: str = "bibtex") -> list[BibEntry]:
    """Every entry of a .bib text; a malformed one is a CorpusFormatError naming its line."""
    return _BibParser(text, source).entries()


def _unescape(value: str) -> str:
    """A URL or DOI as a .bib writes it (``\\_``, braces) to the plain string."""
    return re.sub(r"\\([_%&#~])", r"\1", value).replace("{", "").replace("}", "").strip()


def _doi(value: str) -> str:
    return re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", _unescape(value),
                  flags=re.IGNORECASE)


def bib_record(entry: BibEntry) -> dict[str, Any]:
    f = entry.fields
    doi = _doi(f.get("doi", ""))
    prefix = " ".join((f.get("archiveprefix", ""), f.get("eprinttype", ""))).lower()
    eprint = f.get("eprint", "").strip() if "arxiv" in prefix else ""
    venue = short_venue(f.get("booktitle") or f.get("journal") or f.get("journaltitle") or "")
    if not venue and (eprint or "arxiv" in f.get("publisher", "").lower()):
        venue = "arXiv"
    url = _unescape(f.get("url", "")) or (f"https://doi.org/{doi}" if doi else "") or (
        f"https://arxiv.org/abs/{eprint}" if eprint else "")
    keywords = [k.strip() for k in re.split(r"[;,]", latex_to_text(f.get("keywords", "")))]
    return {
        "paper_id": entry.key or doi, "title": latex_to_text(f.get("title", "")),
        "abstract": latex_to_text(f.get("abstract", "")), "authors": bib_names(f.get("author", "")),
        "venue": venue, "year": year_of(f.get("year") or f.get("date")), "url": url,
        "doi": doi, "arxiv_id": eprint, "keywords": [k for k in keywords if k],
    }


def bibtex_records(text: str, source: str = "bibtex") -> list[dict[str, Any]]:
    return [bib_record(e) for e in parse_bibtex(text, source)]


# ---- writing: one paper as a BibTeX entry (an answer, an exported conversation)

DERIVED_TITLE = "title derived from the abstract"  # the mark of a title the list did not give
_TEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
        "#": r"\#", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}


def _tex(text: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in text)


def bib_key(paper: Paper, taken: set[str]) -> str:
    if paper.authors:
        surname = re.sub(r"[^A-Za-z]", "", paper.authors[0].split()[-1]).lower() or "anon"
        word = next((w.lower() for w in re.findall(r"[A-Za-z]{4,}", paper.title)), "paper")
        key = f"{surname}{paper.year or ''}{word}"
    else:
        key = re.sub(r"[^A-Za-z0-9:_-]", "_", paper.paper_id) or "paper"
    base, n = key, 1
    while key in taken:
        n += 1
        key = f"{base}{chr(ord('a') + n - 2)}" if n <= 27 else f"{base}_{n}"
    taken.add(key)
    return key


def bibtex_entry(paper: Paper, key: str) -> str:
    """``@inproceedings``, or ``@misc`` with "Submitted to ICLR 2018; rejected" for a paper
    that is not in the proceedings."""
    fields = [("title", "{" + _tex(paper.title) + "}")]
    if paper.authors:
        fields.append(("author", " and ".join(_tex(a) for a in paper.authors)))
    notes: list[str] = []
    if paper.is_unpublished:
        where = _tex(paper.venue_year)
        notes.append(f"Submitted to {where}; {paper.outcome}" if where
                     else f"Unpublished submission; {paper.outcome}")
    elif paper.venue_year:
        fields.append(("booktitle", _tex(paper.venue_year)))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.url:
        fields.append(("url", paper.url))
    if paper.title_derived:
        notes.append(DERIVED_TITLE.capitalize())
    if paper.code_url and paper.code_url != paper.url:
        notes.append("Code: \\url{" + paper.code_url + "}")
    if notes:
        fields.append(("note", ". ".join(notes)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    kind = "misc" if paper.is_unpublished else "inproceedings"
    return f"@{kind}{{{key},\n{body},\n}}\n"


def bibtex_block(papers: Sequence[Paper]) -> str:
    """The BibTeX entries of ``papers`` (a list's, in its order) as one Markdown code block,
    each key its own ("BibTeX for all papers on X")."""
    keys: set[str] = set()
    return "```bibtex\n" + "\n".join(bibtex_entry(p, bib_key(p, keys)) for p in papers) + "```"
