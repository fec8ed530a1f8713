"""Regressions for the defects the independent Colossi audit found (tests/test_audit_colossi.py):
each test fails on the engine before its fix.  docs/rules/colossi.md names the rule."""

from __future__ import annotations

from .colossi_scenarios import A, B, E, NS, Position
from adjudicator.games.colossi.state import Launch, Rest, Teleporter


def _to_rest(pos: Position) -> None:
    pos.end_actions()
    if type(pos.head()).__name__ == "MoveBeast":
        pos.passed()
    pos.add(E.BannerPhaseChosen(player=A, choice="rest"))
    assert isinstance(pos.head(), Rest)


def test_a_banner_the_teleporter_carries_onto_a_collected_space_is_still_collected_in_the_rest() -> None:
    """Seed, Banner Phase, Rest: "Collect each of your deployed Banners".  Found by the audit (seed
    923): ann's Rest scored the Teleporter on 3 and swapped 3 with 20, where her uncollected Banner
    stood; the Banner came to 3, collected already in this Rest, and the Rest ended with it on the
    board (CL-4.6)."""
    pos = Position(colossi={A: 13, B: 2}, tiles={3: "teleporter"}, banners={3: [A], 20: [A]},
                   acolytes={(20, A): 1})
    _to_rest(pos)
    pos.add(E.BannerScored(player=A, space=3))
    assert isinstance(pos.head(), Teleporter)
    pos.add(E.SpaceChosen(player=A, space=20))
    assert pos.sp(3).banners == (A,) and pos.sp(20).banners == ()
    r = pos.check(E.Passed(player=A))
    assert not r.legal and (r.rule, r.code) == ("CL-4.6", NS + "collect-all"), r
    pos.add(E.BannerScored(player=A, space=3))
    assert not any(A in sp.banners for sp in pos.s.spaces) and pos.p(A).banners == 6


def test_a_banner_the_launchpad_puts_down_on_a_collected_space_is_still_collected_in_the_rest() -> None:
    """The same for Launchpad (CL-38): ann's uncollected Banner next to the Launchpad is lifted and
    put down on a space whose Banner this Rest already collected; she still collects it."""
    pos = Position(colossi={A: 13, B: 24}, tiles={3: "launchpad"}, banners={3: [A], 4: [A], 20: [A]},
                   acolytes={(20, A): 1})
    _to_rest(pos)
    pos.add(E.BannerScored(player=A, space=20))
    pos.add(E.BannerScored(player=A, space=3))
    assert isinstance(pos.head(), Launch)
    items = [(it.component, it.owner, it.space) for it in pos.head().items]
    assert ("banner", A, 4) in items
    for component, owner, space in items:
        pos.add(E.ComponentMoved(player=A, component=component, space=space, owner=owner,
                                 to=20 if component == "banner" else space))
    assert pos.sp(20).banners == (A,)
    r = pos.check(E.Passed(player=A))
    assert not r.legal and (r.rule, r.code) == ("CL-4.6", NS + "collect-all"), r
    pos.add(E.BannerScored(player=A, space=20))
    assert not any(A in sp.banners for sp in pos.s.spaces) and pos.p(A).banners == 6
