"""Lists of another field (biomedical ones mostly): structured abstracts quoted without their
section labels, and papers with no venue or year listed without empty brackets."""

import re

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.answer.survey import rows
from assistant.index.store import PaperStore
from assistant.paper import Paper
from assistant.textutil import strip_section_label

LABELS = re.compile(r"\b(BACKGROUND|OBJECTIVE|METHODS|MATERIALS AND METHODS|RESULTS|"
                    r"CONCLUSIONS?|FINDINGS|INTERPRETATION|Conclusions:)\b")

PAPERS = [
    Paper(paper_id="p1", title="Daily aspirin and colorectal adenomas after colon cancer",
          abstract="BACKGROUND Observational studies suggest that regular aspirin use lowers the "
          "risk of colorectal adenomas. METHODS We randomly assigned 635 patients with previous "
          "colorectal cancer to 325 mg of aspirin per day or placebo. RESULTS Adenomas were found "
          "in 17 percent of the aspirin group and 27 percent of the placebo group. CONCLUSIONS "
          "Daily aspirin is associated with fewer colorectal adenomas after colorectal cancer.",
          venue="Test", year=2003),
    Paper(paper_id="p2", title="Hand hygiene and hospital infections in intensive care",
          abstract="OBJECTIVE To measure whether an alcohol hand rub campaign lowers hospital "
          "infections. MATERIALS AND METHODS Twelve intensive care units took part over two "
          "years. RESULTS: Infection rates fell by a third after the campaign. Conclusions: Hand "
          "rub campaigns are a cheap way to prevent infections in intensive care.",
          venue="Test", year=2005),
    Paper(paper_id="p3", title="Sleep loss and glucose tolerance in young men",
          abstract="BACKGROUND Short sleep is common. METHODS Eleven young men slept four hours "
          "a night for six nights. FINDINGS Glucose tolerance fell and evening cortisol rose. "
          "INTERPRETATION Sleep debt harms carbohydrate metabolism.", venue="Test", year=1999),
]


@pytest.mark.parametrize(("sentence", "stripped"), [
    ("BACKGROUND Observational studies report less cancer.", "Observational studies report "
     "less cancer."),
    ("MATERIALS AND METHODS Consecutive patients were included.", "Consecutive patients were "
     "included."),
    ("CONCLUSIONS AND RELEVANCE: In this trial, x fell.", "In this trial, x fell."),
    ("Results: x fell.", "x fell."),
    ("Results show that x fell.", "Results show that x fell."),  # a word of the sentence
    ("DNA methylation silences genes.", "DNA methylation silences genes."),
    ("HIV RESULTS are unchanged.", "HIV RESULTS are unchanged."),
    ("RESULTS", "RESULTS"),  # a label alone is left as it is
])
def test_a_section_label_is_stripped_and_nothing_else(sentence, stripped):
    assert strip_section_label(sentence) == stripped


@pytest.fixture
def structured(retriever_over):
    return retriever_over(PAPERS, collection="structured")


@pytest.mark.parametrize("question", [
    "Does taking aspirin every day prevent adenomas in people who already had colon cancer?",
    "Did a hand rub campaign cut infections in intensive care units?",
    "Which papers are about hospital infections or aspirin?",
])
def test_an_answer_quotes_structured_abstracts_without_their_labels(structured, embedder,
                                                                    question):
    ans = answer(question, retriever=structured, answerer=ExtractiveAnswerer(embedder=embedder),
                 ground=False)
    assert ans.outcome == "answered" and ans.citations, ans.text
    body = ans.text.split("\nReferences")[0]
    assert not LABELS.search(body), body
    abstracts = " ".join(p.abstract for p in PAPERS)
    for quote in re.findall(r"([A-Z][^\[\]]{20,}?\.)\s*\[\d+\]", body):
        # each quoted sentence is the abstract's own (in the third person: "we" -> "they")
        plain = quote.replace("The authors", "We").replace("they", "we").strip()
        assert plain in abstracts or quote.strip() in abstracts, quote


def test_a_table_row_leaves_out_the_labels(structured, embedder):
    ans = answer("Which papers are about hospital infections or aspirin?", retriever=structured,
                 answerer=ExtractiveAnswerer(embedder=embedder), ground=False)
    table = rows(ans)
    assert table
    for row in table:
        assert not LABELS.search(row.proposes) and not LABELS.search(row.result), row


def test_a_structured_abstract_says_each_sentence_s_facet():
    from assistant.search.facets import facets_of

    found = facets_of(PAPERS[2].abstract)
    assert found["background"] == ["BACKGROUND Short sleep is common."]
    assert found["method"] == ["METHODS Eleven young men slept four hours a night for six "
                               "nights."]
    assert [s.split()[0] for s in found["result"]] == ["FINDINGS", "INTERPRETATION"]
    # a label holds until the next: the methods section's second sentence is a method
    two = facets_of("BACKGROUND A is common. METHODS We gave B to mice. They were weighed "
                    "daily. RESULTS Weight fell.")
    assert two["method"] == ["METHODS We gave B to mice.", "They were weighed daily."]


def test_papers_like_a_structured_one_pair_sentences_without_labels(structured):
    from assistant.search.similar import similar

    found = similar(PAPERS[0].abstract, retriever=structured, facet="method", k=2,
                    exclude=["p1"]).papers
    assert found
    for s in found:
        assert not LABELS.search(s.pair[0]) and not LABELS.search(s.pair[1]), s.pair
    assert found[0].pair[0].startswith("We randomly assigned 635 patients")


def test_papers_without_venue_or_year_are_listed_without_empty_brackets(tmp_path, embedder,
                                                                       capsys):
    """SciFact-like lists carry no venue or year: `search` and `similar` print none, not "()"."""
    from dataclasses import replace

    from assistant.cli.main import main

    store = PaperStore(collection="plain", embedder=embedder, path=tmp_path / "store",
                       create=True)
    store.ingest([replace(p, venue="", year=None) for p in PAPERS], source="test:plain")
    where = ["--store", str(tmp_path / "store"), "--collection", "plain"]
    assert main(["search", "aspirin and colorectal adenomas", "--k", "3", *where]) == 0
    assert main(["similar", "p1", "--k", "2", *where]) == 0
    out = capsys.readouterr().out
    assert "[p1]" in out and "[p2]" in out and "()" not in out, out
