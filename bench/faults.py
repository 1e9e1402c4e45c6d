"""The fault report: every fault of the reliability matrix, run as a user would (the real CLI in
a subprocess) against bad files, a local fault server on 127.0.0.1 speaking the OpenAI wire
format, damaged stores and killed processes. Prints one line per case (exit code, the first
line said, and whether any paper was lost), a summary line, and writes bench/results/faults.json.

    python bench/faults.py [--fast] [--out FILE]

``--fast`` (what CI runs, tests/cli/test_faults.py) leaves out the ingests of real papers that are
killed, run two at once, or asked while they write (a few minutes); those are in the tests too.

A case passes when the exit code is the expected one, nothing went to stderr but one `error:`
or `warning:`/`note:` line (no traceback), and the store holds what it held before (or what the
command was asked to add). The same faults, with finer assertions, are in the test suite
(tests/index/test_store.py, test_corpus.py, test_llm_wire.py, test_properties.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
BIN = Path(sys.executable).parent / "assistant"
ABSTRACT = "We study {} and find that a simple method improves accuracy on four benchmarks."


def _rows(store: Path, sql: str) -> list[tuple] | None:
    """A query on a store's chroma.sqlite3, read-only; None when there is no readable one (being
    created by the process just started, or damaged on purpose: the case's own checks speak)."""
    from assistant.index.sqlite_ro import read_only

    db = store / "chroma.sqlite3"
    if not db.exists():
        return None
    try:
        with read_only(db) as con:
            return con.execute(sql).fetchall()
    except sqlite3.Error:
        return None


def chunks_in(store: Path) -> int:
    rows = _rows(store, "SELECT count(*) FROM embeddings")
    return int(rows[0][0]) if rows else 0


def partial_papers(store: Path) -> int:
    """Papers holding fewer chunks than their chunk 0 says (half-written)."""
    rows = _rows(store, "SELECT count(*), max(n.int_value) FROM embedding_metadata p JOIN "
                 "embeddings e ON e.id = p.id LEFT JOIN embedding_metadata n ON n.id = p.id AND "
                 "n.key = 'nchunks' WHERE p.key = 'paper_id' GROUP BY e.segment_id, "
                 "p.string_value") or []
    return sum(1 for have, want in rows if want is None or have != want)


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> tuple[int, str, str, float]:
    t = time.monotonic()
    p = subprocess.run([str(BIN), *args], env=env, capture_output=True, text=True,
                       timeout=timeout, check=False)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


def main() -> None:
    import argparse

    import faults_round2 as round2
    from wire_server import WireServer

    ap = argparse.ArgumentParser()
    ap.add_argument("--fast", action="store_true",
                    help="skip the killed, concurrent and busy ingests of real papers (CI)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "faults.json")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="faults-"))
    base = tmp / "store"
    env = {**{k: v for k, v in os.environ.items()
              if not k.startswith(("ASSISTANT_", "OPENAI_"))},
           "ASSISTANT_STORE": str(base), "ASSISTANT_HISTORY": str(tmp / "h.db"),
           "XDG_CACHE_HOME": str(tmp / "cache")}
    run(["ingest"], env)
    before = chunks_in(base)
    cases: list[dict] = []

    def case(name: str, args: list[str], *, code: int, says: str = "",
             env_extra: dict | None = None, store: Path | None = None, grows: int = 0,
             timeout: float = 120, never: tuple[str, ...] = (),
             check: Callable[[str, str], bool] | None = None,
             max_seconds: float | None = None) -> float:
        """Run one case and record it; returns its seconds (a hang's bound is set from a
        fast failure's own time: on a busy machine start-up alone takes seconds)."""
        s = store or base
        was = chunks_in(s)
        try:
            rc, out, err, took = run(args, {**env, **(env_extra or {})}, timeout)
        except subprocess.TimeoutExpired:
            rc, out, err, took = -9, "", f"killed after {timeout:g} s", timeout
        lines = [line for line in err.splitlines() if line.strip()]
        first = next((line for line in lines if line.startswith(("error:", "warning:"))),
                     lines[0] if lines else "")
        lost = chunks_in(s) < was
        try:
            checked = check is None or bool(check(out, err))
        except Exception:
            checked = False
        ok = (rc == code and "Traceback" not in err and not lost
              and (not says or says in err + out) and chunks_in(s) >= was + grows
              and not any(n in err + out for n in never) and partial_papers(s) == 0
              and checked and (max_seconds is None or took <= max_seconds))
        record(name, rc, code, first, took, lost, ok)
        return took

    def record(name: str, rc: int, code: int, first: str, took: float, lost: bool,
               ok: bool) -> None:
        cases.append({"case": name, "exit": rc, "expected": code, "said": first[:150],
                      "seconds": round(took, 1), "lost": lost, "ok": ok})
        print(f"{'ok ' if ok else 'BAD'} {name:<44} exit {rc} ({took:4.1f} s) {first[:90]}",
              flush=True)

    files = tmp / "files"
    files.mkdir()
    (files / "unclosed.csv").write_text('id,title,abstract\n1,A,"' + ABSTRACT.format("x") +
                                        '\n2,B,' + ABSTRACT.format("y") + '\n')
    (files / "extra-fields.csv").write_text("id,abstract\n1," + ABSTRACT.format("a, b") + "\n")
    (files / "bom.csv").write_bytes(b"\xef\xbb\xbf" + ("id,title,abstract\nbom1,BOM,"
                                                         + ABSTRACT.format("bom") + "\n").encode())
    (files / "bom.jsonl").write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"id": "bom2", "abstract": ABSTRACT.format("bom json")}).encode())
    rows = [{"id": "s1", "abstract": ABSTRACT.format("skips")}, {"id": "s2", "abstract": ""},
            {"id": "s1", "abstract": ABSTRACT.format("dup")}]
    (files / "skips.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    (files / "garbage.json").write_bytes(os.urandom(300))
    (files / "latin1.txt").write_bytes("ICML 2026\n\nR\xe9sum\xe9 ".encode("latin-1") * 20)
    (files / "unreadable.jsonl").write_text("{}")
    os.chmod(files / "unreadable.jsonl", 0)
    (files / "bad.bib").write_text("@inproceedings{a,\n title={T},\n abstract={x\n")
    (files / "list.xlsx").write_text("x")

    case("csv: a quote never closed", ["ingest", str(files / "unclosed.csv")], code=2,
         says="never closed")
    case("csv: more fields than the header", ["ingest", str(files / "extra-fields.csv")],
         code=2, says="fields where the header")
    case("csv with a byte-order mark", ["ingest", str(files / "bom.csv"), "--no-prune"], code=0,
         grows=1)
    case("jsonl with a byte-order mark", ["ingest", str(files / "bom.jsonl"), "--no-prune"],
         code=0, grows=1)
    case("records without abstract / repeated id", ["ingest", str(files / "skips.jsonl")],
         code=0, says="the first record with an id is kept", grows=1)
    case("the same with --strict", ["ingest", str(files / "skips.jsonl"), "--strict"], code=2,
         says="--strict: nothing was written")
    case("random bytes as .json", ["ingest", str(files / "garbage.json")], code=2)
    case("latin-1 text file", ["ingest", str(files / "latin1.txt")], code=2, says="UTF-8")
    if not os.access(files / "unreadable.jsonl", os.R_OK):
        case("unreadable file", ["ingest", str(files / "unreadable.jsonl")], code=2,
             says="permission denied")
    case("unbalanced BibTeX", ["ingest", str(files / "bad.bib")], code=2, says="bad.bib:")
    case("unsupported suffix", ["ingest", str(files / "list.xlsx")], code=2)
    case("missing file", ["ingest", str(files / "nope.csv")], code=2, says="no such file")
    case("a folder", ["ingest", str(files)], code=2, says="is a folder")

    q = "Which paper generates ultra-high-resolution images with diffusion transformers?"
    chunks = ["DyPE changes ", "the position ", "encoding [1]. ", "It needs no ", "training [1]."]
    with WireServer() as wire:
        llm = {"OPENAI_BASE_URL": wire.base_url, "ASSISTANT_MODEL": "wire-model",
               "ASSISTANT_TIMEOUT": "3"}
        for status, says in ((500, "failed on its side"), (404, "not found"),
                             (401, "rejected the API key"), (429, "rate-limiting")):
            wire.fail(status)
            case(f"llm answers {status}", ["ask", q], code=2, says=says, env_extra=llm)
        wire.fail_message = "This model's maximum context length is 4096 tokens"
        wire.fail(400)
        case("llm: prompt too long", ["ask", q], code=2, says="ASSISTANT_CONTEXT_TOKENS",
             env_extra=llm)
        wire.fail_message = ""
        for fault, code, says in (("cut", 3, "the answer is cut"),
                                  ("malformed", 3, "malformed event stream"),
                                  ("nostream", 2, "streamed no text"),
                                  ("html", 2, "streamed no text"),
                                  ("hang", 2, "did not answer within 3 s")):
            wire.chat_fault = fault
            wire.script(chunks)
            case(f"llm stream: {fault}", ["ask", q], code=code, says=says, env_extra=llm)
        wire.released.set()
        wire.chat_fault = ""
        case("llm url with credentials", ["config"], code=0, says="user:****@",
             env_extra={"OPENAI_BASE_URL": "http://user:s3cret@127.0.0.1:9/v1"})
        secret = {"OPENAI_BASE_URL": wire.base_url.replace("http://", "http://u:s3cret@"),
                  "OPENAI_API_KEY": "sk-s3cretkey-1234", "ASSISTANT_MODEL": "wire-model"}
        wire.script(chunks)
        case("llm -v with a key and a password", ["ask", "-v", q], code=0,
             says="u:****@", env_extra=secret, never=("s3cret",))
        emb_store = tmp / "emb-store"
        emb = {"ASSISTANT_EMBEDDER": "openai", "ASSISTANT_EMBEDDING_BASE_URL": wire.base_url,
               "ASSISTANT_EMBEDDING_MODEL": "emb-model", "ASSISTANT_STORE": str(emb_store)}
        run(["ingest", str(files / "bom.csv")], {**env, **emb})
        for fault, says in (("short", "nothing was written"), ("mixed", "nothing was written"),
                            ("html", "not an embeddings response")):
            wire.embedding_fault = fault
            case(f"embeddings: {fault} reply", ["ingest", str(files / "skips.jsonl"),
                                                "--no-prune"],
                 code=2, says=says, env_extra=emb, store=emb_store)
        wire.embedding_fault = ""
        for status, says in ((500, "failed on its side"), (404, "does not know model")):
            wire.fail(status)
            case(f"embeddings answer {status}", ["ingest", str(files / "skips.jsonl"),
                                                 "--no-prune"],
                 code=2, says=says, env_extra=emb, store=emb_store)
        round2.wire_cases(case, record, wire=wire, run=run, env=env, base=base, tmp=tmp)

    damaged = tmp / "damaged"
    shutil.copytree(base, damaged)
    with (damaged / "chroma.sqlite3").open("r+b") as fh:
        fh.seek(4096)
        fh.write(b"\x00garbage" * 2000)
    # reading commands read the search index while it is whole; writing needs the file
    case("damaged chroma.sqlite3: papers (from the index)", ["papers", "--store",
                                                             str(damaged)],
         code=0, says="papers in collection", store=damaged)
    case("damaged chroma.sqlite3: ingest", ["ingest", "--store", str(damaged)], code=2,
         says="damaged", store=damaged)
    index = damaged.parent / "idx-copy"
    shutil.copytree(base, index)
    vec = next(index.glob("index/*/vectors.npy"))
    data = vec.read_bytes()
    vec.write_bytes(data[:128] + bytes(reversed(data[128:])))
    case("damaged derived index: ask", ["ask", "--json", "--store", str(index), q], code=0,
         store=index)
    truncated = tmp / "idx-truncated"
    shutil.copytree(base, truncated)
    vec = next(truncated.glob("index/*/vectors.npy"))
    vec.write_bytes(vec.read_bytes()[:1000])
    case("truncated derived index: ask", ["ask", "--json", "--store", str(truncated), q],
         code=0, store=truncated)
    case("another version's store folder", ["ask", q, "--store", str(files)], code=2,
         says="no store")
    case("a collection that is not there", ["ask", "--collection", "nope", q], code=2,
         says="no collection 'nope'")
    case("several collections, one not there", ["ask", "--collection", "icml2026,nope", q],
         code=2, says="leave it out")
    case("ingest into several collections", ["ingest", "--collection", "icml2026,other"],
         code=2, says="one collection at a time")

    round2.index_cases(case, base=base, tmp=tmp)
    round2.multilingual_cases(case, run=run, env=env, base=base, tmp=tmp)
    round2.hostile_text_cases(case, base=base, tmp=tmp)
    round2.ingest_cases(case, base=base, tmp=tmp, fast=args.fast)
    round2.question_cases(case, tmp=tmp)
    round2.history_cases(case, tmp=tmp)
    round2.read_only_cases(case, record, base=base, tmp=tmp)

    killed = tmp / "killed"
    corpus = ROOT.parent / "shared" / "corpus" / "ml-abstracts.jsonl"
    if corpus.exists() and not args.fast:
        part = tmp / "part.jsonl"
        with corpus.open() as fh:
            part.write_text("".join(fh.readline() for _ in range(600)))
        p = subprocess.Popen([str(BIN), "ingest", str(part), "--store", str(killed)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 600
        while chunks_in(killed) < 300 and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
        p.send_signal(signal.SIGKILL)
        p.wait()
        kept = chunks_in(killed)
        case(f"ingest killed at {kept} chunks, run again", ["ingest", str(part), "--store",
                                                            str(killed)],
             code=0, store=killed, says="papers (")
        # the same file killed at three more points, then finished: every paper whole
        start = chunks_in(killed)
        for at in (60, 180, 420):
            p = subprocess.Popen([str(BIN), "ingest", str(part), "--store", str(killed),
                                  "--collection", "again"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 600
            while (chunks_in(killed) - start < at and time.monotonic() < deadline
                   and p.poll() is None):
                time.sleep(0.1)
            p.send_signal(signal.SIGKILL)
            p.wait()
        case("ingest killed 3 more times, run again", ["ingest", str(part), "--store",
                                                       str(killed), "--collection", "again"],
             code=0, store=killed, says="papers (")

        # two ingests into one store at once: both finish, the store holds both files
        two = tmp / "two"
        shutil.copytree(base, two)
        halves = [tmp / "half1.jsonl", tmp / "half2.jsonl"]
        lines = part.read_text().splitlines(keepends=True)
        halves[0].write_text("".join(lines[:40]))
        halves[1].write_text("".join(lines[40:80]))
        _, listed, _, _ = run(["papers", "--json", "--store", str(two)], env)
        had = len(json.loads(listed))
        t = time.monotonic()
        procs = [subprocess.Popen([str(BIN), "ingest", str(h), "--store", str(two)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for h in halves]
        outs = [pr.communicate(timeout=600) for pr in procs]
        rcs = [pr.returncode for pr in procs]
        _, listed, _, _ = run(["papers", "--json", "--store", str(two)], env)
        held = len(json.loads(listed)) if listed.strip().startswith("[") else -1
        ok = (rcs == [0, 0] and held == had + 80 and partial_papers(two) == 0
              and not any("Traceback" in e for _, e in outs))
        record("two ingests into one store at once", max(rcs), 0,
               f"{had} papers, {held} after both (40 + 40 added)", time.monotonic() - t,
               held < had, ok)

        # asking while an ingest writes: every ask answers
        busy = tmp / "busy"
        shutil.copytree(base, busy)
        p = subprocess.Popen([str(BIN), "ingest", str(part), "--store", str(busy)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t, answers = time.monotonic(), []
        while p.poll() is None and len(answers) < 6:
            rc, _out, err, _ = run(["ask", "--json", "--store", str(busy), q], env)
            answers.append(rc == 0 and "Traceback" not in err)
        p.wait()
        record("asking while an ingest writes", 0 if all(answers) else 1, 0,
               f"{sum(answers)} of {len(answers)} asks answered", time.monotonic() - t,
               False, all(answers) and len(answers) >= 2 and partial_papers(busy) == 0)
    shutil.rmtree(tmp, ignore_errors=True)
    good = sum(c["ok"] for c in cases)
    print(f"\n{good} of {len(cases)} faults handled with one line and nothing lost "
          f"(the bundled store held {before} chunks throughout)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(cases, indent=2))


if __name__ == "__main__":
    main()
