"""What the question is: follow-up detection, the standalone rewrite, comparisons.

Owns: ``followup`` (``is_follow_up``: the rules weighed by a small fitted model),
``followup_rules`` (the rules), ``rewrite`` (heuristic or LLM rewrite), ``compare`` (the sides of
"A vs B"). May import: ``llm``, ``sources`` and the shared basics; never ``search``.
"""
