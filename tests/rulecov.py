"""Rule coverage for a game's rule tests: which rule ids a test shows legal, illegal, or documents.

Each ``tests/test_<game>_rules.py`` builds one :class:`RuleCoverage` over its rulebook and marks its
tests with ``covers``/``documents``; ``tests/test_every_game.py`` then fails for any rulebook id left
uncovered (it finds the coverage as ``_COVERAGE`` and the ids that never reject as ``NEVER_REJECTS``).

A claim is measured, not only declared (issue 29, item 14): a test marked ``covers(RULE)`` with
``illegal=True`` fails unless, while it ran, an assertion helper saw a ruling of that rule that is
not legal (:meth:`RuleCoverage.rejects`, or :meth:`RuleCoverage.ruled` for a ruling read another
way: a verdict's violation, a CLI's output).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Mapping

from adjudicator.core.kernel.rulings import Ruling


class RuleCoverage:
    def __init__(self, rules: Mapping[str, str], namespace: str) -> None:
        self.rules = rules
        self.namespace = namespace
        #: rule id -> what the tests show for it ("legal", "illegal", "behaviour")
        self.covered: dict[str, set[str]] = defaultdict(set)
        #: the rule ids ruled illegal while the test running now ran (None: no marked test runs)
        self._ruled: set[str] | None = None

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
            if not illegal:
                return fn

            @functools.wraps(fn)
            def measured(*args: object, **kwargs: object) -> object:
                self._ruled = set()
                try:
                    out = fn(*args, **kwargs)
                    unshown = [] if "*" in self._ruled else [i for i in ids if i not in self._ruled]
                    assert not unshown, (f"{fn.__name__} claims to show {', '.join(unshown)} illegal but no "
                                         f"assertion saw a ruling of it (rejects/ruled)")
                    return out
                finally:
                    self._ruled = None
            return measured
        return mark

    def ruled_all(self) -> None:
        """Record that the running test showed every rule it claims illegal at once: a log that
        states a derived event otherwise than the rules derive it, refused (LOG-2), is the illegal
        side of a rule that only derives (its ``misstate`` case)."""
        if self._ruled is not None:
            self._ruled.add("*")

    def ruled(self, rule: str) -> None:
        """Record that the running test saw ``rule`` ruled illegal (read from a verdict or output)."""
        if self._ruled is not None:
            self._ruled.add(rule)

    def documents(self, *ids: str) -> Callable:
        return self.covers(*ids, legal=False, illegal=False, behaviour=True)

    def rejects(self, ruling: Ruling, rule: str, code: str, *facts: str) -> None:
        assert not ruling.legal, f"expected {rule} [{code}], got a legal ruling: {ruling}"
        assert (ruling.rule, ruling.code) == (rule, self.namespace + code), ruling
        for fact in facts:
            assert fact in ruling.message, f"{fact!r} not quoted in: {ruling.message}"
        self.ruled(rule)

    def accepts(self, ruling: Ruling, rule: str | None = None) -> None:
        assert ruling.legal, ruling
        if rule is not None:
            assert ruling.rule == rule, ruling
