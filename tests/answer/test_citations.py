import random

from assistant.citations import CitationFilter, parse_group, tidy


def check(text, n_sources):
    """The whole text through one filter at once, tidied: what a non-streaming reader sees."""
    f = CitationFilter(n_sources)
    out = f.feed(text) + f.flush()
    return tidy(out), f


def test_parse_groups():
    assert parse_group("1") == [1]
    assert parse_group("1, 3") == [1, 3]
    assert parse_group("2-4") == [2, 3, 4]
    assert parse_group("2–3, 5") == [2, 3, 5]


def test_invalid_citations_are_dropped_and_the_rest_renumbered_by_first_use():
    text, f = check("Second first [2]. Then one [1]. Ghost [9]. Both [1, 2]. Range [2-3].", 3)
    assert text == "Second first [1]. Then one [2]. Ghost. Both [1, 2]. Range [1, 3]."
    assert f.dropped == [9]
    assert f.order == [2, 1, 3]


def test_non_citation_brackets_survive():
    text, f = check("See [the appendix] and x[0]y and [1].", 1)
    assert text == "See [the appendix] and xy and [1]."
    assert f.dropped == [0]


def test_streaming_gives_the_same_text_as_a_whole_pass():
    rng = random.Random(7)
    source = ("DyPE scales [1]. It beats baselines [2, 5] and [3-4]. A ghost [12] appears. "
              "Brackets [like this] stay, [1][2] too, and an open [ at the end")
    expected = check(source, 4)[0]
    for _ in range(50):
        f = CitationFilter(4)
        cuts = sorted(rng.sample(range(1, len(source)), 12))
        pieces = [source[a:b] for a, b in zip([0, *cuts], [*cuts, len(source)], strict=False)]
        out = "".join(f.feed(p) for p in pieces) + f.flush()
        assert tidy(out) == expected
        assert f.dropped == [5, 12]


def test_tidy_keeps_a_lines_indentation():
    """A comparison's points are a list nested under each paper ("  - problem: ..."): doubled
    spaces inside a line go, the indentation that nests an item stays (it was collapsed to one
    space, and the points rendered as items of their own, beside the papers)."""
    text = "- **A** [1]\n  - problem: x  y [1]\n    - deeper\n- **B** [2]\n\t- tab"
    assert tidy(text) == "- **A** [1]\n  - problem: x y [1]\n    - deeper\n- **B** [2]\n\t- tab"
