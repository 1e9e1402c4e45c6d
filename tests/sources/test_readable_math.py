"""An abstract's math as a reader sees it: macros the abstract defines for itself ("\\R",
"\\eps", "\\opt", "\\x") are said, not dropped. pylatexenc drops a macro it does not know, so a
COLT abstract quoted in an answer read "learning Massart halfspaces on ^d ... even if = 2^-log^c
(d)" and "$\\eps$-differentially" was left as source; sizing and style macros ("\\left(",
"\\bm{x}") still say nothing but what they format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assistant.evaluation.splits import corpus_part
from assistant.sources.corpus import bundled_papers
from assistant.textutil import readable

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "ml-abstracts.jsonl"
FIT = {"corl", "uai", "colt", "acml", "automl"}


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"learning Massart halfspaces on $\R^d$ can achieve error better than $\Omega(\eta)$",
         "learning Massart halfspaces on ℝ^d can achieve error better than Ω(η)"),
        (r"even if $\opt  = 2^{-\log^{c} (d)}$", "even if OPT  = 2^-log^c (d)"),
        (r"$\poly(d, 1/\eps)$-time algorithms", "poly(d, 1/ε)-time algorithms"),
        (r"$\eps$-differentially private", "ε-differentially private"),
        (r"$\x \mapsto \sigma(\vec w \cdot \x)$", "x↦σ(w⃗·x)"),
        (r"$\Pr[\xi = 0] \geq o(1)$", "Pr[ξ = 0] ≥ o(1)"),
        (r"$O(n^2\mbox{log}n)$", "O(n^2logn)"),
        (r"$\tilde{O}\big(H\gamma_N\sqrt{N}\big)$", "Õ(Hγ_N√(N))"),
        (r"$\tilde{O}\left(\sqrt{d} \over n\right)$", "Õ(√(d)/ n)"),
        (r"$\bm{Q}$ and $\boldsymbol{\theta}$", "Q and θ"),
        (r"a loss (\ie the risk), \eg hinge", "a loss (i.e. the risk), e.g. hinge"),
        (r"$\tilde{O}(D\sqrt{SAT})$ and \emph{care}", "Õ(D√(SAT)) and care"),
    ],
)
def test_an_abstracts_own_macros_are_said(latex, text):
    assert readable(latex) == text


def _math_with_macros(abstracts):
    for abstract in abstracts:
        for m in re.finditer(r"(?<![\\$])\$(?! )([^$\n]{1,300}?)(?<![ \\])\$(?!\$)", abstract):
            if re.search(r"\\[A-Za-z]", m.group(1)):
                yield m.group(0)


def test_every_bundled_formula_is_rendered():
    pieces = list(_math_with_macros(p.abstract for p in bundled_papers()))
    assert pieces
    assert [p for p in pieces if "\\" in readable(p)] == []


@pytest.mark.shared
def test_every_formula_of_the_fit_venues_is_rendered():
    """No piece of math with a macro is left as LaTeX source (it was, whenever pylatexenc
    rendered it as nothing): over every abstract of the fit venues' dev part."""
    rows = [json.loads(line) for line in SHARED.open(encoding="utf-8")]
    abstracts = [r["abstract"] for r in rows if r["venue"].lower() in FIT
                 and corpus_part(r) == "dev"]
    pieces = list(_math_with_macros(abstracts))
    assert len(pieces) > 500
    left = [p for p in pieces if re.search(r"\\[A-Za-z]", readable(p))]
    assert left == []
