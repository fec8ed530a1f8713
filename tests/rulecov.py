"""Rule coverage for a game's rule tests: which rule ids a test shows legal, illegal, or documents.

Each ``tests/test_<game>_rules.py`` builds one :class:`RuleCoverage` over its rulebook and marks its
tests with ``covers``/``documents``; ``tests/test_every_game.py`` then fails for any rulebook id left
uncovered (it finds the coverage as ``_COVERAGE`` and the ids that never reject as ``NEVER_REJECTS``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

from adjudicator.core.rulings import Ruling


class RuleCoverage:
    def __init__(self, rules: Mapping[str, str], namespace: str) -> None:
        self.rules = rules
        self.namespace = namespace
        #: rule id -> what the tests show for it ("legal", "illegal", "behaviour")
        self.covered: dict[str, set[str]] = defaultdict(set)

    def covers(self, *ids: str, legal: bool = True, illegal: bool = True, behaviour: bool = False) -> Callable:
        """Register what a test shows for ``ids``."""
        def mark(fn: Callable) -> Callable:
            for i in ids:
                assert i in self.rules, f"{fn.__name__} covers unknown rule id {i}"
                if legal:
                    self.covered[i].add("legal")
                if illegal:
                    self.covered[i].add("illegal")
                if behaviour:
                    self.covered[i].add("behaviour")
            return fn
        return mark

    def documents(self, *ids: str) -> Callable:
        return self.covers(*ids, legal=False, illegal=False, behaviour=True)

    def rejects(self, ruling: Ruling, rule: str, code: str, *facts: str) -> None:
        assert not ruling.legal, f"expected {rule} [{code}], got a legal ruling: {ruling}"
        assert (ruling.rule, ruling.code) == (rule, self.namespace + code), ruling
        for fact in facts:
            assert fact in ruling.message, f"{fact!r} not quoted in: {ruling.message}"

    def accepts(self, ruling: Ruling, rule: str | None = None) -> None:
        assert ruling.legal, ruling
        if rule is not None:
            assert ruling.rule == rule, ruling
