"""A topic typed with nothing around it ("differential privacy") asks for the papers on it, as
"Which papers are about ...?" does; a question, a request, a statement or a comparison does not,
and in a conversation a fragment with a question mark asks about the previous answer."""

from __future__ import annotations

import pytest

from assistant.query.form import parse
from assistant.textutil import TOPIC_WORDS, names_a_topic

# topics as researchers type them into a search box
TOPICS = ["differential privacy", "Thompson sampling regret bounds", "GAN mode collapse",
          "sim-to-real transfer for dexterous manipulation", "graph neural networks",
          "learning from demonstrations with very few examples", "Bayesian optimization",
          "PAC learning of halfspaces", "robotic grasping and manipulation", "LLM quantization",
          "offline RL", "CD4+ T cell exhaustion in chronic infection"]
# what the same words become inside a question, a request, a statement, a comparison
FORMS = ["How does {t} work?", "What is {t}?", "Is there work on {t}?", "Which paper studies {t}?",
         "Tell me about {t}", "Explain {t}", "Any papers on {t}?", "Can {t} be done online?",
         "Has anyone applied {t} to robots?", "I need {t}", "Compare {t} and dropout",
         "{t} vs dropout", "Does {t} need labels?", "Why is {t} hard?",
         "{t} improves the accuracy of classifiers.", "{t} reduces the sample complexity."]


@pytest.mark.parametrize("topic", TOPICS)
def test_a_topic_typed_alone_names_a_topic(topic: str) -> None:
    assert names_a_topic(topic)
    assert names_a_topic(topic + "?")
    form = parse(topic)
    assert form.topic and form.listing and form.survey


@pytest.mark.parametrize("topic", TOPICS)
@pytest.mark.parametrize("shape", FORMS)
def test_the_same_words_in_a_question_or_statement_do_not(topic: str, shape: str) -> None:
    said = shape.format(t=topic)
    assert not names_a_topic(said), said
    assert not parse(said).topic


@pytest.mark.parametrize("said", [
    "Aspirin inhibits the production of PGE2", "thanks", "ok great", "its limitations",
    "the datasets they used", " ".join(["robot"] * (TOPIC_WORDS + 1)), "???", "谢谢", "扩散模型"])
def test_what_is_no_topic(said: str) -> None:
    assert not names_a_topic(said)


@pytest.mark.parametrize("fragment", ["AUC?", "FLOPs saved?", "Results on SMACv2?",
                                      "Perplexity hit on Llama-3-8B?", "Token rate?"])
def test_in_a_conversation_a_fragment_asking_something_is_about_the_answer(fragment: str
                                                                           ) -> None:
    """On its own "AUC?" names a topic; after an answer it asks about that answer's paper:
    never a list of the papers on AUC (which would also skip reading it back)."""
    assert parse(fragment).topic
    history = [("Which paper studies membership inference on LLMs?", "The most relevant ...")]
    assert not parse(fragment, history).topic
    assert not parse(fragment, history).listing


TURN = ("Which paper makes flow matching policies stream actions to the robot?",
        "The closest match is **Streaming Flow Policy: simplifying flow-matching policies** "
        "[1]. This enables actions to be streamed to the robot on the fly. [1]")


@pytest.mark.parametrize("topic", ["differential privacy", "graph neural networks",
                                   "Bayesian optimization", "PAC learning of halfspaces"])
def test_in_a_conversation_a_new_topic_said_plainly_is_one(topic: str) -> None:
    form = parse(topic, [TURN])
    assert form.topic and form.listing and not form.follow_up


@pytest.mark.parametrize("fragment", ["datasets used", "limitations", "training time",
                                      "real robot experiments", "and for quadrupeds",
                                      "flow matching latency", "also grasping"])
def test_in_a_conversation_a_fragment_on_the_answer_is_no_new_topic(fragment: str) -> None:
    """Words of the previous turn, or of any paper's parts, or a re-asking opening: about the
    answer (the follow-up model then reads it)."""
    assert not parse(fragment, [TURN]).topic


COMPARED = ("Compare PPO and SAC",
            "What each paper says on the same points, side by side:\n\n- **Truly Proximal "
            "Policy Optimization** [1]\n  - problem: The authors show that PPO could neither "
            "restrict the probability ratio nor enforce a trust region. [1]\n  - method: an "
            "enhanced PPO method. [1]")


@pytest.mark.parametrize("said", ["open problems in sparse regression",
                                  "challenges in robot grasping"])
def test_open_problems_in_a_new_field_said_plainly_are_a_new_topic(said: str) -> None:
    """"open problems in X" after an answer that says "problem" (a comparison heads each side's
    "problem: ...") names X, a new topic: it was read as a follow-up and answered with the
    compared papers' titles appended."""
    form = parse(said, [COMPARED])
    assert form.topic and not form.follow_up


def test_open_problems_of_the_answers_own_method_are_about_the_answer() -> None:
    assert not parse("open problems of PPO", [COMPARED]).topic
    assert not parse("open problems", [COMPARED]).topic
