import re

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.factory import build_answerer
from assistant.answer.pipeline import answer
from assistant.query.form import of
from assistant.search.retrieval import Retriever
from assistant.settings import load_settings
from assistant.textutil import has_cjk


def ask(store, question, **kw):
    settings = load_settings()
    return answer(question, retriever=Retriever(store=store),
                  answerer=build_answerer(settings, embedder=store.embedder), **kw)


def test_which_paper_question_cites_dype(bundled_store):
    result = ask(bundled_store, "Which paper generates ultra-high-resolution images with "
                 "diffusion transformers?")
    assert result.backend == "extractive" and not result.refused
    assert "DyPE" in result.citations[0].paper.title
    assert "**" + result.citations[0].paper.title + "**" in result.text
    assert result.citations[0].n == 1


def test_every_sentence_of_an_extractive_answer_is_cited(bundled_store):
    result = ask(bundled_store, "What accuracy gains does CPMöbius report on Qwen2.5-Math?")
    assert "CPMöbius" in result.citations[0].paper.title
    assert "+4.9" in result.text  # the result sentence is picked for a results question
    for line in filter(None, result.text.split("\n")):
        for sentence in re.split(r"(?<=\]\.)\s+|(?<=\])\s+(?=[A-Z])", line):
            assert re.search(r"\[\d+(?:, \d+)*\]", sentence), sentence


def test_which_papers_question_lists_several(bundled_store):
    result = ask(bundled_store, "Which papers are about quantization?")
    titles = [c.paper.title for c in result.citations]
    assert len(titles) >= 2
    assert any("MaskAQ" in t for t in titles) and any("Q2D2" in t for t in titles)
    assert result.text.count("\n- ") >= 2


def test_off_topic_questions_are_refused(bundled_store):
    for q in ("What is the best recipe for sourdough bread?",
              "Which papers study protein folding with AlphaFold?",
              "Who won the football world cup in 2022?"):
        result = ask(bundled_store, q)
        assert result.refused, q
        assert result.citations == []
        assert "do not answer" in result.text
        assert result.papers  # what was searched is still reported


def test_questions_of_joining_words_only_are_refused(bundled_store):
    """"vs", "versus", "et al.", "etc.", "cf." name no topic: one abstract of the bundled list
    says "stimulation vs. tradition", and "vs" alone was answered from it, confidently."""
    for q in ("vs", "versus?", "et al.", "etc", "cf. vs"):
        result = ask(bundled_store, q)
        assert result.refused and result.citations == [], (q, result.text)


def test_a_comparison_with_one_side_here_is_a_near_miss_naming_it(bundled_store):
    """"How does <a method of the list> differ from <a paper from another field>?": the list
    holds one side, so it is no off-domain question: a near miss that says which side is here
    (its paper, cited first in the side's place) and that no paper clearly matches the other
    (its closest paper named as only that), each side in turn. Neither side here: refused."""
    from assistant.answer.framing import ENGLISH

    names = [p.title.split(":")[0].split(" (")[0] for p in bundled_store.papers()
             if re.match(r"^[A-Z][\w-]+(?: \(|:)", p.title)]
    assert len(names) >= 8
    heads = (ENGLISH.side_sure.split("{title}")[0], ENGLISH.side_closest.split("{title}")[0])
    for name in names:
        for other in ("the paper on protein folding with AlphaFold",
                      "the work on sourdough fermentation temperatures"):
            for here, question in ((0, f"How does {name} differ from {other}?"),
                                   (1, f"How does {other} differ from {name}?")):
                result = ask(bundled_store, question)
                assert result.outcome == "near_miss", (question, result.text)
                assert result.to_dict()["answerability"]["sides"][1 - here] == "not_found"
                cited = [c.paper for c in result.citations]
                assert cited[here].title.startswith(name), (question, result.text)
                which, rest = ENGLISH.ordinals[here], ENGLISH.ordinals[1 - here]
                assert any(h.format(which=which) in result.text for h in heads), result.text
                assert (f"clearly matches the {rest} side: **{cited[1 - here].display_title}** "
                        f"[{2 - here}] is only the closest") in result.text, result.text
                assert f"**{cited[here].display_title}** [{here + 1}]." in result.text
    both_away = ask(bundled_store, "How does sourdough fermentation differ from protein folding?")
    assert both_away.refused and not both_away.citations


def test_streamed_deltas_add_up_to_the_answer(bundled_store):
    seen: list[str] = []
    result = ask(bundled_store, "How does IPMark watermark LLM text?", on_delta=seen.append)
    assert len(seen) > 3
    assert "".join(seen).strip() == result.text


def test_third_person_rewrite():
    from assistant.answer.extractive import third_person

    assert third_person("We propose X and our method wins.") == \
        "The authors propose X and their method wins."
    assert third_person("To this end, we show it.") == "To this end, the authors show it."


def test_pick_prefers_result_sentences_for_result_questions(bundled_store, embedder):
    retrieval = Retriever(store=bundled_store).search("What does Q2D2 achieve?", k=3)
    chosen = ExtractiveAnswerer(embedder=embedder).pick(of("What does Q2D2 achieve?"),
                                                        retrieval.papers[:1])
    assert any(re.search(r"improv|achiev|outperform|state-of-the-art", s.text, re.I)
               for s in chosen[0])


def test_a_question_naming_a_method_is_answered_with_its_code_link(bundled_store):
    result = ask(bundled_store, "Where can I find the code of MaskAQ?")
    assert not result.refused
    assert "MaskAQ" in result.citations[0].paper.title
    assert "github.com/hfutqian/MaskAQ" in result.references()


def test_relevance_evidence_rises_with_a_named_method():
    from assistant.judge.relevance import evidence
    from assistant.sources.titles import names_in

    assert names_in("Is Q2D2 better than FSQ?") == {"q2d2", "fsq"}
    assert names_in("Which paper is about zebras?") == set()
    plain, _ = evidence("code of MaskAQ", 0.3, "MaskAQ: masked attention", "")
    named, _ = evidence("code of MaskAQ", 0.3, "MaskAQ: masked attention", "MaskAQ: masked")
    assert named - plain == 3.0


def test_chinese_questions_offline(bundled_store):
    """Translated offline into the collection's English words (search/translate.py), searched
    and judged in English, answered in Chinese with the abstract's sentences as written; a
    question no dictionary word of which is known (Korean, here with no multilingual vectors)
    is refused with what to do."""
    named = ask(bundled_store, "DyPE 是如何让扩散 Transformer 生成超高分辨率图像的？")
    assert not named.refused and "DyPE" in named.citations[0].paper.title
    unnamed = ask(bundled_store, "有没有关于大语言模型水印的论文？")
    assert unnamed.outcome == "answered" and "IPMark" in unnamed.citations[0].paper.title
    assert not has_cjk(unnamed.search_query) and "watermark" in unnamed.search_query
    assert unnamed.text.startswith("最相关的论文是 **IPMark")
    quoted = [s for s in unnamed.grounding.sentences if s.cites]
    assert quoted and all(s.verdict == "supported" for s in quoted)
    korean = ask(bundled_store, "대규모 언어 모델 워터마킹에 관한 논문이 있나요?")
    assert korean.refused and "OPENAI_BASE_URL" in korean.text


def test_a_survey_as_a_table(bundled_store, capsys):
    import csv
    import io

    from assistant.cli.main import main

    assert main(["ask", "--table", "csv", "Which papers are about quantization?"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0] == ["n", "title", "venue_year", "proposes", "main_result"]
    titles = [r[1] for r in table[1:]]
    assert any("MaskAQ" in t for t in titles) and any("Q2D2" in t for t in titles)
    assert all(r[3].startswith("The authors") for r in table[1:])  # the contribution sentence
    assert main(["ask", "--table", "md", "Which papers are about quantization?"]) == 0
    assert capsys.readouterr().out.startswith("| # | paper | venue | what it proposes |")


def test_a_comparison_is_answered_when_each_side_is(bundled_store):
    both = ask(bundled_store, "How does DyPE differ from UniR?")
    assert both.outcome == "answered"
    assert [c.paper.title.split()[0] for c in both.citations[:2]] == ["DyPE", "UniR"]
    assert both.text.startswith("What each paper says on the same points, side by side:")
    one_side = ask(bundled_store, "How does DyPE compare with sourdough baking?")
    assert one_side.outcome != "answered"


def test_a_turn_that_asks_nothing_is_told_what_to_ask_and_cites_nothing(bundled_store):
    """After an answer, "thanks" or "ok" was read as a follow-up and answered about the
    previous paper, confidently; now it cites nothing and says what to ask. A short follow-up
    that asks for more ("why?") is still read from the previous answer's paper."""
    first = "Which paper generates ultra-high-resolution images with diffusion transformers?"
    before = ask(bundled_store, first)
    history = [(first, before.text)]
    for said in ("thanks", "ok", "great, thanks!", "I see", "the", "谢谢"):
        result = ask(bundled_store, said, history=history)
        assert result.refused and result.citations == [], (said, result.text)
        assert said in result.text and ("Ask about" in result.text or "请询问" in result.text)
    for said in ("why?", "tell me more"):
        result = ask(bundled_store, said, history=history)
        assert result.outcome == "answered", (said, result.text)
        assert result.citations[0].paper.paper_id == before.citations[0].paper.paper_id


def test_a_follow_up_after_a_turn_that_asked_nothing_refers_past_it(bundled_store):
    """"thanks", then "what data did they use?": the follow-up is about the paper the last
    real answer named (it was refused, the thanks being the previous turn)."""
    first = "Which paper generates ultra-high-resolution images with diffusion transformers?"
    before = ask(bundled_store, first)
    history = [(first, before.text)]
    for said in ("thanks!", "ok"):
        history.append((said, ask(bundled_store, said, history=history).text))
    for follow in ("Does it need retraining?", "它需要重新训练吗？"):
        result = ask(bundled_store, follow, history=history)
        assert result.outcome == "answered", (follow, result.text)
        assert result.citations[0].paper.paper_id == before.citations[0].paper.paper_id


def _names(store):
    return [p.title.split(":")[0].split(" (")[0] for p in store.papers()
            if re.match(r"^[A-Z][\w-]+(?: \(|:)", p.title)]


def test_three_to_six_named_methods_each_lead_a_side(bundled_store):
    """"Compare A, B and C", "A vs B vs C": each method's paper cited in its side's place, in
    the question's order, one number each (generated over the list's named methods)."""
    import random

    names = _names(bundled_store)
    rng = random.Random(3)
    forms = ["Compare {list}", "How do {list} differ?", "{vs}"]
    for k in (3, 3, 4, 4, 5, 6):
        chosen = rng.sample(names, k)
        form = rng.choice(forms)
        q = form.format(list=", ".join(chosen[:-1]) + " and " + chosen[-1],
                        vs=" vs ".join(chosen))
        result = ask(bundled_store, q)
        assert result.outcome == "answered", (q, result.text)
        cited = [c.paper.title for c in result.citations]
        assert len(cited) == k and all(t.startswith(n) for t, n in zip(cited, chosen,
                                                                        strict=True)), (q, cited)
        assert len(result.to_dict()["answerability"]["sides"]) == k
        for n, c in enumerate(result.citations, 1):  # each side's points cite its own paper
            assert f"**{c.paper.display_title}** [{n}]" in result.text


def test_a_side_of_three_not_here_is_said_so(bundled_store):
    from assistant.answer.framing import ENGLISH

    a, b = _names(bundled_store)[:2]
    result = ask(bundled_store, f"Compare {a}, {b} and sourdough fermentation temperatures")
    assert result.outcome == "near_miss", result.text
    assert result.to_dict()["answerability"]["sides"][2] == "not_found"
    cited = [c.paper.title for c in result.citations]
    assert cited[0].startswith(a) and cited[1].startswith(b), cited
    assert f"clearly matches the {ENGLISH.ordinals[2]} side: **" in result.text, result.text
    assert "[3] is only the closest" in result.text
