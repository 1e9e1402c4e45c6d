"""Does a paper use something, as its title and abstract say? For "papers on X that do not use
Y" (query/exclusion.py): a paper is left out when its title or abstract mentions Y other than as
what it does without ("without labels", "instead of reinforcement learning", "label-free").

Leaving out a paper that mentions Y only as a baseline loses one the user may have wanted;
listing one that uses Y answers the opposite of the question. So any mention counts but a
negated one.
"""

from __future__ import annotations

import re

from assistant.paper import Paper
from assistant.textutil import content_words, split_sentences, stem

WINDOW = 5  # words before a mention that may negate it
_WORD = re.compile(r"[A-Za-z0-9]+")
_NEGATES = re.compile(r"^(?:without|no|not|never|non|unlike|instead|rather|avoid\w*|eliminat\w*|"
                      r"bypass\w*|dispens\w*|remov\w*|replac\w*|alternative\w*|free|neither|"
                      r"nor|obviat\w*|circumvent\w*)$", re.IGNORECASE)
# a thing's last word that any of its kind shares: "diffusion models" names the diffusion
# transformer too, "convolutional networks" a convolutional encoder
_HEADS = frozenset(["model", "models", "network", "networks", "net", "nets", "method", "methods",
                    "approach", "approaches", "technique", "techniques", "algorithm",
                    "algorithms", "architecture", "architectures"])
Form = tuple[str, ...]  # lower-case stems, or one acronym as written ("RL")


def _forms(thing: str, text: str) -> list[Form]:
    """What names ``thing`` in ``text``: its own words' stems, its initials ("reinforcement
    learning": RL, matched as written), and for an acronym ("GANs") the long form ``text``
    defines for it ("generative adversarial networks (GANs)")."""
    said = content_words(thing)
    forms: list[Form] = [tuple(stem(w.lower()) for w in said)]
    if len(said) >= 2:
        forms.append(("".join(w[0] for w in said).upper(),))
        if said[-1].lower() in _HEADS:  # "diffusion models": "diffusion transformers" too
            forms.append(tuple(stem(w.lower()) for w in said[:-1]))
    acronym = re.fullmatch(r"([A-Z][A-Za-z]*[A-Z])s?", thing.strip())
    if acronym:
        letters = acronym.group(1)
        forms.append((letters,))
        for m in re.finditer(rf"((?:[A-Za-z]+[\s\-]+){{{len(letters)}}})\(\s*{letters}s?\s*\)",
                             text):
            long_form = _WORD.findall(m.group(1))
            if "".join(w[0] for w in long_form).upper() == letters.upper():
                forms.append(tuple(stem(w.lower()) for w in long_form))
    return [f for f in dict.fromkeys(forms) if f]


def _at(form: Form, tokens: list[str], stems: list[str], i: int) -> bool:
    if len(form) == 1 and form[0].isupper() and len(form[0]) > 1:  # an acronym, as written
        return tokens[i] in (form[0], form[0] + "s")
    return tuple(stems[i:i + len(form)]) == form


def uses(paper: Paper, thing: str) -> bool:
    """Does ``paper`` mention ``thing`` in its title or abstract, other than negated?"""
    text = f"{paper.title}. {paper.abstract}"
    forms = _forms(thing, text)
    for sentence in split_sentences(text):
        tokens = _WORD.findall(sentence)
        stems = [stem(t.lower()) for t in tokens]
        for form in forms:
            for i in range(len(tokens) - len(form) + 1):
                if not _at(form, tokens, stems, i):
                    continue
                end = i + len(form)
                if end < len(tokens) and tokens[end].lower() == "free":
                    continue  # "label-free", "RL free"
                if any(_NEGATES.match(t) for t in tokens[max(0, i - WINDOW):i]):
                    continue  # "without labels", "instead of reinforcement learning"
                return True
    return False
