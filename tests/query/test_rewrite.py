"""Which questions lean on the previous turn, and what rewriting does with them."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from pathlib import Path

import pytest
from fakes import QueueModel

from assistant.answer.framing import CHINESE, ENGLISH
from assistant.query.followup import is_follow_up
from assistant.query.form import parse
from assistant.query.rewrite import dangling_references, heuristic, previous_paper, with_llm


def offline_rewrite(question, history):
    """The offline answerer's rewrite of a question, its form read as the pipeline reads it."""
    return heuristic(parse(question, history), history)

LABELLED = Path(__file__).resolve().parents[2] / "evals" / "followups.jsonl"
DYPE_TURN = ("Which paper makes diffusion transformers generate huge images?",
             "The most relevant paper is **DyPE: dynamic position extrapolation** [1].")

STANDALONE = [
    "What is the paper on piecewise linear regression trees about?",  # the fourth turn
    "Which paper proposes DyPE?",
    "What is LoRA?",
    "Is there a paper that watermarks LLM text and attributes it to individual users?",
    "Which papers study reward hacking in RLHF and how do they detect it?",
    "Which paper is about that new optimizer, Muon?",
    "Is it possible to train a GNN without message passing?",
    "And which paper uses diffusion models for offline reinforcement learning?",
    "Does this collection have anything on 4-bit quantization of vision transformers?",
    "Compare LoRA and full fine-tuning on instruction following.",
    "Who are the authors of the DyPE paper?",
    "这篇关于分段线性回归树的论文讲了什么？",  # a demonstrative with its own content
    "那篇提出 IPMark 的论文用了什么方法？",
    "有没有关于大语言模型水印的论文？",
    "什么是LoRA？",
    "扩散模型的采样很慢，有什么方法能在不重新训练的情况下加速它？",
    "其实我想问：有没有关于扩散模型成员推断攻击的论文？",
    "Which paper is about the proposed method for pruning attention heads?",  # its own content
]
FOLLOW_UPS = [
    "How robust is it?",
    "What are its limitations?",
    "What datasets did they use?",
    "Compare them.",
    # a definite phrase marked as the one just discussed, whatever word marks it
    "Does the proposed method need labels?",
    "What are the proposed metrics called?",
    "How fast is the new approach?",
    "Does this method need labelled data?",
    "Where is the code for that paper?",
    "Tell me more about the second one.",
    "Are these results statistically significant?",
    "Did the authors try the same approach on language models?",
    "What about GNNs?",
    "And how does it compare with the baselines?",
    "Who are the authors?",
    "How does the proposed method scale to larger models, and did the authors report "
    "wall-clock time or only FLOPs?",
    "它的鲁棒性如何？",
    "这篇论文用了哪些数据集？",
    "该方法需要标注数据吗？",
    "这个方法和 GPTQ 比怎么样？",
    "他们用了什么数据集？",
    "那篇的代码在哪里？",
    "上面的结果可信吗？",
    "第二篇讲了什么？",
    "其结果在 ImageNet 上如何？",
    "那图神经网络呢？",
]


@pytest.mark.parametrize("question", STANDALONE)
def test_a_question_that_names_its_topic_stands_alone(question):
    assert not is_follow_up(question), dangling_references(question)
    assert offline_rewrite(question, [DYPE_TURN]) == question  # never inherits the previous topic


@pytest.mark.parametrize("question", FOLLOW_UPS)
def test_an_unresolved_reference_makes_a_follow_up(question):
    assert is_follow_up(question)
    rewritten = offline_rewrite(question, [DYPE_TURN])  # the paper named, or the question asked
    assert rewritten.startswith(question) and ("DyPE" in rewritten or "diffusion" in rewritten)


# a "when"/"if" clause is no part of what the question asks: its nouns are antecedents for a later
# pronoun; "when" that asks ("When was it published?") still leaves its pronoun dangling
CLAUSE_STANDALONE = [
    "What happens when language models are fine-tuned on their own outputs?",
    "What happens when language models are trained on their own outputs?",
    "What happens when LLMs are trained on their own outputs?",
    "What breaks if GANs are trained on their own samples?",
    "When a GNN is deep, why does it oversmooth?",
    "Why do diffusion models degrade when they are sampled with few steps?",
]
# Judged a follow-up since the learned model (followup_model.py) weighs short, name-less
# questions: "When were transformers introduced and who wrote their paper?" (its pronoun points
# inside the question). Counted among the misses in the issue 8 note; not asserted here.
CLAUSE_FOLLOW_UPS = [
    "When was it published?",
    "When does it fail?",
    "When exactly was it published?",
    "If it is so fast, why is it not used more?",
    "When it is deep, why does it oversmooth?",
    "What happens when it is trained longer?",
    "How does it behave when models are large?",
    # "happened" asks what came of it: no antecedent for "they" (a biologist's second turn)
    "What happened when they made YAP hyperactive?",
    "What occurred when they knocked the gene out?",
]
# 哪一篇 (which one of those papers) points back unless a noun gives it a topic of its own
ZH_WHICH_STANDALONE = [
    "哪一篇论文提出了DyPE？",
    "哪一篇论文研究扩散模型的高分辨率生成？",
    "哪篇关于扩散模型的论文最新？",
    "哪一篇 paper 提出了 DyPE？",
]
ZH_WHICH_FOLLOW_UPS = [
    "哪一篇效果最好？",
    "其中哪一篇用了强化学习？",
    "哪一篇用了强化学习？",
    "哪篇更适合图像生成？",
    "哪几篇用了 LoRA？",
    "哪一篇的代码开源了？",
]


@pytest.mark.parametrize("question", CLAUSE_STANDALONE + ZH_WHICH_STANDALONE)
def test_a_clause_or_a_noun_gives_the_question_its_own_topic(question):
    assert not is_follow_up(question), dangling_references(question)


@pytest.mark.parametrize("question", CLAUSE_FOLLOW_UPS + ZH_WHICH_FOLLOW_UPS)
def test_a_question_when_or_a_bare_which_one_leans_on_the_previous_turn(question):
    assert is_follow_up(question)


def test_which_one_in_chinese_is_named():
    assert "哪一篇" in dangling_references("哪一篇用了强化学习？")
    assert "it" in dangling_references("If it is so fast, why is it not used more?")


def test_the_reference_is_named():
    assert "this method" in dangling_references("Does this method need labelled data?")
    assert "第二篇" in dangling_references("第二篇讲了什么？")
    assert dangling_references("Why?") == ["no topic of its own"]


def test_without_history_nothing_is_rewritten():
    for question in FOLLOW_UPS[:3] + STANDALONE[:3]:
        assert offline_rewrite(question, []) == question


def test_without_bold_titles_the_previous_question_carries_the_topic():
    history = [("Which paper watermarks LLM text for per-user attribution?", "IPMark does [1].")]
    rewritten = offline_rewrite("How robust is it?", history)
    assert "watermarks" in rewritten and "attribution" in rewritten
    zh = [("哪篇论文研究大模型水印？", "没有找到。")]
    assert "水印" in offline_rewrite("它的鲁棒性如何？", zh)


@pytest.mark.parametrize("framing", [ENGLISH, CHINESE])
@pytest.mark.parametrize("opening", ["nothing_here", "not_introduced", "across_languages"])
def test_after_a_near_miss_the_question_asked_carries_the_topic_not_its_closest_papers(
        framing, opening):
    # the answer said its closest papers are not what was asked: a follow-up is about what
    # was asked (its words), never about the first of those papers
    said = getattr(framing, opening).format(asked="sentiment neuron", missing="SentNeuron")
    history = [("Which paper found a single neuron tracking sentiment in a byte-level LSTM?",
                said + "\n\n- **Hierarchical attention for document ranking** [1]")]
    rewritten = offline_rewrite("What did they evaluate it on?", history)
    assert "neuron" in rewritten and "Hierarchical" not in rewritten
    # after an answer that is about that paper, the paper carries it
    answered = [(history[0][0], "The closest match is **Hierarchical attention** [1], though")]
    assert "Hierarchical" in offline_rewrite("What did they evaluate it on?", answered)


def test_what_about_x_asks_the_previous_question_again_of_x():
    history = [("Which papers study oversmoothing in transformers?",
                "**Oversmoothing in deep attention** [1] studies it.")]
    for question in ("What about GNNs?", "And for graph networks?"):
        rewritten = offline_rewrite(question, history)
        assert "oversmoothing" in rewritten and "attention" not in rewritten
    # a pronoun still points at the paper the answer named
    assert "attention" in offline_rewrite("What about its results on ImageNet?", history)


def test_the_llm_sees_the_conversation_only_for_a_follow_up():
    history = [DYPE_TURN]

    def rewrite(question: str, reply: str) -> tuple[str, QueueModel]:
        model = QueueModel().enqueue(reply)
        return asyncio.run(with_llm(parse(question, history), history, model=model)), model

    standalone = "What is the paper on piecewise linear regression trees about?"
    out, model = rewrite(standalone, "unused")
    assert out == standalone and model.calls == []  # no call, no old topic
    trees = "piecewise linear regression trees"
    out, model = rewrite("这篇关于分段线性回归树的论文讲了什么？", trees)
    assert out == trees
    assert "DyPE" not in model.calls[0][0]["content"]  # translated, not resolved
    out, model = rewrite("How robust is it?", "DyPE robustness")
    assert out == "DyPE robustness" and "DyPE" in model.calls[0][0]["content"]


def test_the_labelled_set_is_judged_right():
    """evals/followups.jsonl, dev split (the test split is reported by `make report` only):
    >= 80% per language, and every case is judged with its previous question."""
    cases = [json.loads(line) for line in LABELLED.read_text().splitlines() if line.strip()]
    split = json.loads((LABELLED.parent / "splits" / "followups.json").read_text())
    test = set(split["dev"])
    counts: dict[tuple[str, bool], int] = defaultdict(int)
    right: dict[str, list[bool]] = defaultdict(list)
    for case in cases:
        if case["id"] not in test:
            continue
        counts[(case["lang"], case["follow_up"])] += 1
        said = is_follow_up(case["question"], case["previous"])
        right[case["lang"]].append(said == case["follow_up"])
    assert min(counts.values()) >= 50 and len(counts) == 4
    for lang, oks in right.items():
        assert sum(oks) / len(oks) >= 0.8, lang

@pytest.mark.parametrize(("question", "ref"), [
    ("What kind of simulated application did they test it on?", "they"),
    ("What kinds of clustering decisions can it help make?", "it"),
    ("Which benchmark datasets do they report results on?", "they"),
])
def test_the_subject_of_the_questions_inversion_points_back(question, ref):
    """The words before "did they" / "can it" are what is asked for, never the pronoun's
    antecedent: the question leans on the previous answer's paper."""
    assert ref in dangling_references(question)


@pytest.mark.parametrize("question", [
    "How do diffusion models work and why do they need many steps?",
    "What makes GANs unstable when they are trained with small batches?",
    "Why is it hard to train GANs?",
])
def test_a_pronoun_after_its_antecedent_in_the_same_question_does_not(question):
    assert dangling_references(question) == []


@pytest.mark.parametrize("question", [
    "Is it conjectured that finding a planted dense subhypergraph is as hard as in graphs?",
    "Is it believed that deeper networks generalise worse without skip connections?",
    "Was it shown that adaptive methods converge on nonconvex objectives?",
])
def test_an_it_that_introduces_a_that_clause_points_nowhere(question):
    """ "Is it conjectured / believed / shown that ...": an expletive, not a reference."""
    assert dangling_references(question) == []


def test_the_ones_of_a_question_rich_in_its_own_topic_point_inside_it():
    question = ("How can I train a policy in simulation that tolerates sim-to-real mismatch by "
                "sampling physical parameters, focusing on the worst-case ones?")
    assert dangling_references(question) == []
    assert dangling_references("Are the larger ones better?") == ["the larger ones"]


def test_questions_written_to_stand_alone_carry_no_reference():
    """An invariant over many cases: the natural questions written to stand alone (lookups,
    facts, absent papers; dev part) seldom point back, and their follow-up turns mostly do. A
    Chinese determiner after the question's own description ("有篇论文……这个算法",
    "提出……的那篇论文") points inside it."""
    root = Path(__file__).resolve().parents[2]
    dev = set(json.loads((root / "evals" / "splits" / "natural.json").read_text())["dev"])
    alone: dict[str, list[bool]] = defaultdict(list)
    turns: list[bool] = []
    for line in (root / "evals" / "natural" / "questions.jsonl").read_text().splitlines():
        q = json.loads(line)
        if q["id"] not in dev:
            continue
        if q["kind"] in ("lookup", "fact", "absent", "zh", "zh-fact", "zh-absent"):
            lang = "zh" if q["kind"].startswith("zh") else "en"
            alone[lang].append(bool(dangling_references(q["question"])))
        elif q["kind"] == "followup":
            turns.append(bool(dangling_references(q["turns"][1])))
    assert len(alone["zh"]) >= 100 and len(alone["en"]) >= 500 and len(turns) >= 80
    assert sum(alone["zh"]) / len(alone["zh"]) <= 0.05
    assert sum(alone["en"]) / len(alone["en"]) <= 0.03
    assert sum(turns) / len(turns) >= 0.6


@pytest.mark.parametrize("question", [
    "它把哪一部分思想迁移到了带动量的SGD上，得到了什么新方法？",
    "他们的实验设置是怎样的，有没有在超过七十亿参数的模型上验证过这些结论？",
    "它们在 ImageNet 和 CIFAR-10 上的 Transformer 基线对比结果如何？",
    "其 PAC-Bayes 界和 Rademacher 复杂度界相比哪个更紧？",
])
def test_a_chinese_question_opening_with_a_bare_pronoun_leans_on_the_previous_turn(question):
    """Long and full of names, the model alone reads such a question as standalone (0.19 and
    0.49 for the first two); its subject is a pronoun with nothing before it to point to."""
    assert is_follow_up(question, "Which paper studies optimisers?")


@pytest.mark.parametrize("question", [
    "其中哪篇用了扩散模型？", "其实有没有关于联邦学习中差分隐私的论文？", "其次，收敛速度如何？",
    "其余的方法需要标签吗？", "其他领域有没有研究水印的论文？",
])
def test_qi_words_that_are_no_pronoun_are_left_to_the_model(question):
    """"其中", "其实", "其次", "其余", "其他" open with 其 but are no subject pronoun: the
    model weighs them as before."""
    from assistant.query.followup import _ZH_LEADING_PRONOUN, THRESHOLD, probability

    assert not _ZH_LEADING_PRONOUN.match(question)
    previous = "Which paper studies optimisers?"
    assert is_follow_up(question, previous) == (probability(question, previous) >= THRESHOLD)


def test_no_chinese_question_written_to_stand_alone_opens_with_a_bare_pronoun():
    """The rule above over every dev Chinese question written to stand alone: none is taken
    for a follow-up by it."""
    from assistant.query.followup import _ZH_LEADING_PRONOUN

    root = Path(__file__).resolve().parents[2]
    dev = set(json.loads((root / "evals" / "splits" / "natural.json").read_text())["dev"])
    alone = [q["question"] for q in map(json.loads, (root / "evals" / "natural" /
                                                     "questions.jsonl").read_text().splitlines())
             if q["id"] in dev and q["kind"] in ("zh", "zh-fact", "zh-absent")]
    assert len(alone) >= 100
    assert [q for q in alone if _ZH_LEADING_PRONOUN.match(q)] == []


@pytest.mark.parametrize("framing", [ENGLISH, CHINESE])
def test_after_a_list_a_follow_up_is_about_its_first_paper(framing):
    """"Any work on patrol planning against poachers?" listed three papers; "What real data was
    used?" was searched with the first two titles and answered from the second, whose words
    matched "real data" better (it does not state its data; the first does)."""
    listed = (framing.listing.format(n=3) + "\n\n- **Robust patrols under minimax regret** [1]: "
              "...\n- **Restless and uncertain bandits** [2]: ...\n- **Third** [3]: ...")
    history = [("Any work on minimax-regret patrol planning against poachers?", listed)]
    for question in ("What real data was used?", "What did they evaluate it on?",
                     "Does the method need a simulator?"):
        form = parse(question, history)
        assert form.follow_up, question
        assert previous_paper(form, history) == "Robust patrols under minimax regret", question
    # asked again of something else, or standalone: no paper
    for question in ("What about wildlife tracking?",
                     "Which paper proposes a benchmark for offline RL?"):
        assert previous_paper(parse(question, history), history) is None, question
    # a number names its paper, after a list too
    assert previous_paper(parse("What data did [2] use?", history), history) == \
        "Restless and uncertain bandits"


def test_after_one_paper_a_follow_up_that_points_at_nothing_is_searched_with_its_title():
    history = [("Any work on patrol planning?", "The most relevant paper is **Robust patrols** "
                "(UAI 2021) [1]. It plans patrols. [1]")]
    form = parse("What real data was used?", history)
    assert form.follow_up and previous_paper(form, history) is None
    assert "Robust patrols" in heuristic(form, history)
    form = parse("What data did they use?", history)
    assert previous_paper(form, history) == "Robust patrols"


def test_a_count_of_the_collections_papers_stands_alone_after_any_turn():
    """ "How many papers here are about X?" after "Explain it simply" was read as leaning on it
    (0.65) and answered as one paper, hedged: it counts the collection's papers on X."""
    for previous in ("Explain it simply", "Which papers study certified robustness?"):
        for question in ("How many papers here are about adversarial examples?",
                         "How many papers are about adversarial examples?"):
            assert not is_follow_up(question, previous), (question, previous)
        assert is_follow_up("How many papers did they compare against?", previous)
        assert is_follow_up("How many of them use semidefinite programming?", previous)
