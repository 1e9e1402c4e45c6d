"""A comparison is read from how the question is built, over many generated phrasings: every
comparison form yields its two sides (with a shared opening clause added to both), and a
question asking for one paper that mentions a contrast inside it is never split."""

import itertools

import pytest

from assistant.query.compare import sides

SIDES = [
    ("the study of custom narrow floating-point formats", "custom narrow floating-point formats",
     "the work that quantizes training to few-bit integers", "quantizes training few-bit integers"),
    ("MaskAQ", "MaskAQ", "VGS", "VGS"),
    ("the paper on switching from follow-the-leader to a worst-case learner", "follow-the-leader",
     "the one measuring online algorithms by the CVaR of their cost", "CVaR"),
    ("bounding treatment effects under hidden confounding", "hidden confounding",
     "learning representations for balancing weights", "balancing weights"),
]
FORMS = [
    "How does {a} differ from {b}?",
    "How is {a} different from {b}?",
    "In what ways does {a} differ in its goals from {b}?",
    "What distinguishes {a} from {b}?",
    "What separates {a} from {b}?",
    "How does {a} compare with {b}?",
    "How does {a} relate to {b}?",
    "How does {a} stack up against {b}?",
    "What is the difference between {a} and {b}?",
    "What's the relationship between {a} and {b}?",
    "Compare {a} with {b}.",
    "Contrast {a} and {b}",
]
CONTEXTS = ["", "Both handle heavy-tailed payoffs: ", "For label-efficient learning, ",
            "In online learning with switching costs, "]


@pytest.mark.parametrize(("form", "context"), itertools.product(FORMS, CONTEXTS))
def test_every_comparison_form_yields_both_sides(form, context):
    for a, a_core, b, b_core in SIDES:
        # after a clause the form starts lower-case, as people write it
        q = context + ((form[0].lower() + form[1:]) if context else form).format(a=a, b=b)
        got = sides(q)
        assert got is not None, q
        assert all(w in got[0] for w in a_core.split()), (q, got)
        assert all(w in got[1] for w in b_core.split()), (q, got)
        assert not any(w in got[0].split() for w in ("how", "does", "what", "the")), (q, got)
        if context:  # the shared clause is searched with each side
            word = context.split()[-2].strip(",:")
            assert word in got[0] and word in got[1], (q, got)


@pytest.mark.parametrize("q", [
    "Gumbel-Softmax vs Concrete distribution",
    "REINFORCE versus reparameterization gradients: which has lower variance?",
    "How do the Gumbel-Softmax and the Concrete distribution papers differ?",
])
def test_short_comparisons(q):
    got = sides(q)
    assert got is not None and {"Gumbel-Softmax", "REINFORCE"} & set(got[0].split()), got


LOOKUP_OPENINGS = ["Which study rigorously compares", "Is there work on", "Has anyone looked at",
                   "Looking for a paper on", "How can a robot tell", "Any analysis of",
                   "Which paper found that", "What lower bounds exist for", "Early work on",
                   "How much do we lose with", "Empirically, how well do"]
CONTRASTS = ["recurrent versus convolutional architectures on graphs",
             "fixed confidence versus fixed budget identification",
             "positive vs negative opinion in a byte-level language model",
             "left- versus right-hand traffic for driving policies",
             "fine-tuned versus prompted multimodal models"]


@pytest.mark.parametrize(("opening", "contrast"), itertools.product(LOOKUP_OPENINGS, CONTRASTS))
def test_a_lookup_that_mentions_a_contrast_is_not_split(opening, contrast):
    q = f"{opening} {contrast}, and what did they find?"
    assert sides(q) is None, q


@pytest.mark.parametrize("q", [
    "Empirically, how do ordinary LeNet and AlexNet compare against their first-order "
    "linearizations?",
    "How does the attention layer compare with its linear approximation?",
    "How do deep networks differ from them?",
])
def test_a_side_that_points_back_is_one_paper(q):
    assert sides(q) is None


def test_a_from_inside_a_side_stays_there():
    got = sides("What distinguishes switching from follow-the-leader to a worst-case learner "
                "from measuring online algorithms by CVaR?")
    assert got == ["switching from follow-the-leader to worst-case learner",
                   "measuring online algorithms by CVaR"]


def test_a_hyphenated_name_keeps_its_words():
    got = sides("How does follow-the-leader differ from the one-in-a-million rule?")
    assert got == ["follow-the-leader", "one-in-a-million rule"]


# Two papers described side by side, in the researcher's own words (each pair: both
# descriptions, and words each side's search must keep)
DESCRIBED = [
    ("a sampler that adapts its step size to local curvature", "sampler curvature",
     "a bound on the sample cost of learning halfspaces under label noise", "halfspaces label"),
    ("the method that prunes whole filters after training", "prunes filters",
     "the analysis of why overparameterized networks still generalize", "overparameterized"),
    ("an encoder for molecules trained with contrastive views", "molecules contrastive",
     "an planner for legged robots crossing rough ground", "legged rough"),
]
DESCRIBED_FORMS = [
    "What does each target: {a}, and {b}?",
    "Which assumptions does each of these make: {a}, or {b}?",
    "What kind of contribution is each: {a}, versus {b}? How is each validated?",
    "Efficiency matters in both {a} and {b}. How does each get it?",
    "Is there a common thread between {a} and {b}?",
    "I'm comparing {a}, and {b}. What does each assume?",
    "I remember {a}, and {b}. Which of them reports experiments?",
    "How is data used differently in {a}, and in {b}?",
    "Where does noise enter for {a}, and for {b}, and does either prove a lower bound?",
    "How do the guarantees differ between {a} and {b}?",
    "Which of these two is {a}, and which is {b}?",
    "Both are recent. Which one is {a}, which one {b}, and where were they tested?",
]


@pytest.mark.parametrize("form", DESCRIBED_FORMS)
def test_two_papers_described_side_by_side_yield_both(form):
    for a, a_core, b, b_core in DESCRIBED:
        q = form.format(a=a, b=b)
        got = sides(q)
        assert got is not None, q
        assert all(w in got[0] for w in a_core.split()), (q, got)
        assert all(w in got[1] for w in b_core.split()), (q, got)
        assert not any(w in got[0] for w in b_core.split()), (q, got)  # B never in A's search
        assert not any(w in got[1] for w in a_core.split()), (q, got)


@pytest.mark.parametrize("q", [
    "Both seek minima of a non-convex objective seen through a noisy proxy, zeroth-order "
    "queries in one and a pointwise-close empirical risk in the other. How do they compare?",
    "When payoffs are heavy-tailed, how does the low-rank linear setting differ from the "
    "graph-feedback setting, and which of the two proves a lower bound?",
    "Contrast the label-frugal method for linear classifiers with few relevant attributes "
    "against the deep top-down approach that splits a parent series among its children.",
])
def test_a_side_ends_where_the_question_moves_on(q):
    got = sides(q)
    assert got is not None, q
    assert not any(w in got[0] for w in ("graph-feedback", "top-down", "pointwise-close")), got
    assert not any(w in got[1] for w in ("which", "lower bound", "zeroth-order", "frugal")), got


@pytest.mark.parametrize("q", [
    "When both the treatment and the outcome are measured with noise, which estimator is more "
    "reliable, and why?",
    "In auctions where bidders pay both an entry fee and a reserve price, can revenue be bounded?",
    "I want a quantizer where both the scale factors and the rounding are learned in training.",
    "Which paper maps between images and captions with one shared space, while training both "
    "encoders jointly?",
    "How should I choose between a kernel method and a neural network for small tabular data?",
    "What is the trade-off between the bias of the estimator and the variance of its gradient "
    "in each iteration?",
    "Do both the encoder and the decoder need to be pretrained for this to work?",
    "Is there work comparing the one-step method with the two-step method on both benchmarks?",
    "Which paper shows that wide networks generalize, and which datasets did it use?",
    "Which loss is better for small tabular data, and which optimizer should I pick?",
])
def test_a_question_about_one_thing_with_both_or_between_is_not_split(q):
    assert sides(q) is None, q


def test_which_and_which_after_a_colon_asks_about_the_papers_before_it():
    """"<A> and <B>: which claim is a guarantee and which is empirical?" asks which of the two
    papers before the colon has a property: the properties are never read as the two sides."""
    for a, _, b, _ in DESCRIBED:
        q = (f"Take {a} and {b}: which claim is a statistical guarantee and which is "
             "empirical parity with baselines?")
        got = sides(q)
        assert got is None or ("guarantee" not in got[0] and "parity" not in got[1]), (q, got)


# two kinds of one thing, named by what sets each apart, with the head words said once
KINDS = [("central", "effector", "memory T cells"), ("model-based", "model-free", "RL agents"),
         ("L1", "L2", "regularization"), ("type 1", "type 2", "diabetes"),
         ("supervised", "self-supervised", "pretraining for speech"),
         ("CD4", "CD8", "T cells"), ("linear", "logistic", "regression"),
         ("on-policy", "off-policy", "actor-critic learning")]
# two things, each named in full
THINGS = [("dropout", "batch normalization"), ("Adam", "stochastic gradient descent"),
          ("BERT", "the transformer of Vaswani et al."), ("DQN", "PPO with clipping")]
SHARED_FORMS = ["What is the difference between {a} and {b}?", "How do {a} and {b} differ?",
                "Compare {a} and {b}.", "How do {a} and {b} compare?"]


def _words(side: str) -> list[str]:
    return [w for w in side.split() if w.lower() not in {"for", "on", "in", "of", "to"}]


@pytest.mark.parametrize("form", SHARED_FORMS)
def test_a_head_said_once_belongs_to_both_sides(form):
    """"central and effector memory T cells": each side is searched with the head words
    ("central" alone found a glaucoma paper's "central visual field"); two things each named
    in full keep their own words."""
    for first, second, head in KINDS:  # (a preposition of the head may go: "for speech")
        got = sides(form.format(a=first, b=f"{second} {head}"))
        assert got is not None and _words(got[0]) == _words(f"{first} {head}"), got
        assert _words(got[1]) == _words(f"{second} {head}"), got
    for a, b in THINGS:
        got = sides(form.format(a=a, b=b))
        assert got is not None and got[0] == a, got


def test_a_shared_clause_in_the_first_person_keeps_none_of_its_asking_words():
    got = sides("I'm looking at two results on how far sample averages stray: one pins down the "
                "best confidence width under a finite moment, the other studies the largest "
                "deviation across dependent sequences. Which closes the gap?")
    assert got is not None and "sample averages" in got[0] and "sample averages" in got[1]
    assert not any("'m" in side or "looking" in side for side in got), got


# two titles compared with nothing asked around them: a title's length, comma, colon or
# opening "How"/"Do" is its own (each pair: words each side's search must keep)
TITLES = [
    ("Don't Decay the Learning Rate, Increase the Batch Size", "Decay Batch",
     "Regret Bounds for Robust Adaptive Control of the Linear Quadratic Regulator",
     "Regret Quadratic Regulator"),
    ("α-MDF: An Attention-based Multimodal Differentiable Filter for Robot State Estimation",
     "α-MDF Differentiable",
     "4D-Former: Multimodal 4D Panoptic Segmentation", "4D-Former Panoptic"),
    ("How Transferable Are Features Learned by Deep Convolutional Networks Across Domains",
     "Transferable Domains", "Do Deep Nets Really Need to Be Deep", "Nets Really"),
]
TITLE_FORMS = ["{a} vs {b}", "{a} versus {b}", "{a} vs. {b}?", '"{a}" vs "{b}"',
               "“{a}” versus “{b}”"]


@pytest.mark.parametrize("form", TITLE_FORMS)
def test_two_titles_compared_yield_both(form):
    for a, a_core, b, b_core in TITLES:
        q = form.format(a=a, b=b)
        got = sides(q)
        assert got is not None, q
        assert all(w in got[0] for w in a_core.split()), (q, got)
        assert all(w in got[1] for w in b_core.split()), (q, got)
        assert not any(w in got[0] for w in b_core.split()), (q, got)


def test_typed_quotes_mark_two_titles_in_sentence_case():
    got = sides('"Don\'t decay the learning rate, increase the batch size" vs "Regret bounds for '
                'robust adaptive control"')
    assert got == ["Don't decay the learning rate, increase the batch size",
                   "Regret bounds for robust adaptive control"]


@pytest.mark.parametrize("q", [
    # long and not in title case: a topic with a contrast inside, never two papers
    "the robustness of very deep convolutional neural networks to adversarial examples vs "
    "natural distribution shift in medical images",
    # title case, but a question that asks for one paper around it
    "Which Paper Compares Recurrent Neural Networks for Graphs vs Convolutional Neural Networks?",
    "Is There Work on Recurrent Neural Networks for Graphs Versus Convolutional Neural Networks",
])
def test_not_two_titles(q):
    assert sides(q) is None, q


# three to six things compared by name: each searched on its own
SEVERAL = [["PPO", "SAC", "TD3"], ["batch normalization", "layer normalization",
                                  "group normalization"],
           ["IPMark", "VGS", "CPMöbius", "DyPE"],
           ["Gumbel-Softmax", "the Concrete distribution", "REINFORCE", "straight-through"],
           ["PPO", "SAC", "TD3", "DDPG", "A3C", "TRPO"]]
SEVERAL_FORMS = ["Compare {list}", "Contrast {list}.", "How do {list} differ?",
                 "How do {list} compare on sample efficiency?",
                 "What is the difference between {list}?",
                 "What are the key differences among {list}?",
                 "{vs}", "{vs}?", "{vs}: which is the most sample-efficient?"]


def _listed(items, oxford):
    return ", ".join(items[:-1]) + ("," if oxford else "") + " and " + items[-1]


@pytest.mark.parametrize("form", SEVERAL_FORMS)
@pytest.mark.parametrize("oxford", [False, True])
def test_three_or_four_things_compared_are_each_a_side(form, oxford):
    for items in SEVERAL:
        q = form.format(list=_listed(items, oxford), vs=" vs ".join(items))
        got = sides(q)
        assert got is not None and len(got) == len(items), (q, got)
        keys = [item.removeprefix("the ").split()[0] for item in items]
        for side, key in zip(got, keys, strict=True):  # its own words, no other's
            assert key in side.split(), (q, got)
            assert not any(other in side.split() for other in keys if other != key), (q, got)


def test_a_shared_clause_is_searched_with_each_of_several():
    got = sides("For continuous control, compare PPO, SAC and TD3")
    assert got is not None and len(got) == 3 and all("control" in s for s in got), got


@pytest.mark.parametrize("q", [
    # descriptions, not names, in a list
    "How do X, a method for label noise, and Z differ?",
    "Compare one approach to pruning, another to distillation, and a third to quantization",
    # words that ask inside the list
    "Compare PPO, which I know, and SAC and TD3",
    # more than six things
    "Compare PPO, SAC, TD3, DDPG, A3C, TRPO and IMPALA",
    # a list inside a question that asks for one paper
    "Which paper compares PPO, SAC and TD3?",
    "Is there work comparing PPO vs SAC vs TD3?",
])
def test_not_three_or_four_names(q):
    got = sides(q)
    assert got is None or len(got) == 2, (q, got)


ASPECT_FORMS = ["Compare {l} on {p}", "Compare {l} in terms of {p}", "Compare the {p} of {l}",
                "How does the {p} of {l} differ?", "What is the difference between the {p} of {l}?"]
METHODS = [["PPO", "SAC"], ["PPO", "SAC", "TD3"], ["Mean Teacher", "MixMatch", "FixMatch", "UDA"]]
KINDS_OF = [["CNNs", "ViTs"], ["dropout", "batch normalization"],
            ["CNNs", "ViTs", "MLP-Mixers"], ["graph neural networks", "transformers"]]


@pytest.mark.parametrize("form", ASPECT_FORMS)
def test_the_point_compared_on_is_no_sides_own(form):
    """"Compare PPO, SAC and TD3 on sample efficiency": the point was searched with the last
    side only ("TD3 sample efficiency"), "the sample efficiency of PPO and SAC" with the first.
    A named method is searched by its name alone; a kind of model or a topic with the point."""
    for names in METHODS:
        assert sides(form.format(l=_listed(names, False), p="sample efficiency")) == names
    for names in KINDS_OF:
        got = sides(form.format(l=_listed(names, True), p="robustness"))
        assert got == [f"{n} robustness" for n in names], got


def test_a_point_before_and_after_the_names_is_every_sides():
    got = sides("Compare the robustness of CNNs, ViTs and MLP-Mixers to distribution shift")
    assert got == [f"{n} robustness distribution shift" for n in ("CNNs", "ViTs", "MLP-Mixers")]
    got = sides("Compare dropout and FixMatch on small datasets")
    assert got == ["dropout small datasets", "FixMatch"]


@pytest.mark.parametrize(("q", "want"), [
    # each side says its own setting: no point shared
    ("Compare training on CIFAR and training on ImageNet", ["training CIFAR", "training ImageNet"]),
    ("How does learning from pixels differ from learning from states?", None),
    # a name that holds a word like a point's: its own
    ("Compare IPMark and VGS", ["IPMark", "VGS"]),
    # a title, a topic with "to" in it: their own words
    ("Compare Mean Teacher and Learning to Teach", ["Mean Teacher", "Learning to Teach"]),
    ("Compare Mean Teacher and learning to rank", ["Mean Teacher", "learning to rank"]),
    ("Compare the Architecture of Graph Networks and Deep Sets",
     ["Architecture Graph Networks", "Deep Sets"]),
    # two titles in sentence case: a clause of a title is no point compared on
    ("What is the difference between Scalable methods for 8-bit training of neural networks and "
     "Fast greedy algorithms for dictionary selection with generalized sparsity constraints?",
     ["Scalable for 8-bit training neural networks",
      "Fast greedy algorithms for dictionary selection with generalized sparsity constraints"]),
    # a side described ("the paper on ..."): no name, no point
    ("How does CPMöbius differ from the paper on protein folding with AlphaFold?",
     ["CPMöbius", "protein folding with AlphaFold"]),
])
def test_sides_with_words_of_their_own_keep_them(q, want):
    got = sides(q)
    if want is None:
        assert got is not None and all(len(s.split()) >= 2 for s in got), got
    else:
        assert got == want, got


# names with a join word inside them, and forms that put them on either side
JOINED_NAMES = ["learning to rank", "Learning to Teach", "Learning with Noisy Labels",
                "sequence to sequence models", "sim to real transfer", "learning to hash"]
JOINED_FORMS = ["Compare {a} and {b}", "Compare {a} with {b}", "Compare {a} to {b}",
                "compare {a} against {b}", "How does {a} compare to {b}?",
                "What is the difference between {a} and {b}?", "How do {a} and {b} differ?",
                "{a} vs {b}"]


@pytest.mark.parametrize("form", JOINED_FORMS)
def test_a_join_word_inside_a_name_is_no_join(form):
    """"Compare learning to rank and Hyperband" was read as "learning" against "rank and
    Hyperband"."""
    for name in JOINED_NAMES:
        for a, b in ((name, "Hyperband"), ("Hyperband", name)):
            q = form.format(a=a, b=b)
            assert sides(q) == [a, b], (q, sides(q))


@pytest.mark.parametrize("join", ["to", "with", "against"])
def test_a_join_word_of_the_question_still_joins_plain_words(join):
    assert sides(f"Compare deep learning {join} kernel machines") == [
        "deep learning", "kernel machines"]
    assert sides(f"Compare reinforcement learning {join} supervised learning") == [
        "reinforcement learning", "supervised learning"]


THREE_FORMS = ["Compare {a} to {b} and {c}", "Compare {a} with {b} and {c}",
               "How does {a} compare to {b} and {c}?", "How does {a} stack up against {b} and {c}?",
               "What is the difference between {a} and {b} and {c}?"]


@pytest.mark.parametrize("form", THREE_FORMS)
def test_one_thing_against_two_is_three_sides(form):
    """"Compare PPO to SAC and TD3" made "SAC and TD3" one side: searched as one, it found one
    of the two."""
    for names in (["PPO", "SAC", "TD3"], ["dropout", "batch norm", "weight decay"],
                  ["learning to rank", "Hyperband", "BOHB"]):
        q = form.format(a=names[0], b=names[1], c=names[2])
        assert sides(q) == names, (q, sides(q))
    q = form.format(a="PPO", b="SAC", c="TD3") .rstrip("?") + " on sample efficiency"
    assert sides(q) == ["PPO", "SAC", "TD3"], q


@pytest.mark.parametrize("q", [
    "How does VGS compare to the work on pruning and distillation?",
    "Compare IPMark with the paper that watermarks text and detects it later",
])
def test_a_described_side_with_and_in_it_stays_one_side(q):
    got = sides(q)
    assert got is not None and len(got) == 2, got


# (what is asked, its word no side holds)
ASKED_AFTER = [(": which is better?", "better"), (": what does each assume?", "assume"),
               (": how do their guarantees differ?", "guarantees"),
               (": is either validated empirically?", "validated"),
               (": does either need labels?", "labels")]


@pytest.mark.parametrize(("form", "asked"), itertools.product(
    ["Compare {a} with {b}", "Contrast {a} against {b}", "Pair {a} with {b}",
     "How does {a} compare with {b}", "How does {a} differ from {b}"], ASKED_AFTER))
def test_what_is_asked_after_a_colon_is_no_sides_own(form, asked):
    for a, a_core, b, b_core in SIDES:
        q = form.format(a=a, b=b) + asked[0]
        got = sides(q)
        assert got is not None, q
        assert all(w in got[0] for w in a_core.split()), (q, got)
        assert all(w in got[1] for w in b_core.split()), (q, got)
        assert asked[1] not in " ".join(got), (q, got)


@pytest.mark.parametrize("later", [
    "Which yields a sampler, and how does it relate to VAEs and AAEs?",
    "How do they compare with GANs and flows?",
    "How does it differ from REINFORCE and actor-critic methods?",
])
def test_a_later_sentence_never_supplies_a_side(later):
    for a, a_core, b, b_core in SIDES:
        q = f"How do the objectives differ between {a} and {b}? {later}"
        got = sides(q)
        assert got is not None, q
        assert all(w in got[0] for w in a_core.split()), (q, got)
        assert all(w in got[1] for w in b_core.split()), (q, got)
        assert not any(w in " ".join(got) for w in ("VAEs", "GANs", "REINFORCE")), (q, got)


NAMED_PAIRS = [("MaskAQ", "VGS"), ("PPO", "Soft Actor-Critic"), ("IPMark", "CPMöbius"),
               ("Q2D2", "DyPE")]


@pytest.mark.parametrize("form", [
    "How does performance differ between {a} and {b}?",
    "How do the guarantees differ between {a} and {b}?",
    "In what ways does sample efficiency vary between {a} and {b}?",
    "What differs between {a} and {b}?",
    "How does the training cost differ between {a} and {b} on Atari?",
])
def test_two_methods_named_after_differ_between_are_the_sides(form):
    for a, b in NAMED_PAIRS:
        q = form.format(a=a, b=b)
        got = sides(q)
        assert got is not None, q
        assert got[0].startswith(a) and got[1].startswith(b), (q, got)
        assert not any(w in " ".join(got).split() for w in ("differ", "between", "how")), got


@pytest.mark.parametrize("q", [
    "How does its accuracy differ between CIFAR-10 and ImageNet?",
    "How does their regret differ between PPO and SAC?",
    "How does accuracy differ between models trained with and without augmentation?",
    "How does the binding affinity change between pre- and post-stroke states?",
    "How does performance differ between small and large batches?",
])
def test_one_papers_results_on_two_settings_are_no_comparison(q):
    assert sides(q) is None, (q, sides(q))


NAMED_FORMS = [
    "Is {a} better than {b}?",
    "Is {a} more sample efficient than {b} on continuous control?",
    "Which works better, {a} or {b}?",
    "Which is better for continuous control, {a} or {b}?",
    "Should I use {a} or {b}?",
    "{a} or {b} for robot locomotion?",
    "{a} compared to {b}?",
    "What are the pros and cons of {a} versus {b}?",
    "How is {a} related to {b}?",
    "What do {a} and {b} have in common?",
    "How are {a} and {b} similar?",
    "{a} and {b}: how do they differ?",
]


@pytest.mark.parametrize("form", NAMED_FORMS)
def test_two_methods_set_against_each_other_by_name_are_the_sides(form):
    for a, b in NAMED_PAIRS:
        q = form.format(a=a, b=b)
        got = sides(q)
        assert got == [a, b], (q, got)


@pytest.mark.parametrize("q", [
    "Is pretraining better than training from scratch for detection?",
    "Is there a PPO or SAC variant for legged robots?",
    "Dropout or batch normalization for small datasets?",
    "Which paper is better, the first or the second?",
    "Is it better than SAC?",
    "Which works better for long documents, sparse attention or recurrence?",
    "How are CNNs and ViTs similar?",
])
def test_things_that_are_not_two_methods_by_name_are_no_comparison(q):
    assert sides(q) is None, (q, sides(q))
