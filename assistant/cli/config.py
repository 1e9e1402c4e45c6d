"""``assistant config``: the effective settings, secrets masked, and what is in use where a
setting does not apply."""

from __future__ import annotations

import argparse

from assistant.cli.shared import print_json, settings_from


def cmd_config(args: argparse.Namespace) -> int:
    from assistant.index.embeddings import LocalEmbedder
    from assistant.settings import config_file

    settings = settings_from(args)
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
        print_json({**values, "in_use": in_use, "config_file": str(path),
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
