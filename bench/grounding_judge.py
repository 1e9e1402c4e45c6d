"""How accurate is the per-sentence support judge (assistant/judge/grounding.py)? Fit on dev.

    python bench/grounding_judge.py [--papers 700] [--fit]   # dev: tune
    python bench/grounding_judge.py --split test    # the test figures, once (bench/report.py)

Labelled pairs are made from real abstracts (ICLR 2017-2018 in ../shared/corpus/ml-abstracts.jsonl),
never from the answerer's output:

- own sentence: a sentence of paper A, in the third person as answers state it, vs A (true)
- tldr: A's TL;DR (a human-written paraphrase of the paper) vs A (true)
- swapped sentence / swapped tldr: the same text vs B, the other paper whose words cover it best
  (the hardest wrong paper in the pool of A's part) (false)
- altered number: a sentence of A with one number changed vs A (false)

Papers are dev or test by ``evals/splits/grounding-pairs.json`` (the one split registry,
assistant/evaluation/splits.py, ``paper_part``; only read here: a paper missing from it is not
used). Both papers of a pair, A and B, are drawn from the same part. ``--papers`` of the
shuffled slice are taken, about half in each part; only the chosen part's become pairs.

``--split dev`` (the default) is for tuning and reads dev pairs only. ``--fit`` grid-searches
W_COSINE, SUPPORTED and WEAK on dev: SUPPORTED is the lowest cut-off at which at most 2% of dev
false pairs are judged supported, WEAK the one that best separates true from false pairs among
the rest; it prints them to paste and their dev figures beside the shipped constants' (it
refuses ``--split test``). ``--split test`` is run only by `make report` (bench/report.py): the
shipped constants on the test pairs, written to bench/results/grounding_judge.json (a dev run
writes grounding_judge-dev.json).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from report import check_fit, split_option, write_results  # noqa: E402

from assistant.answer.extractive import third_person  # noqa: E402
from assistant.evaluation.generate import read_slice  # noqa: E402
from assistant.evaluation.splits import UNSEEN, corpus_part  # noqa: E402
from assistant.index.embeddings import LocalEmbedder  # noqa: E402
from assistant.judge import grounding  # noqa: E402
from assistant.sources.corpus import paper_from_record  # noqa: E402
from assistant.textutil import clean_markup, split_sentences  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
SPLIT = ROOT / "evals" / "splits" / "grounding-pairs.json"
KINDS = ("own sentence", "tldr", "swapped sentence", "swapped tldr", "altered number")
TRUE_KINDS = {"own sentence", "tldr"}


def load_split() -> dict[str, str]:
    """paper id -> dev or test, as the split file says (never written here)."""
    return dict(json.loads(SPLIT.read_text())["papers"])


def alter_number(sentence: str, rng: random.Random) -> str | None:
    found = [m for m in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])", sentence)
             if m.group(0) not in {"1", "2"}]
    if not found:
        return None
    m = rng.choice(found)
    old = m.group(0)
    new = old
    while new == old or new in sentence:
        if "." in old:
            new = f"{float(old) * rng.choice([0.5, 1.3, 1.7, 2.1]):.{len(old.split('.')[1])}f}"
        else:
            new = str(int(old) + rng.choice([3, 7, 11, 19]))
    return sentence[: m.start()] + new + sentence[m.end():]


def make_pairs(papers, rng):
    stems_of = {p.paper_id: grounding.stems(f"{p.title} {p.abstract}") for p in papers}

    def hardest_other(text: str, own: str):
        want = grounding.stems(text)
        best, best_s = None, -1.0
        for p in papers:
            if p.paper_id == own:
                continue
            s = len(want & stems_of[p.paper_id])
            if s > best_s:
                best, best_s = p, s
        return best

    pairs = []
    for p in papers:
        sentences = [s for s in split_sentences(clean_markup(p.abstract)) if len(s) > 40]
        if not sentences:
            continue
        own = third_person(rng.choice(sentences))
        pairs.append(("own sentence", own, p))
        pairs.append(("swapped sentence", own, hardest_other(own, p.paper_id)))
        tldr = str(p.extra.get("tldr") or "")
        if tldr:
            pairs.append(("tldr", tldr, p))
            pairs.append(("swapped tldr", tldr, hardest_other(tldr, p.paper_id)))
        numbered = [a for s in sentences if (a := alter_number(s, rng))]
        if numbered:
            pairs.append(("altered number", third_person(rng.choice(numbered)), p))
    return pairs


def features(pairs, embedder):
    """Per pair: (best unit's cosine, its containment) for every candidate weighting, and
    whether the claim's numbers are all stated by the paper."""
    vectors = grounding.sentence_vectors(embedder, [t for _, t, _ in pairs])
    units: dict[str, grounding.Units] = {}
    out = []
    for (kind, text, paper), vec in zip(pairs, vectors, strict=True):
        u = units.get(paper.paper_id) or units.setdefault(paper.paper_id,
                                                          grounding.units_of(paper, embedder))
        cos = u.vectors() @ vec
        contained = u.containment(grounding.stems(text))
        numbers_ok = not (grounding.numbers(text) - u.numbers)
        out.append((kind, [float(c) for c in cos], contained, numbers_ok))
    return out


def _verdict(score, numbers_ok, supported, weak):
    if not numbers_ok:
        return "unsupported"
    return "supported" if score >= supported else "weak" if score >= weak else "unsupported"


def table(verdicts):
    rows = {}
    for kind in KINDS:
        vs = [v for k, v in verdicts if k == kind]
        if vs:
            rows[kind] = {"pairs": len(vs), **{x: round(vs.count(x) / len(vs), 3)
                                              for x in ("supported", "weak", "unsupported")}}
    true = [v for k, v in verdicts if k in TRUE_KINDS]
    false = [v for k, v in verdicts if k not in TRUE_KINDS]
    summary = {
        "true judged supported": round(true.count("supported") / len(true), 3),
        "true judged unsupported": round(true.count("unsupported") / len(true), 3),
        "false judged supported": round(false.count("supported") / len(false), 3),
        "false judged unsupported": round(false.count("unsupported") / len(false), 3),
        "accuracy (weak counts as half)": round(
            (true.count("supported") + false.count("unsupported")
             + 0.5 * (true.count("weak") + false.count("weak"))) / (len(true) + len(false)), 3),
    }
    return rows, summary


def fit(feats):
    best = None
    for w in (0.3, 0.4, 0.5, 0.6, 0.7):
        scores = [(k, max(w * c + (1 - w) * x for c, x in zip(cos, cont, strict=True)), ok)
                  for k, cos, cont, ok in feats]
        false = sorted(s for k, s, ok in scores if k not in TRUE_KINDS and ok)
        n_false = sum(1 for k, _, _ in scores if k not in TRUE_KINDS)
        allowed = int(0.02 * n_false)  # at most 2% of false pairs judged supported
        supported = false[-allowed - 1] + 1e-3 if allowed < len(false) else 0.0
        true_sup = sum(1 for k, s, ok in scores if k in TRUE_KINDS and ok and s >= supported)
        for weak in [supported - d / 100 for d in range(1, 40)]:
            acc = sum((k in TRUE_KINDS) == (ok and s >= weak) for k, s, ok in scores)
            cand = (true_sup, acc, w, supported, weak)
            if best is None or cand[:2] > best[:2]:
                best = cand
    assert best is not None
    return {"W_COSINE": best[2], "SUPPORTED": round(best[3], 3), "WEAK": round(best[4], 3)}


def judged(feats, constants):
    w, s, k = constants["W_COSINE"], constants["SUPPORTED"], constants["WEAK"]
    scores = [(kind, max(w * c + (1 - w) * x for c, x in zip(cos, cont, strict=True)), ok)
              for kind, cos, cont, ok in feats]
    return table([(kind, _verdict(sc, ok, s, k)) for kind, sc, ok in scores])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--papers", type=int, default=700)
    ap.add_argument("--fit", action="store_true", help="fit the constants on dev and print them")
    ap.add_argument("--seed", type=int, default=5)
    split_option(ap)
    args = ap.parse_args()
    check_fit(ap, args)
    part = args.split
    t0 = time.perf_counter()
    rng = random.Random(args.seed)
    rows = [r for r in read_slice(SHARED, [("iclr", 2017), ("iclr", 2018)])
            if corpus_part(r) != UNSEEN]  # fit venues (splits.FIT_VENUES) only
    rng.shuffle(rows)
    papers = [paper_from_record(r) for r in rows[: args.papers]]
    split = load_split()
    chosen = [p for p in papers if split.get(p.paper_id) == part]
    pairs = make_pairs(chosen, random.Random(f"{args.seed}:{part}"))  # A and B from one part
    feats = features(pairs, LocalEmbedder())
    report: dict = {"papers": len(chosen), "pairs": len(pairs), "seed": args.seed}
    shipped = {"W_COSINE": grounding.W_COSINE, "SUPPORTED": grounding.SUPPORTED,
               "WEAK": grounding.WEAK}
    report["shipped"] = shipped
    rows_, summary = judged(feats, shipped)
    report[part] = {"by_kind": rows_, "summary": summary}
    shown, label = rows_, "shipped"
    if args.fit:  # dev only (check_fit)
        fitted = fit(feats)
        report["fitted_on_dev"] = fitted
        print("fitted on dev: paste into assistant/judge/grounding.py:", fitted)
        shown, fitted_summary = judged(feats, fitted)
        report[part]["fitted"] = {"by_kind": shown, "summary": fitted_summary}
        label = "fitted"
    consts = report["fitted_on_dev"] if args.fit else shipped
    print(f"\n{label} judge (W_COSINE {consts['W_COSINE']}, SUPPORTED {consts['SUPPORTED']}, "
          f"WEAK {consts['WEAK']}), {part} pairs ({len(chosen)} papers):\n")
    print("| pair | n | supported | weak | unsupported |")
    print("|---|---|---|---|---|")
    for kind, r in shown.items():
        print(f"| {kind} | {r['pairs']} | {r['supported']:.3f} | {r['weak']:.3f} | "
              f"{r['unsupported']:.3f} |")
    print()
    for key, value in summary.items():
        more = f"  (fitted {report[part]['fitted']['summary'][key]})" if args.fit else ""
        print(f"{key}: {value} shipped{more}")
    report["seconds"] = round(time.perf_counter() - t0, 1)
    out = write_results("grounding_judge", part, report)
    print(f"\n{report['seconds']} s; {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
