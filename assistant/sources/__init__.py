"""Paper lists in, ``Paper`` objects out: the five list formats, BibTeX, derived titles.

Owns: ``corpus`` (load a file, the bundled list), ``formats`` (detect and normalise JSON
exports), ``bibtex`` (its own parser), ``titles`` (a title derived from an abstract, method
names). May import: the shared basics only (``paper``, ``errors``, ``settings``, ``textutil``).
"""
