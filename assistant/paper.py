"""The Paper type every other module speaks."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Paper:
    paper_id: str
    title: str
    abstract: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    url: str = ""
    code_url: str = ""
    title_derived: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def link(self) -> str:
        return self.url or self.code_url

    @property
    def venue_year(self) -> str:
        return " ".join(p for p in (self.venue, str(self.year or "")) if p)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    def content_hash(self) -> str:
        blob = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha1(blob.encode("utf-8")).hexdigest()

    def reference(self) -> str:
        """One reference-list line: title, authors, venue and year, link."""
        bits = [self.title.rstrip(".") + "."]
        if self.authors:
            names = ", ".join(self.authors[:3]) + (" et al." if len(self.authors) > 3 else "")
            bits.append(names + ".")
        if self.venue_year:
            bits.append(self.venue_year + ".")
        if self.url:
            bits.append(self.url)
        if self.code_url and self.code_url != self.url:
            bits.append(f"Code: {self.code_url}")
        return " ".join(bits)
