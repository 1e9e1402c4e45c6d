"""The store: chunking, embedding, Chroma, ingest, and the derived index beside it.

Owns: ``store`` (one Chroma collection), ``union`` (several read as one), ``open`` (which of the
two a setting names), ``protocol`` (the ``Store`` both satisfy), ``records`` (the paper record
codec kept on chunk 0), ``ingest`` (streamed, resumable writes), ``chunking``, ``embeddings``,
``chunk_index`` (BM25 + exact dense search over a collection, rebuilt from Chroma),
``collections`` (listing and removing), ``sqlite_ro`` (read-only peeks into Chroma's file).
May import: ``sources``, ``llm`` (its error mapping) and the shared basics.
"""
