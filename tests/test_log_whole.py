"""The reader's one-call road (``log._read_whole``: a usual log decoded by ``decode_lines``) reads
every log exactly as the line-by-line road does: the same events on the same lines, the same
hash-chain state, the same error (file, line, field, message) for a log it does not take."""

from __future__ import annotations

import random

import pytest

from adjudicator.core.kernel import log as L
from adjudicator.core.kernel.errors import LogError
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.registry import games


def _read(data: bytes, whole: bool) -> tuple[str, object]:
    saved = L._read_whole
    if not whole:
        L._read_whole = lambda data, path: None  # type: ignore[assignment]
    try:
        m = L.parse_log(data, "x.jsonl")
    except LogError as exc:
        return "error", (exc.line, exc.field, str(exc))
    finally:
        L._read_whole = saved
    return "log", (m.events, m.no_rulings, m.sealed_head, m.text)


def _mutations(data: bytes, rng: random.Random) -> list[bytes]:
    lines = data.split(b"\n")
    out = [data, data.rstrip(b"\n"), data + b"\n\n", data.replace(b"\n", b"\r\n", 1), b" " + data]
    for _ in range(12):
        i = rng.randrange(len(lines))
        j = rng.randrange(len(lines))
        for mutated in (lines[:i] + lines[i + 1:], lines[:i] + [lines[j]] + lines[i:],
                        lines[:i] + [lines[i] + lines[j]] + lines[i + 1:],
                        lines[:i] + [lines[i][:len(lines[i]) // 2]] + lines[i + 1:],
                        lines[:i] + [lines[i].replace(b'"', b"'", 1)] + lines[i + 1:],
                        lines[:i] + [lines[i].replace(b"}", b',"seq":%d}' % (i + 1), 1)] + lines[i + 1:],
                        lines[:i] + [lines[i][:-1] + b',"note":"\\u0041"}'] + lines[i + 1:],
                        lines[:i] + [b"", lines[i]] + lines[i + 1:]):
            out.append(b"\n".join(mutated))
        k = rng.randrange(len(data))
        out.append(data[:k] + bytes([rng.randrange(256)]) + data[k + 1:])
    return out


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_whole_road_reads_as_line_by_line(game):
    rng = random.Random(7)
    for seed in range(3):
        events, _ = playout(game, seed, max_events=150)
        for data in _mutations(to_jsonl(events), rng):
            assert _read(data, True) == _read(data, False)


def test_usual_log_takes_the_whole_road():
    """A generated log is read by the one call (else the road is never taken and the test above
    proves nothing)."""
    for game in games():
        events, _ = playout(game, 1, max_events=100)
        assert L._read_whole(to_jsonl(events), "x.jsonl") is not None, game.id
