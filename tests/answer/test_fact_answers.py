"""A question that asks for a figure or a name is answered by the sentence that holds it, and
a question is asked an aspect ("what data ...?") only when it asks one."""

import pytest

from assistant.answer.extractive import ExtractiveAnswerer
from assistant.answer.pipeline import answer
from assistant.paper import Paper
from assistant.query import answer_type
from assistant.query.aspects import asked
from assistant.query.form import asking, of
from assistant.search.retrieval import RetrievedPaper


@pytest.mark.parametrize(("question", "kind"), [
    ("What percentage of the recommended iron intake did the cyclists consume?", "number"),
    ("How many patients were randomised?", "number"),
    ("What running time does the sampler have?", "number"),
    ("During which period did infections grow fastest?", "number"),
    ("What was the code name of the supplement?", "name"),
    ("Which continuous control suite was it evaluated on?", "name"),
    ("Which classical lemma do the proofs extend?", "name"),
    ("What does the paper conclude about sleep and glucose?", None),
    ("Which tasks did they test it on?", None),  # tasks seldom have proper names
    ("这个方法比基线快多少？", "number"),
    ("他们提出的模型叫什么？", "name"),
])
def test_what_kind_of_answer_a_question_wants(question: str, kind: str | None) -> None:
    assert answer_type.expects(question) == kind


def test_a_name_the_question_already_holds_is_no_answer() -> None:
    question = "Which simulator was used to train the Walker policy?"
    assert not answer_type.holds("name", "We train the Walker policy in simulation.", question)
    assert answer_type.holds("name", "Policies are trained in the Brax simulator.", question)
    assert answer_type.holds("number", "Training takes $O(n \\log n)$ steps.", "How long?")
    assert not answer_type.holds("number", "Training is fast.", "How long?")


# the opening and the method sentence share most words with the questions; the figure and the
# name sit in sentences that share few
PAPER = Paper(
    paper_id="p1", title="Dietary intake of trained female cyclists",
    abstract="Dietary intake was evaluated in eight highly trained female cyclists over a "
    "racing season. Each highly trained cyclist kept a weighed food record of everything she "
    "consumed on three consecutive days. Iron intake of highly trained female cyclists is a "
    "concern, since the recommended amount is hard to consume from a cyclist's diet. Mean "
    "intakes were well below recommendations for magnesium (81%), iron (59%) and zinc (48%). "
    "Energy intake was low for an athletic group. "
    "The supplement given afterwards, coded NX-77, raised ferritin within weeks. Dietary "
    "quality of trained female cyclists could be improved by eating more of those foods.",
    venue="Test", year=1990)


@pytest.mark.parametrize(("question", "answer"), [
    ("What percentage of the recommended amount of iron did the highly trained female cyclists "
     "consume?", "59%"),
    ("What was the code name of the supplement the cyclists were given afterwards?",
     "NX-77"),
])
def test_the_answer_quotes_the_sentence_holding_what_is_asked(embedder: object, question: str,
                                                              answer: str) -> None:
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of(question), [RetrievedPaper(PAPER, 1.0, 1)])
    assert answer in text


@pytest.mark.parametrize("question", [
    "At what data rate did the Kalman-style method run on a smartphone?",
    "Which data structure does the index use?",
    "How many samples are needed to learn a mixture of two Gaussians?",
    "Roughly how many samples do improper learners need?",
    "它在哪些任务上做了实验？",  # tasks, as in English: no aspect a pattern can find stated
    "What tasks did they evaluate it on?",
])
def test_words_of_an_aspect_that_ask_something_else(question: str) -> None:
    assert asked(question) is None


@pytest.mark.parametrize(("question", "name"), [
    ("What data did they use?", "the data or benchmarks it uses"),
    ("How many patients were enrolled?", "its sample size"),
    ("How long does it take to train?", "the compute or hardware it needs"),
])
def test_an_aspect_is_still_asked(question: str, name: str) -> None:
    aspect = asked(question)
    assert aspect is not None and aspect.name == name


def test_a_running_time_states_how_long_it_takes(embedder: object) -> None:
    """"How long does it take ...?" of an abstract that gives a running time quotes it, and does
    not say the abstract is silent about it."""
    paper = Paper(paper_id="p2", title="Fast seeding for robust clustering",
                  abstract="We study seeding for k-means with outliers. A candidate set of "
                  "centers can be found in time $O(ndk)$ by sampling. The method is robust.")
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of("How long does it take to find the candidate set of centers?"),
        [RetrievedPaper(paper, 1.0, 1)])
    assert "O(ndk)" in text and "does not state" not in text


def test_tasks_named_in_other_words_are_never_said_to_be_missing(embedder: object) -> None:
    """"在哪些任务上做了实验？" of an abstract that names its tasks without the word: its
    sentences, never "the abstract does not state" (a wrong claim)."""
    paper = Paper(paper_id="p3", title="Divide and conquer for reinforcement learning",
                  abstract="We split the initial state distribution into slices and train an "
                  "ensemble of policies, one per slice, then distill them into one policy. The "
                  "approach solves hard grasping, manipulation and locomotion problems where "
                  "standard deep reinforcement learning fails.")
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of("它在哪些任务上做了实验？"), [RetrievedPaper(paper, 1.0, 1)])
    assert "没有说明" not in text and "grasping" in text



@pytest.mark.parametrize("said", ["We evaluate MIRROR on real-world poaching data",
                                  "Experiments on both simulated and real-world data show gains",
                                  "We validate it using synthetic and clinical data"])
def test_data_of_a_kind_is_data_stated(embedder: object, said: str) -> None:
    """"What real data was used?" of an abstract that evaluates "on real-world poaching data"
    was answered "does not state the data or benchmarks it uses" (a wrong claim), then quoted
    that very sentence as the closest it comes."""
    paper = Paper(paper_id="p5", title="Robust patrols under minimax regret",
                  abstract="Patrols against poachers must plan under uncertain attack models. We "
                  f"plan patrols with a double oracle whose oracles are RL agents. {said}.")
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of("What real data was used?"), [RetrievedPaper(paper, 1.0, 1)])
    assert "does not state" not in text and said.split(" ", 2)[2] in text, text
    background = Paper(paper_id="p6", title="Scaling SGD",
                       abstract="Machine learning models are trained on large-scale data. We "
                       "bound the variance of asynchronous updates.")
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of("What real data was used?"), [RetrievedPaper(background, 1.0, 1)])
    assert "does not state" in text, text


# the background sentences share the question's "tasks" and "training"; the one that says what
# the experiments were run on shares only "tasks"
TASKS_PAPER = Paper(
    paper_id="p4", title="Convergence of continual learning with adaptive step sizes",
    abstract="A goal of continual learning is to avoid forgetting when learning many tasks one "
    "after another, and most solutions frame it as a trade-off between plasticity and "
    "stability. How continual learning converges on each task in turn has been studied less. "
    "We analyse the convergence of memory-based continual learning with SGD and show that "
    "training the current task degrades the previous ones cumulatively. We propose adaptive "
    "step sizes for previous and current tasks, set from their gradients. The method converges "
    "as fast as SGD when the forgetting term is suppressed at each step. We demonstrate that it "
    "improves on existing methods for several image classification tasks.",
    venue="Test", year=2023)


@pytest.mark.parametrize("question", [
    "What tasks did they run experiments on?",
    "How was it evaluated?",
])
def test_a_question_about_the_experiments_quotes_them(embedder: object, question: str) -> None:
    answerer = ExtractiveAnswerer(embedder=embedder, max_sentences=2)  # type: ignore[arg-type]
    text = answerer.compose(of(question), [RetrievedPaper(TASKS_PAPER, 1.0, 1)])
    assert "image classification" in text


# three sentences name the method and share the question's words for it; the one that says
# what it starts from shares only the words the question asks about
STREAM_PAPER = Paper(
    paper_id="p5", title="Streaming flow policies for robot control",
    abstract="Flow policies for robot control sample a trajectory of trajectories before "
    "acting. We simplify streaming flow policies so that a policy streams actions to the robot "
    "while it samples. Instead of starting from pure noise, our sampler begins from a narrow "
    "Gaussian around the last action. Streaming flow policies for robot control outperform "
    "prior policies on real robot tasks. The streaming policy keeps multi-modal behaviour.",
    venue="Test", year=2025)


def test_the_answer_quotes_what_is_asked_beyond_the_papers_name(embedder: object) -> None:
    """A question that names the paper by its title's words and asks one detail of it quotes
    the sentence with the detail, not only the sentences that repeat the title."""
    text = ExtractiveAnswerer(embedder=embedder).compose(  # type: ignore[arg-type]
        of("What does the streaming flow policy for robot control sample from instead of "
           "pure noise?"), [RetrievedPaper(STREAM_PAPER, 1.0, 1)])
    assert "narrow Gaussian" in text


@pytest.mark.parametrize(("question", "ask"), [
    ("有篇论文给出了一个新的误差下界。这个新下界是什么？", "这个新下界是什么？"),
    ("A paper seeds k-means robustly. How long does finding the centers take?",
     "How long does finding the centers take?"),
    ("Which leaderboard did it top? The driving one with sensor fusion.",
     "Which leaderboard did it top?"),
    ("它在哪个排行榜上排名第一？就是那篇做自动驾驶传感器融合的。", "它在哪个排行榜上排名第一？"),
    ("What did the U.S. Census survey find?", ""),  # an abbreviation ends no sentence
    ("How long does finding the centers take?", ""),  # one sentence: it asks itself
    ("找出这些候选中心需要多少时间？", ""),
])
def test_the_sentence_that_asks(question: str, ask: str) -> None:
    assert asking(question) == ask


# Every sentence but one shares the description's words or holds a figure; only the last
# says how long finding the centers takes
SEEDING = Paper(
    paper_id="seed", title="Robust seeding for k-means clustering with outliers",
    abstract="Seeding k-means with D2 sampling is sensitive to outliers in the data. We "
    "propose a robust seeding that mixes D2 sampling with uniform sampling to pick O(k) "
    "candidate centers for k-means. Among the candidate centers, k centers give a constant "
    "approximation of the robust k-means cost. Our seeding discards at most 2 times more "
    "points than the outliers of the optimal robust clustering. Finding the candidate centers "
    "takes O(ndk) time.", venue="Test", year=2020)
OTHER_PAPERS = [Paper(paper_id=f"o{i}", title=t, abstract=a, venue="Test", year=2020)
                for i, (t, a) in enumerate([
                    ("Spectral clustering of graphs", "We cluster graphs by their Laplacian "
                     "eigenvectors and prove recovery of planted partitions."),
                    ("Private synthetic data", "We generate differentially private synthetic "
                     "data in the hypercube with near-optimal Wasserstein accuracy."),
                    ("Online logistic regression", "We derive regret lower bounds for online "
                     "logistic regression under norm constraints.")])]


def test_a_chinese_question_is_answered_from_the_sentence_its_last_sentence_asks_about(
        retriever_over, embedder) -> None:
    """A Chinese question that describes its paper, then asks one thing of it, quotes the
    sentence that answers what it asks, not those that match the description."""
    retriever = retriever_over([SEEDING, *OTHER_PAPERS])
    got = answer("有篇论文提出对离群点鲁棒的 k-means 初始化，混合 D2 采样和均匀采样来选出候选中心。"
                 "找出这些候选中心需要多少时间？", retriever=retriever,
                 answerer=ExtractiveAnswerer(embedder=embedder))
    assert got.citations and got.citations[0].paper.paper_id == "seed", got.text
    assert "O(ndk)" in got.text, got.text
