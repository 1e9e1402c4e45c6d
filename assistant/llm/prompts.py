"""Prompt templates are files: ``prompts/<name>.md``, ``$variable`` placeholders.

A user folder (setting ``prompts_dir``) is searched first, then the packaged templates.
"""

from __future__ import annotations

import string
from pathlib import Path

from assistant.errors import PromptError
from assistant.settings import PACKAGE_DIR


def _search_path(user_dir: Path | None) -> list[Path]:
    dirs = [user_dir] if user_dir else []
    dirs += [PACKAGE_DIR / "prompts", PACKAGE_DIR.parent / "prompts"]
    return [d for d in dirs if d is not None]


def load(name: str, *, prompts_dir: Path | None = None) -> string.Template:
    for folder in _search_path(prompts_dir):
        path = folder / f"{name}.md"
        if path.is_file():
            return string.Template(path.read_text(encoding="utf-8"))
    raise PromptError(f"prompt template {name!r} not found in "
                      f"{', '.join(str(d) for d in _search_path(prompts_dir))}: restore "
                      f"prompts/{name}.md or fix ASSISTANT_PROMPTS_DIR")


def render(name: str, *, prompts_dir: Path | None = None, **variables: object) -> str:
    template = load(name, prompts_dir=prompts_dir)
    try:
        return template.substitute({k: str(v) for k, v in variables.items()}).strip() + "\n"
    except KeyError as exc:
        raise PromptError(f"prompt template {name!r} uses ${exc.args[0]}, which is not "
                          f"provided (available: {', '.join(sorted(variables))})") from None
    except ValueError as exc:
        raise PromptError(f"prompt template {name!r} is malformed ({exc}); escape a literal "
                          "dollar sign as $$") from None
