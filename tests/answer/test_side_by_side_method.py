"""A comparison's side-by-side "method" line quotes what the authors propose, never a sentence
of their results that happens to be nearer the question ("Our results show improved
performance on most but not all of the domains" was quoted as a paper's method)."""

from __future__ import annotations

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper

FOO = Paper("p-foo", "FOO: orthogonal updates for deep networks",
            "Training deep networks is slow. We propose FOO, an optimizer that keeps each "
            "update orthogonal to the weights. Our results show that FOO beats BARX on most but "
            "not all of the domains.", ["A. One"], "UAI", 2021)
BARX = Paper("p-barx", "BARX: momentum with restarts",
             "Momentum methods oscillate. We introduce BARX, which restarts momentum when the "
             "loss rises. BARX trains residual networks faster than Adam.", ["B. Two"],
             "UAI", 2020)
OTHER = Paper("p-gp", "Sparse Gaussian processes for streaming data",
              "We update a sparse Gaussian process posterior online as data arrive.",
              ["D. Four"], "UAI", 2019)


def test_the_method_line_quotes_what_the_authors_propose(retriever_over, embedder):
    result = answer("Compare FOO and BARX", retriever=retriever_over([FOO, BARX, OTHER]),
                    answerer=ExtractiveAnswerer(embedder=embedder))
    lines = [line.strip() for line in result.text.splitlines()
             if line.strip().startswith("- method:")]
    assert len(lines) == 2, result.text
    assert "propose FOO" in lines[0], result.text
    assert "results show" not in lines[0], result.text
    assert "introduce BARX" in lines[1], result.text
