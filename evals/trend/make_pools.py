"""Labelled topic membership for ``assistant trend`` (issue 26), for helpers to judge.

    python evals/trend/make_pools.py ingest              # collection ml-years in bench/stores
    python evals/trend/make_pools.py pools OUT_DIR       # OUT_DIR/topic-NN.json, 12 topics
    python evals/trend/make_pools.py labels OUT_DIR      # -> evals/trend/labels.jsonl
    python evals/trend/make_pools.py pools OUT_DIR 2     # round 2: 14 more topics, deeper
    python evals/trend/make_pools.py labels OUT_DIR 2    # -> labels.jsonl, round 1 kept

``ml-years``: every multi-year fit venue of the ml-abstracts corpus (read from ../shared): COLT
2011-24, ACML 2010-24, UAI 2019-24, CoRL 2021-25 and AutoML 2022-24, 2010-2025 in all.

Twelve topics, as a researcher names one (``TOPICS``, each with the scope a helper judges by),
are dev or test by the split registry (a question about no paper: its own id's hash). Each
topic's sample is stratified so that precision and recall can be estimated over the whole
collection, not only over what a search found (``ROUNDS``; round 1's):

- ``top``: the union of the 60 best papers by BM25 and by MiniLM for the topic's name, all judged;
- ``near``: the union of ranks 61-300 of either search, less ``top``: 50 drawn at random;
- ``rest``: every other paper: 30 drawn at random.

A judged paper's weight is its stratum's size over its sample (1 for ``top``), so a weighted
count estimates the collection's. The pool is shuffled and shown without scores, ranks or
strata; a helper who has not seen the program grades each paper against the topic: 2 (the
topic is the paper's subject), 1 (a substantial part of it), 0 (a mention, or unrelated).
``labels`` reads the helpers' ``topic-NN.labels.json`` ({paper_id: grade}).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
COLLECTION = "ml-years"
VENUES = ([("colt", y) for y in range(2011, 2025)] + [("acml", y) for y in range(2010, 2025)]
          + [("uai", y) for y in range(2019, 2025)] + [("corl", y) for y in range(2021, 2026)]
          + [("automl", y) for y in range(2022, 2025)])
OUT = HERE / "labels.jsonl"
SEED = 2612

TOPICS = {
    "bandits": "bandit problems (multi-armed, contextual, linear, combinatorial, dueling ...): "
               "the paper's problem or algorithm is a bandit one",
    "differential privacy": "learning, estimation, optimisation or data release under "
                            "differential privacy (or a formal variant of it)",
    "online convex optimization": "online convex optimisation, prediction with expert advice "
                                  "and other online learning against arbitrary losses, "
                                  "measured by regret",
    "causal inference": "identifying or estimating causal effects, or learning causal "
                        "structure (causal graphs, interventions, counterfactuals)",
    "gaussian processes": "Gaussian process models: their inference, kernels, approximations "
                          "or their use as the paper's main model",
    "robotic grasping and manipulation": "robots grasping or manipulating objects (picking, "
                                         "placing, in-hand, deformable, tool use ...)",
    "hyperparameter optimization": "tuning hyperparameters or configurations of learning "
                                   "algorithms (Bayesian optimisation for tuning, AutoML "
                                   "search, neural architecture search)",
    "graph neural networks": "neural networks over graphs (message passing, graph "
                             "convolutions, graph transformers) as the paper's model or subject",
    "adversarial robustness": "adversarial examples: attacks, defences, certified or "
                              "empirical robustness to adversarial perturbations",
    "variational inference": "variational inference or variational approximations of "
                             "posteriors (including variational autoencoders' inference)",
    "imitation learning": "learning behaviour from demonstrations (behaviour cloning, inverse "
                          "reinforcement learning, learning from an expert's trajectories)",
    "large language models": "large pre-trained language models (LLMs, GPT-style models): "
                             "the paper builds on, studies or uses one centrally",
}


# Round 2 (after issue 26's first report, whose 7 test topics are dev from then on: their
# figures were seen): broader topics among them, and a deeper sample, since round 1's test
# topics showed that a broad topic has hundreds of papers beyond the top 60.
TOPICS2 = {
    "offline reinforcement learning": "reinforcement learning from a fixed dataset of logged "
                                      "interactions, without collecting new ones",
    "federated learning": "learning across many clients or devices that keep their data, "
                          "sharing only model updates",
    "sim-to-real transfer": "policies or models trained in simulation and transferred to real "
                            "robots or the real world",
    "active learning": "choosing which examples to label (or which queries to ask) to learn "
                       "with fewer labels",
    "clustering": "grouping data into clusters: clustering algorithms, objectives, their "
                  "guarantees or their use as the paper's main method",
    "Bayesian optimization": "optimising expensive black-box functions with a probabilistic "
                             "surrogate and an acquisition function",
    "autonomous driving": "self-driving vehicles: their perception, prediction, planning or "
                          "control",
    "semi-supervised learning": "learning from a few labelled and many unlabelled examples",
    "PAC learning": "the PAC model of learning: sample complexity, learnability, VC or other "
                    "dimensions, realisable or agnostic learning",
    "Markov chain Monte Carlo": "MCMC sampling methods (Metropolis-Hastings, Gibbs, "
                                "Langevin, Hamiltonian Monte Carlo ...) and their analysis",
    "legged locomotion": "legged robots (quadrupeds, bipeds, humanoids) walking, running or "
                         "otherwise moving on their legs",
    "multi-task learning": "learning several tasks together (shared representations, task "
                           "relations, multi-task or meta-learning across tasks)",
    "matrix completion": "recovering a (low-rank) matrix or tensor from a subset of its "
                         "entries or measurements",
    "anomaly detection": "detecting anomalies, outliers or out-of-distribution inputs",
}


@dataclass(frozen=True)
class Round:
    topics: dict[str, str]
    prefix: str  # the helpers' files: PREFIX-NN.json, PREFIX-NN.labels.json
    strata: str  # the file of each topic's strata
    top: int  # each search's best, all judged
    depth: int  # searched to this rank: ``near`` is the rest of it
    near: int  # drawn from near
    rest: int  # drawn from every other paper
    seed: int


ROUNDS = {1: Round(TOPICS, "topic", "strata.json", 60, 300, 50, 30, SEED),
          2: Round(TOPICS2, "topic2", "strata2.json", 100, 400, 60, 60, SEED + 2)}


def topic_part(topic: str) -> str:
    from assistant.evaluation.splits import question_part

    return str(question_part([], f"trend:{topic}"))


def ingest(stores: Path) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.sources.corpus import paper_from_record

    want = set(VENUES)
    with CORPUS.open() as fh:
        recs = [r for r in map(json.loads, fh) if (r.get("venue"), r.get("year")) in want]
    st = PaperStore(collection=COLLECTION, embedder=LocalEmbedder(), path=stores, create=True)
    print(st.ingest([paper_from_record(r) for r in recs],
                    source=f"{CORPUS.resolve()}#{COLLECTION}").summary())
    return 0


def pools(out: Path, stores: Path, n_round: int = 1) -> int:
    """One round's samples (``ROUNDS``): all of the union of BM25's and MiniLM's best ``top``
    for each topic's name, ``near`` drawn from their next ranks (to ``depth``: search returns
    some 200), ``rest`` drawn from every other paper; a file a topic, and the strata."""
    from assistant.index.embeddings import LocalEmbedder
    from assistant.index.store import PaperStore
    from assistant.search.retrieval import Retriever

    rnd = ROUNDS[n_round]
    retr = Retriever(store=PaperStore(collection=COLLECTION, embedder=LocalEmbedder(),
                                      path=stores))
    papers = {p.paper_id: p for p in retr.store.papers()}
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(rnd.seed)
    strata_rows = []
    for n, (topic, scope) in enumerate(rnd.topics.items(), 1):
        runs = [[rp.paper.paper_id for rp in retr.search(topic, k=rnd.depth, mode=m).papers]
                for m in ("lexical", "dense")]
        top = {p for run in runs for p in run[:rnd.top]}
        near = {p for run in runs for p in run[rnd.top:]} - top
        rest = set(papers) - top - near
        picked = {"top": sorted(top),
                  "near": rng.sample(sorted(near), min(rnd.near, len(near))),
                  "rest": rng.sample(sorted(rest), min(rnd.rest, len(rest)))}
        sizes = {"top": len(top), "near": len(near), "rest": len(rest)}
        pool = [p for ids in picked.values() for p in ids]
        rng.shuffle(pool)
        doc = {"topic": topic, "scope": scope,
               "papers": [{"paper_id": p, "title": papers[p].title,
                           "abstract": papers[p].abstract} for p in pool]}
        (out / f"{rnd.prefix}-{n:02d}.json").write_text(json.dumps(doc, indent=1,
                                                                   ensure_ascii=False))
        strata_rows.append({"topic": topic, "sizes": sizes, "picked": picked})
    (out / rnd.strata).write_text(json.dumps(strata_rows))
    print(f"{len(rnd.topics)} topics -> {out}")
    return 0


def labels(out: Path, n_round: int = 1) -> int:
    """One round's labels into labels.jsonl (the other rounds' rows kept); round 1's rows
    carry no ``round`` (read as 1)."""
    rnd = ROUNDS[n_round]
    strata = {r["topic"]: r for r in json.loads((out / rnd.strata).read_text())}
    rows, missing = [], []
    for n, topic in enumerate(rnd.topics, 1):
        lab_path = out / f"{rnd.prefix}-{n:02d}.labels.json"
        lab = json.loads(lab_path.read_text()) if lab_path.exists() else {}
        s = strata[topic]
        if not all(p in lab for ids in s["picked"].values() for p in ids):
            missing.append(topic)
            continue
        rows.append({"topic": topic, "scope": rnd.topics[topic], "part": topic_part(topic),
                     **({"round": n_round} if n_round > 1 else {}),
                     "strata": {name: {"size": s["sizes"][name],
                                       "labels": {p: int(lab[p]) for p in ids}}
                                for name, ids in s["picked"].items()}})
    old = [json.loads(x) for x in OUT.read_text().splitlines() if x.strip()] \
        if OUT.exists() else []
    kept = [r for r in old if r.get("round", 1) != n_round]
    OUT.write_text("".join(json.dumps(r) + "\n" for r in kept + rows))
    print(f"{len(rows)} round-{n_round} topics -> {OUT}" + (
        f"; left out: {', '.join(missing)}" if missing else ""))
    return 0


def main() -> int:
    cmd = sys.argv[1]
    stores = ROOT / "bench" / "stores"
    if cmd == "ingest":
        return ingest(stores)
    n_round = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    if cmd == "pools":
        return pools(Path(sys.argv[2]), stores, n_round)
    return labels(Path(sys.argv[2]), n_round)


if __name__ == "__main__":
    raise SystemExit(main())
