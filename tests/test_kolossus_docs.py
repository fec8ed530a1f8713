"""What the Kolossus documents promise beyond what every game's do: the complete example of
docs/games/kolossus.md ends as the page says and the commands it shows give what it says.
(``tests/test_every_game.py`` checks, for every shipped game, its gaps, options, complete example,
examples and rule coverage.)"""

from __future__ import annotations



from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import run

from .kolossus_scenarios import GAME
from .test_docs import game_doc, json_blocks, read, rules_doc, sections

KO_GAPS = [f"KO-{n}" for n in range(1, 32)]
RULES_DOC = rules_doc("kolossus")


def test_the_complete_example_is_a_legal_finished_match() -> None:
    text = read(game_doc("kolossus"))
    secs = sections(text, level=2)
    blocks = json_blocks(secs["A complete example"], "jsonl")
    assert len(blocks) == 1
    data = blocks[0][1].encode()
    result = run(parse_log(data, "complete-example"))
    assert result.verdict == "legal", [v.as_dict() for v in result.violations]
    assert result.outcome is not None and result.outcome.winner == "ann+cat"
    kept = [ln for ln in data.decode().splitlines() if ln.strip() and GAME.decoder.decode(ln.encode()).kind != "X"]
    assert len(kept) < len(data.decode().splitlines())
    bare = run(parse_log(("\n".join(kept) + "\n").encode(), "without-x"))
    assert bare.verdict == "legal" and bare.outcome == result.outcome
    # the commands the page shows give what it says
    state = run(parse_log(data), upto=18).state
    assert state.step == "move" and state.activation.mp == 9
    assert len(GAME.legal_events(state)) == 512
