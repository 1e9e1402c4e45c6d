"""Small text helpers shared by chunking, titles and the extractive answerer."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

# A sentence ends at . ! ? followed by space and an upper-case letter, digit, quote or bracket.
# Abbreviations common in abstracts (e.g., i.e., et al., vs.) do not end a sentence.
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|vs|cf|Fig|Eq|approx|resp|etc)\.$", re.IGNORECASE)
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9(\[\"'$\\*])")

STOPWORDS = frozenset(
    [
        "a", "about", "above", "after", "again", "against", "all", "also", "am", "an",
        "and", "any", "are", "as", "at", "be", "because", "been", "before", "being",
        "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
        "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
        "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
        "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more",
        "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once",
        "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same",
        "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs",
        "them", "themselves", "then", "there", "these", "they", "this", "those", "through",
        "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when",
        "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you",
        "your", "yours", "yourself", "yourselves", "paper", "papers", "work", "works",
        "study", "studies", "propose", "proposes", "proposed", "method", "methods",
        "approach", "approaches", "list", "show", "shows", "find", "finds", "does", "any",
        "tell", "give", "me", "which", "what", "whose", "using", "use", "used", "based",
        "new", "novel",
        # abbreviations that join or point, never a topic ("vs", "et al.", "etc.", "cf.")
        "vs", "versus", "et", "al", "etc", "cf"
    ]
)


def split_sentences(text: str) -> list[str]:
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    parts: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        candidate = text[start : m.start()].strip()
        if _ABBREV.search(candidate):
            continue
        if candidate:
            parts.append(candidate)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*|\d+(?:\.\d+)?")


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


# what a chat turn says that asks nothing: thanks, agreement, a filler ("ok", "thanks", "I
# see", "好的"); a turn made only of these and stopwords is no question, unless it asks for
# more ("why?", "how?", "more", "what else?")
_ACKNOWLEDGED = frozenset((
    "ok", "okay", "k", "kk", "thanks", "thank", "thx", "ty", "cheers", "cool", "great", "nice",
    "good", "fine", "perfect", "awesome", "excellent", "wonderful", "interesting", "wow", "hmm",
    "hm", "mm", "uh", "um", "huh", "yes", "yeah", "yep", "yup", "sure", "alright", "right",
    "nope", "got", "see", "understood", "noted", "lol", "haha", "please", "much", "lot", "hi",
    "hello", "hey", "bye"))
_ASKING = frozenset((
    "why", "how", "what", "which", "who", "whom", "whose", "when", "where", "more", "else", "and",
    "explain", "elaborate", "detail", "details", "example", "examples"))
_AUXILIARIES = frozenset((
    "is", "are", "was", "were", "does", "do", "did", "can", "could", "should", "would", "will",
    "has", "have", "had"))
_ZH_ACKNOWLEDGED = frozenset((
    "谢谢", "多谢", "谢啦", "感谢", "好的", "好", "好吧", "嗯", "嗯嗯", "哦", "噢", "明白了",
    "知道了", "懂了", "行", "可以", "收到", "不错", "太好了", "是的", "对"))


def _bare(text: str) -> str:
    """A CJK turn's characters, without spaces and punctuation."""
    return re.sub(r"[\s\W_]+", "", text)


def asks_nothing(text: str) -> bool:
    """Is this turn no question at all: nothing but stopwords and acknowledgements ("the",
    "ok", "thanks!", "great, thanks", "谢谢")? A short follow-up that asks for more ("why?",
    "more", "what else?", "details?") asks something."""
    if has_cjk(text):
        return _bare(text) in _ZH_ACKNOWLEDGED
    said = re.findall(r"[a-z']+", text.lower())
    if said and said[0] in _AUXILIARIES and "?" in text:
        return False  # "Is it good?", "Does it?": a yes-no question about the last answer
    return bool(said) and not set(said) & _ASKING and all(
        w in STOPWORDS or w in _ACKNOWLEDGED for w in said)


# the words of asking for a comparison, with nothing compared: "compare", "比较一下", "有什么区别？"
_COMPARING = frozenset(("compare", "comparison", "contrast", "difference", "differences",
                        "differ", "vs", "versus", "between", "them", "both", "two"))
_ZH_COMPARING = re.compile(r"(?:请|比较|对比|区别|不同|差别|差异|异同|相比|一下|有什么|有何|是什么|"
                           r"的|吗|呢|和|与|之间|两者|它们|两篇|如何|怎么样|怎样|哪个|更好)+")


def compares_nothing(text: str) -> bool:
    """Is this turn only the words of asking for a comparison, nothing compared ("compare",
    "比较一下", "what is the difference?")? Asked on its own, it asks nothing to look up ("比较"
    was answered from a paper whose abstract says "compared", sure); after an answer it may
    compare that answer's papers."""
    if has_cjk(text):
        return not _ZH_COMPARING.sub("", _bare(text))
    said = re.findall(r"[a-z']+", text.lower())
    return bool(said) and bool(set(said) & _COMPARING) and all(
        w in STOPWORDS or w in _COMPARING or w in _ASKING for w in said)


def clean_markup(text: str) -> str:
    """Strip the light markup abstracts carry: **bold**, *italic*, \\textsc{X}, $...$ kept."""
    text = re.sub(r"\\text(?:sc|bf|it|tt|rm)\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", text)
    return text


# "Any ...?" opening a sentence (not "any" as a determiner inside: "without any map", "for any
# graph"); "What work is there on ...?", "What theoretical work analyzes ...?", "What research
# exists on ...?", "What does the literature say ...?"
_ANY_OPENING = r"(?:^|[.?!;:]\s+|\s-\s|—\s*)any\b"
_WHAT_WORK = (r"^\W*what (?!(?:is|are|was|were|does|do|did)\b)(?:\w+ ){0,2}"
              r"(?:work|research)\b(?! (?:do|does|did)\b)|"
              r"\b(?:work|research) (?:is there|exists|has been done)\b|\bthe literature\b")
# a plural inside the question is no list: "saliency methods like LRP", "than prior approaches",
# "a regulariser that works on ResNets", "cohort studies" ask about one paper (such questions
# were answered as a list, said as sure: 40 of the 650 dev one-paper questions); papers asked
# for are (``_ASKS_PAPERS``), and so are "list ...", "compare ..." (not "used to compare X"),
# "which of these ..." (not "which of two points is better")
# "list" as a request ("List papers on X", "can you list ..."), not a noun ("initial list quality")
_LIST_VERB = r"^\W*(?:please\s+)?list\b|\b(?:you|please|me|to)\s+list\b"
_LIST_Q = re.compile(_LIST_VERB + r"|(?<!\bto )\bcompare\b|"
                     r"\bwhich of (?:these|those|them|the two|both|the following|the papers)\b|"
                     + _ANY_OPENING + r"|\bare there any\b|"
                     r"\bany (?:\w+ )?(?:papers?|works?|research|methods?|approach(?:es)?|"
                     r"stud(?:y|ies)|articles?)\b|" + _WHAT_WORK, re.IGNORECASE)


# the same in Chinese, which marks no plural: "哪些论文/工作/方法", "……的研究有哪些", "列出",
# "我想找……的论文" (not "一篇"), "有哪些关于……的论文"
_LIST_ZH = re.compile(r"(?:哪些|哪几篇|哪几种|什么样的|什么)[^，。？,?]{0,6}?"
                      r"(?:论文|工作|研究|方法|文章|文献|方案|算法)|"
                      r"哪些关于[^，。？,?]{1,30}?的(?:论文|工作|研究|方法|文章|文献)|"
                      r"(?:论文|工作|研究|方法|文章|文献|方案|算法)都?有哪些|列出|列举|盘点|汇总|梳理|"
                      r"(?:想找|寻找|推荐)(?!一篇)[^。？?]*(?:论文|工作|研究|文献)|"
                      r"(?:给我|帮我)(?:讲讲|讲一讲|介绍|找|推荐|列)(?:(?!一篇|这篇|那篇)[^。？?])*"
                      r"(?:论文|工作|研究|文献)|"
                      # a count of the papers on a topic: "有多少篇论文是关于强化学习的？"
                      r"有多少篇?[^，。？,?]{0,24}?(?:论文|工作|研究|文章|文献)|"
                      r"(?:论文|文章|文献|工作)(?:一共|总共|共)?有多少(?:篇|[？?]?$)")


def is_list_question(question: str) -> bool:
    """'Which papers ...', 'list ...', 'compare ...' (or the same in Chinese): the answer names
    several papers."""
    return bool(_LIST_Q.search(question) or _ASKS_PAPERS.search(question)
                or _LIST_ZH.search(question))


# papers as what a question asks for, not a plural anywhere in it ("What goes wrong with ...
# in earlier quantization methods?" asks about one paper): "Which (recent) papers ...", "what
# methods exist", "list / find / recommend ... papers", "any work on", "are there studies",
# "what work is there", "the literature", "Papers on ..."
_PLURAL = (r"(?:papers|works|studies|articles|approaches|methods|research|literature|"
           r"publications|techniques|algorithms|models|frameworks|efforts|lines of work)")
_ANY_OF = (r"(?:papers?|works?|stud(?:y|ies)|articles?|approach(?:es)?|methods?|research|"
           r"literature|publications?|techniques?|algorithms?|models?|frameworks?|efforts?|"
           r"lines? of work)")
# "which short note studies X", "which paper shows EM works": a singular asked for, then a verb
_ONE_ASKED = (r"(?!(?:(?!" + _PLURAL + r"\b)\w+[\s,-]+){0,2}?(?:paper|note|work|study|"
              r"article|method|approach|model|algorithm|technique|framework|result|analysis|"
              r"letter)(?=[\s?.,;:!]|$))")
# "any" after a preposition is a determiner: "a conversion of any algorithm", "for any model"
_NOT_AFTER_PREPOSITION = "".join(rf"(?<!\b{p} )" for p in (
    "of", "for", "on", "to", "with", "without", "from", "by", "in", "at", "over", "across",
    "under", "into", "than"))
# what makes papers worth reading first: "must-read papers on X", "the seminal work in X"
NOTABLE_PAPERS = (r"must[- ]reads?|seminal|essential|classic|foundational|influential|landmark|"
                  r"canonical|notable|core|key|important|representative|good|best|top|major")
_NOTABLE = NOTABLE_PAPERS
# "how many papers here ...", "how many of the papers in this collection ..." (query/counted.py
# reads what follows as the topic)
HOW_MANY_PAPERS = (r"how\s+many\s+(?:of\s+the\s+)?(?:papers|works|studies)\s+(?:here\s+|in\s+"
                   r"(?:the|this)\s+(?:collection|list)\s+)?")
_ASKS_PAPERS = re.compile(
    r"^\W*(?:which|what)\s+" + _ONE_ASKED + r"(?:\w+[\s,-]+){0,3}?" + _PLURAL + r"\b|"
    r"\b(?:list|find|show|recommend|name|give)\s+(?:me\s+)?(?:\w+\s+){0,3}?" + _PLURAL + r"\b|"
    + _NOT_AFTER_PREPOSITION + r"\bany\s+(?:\w+\s+){0,2}?" + _ANY_OF + r"\b|" + _ANY_OPENING + r"|"
    r"\bare there\s+(?:any\s+)?(?:\w+\s+){0,2}?" + _PLURAL + r"\b|" + _WHAT_WORK + r"|"
    r"^\W*" + _PLURAL + r"\s+(?:on|about|that|which|for|studying|using)\b|"
    # "must-read papers on X", "seminal work in X", "a reading list on X" (typed alone too)
    r"^\W*(?:(?:the|some|a\s+few)\s+)?(?:(?:" + _NOTABLE + r")\s+)+" + _ANY_OF
    + r"\s+(?:on|about|in|for)\b|\breading\s+list\b|"
    # "how many papers here are about X?": the papers on X, counted (not "how many papers did
    # they compare against?")
    r"^\W*" + HOW_MANY_PAPERS + r"(?:are|is|discuss|study|mention|address|cover|focus|deal|"
    r"tackle)\b", re.IGNORECASE)


# a topic named with nothing around it ("differential privacy", "GAN mode collapse",
# "sim-to-real transfer for dexterous manipulation"): what a researcher types into a search
# box, asking for the papers on it. Not a question ("how ...", "is it ..."), a request
# ("explain ..."), a statement ("Aspirin inhibits the production of PGE2."), a comparison
# ("X vs Y") or words about the previous answer ("its limitations")
TOPIC_WORDS = 8  # at most, words of a named topic
_NOT_A_TOPIC = frozenset((
    "how", "what", "which", "who", "whom", "whose", "why", "when", "where", "whether",
    "is", "are", "was", "were", "be", "been", "am", "isn", "aren", "does", "do", "did", "doesn",
    "don", "can", "could", "should", "would", "will", "shall", "may", "might", "must", "has",
    "have", "had", "i", "we", "you", "it", "they", "he", "she", "me", "us", "them", "my", "our",
    "your", "its", "their", "his", "her", "this", "that", "these", "those", "there", "here",
    "please", "tell", "explain", "describe", "summarize", "summarise", "compare", "give",
    "show", "find", "recommend", "look", "help", "any", "anything", "something", "vs",
    "versus", "compared", "else", "more", "thanks", "thank", "ok", "okay"))
# a request when it opens the words ("search diffusion papers", "list papers on X"), a noun of
# the topic inside it ("neural architecture search", "tree search", "name disambiguation")
_REQUEST = frozenset(("search", "list", "name"))
# a word before a determiner that is no preposition: a verb ("... inhibits the production")
_VERB_THEN_DETERMINER = re.compile(
    r"\b(?!(?:of|for|on|to|with|without|from|by|in|at|over|across|under|into|than|and|or|"
    r"as|via|about|between|among|through|using|within|beyond|toward|towards|against|"
    r"during|per|like|around|after|before|behind|beside|inside|outside|near|onto|upon)\b)"
    r"[a-z][\w-]*\s+(?:the|a|an)\b", re.IGNORECASE)


def names_a_topic(text: str) -> bool:
    """Is this a topic named with nothing around it, a search box's query ("differential
    privacy", "Thompson sampling regret bounds")? It asks for the papers on it, as "Which
    papers are about ...?" does (a paper's own title is no topic: answer/pipeline.py)."""
    if has_cjk(text) or re.search(r"[.;!]\s*$", text):
        return False
    said = re.findall(r"[A-Za-z][A-Za-z0-9'\-]*|\d[\w\-.]*", text)
    if not 1 <= len(said) <= TOPIC_WORDS or not content_words(text):
        return False
    if any(w.lower().split("'")[0] in _NOT_A_TOPIC for w in said) or said[0].lower() in _REQUEST:
        return False
    return not _VERB_THEN_DETERMINER.search(text)


def asks_for_papers(question: str) -> bool:
    """Does the question ask for papers, several of them (a survey), rather than mention a
    plural? (Chinese marks no plural: its list questions, ``_LIST_ZH``, ask for papers.)"""
    return bool(_ASKS_PAPERS.search(question) or _LIST_ZH.search(question))


_GITHUB = re.compile(r"https?://(?:www\.)?github\.com/[\w.\-]+/[\w.\-]+", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d{2}")


def code_link(text: str) -> str:
    m = _GITHUB.search(text)
    return m.group(0).rstrip(".,;)") if m else ""


def year_of(value: Any) -> int | None:
    if value in (None, ""):
        return None
    m = _YEAR.search(str(value))
    return int(m.group(0)) if m else None


_BRACKET_REF = re.compile(r"\[(\d+(?:\s*[,–-]\s*\d+)*)\]")


def defang_refs(text: str) -> str:
    """An abstract's own bracketed references ("as shown in [12]") as "(ref. 12)": in an
    answer, ``[n]`` means the n-th cited paper and nothing else."""
    return _BRACKET_REF.sub(r"(ref. \1)", text)


# the section labels of a structured abstract (biomedical ones mostly: "BACKGROUND ...",
# "MATERIALS AND METHODS: ...", "Conclusions: ..."), which a quoted sentence leaves out
_LABEL_WORDS = (
    "BACKGROUNDS?|INTRODUCTION|CONTEXT|OBJECTIVES?|AIMS?|PURPOSE|RATIONALE|IMPORTANCE|"
    "HYPOTHESIS|(?:STUDY |EXPERIMENTAL )?DESIGN|SETTINGS?|PARTICIPANTS|PATIENTS|SUBJECTS|"
    "POPULATION|INTERVENTIONS?|EXPOSURES?|(?:MAIN )?OUTCOME MEASURES?|MEASUREMENTS|"
    "MATERIALS|METHODS?|METHODOLOGY|(?:MAIN |KEY )?RESULTS?|(?:PRINCIPAL |KEY )?FINDINGS|"
    "OBSERVATIONS|INTERPRETATION|CONCLUSIONS?|RELEVANCE|DISCUSSION|SIGNIFICANCE|SUMMARY|"
    "ABSTRACT|LIMITATIONS|DATA SOURCES|STUDY SELECTION|DATA EXTRACTION|DATA SYNTHESIS|"
    "SEARCH METHODS|SELECTION CRITERIA|AUTHORS' CONCLUSIONS|TRIAL REGISTRATION")
_LABEL = (rf"(?:{_LABEL_WORDS})(?:\s*(?:AND|/|&)\s*(?:{_LABEL_WORDS}))*")
_SECTION_LABEL = re.compile(
    rf"^\s*(?:{_LABEL}\s*[:.]?|(?i:{_LABEL})\s*:)\s+(?=\S)")


def section_label(sentence: str) -> str:
    """The section label that opens a sentence of a structured abstract, upper-cased ("" when
    none): "MATERIALS AND METHODS", "RESULTS"."""
    m = _SECTION_LABEL.match(sentence)
    return m.group(0).strip().rstrip(":.").strip().upper() if m else ""


def strip_section_label(sentence: str) -> str:
    """A sentence of a structured abstract without the section label that opens it
    ("RESULTS Regular use of aspirin ..." -> "Regular use of aspirin ..."). Upper case, or any
    case before a colon: "Results show ..." keeps its first word."""
    return _SECTION_LABEL.sub("", sentence, count=1)


def clip(text: str, n: int) -> str:
    """At most ``n`` characters, cut at a word and marked with "…" when cut."""
    if len(text) <= n:
        return text
    cut = text[: n - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[n // 2:] else cut).rstrip() + "…"


QUOTED_CHARS = 100  # a question quoted back in an answer: one line at most


def quoted(question: str) -> str:
    """A question as an answer quotes it back: one line, at most ``QUOTED_CHARS``."""
    text = clip(" ".join(question.split()).rstrip("?？"), QUOTED_CHARS)
    return re.sub(r"\[(\d+)\]", r"#\1", text)  # "does [9] need labels": no citation of its own


# "Is there a paper on X?", "Are there any papers about X?", "Which papers are about X?":
# what such a question is about is X, and X is what "nothing here is about ..." says
_ABOUT = re.compile(
    r"^(?:(?:is|are)\s+there\s+(?:any\s+|a\s+|some\s+)?|(?:which|what)\s+|any\s+)?(?:papers?|"
    r"works?|research|studies|study|anything|something|literature)\s+(?:(?:is|are)\s+)?(?:on|"
    r"about|regarding|concerning)\s+(?P<x>[^?]+?)\s*[?.!]*$", re.IGNORECASE)


def quoted_topic(question: str, *, judged: str = "") -> str:
    """``quoted``, of the topic alone when the question only asks for papers on a topic ("Is
    there a paper on quantum error correction?" -> "quantum error correction"), or when the
    query ``judged`` in its place does (an instruction's: "How do I cite the paper on robot
    cloth folding?", judged as "Which paper is about robot cloth folding?")."""
    for asked in (judged, question):
        m = _ABOUT.match(" ".join(asked.split()))
        topic = m.group("x") if m else ""
        if len(topic.split()) <= 2 * TOPIC_WORDS and content_words(topic) and not re.match(
                r"(?:it|its|this|that|these|those|they|them|their)\b", topic, re.IGNORECASE):
            return quoted(topic)
    return quoted(question)


CJK = re.compile(r"[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]")


def has_cjk(text: str) -> bool:
    """Does the text hold Chinese, Japanese or Korean characters?"""
    return bool(CJK.search(text))


# how a Chinese question asks for a paper's record: its BibTeX ("怎么引用 DyPE 这篇论文？") or
# where it appeared ("IPMark 被录用了吗？", "这篇论文发表在哪里？"); the words are searched
# nowhere else (a matching market's 录取, a signal's 接收 are what a question is about)
ZH_RECORDS = (
    ("bibtex", re.compile(r"bib\s*tex|引用格式|引文格式|引用条目|(?:怎么|怎样|如何)引用",
                          re.IGNORECASE)),
    ("status", re.compile(r"(?:被|获)?(?:录用|接收|录取|接受)(?:了)?(?:吗|没有|没)|"
                          r"是否(?:被)?(?:录用|接收|录取)|发表(?:在|于)(?:哪里|哪儿|哪个|什么)|"
                          r"(?:在|于)(?:哪里|哪儿|哪个会议|什么会议)发表|(?:哪一年|哪年|什么时候)发表")),
)


def folded(name: str) -> str:
    """A name in lower case without its accents ("Sébastien" -> "sebastien"): one person's
    spellings as one key."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.lower())
                   if not unicodedata.combining(c))


def zh_compact(question: str) -> str:
    """A Chinese question without its spaces ("从 2015 年到 2020 年" as typed with them), unless
    it holds two Latin words in a row ("large language models"), whose spaces are kept, one
    each."""
    if re.search(r"[A-Za-z]\s+[A-Za-z]", question):
        return " ".join(question.split())
    return "".join(question.split())


def zh_size(text: str) -> int:
    """How long a Chinese phrase is: its characters, a Latin word or number counting two."""
    return len(re.findall(r"[\u3400-\u9fff]", text)) + 2 * len(
        re.findall(r"[A-Za-z0-9][\w\-]*", text))


_KANA_HANGUL = re.compile(r"[\uac00-\ud7af\u3040-\u30ff]")


def is_chinese(text: str) -> bool:
    """Chinese characters and no Japanese kana or Korean hangul."""
    return has_cjk(text) and not _KANA_HANGUL.search(text)


@functools.cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of one lower-case word."""
    return str(_stemmer().stemWord(word))


# A terminal acts on escape sequences (set the window title, write the clipboard, clear or hide
# text) and on bare control characters (\r overwrites a line, a bidi override reorders it): text
# that came from a paper list or a question is shown without them. The store keeps the original.
_ESCAPE_SEQ = re.compile(
    r"\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"   # OSC … (BEL or ST): title, clipboard, link
    r"|\x1b[P^_X][^\x1b\x9c]*(?:\x1b\\|\x9c)?"        # DCS, PM, APC, SOS … ST
    r"|\x1b\[[0-?]*[ -/]*[@-~]?"                      # CSI: cursor, erase, colours, conceal
    r"|\x9b[0-?]*[ -/]*[@-~]?"                        # the 8-bit CSI
    r"|\x1b[ -/]*[0-~]?")                             # any other ESC sequence (or a lone ESC)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with terminal escape sequences and control characters removed (newlines and
    tabs kept; bidi overrides, which reorder what a reader sees, dropped)."""
    if text.isprintable():
        return text
    return _CONTROL.sub("", _ESCAPE_SEQ.sub("", text))


_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def safe_json(obj: Any) -> str:
    """JSON (indented, UTF-8 text) with every character a terminal acts on escaped: json
    escapes C0 itself; DEL, C1 and bidi controls are written as \\u escapes, so the data read
    back is unchanged and the text is safe to print."""
    import json

    text = json.dumps(obj, ensure_ascii=False, indent=2)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# LaTeX as abstracts carry it ("$\tilde{O}(D\sqrt{SAT})$", "\emph{care}"), shown as Unicode text
# ("Õ(D√(SAT))", "care") by pylatexenc, one piece at a time: a whole abstract is no LaTeX
# document (a bare "%" would start a comment, a lone "$" open math and swallow the rest).
_MATH = re.compile(r"(?<![\\$])\$(?! )([^$\n]{1,300}?)(?<![ \\])\$(?!\$)")
_TEXT_CMD = re.compile(r"\\(?:emph|textbf|textit|textsc|texttt|textrm|mathrm|mathbf|mathcal|"
                       r"mathbb|underline)\{([^{}]{0,200})\}|\\(?:ie|eg|etc|LaTeX|TeX)\b")


# macros an abstract defines for itself ("\R", "\eps", "\opt", "\x"), which pylatexenc does
# not know and would drop ("on $\R^d$" read "on ^d"): said as the usual ones are, else by name;
# sizing and style macros say nothing (what they format follows them)
_SHORTHANDS = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "E": "𝔼", "eps": "ε", "opt": "OPT",
               "Pr": "Pr", "colon": ":", "land": "∧", "lor": "∨", "tr": "tr", "trace": "tr",
               "over": "/", "ie": "i.e.", "eg": "e.g.", "etc": "etc."}
_SAY_NOTHING = frozenset(["left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr",
                         "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "limits", "nolimits",
                         "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle", "tiny",
                         "small", "large", "Large", "nonumber", "label", "smash", "boldsymbol",
                         "bm", "bf", "rm", "it", "sf", "tt", "cal", "mit", "mathit", "mathsf",
                         "operatorname", "mathscr", "mathfrak", "tfrac", "dfrac", "cfrac", "Tilde",
                         "wt", "wh"])


def _unknown_macro(node: Any, l2tobj: Any) -> str:
    r"""A macro pylatexenc does not know: its arguments when the parser read some ("\mbox{log}"),
    nothing when it formats what follows ("\bm{x}", "\left("), else its name ("\x \mapsto"
    says "x ↦"). pylatexenc passes ``l2tobj`` by that name."""
    args = [a for a in (node.nodeargd.argnlist if node.nodeargd else None) or [] if a is not None]
    if args:
        return "".join(l2tobj.node_to_text(a) for a in args)
    end = node.pos + node.len
    name: str = node.macroname
    if name in _SAY_NOTHING or not name.isalpha() or node.parsing_state.s[end:end + 1] == "{":
        return ""
    return name


@functools.cache
def _latex() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    db = get_default_latex_context_db()
    db.add_context_category("abstracts", prepend=False,
                            macros=[MacroTextSpec(k, v) for k, v in _SHORTHANDS.items()])
    db.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=_unknown_macro))
    return LatexNodes2Text(latex_context=db, math_mode="text", strict_latex_spaces=False)


def _render(piece: str) -> str:
    try:
        out = str(_latex().latex_to_text(piece.replace("%", r"\%")))
    except Exception:  # pylatexenc on malformed input: keep the source
        return piece
    return out if out.strip() else piece


def readable(text: str) -> str:
    """``text`` with its LaTeX math and text commands rendered as Unicode, for a reader (the
    JSON output and the store keep the source)."""
    if "$" not in text and "\\" not in text:
        return text
    text = _MATH.sub(lambda m: _render(m.group(0)), text)
    return _TEXT_CMD.sub(lambda m: _render(m.group(0)), text)
