"""Filters read from the question itself: "ICML 2019 papers on ...", "from NeurIPS", "in 2021".

Only unambiguous mentions count: a venue that the store holds (as a whole word) and a year
that the store holds. Explicit flags always win.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from assistant.search.retrieval import Filters

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def infer(question: str, *, venues: Iterable[str], years: Iterable[int],
          explicit: Filters | None = None) -> Filters:
    explicit = explicit or Filters()
    found_venues = sorted({v for v in venues if v and re.search(
        rf"(?<![\w-]){re.escape(v)}(?![\w-])", question, re.IGNORECASE)})
    year_set = set(years)
    found_years = sorted({int(y) for y in _YEAR.findall(question) if int(y) in year_set})
    venue = explicit.venue or (found_venues[0] if len(found_venues) == 1 else None)
    year = explicit.year or (found_years[0] if len(found_years) == 1 else None)
    return dataclasses.replace(explicit, venue=venue, year=year)
