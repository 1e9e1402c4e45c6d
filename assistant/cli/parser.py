"""The argument parser: ``build_parser`` registers every subcommand (chat and history from
``chat``, collections from ``collections``); a usage error is one line and exit 2."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NoReturn

from assistant.cli.args import BACKEND_HELP, K_HELP, common, subcommand, version


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, says where help is
        self.exit(2, f"error: {message} (see `{self.prog} --help`)\n")


def _scope(p: argparse.ArgumentParser) -> None:
    p.add_argument("--venue", help="only papers of this venue (e.g. ICML)")
    p.add_argument("--year", type=int, help="only papers of this year")
    p.add_argument("--since", type=int, metavar="YEAR", help="only papers of this year or later")
    p.add_argument("--until", type=int, metavar="YEAR",
                   help="only papers of this year or earlier")
    p.add_argument("--author", help="only papers with an author whose name contains this")
    p.add_argument("--status", help="accepted (not rejected or withdrawn), rejected, withdrawn, "
                   "unpublished, or the list's own status (e.g. Oral)")


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--k", type=int, help=K_HELP)
    _scope(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="assistant", description="Answers questions about paper abstracts, "
                     "citing every claim.")
    parser.add_argument("--version", action="version", version=f"assistant {version()}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    sub.required = True

    p = subcommand(sub, "ingest", "add paper lists to the store (default: the bundled ICML "
                   "2026 list)",
                   "assistant ingest\nassistant ingest neurips2017.jsonl --collection nips2017\n"
                   "assistant ingest refs.bib papers.csv --collection mine --strict")
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                   help=".txt (header + blank-line-separated abstracts), .json, .jsonl, .csv or "
                        ".bib (BibTeX; OpenReview, arXiv, Semantic Scholar JSON: see "
                        "docs/formats.md)")
    p.add_argument("--no-prune", action="store_true",
                   help="keep papers that are no longer in the file")
    p.add_argument("--strict", action="store_true",
                   help="a record without an abstract or with a repeated id is an error "
                        "(by default it is skipped and reported)")
    p.add_argument("--multilingual", action="store_true",
                   help="also make the multilingual vectors a question no dictionary "
                        "translates (Japanese, Korean) is searched with offline, for every "
                        "paper (multilingual-e5: about 2-3 papers/s on 2 cores, so 2,000 "
                        "papers take some 12-17 minutes; kept, and only changed papers are "
                        "redone next time). Chinese questions need none: they are translated")
    common(p)

    p = subcommand(sub, "ask", "answer one question with cited papers",
             'assistant ask "Which paper speeds up diffusion transformers at high resolution?"\n'
             'assistant ask "How does DyPE compare with IPMark?" --json\n'
             'assistant ask "Which papers study watermarking?" --venue ICML --year 2026 --k 10')
    p.add_argument("question", help="the question, in quotes")
    p.add_argument("--backend", choices=["auto", "llm", "extractive"], help=BACKEND_HELP)
    p.add_argument("--model", help="chat model name (ASSISTANT_MODEL)")
    p.add_argument("--table", choices=["md", "csv"],
                   help="print the cited papers as a table (what each proposes, its main "
                        "result) instead of the prose answer")
    _filters(p)
    common(p)

    p = subcommand(sub, "search", "retrieval only: the papers found for QUERY, best first",
             'assistant search "watermarking LLM text" --k 5\n'
             'assistant search "diffusion" --author bengio --json')
    p.description = ("The papers retrieval finds for QUERY. The score beside each is the "
                     "verifier's 0-1 estimate that the paper answers the query; papers are "
                     "listed by it, best first (--json also gives retrieval's own rank and "
                     "fused score, a relative number for ranking only).")
    p.add_argument("query", help="what to search for, in quotes")
    _filters(p)
    common(p)

    p = subcommand(sub, "similar", "the papers most like one paper: its problem, method or "
                   "result", "assistant similar icml2026-0c068b1136\n"
                   'assistant similar "IPMark" --facet method --k 5 --json')
    p.description = ("The papers of the collection most like PAPER, best first, each with the "
                     "0-1 similarity of the two and the sentence of each abstract that ties "
                     "them. PAPER is a paper id, a title, or a quoted abstract of a paper not "
                     "in the collection (a draft of one's own).")
    p.add_argument("paper", metavar="PAPER", help="a paper id, a title, or an abstract")
    p.add_argument("--facet", choices=("background", "method", "result"),
                   help="alike in this respect only (default: the whole abstract)")
    p.add_argument("--k", type=int, help="how many papers (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    common(p)

    p = subcommand(sub, "trend", "a topic over the years: its share of each year's papers, "
                   "and the first and central papers of each period",
                   'assistant trend "bandits"\n'
                   'assistant trend "differential privacy" --from 2015 --to 2024 --json')
    p.description = ("Every paper of the collection is judged on its own: its 0-1 chance of "
                     "being on TOPIC. Prints a bar a year (the topic's share of that year's "
                     "papers, with a 90%% interval), then the periods, each with its first and "
                     "its most central papers, cited as [n]. `ask` answers questions such as "
                     '"How has work on bandits changed since 2011?" the same way.')
    p.add_argument("topic", metavar="TOPIC", help="the topic, in quotes")
    p.add_argument("--from", dest="from_year", type=int, metavar="Y", help="first year")
    p.add_argument("--to", type=int, metavar="Y", help="last year")
    p.add_argument("--venue", metavar="V", help="count this venue's papers only")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    common(p)

    p = subcommand(sub, "papers", "the papers in the store (all, or those the filters pass)",
             "assistant papers\nassistant papers --year 2026 --status accepted --json")
    _scope(p)
    p.add_argument("--json", action="store_true", help="print one JSON list")
    common(p)

    p = subcommand(sub, "config", "the effective settings (secrets masked) and where each "
                   "comes from", "assistant config\n"
                   "OPENAI_BASE_URL=http://127.0.0.1:8080/v1 assistant config --json")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    common(p)

    p = subcommand(sub, "eval", "run a Q&A suite (SUITE.yaml) or `eval retrieval` (BEIR)",
             "assistant eval evals/icml2026.yaml --split dev\n"
             "assistant eval retrieval --corpus corpus.jsonl --queries queries.jsonl "
             "--qrels qrels.tsv")
    p.add_argument("target", metavar="SUITE|retrieval",
                   help="a suite YAML file, or the word `retrieval` for a BEIR benchmark")
    p.add_argument("--corpus", type=Path, help="BEIR corpus.jsonl (_id, title, text)")
    p.add_argument("--queries", type=Path, help="BEIR queries.jsonl (_id, text)")
    p.add_argument("--qrels", type=Path, help="BEIR qrels TSV (query-id corpus-id score)")
    p.add_argument("--mode", choices=["hybrid", "dense", "lexical"], help="retrieval side(s)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--baseline", type=Path, help="an earlier run folder to compare with")
    p.add_argument("--judge", action="store_true", help="also score answers with the LLM judge")
    p.add_argument("--backend", choices=["auto", "llm", "extractive"], help=BACKEND_HELP)
    p.add_argument("--split", help="run one part of the suite or of the queries (dev: tune on "
                   "it; test: report it)")
    p.add_argument("--splits", type=Path, help="eval retrieval: a JSON file of query-id splits "
                   "({\"dev\": [...], \"test\": [...]}); --split picks one (default test)")
    p.add_argument("--runs-dir", type=Path, default=Path("evals/runs"),
                   help="where reports are written (default evals/runs)")
    common(p)

    from assistant.cli import chat as cli_chat  # `chat` and `history` (no Textual import until run)

    cli_chat.add_commands(sub)
    from assistant.cli import collections as cli_collections

    cli_collections.add_commands(sub)
    return parser

