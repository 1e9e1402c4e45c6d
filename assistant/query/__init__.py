"""What the question is: its form, follow-up detection, the standalone rewrite, comparisons.

Owns: ``form`` (``Form``: the question's form, read once per turn and handed down),
``aspects`` (what a question asks of one paper, and whether a sentence states it),
``followup`` (``is_follow_up``: the rules weighed by a small fitted model), ``followup_rules``
(the rules), ``rewrite`` (heuristic or LLM rewrite), ``compare`` (the sides of "A vs B").
May import: ``llm``, ``sources`` and the shared basics; never ``search``.
"""
