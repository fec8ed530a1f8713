"""The documentation covers what the engine can say.

Every rule id a ruling can cite has an entry (a heading or a bold line) in the right document:
``docs/rules/<game>.md`` for a game's rulebook, ``docs/log-format.md`` for the ``LOG-n`` rules;
every ruling code is listed; every event class has a ``### Name`` section in
``docs/games/<game>.md`` whose JSON examples decode with the game's decoder.
``tests/test_every_game.py`` checks, for every shipped game, its gaps, options, complete example,
examples and rule coverage (this module's helpers read the documents for both).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import ENVELOPE_FIELDS
from adjudicator.core.kernel.rulings import CORE_RULES, Rulebook

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SOURCE = ROOT / "adjudicator"
LOG_FORMAT = DOCS / "log-format.md"

# the shipped games (tests may register a test-only game; it has no docs)
GAMES = [g for g in registry.games() if type(g).__module__.startswith("adjudicator.games.")]
GAME_IDS = [g.id for g in GAMES]

#: the gaps of section 2.2 of the design analysis, each with an entry in the CO rules doc
CO_GAPS = [f"CO-{n}" for n in range(1, 35)]

_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)


# -- helpers ---------------------------------------------------------------------------------------

def read(path: Path) -> str:
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The document without its fenced code blocks (a `# comment` in a shell block is no heading)."""
    return _FENCE.sub("", text)


def entry_pattern(rule_id: str) -> re.Pattern[str]:
    """A heading (`### CO-7.3 ...`, `### **CO-7.3** ...`) or a bold entry line (`**CO-7.3** ...`).

    `CO-1` must not match the entry of `CO-1.1`, nor `CO-1` that of `CO-13`.
    """
    rid = re.escape(rule_id)
    return re.compile(rf"^(?:#{{1,6}}[ \t]+(?:\*\*)?|\*\*){rid}(?![\d]|\.\d)", re.M)


def has_entry(text: str, rule_id: str) -> bool:
    return entry_pattern(rule_id).search(prose(text)) is not None


def entry_text(text: str, rule_id: str) -> str:
    """The text of a rule's entry: from its heading to the next heading of any level."""
    body = prose(text)
    m = entry_pattern(rule_id).search(body)
    assert m is not None, f"no entry for {rule_id}"
    nxt = re.compile(r"^#{1,6}[ \t]", re.M).search(body, m.end())
    return body[m.start(): nxt.start() if nxt else len(body)]


def rules_doc(game_id: str) -> Path:
    return DOCS / "rules" / f"{game_id}.md"


def game_doc(game_id: str) -> Path:
    return DOCS / "games" / f"{game_id}.md"


def rulebooks() -> dict[str, tuple[Rulebook, Path]]:
    """Rule id prefix -> (rulebook, the document that must describe it)."""
    out = {CORE_RULES.prefix: (CORE_RULES, LOG_FORMAT)}
    for g in GAMES:
        out[g.rulebook.prefix] = (g.rulebook, rules_doc(g.id))
    return out


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def string_constants(*, docstrings: bool) -> list[tuple[str, int, str]]:
    """(file, line, text) of every string constant in adjudicator/ (f-string parts included)."""
    out = []
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = set() if docstrings else _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                out.append((str(path.relative_to(ROOT)), node.lineno, node.value))
    return out


def id_regex() -> str:
    prefixes = "|".join(sorted(map(re.escape, rulebooks())))
    return rf"(?:{prefixes})-\d+(?:\.\d+)?"


def cited_rule_ids() -> dict[str, list[str]]:
    """Rule id -> where it occurs, for every string literal that is exactly a rule id."""
    full = re.compile(rf"^{id_regex()}$")
    found: dict[str, list[str]] = {}
    for path, line, text in string_constants(docstrings=False):
        if full.match(text):
            found.setdefault(text, []).append(f"{path}:{line}")
    return found


def sections(text: str, level: int = 3) -> dict[str, str]:
    """`### Name` heading -> the section's text (up to the next heading of that level or higher)."""
    heads = list(re.finditer(rf"^#{{1,{level}}}[ \t]+(.+?)[ \t]*$", text, re.M))
    out = {}
    for i, m in enumerate(heads):
        if len(m.group(0)) - len(m.group(0).lstrip("#")) != level:
            continue
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out[m.group(1)] = text[m.start():end]
    return out


def json_blocks(text: str, lang: str) -> list[tuple[int, str]]:
    """(line number of the opening fence, body) of every ```<lang> block."""
    out = []
    for m in re.finditer(rf"^```{re.escape(lang)}[ \t]*\n(.*?)^```[ \t]*$", text, re.M | re.S):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def enclosing_heading(text: str, pos: int) -> str | None:
    """The nearest `### ` heading before ``pos`` (None when a `## ` heading comes after it)."""
    name = None
    for m in re.finditer(r"^(#{1,6})[ \t]+(.+?)[ \t]*$", text[:pos], re.M):
        name = m.group(2) if len(m.group(1)) == 3 else None
    return name


# -- rule ids ----------------------------------------------------------------------------------------

def test_there_is_a_game_and_its_docs_exist():
    assert "colossus-order" in GAME_IDS
    for g in GAMES:
        read(rules_doc(g.id))
        read(game_doc(g.id))
    read(LOG_FORMAT)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_rule_of_the_rulebook_has_an_entry(game_id):
    game = registry.get(game_id)
    text = read(rules_doc(game_id))
    ids = game.rulebook.ids()
    assert ids, f"{game_id} has an empty rulebook"
    missing = [rid for rid in ids if not has_entry(text, rid)]
    assert not missing, f"docs/rules/{game_id}.md has no heading or bold entry for {missing}"


def test_every_core_rule_has_an_entry_in_the_log_format():
    text = read(LOG_FORMAT)
    missing = [rid for rid in CORE_RULES.ids() if not has_entry(text, rid)]
    assert not missing, f"docs/log-format.md has no heading or bold entry for {missing}"


def test_entry_matching_is_strict():
    """The matcher itself: headings and bold lines count, mentions and longer ids do not."""
    doc = "\n".join([
        "Some text citing CO-7.3 in passing.",
        "### CO-1.1 A rule",
        "**CO-2** an entry in bold",
        "```",
        "# CO-5 a comment in a code block",
        "```",
    ])
    assert has_entry(doc, "CO-1.1")
    assert has_entry(doc, "CO-2")
    assert not has_entry(doc, "CO-7.3")
    assert not has_entry(doc, "CO-1")
    assert not has_entry(doc, "CO-5")
    assert not has_entry("### CO-13 a gap", "CO-1")


def test_the_source_scan_finds_rule_ids():
    found = cited_rule_ids()
    # the scan must see the ids rulings really cite, or the next test proves nothing
    for rid in ("CO-7.3", "CO-3.1", "CO-9", "LOG-2", "LOG-3", "LOG-4"):
        assert rid in found, f"the scan of adjudicator/ did not find {rid!r}"


def test_every_rule_id_cited_in_the_source_is_in_a_rulebook_and_documented():
    books = rulebooks()
    problems = []
    for rid, where in sorted(cited_rule_ids().items()):
        prefix = rid.split("-", 1)[0]
        book, doc = books[prefix]
        if rid not in book:
            problems.append(f"{rid} ({', '.join(where)}) is not in the {prefix} rulebook")
        elif not has_entry(read(doc), rid):
            problems.append(f"{rid} ({', '.join(where)}) has no entry in {doc.relative_to(ROOT)}")
    assert not problems, "\n".join(problems)


def test_rule_ids_mentioned_in_messages_exist():
    """A message such as "... (CO-1)" or "... (LOG-1)" must cite a rule that exists."""
    books = rulebooks()
    mention = re.compile(rf"(?<![\w.-]){id_regex()}(?![\w]|\.\d)")
    problems = []
    for path, line, text in string_constants(docstrings=False):
        for rid in mention.findall(text):
            if rid not in books[rid.split("-", 1)[0]][0]:
                problems.append(f"{path}:{line}: {rid!r} is not a rule id")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_ruling_code_is_documented(game_id):
    """Each code a game's rules raise (``bad("CO-7.3", "attacker-not-ready", ...)``) is listed."""
    game = registry.get(game_id)
    package = Path(inspect.getfile(type(game))).parent
    codes = set()
    for path in package.rglob("*.py"):
        codes |= set(re.findall(r"\bbad\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*\"([a-z0-9-]+)\"", path.read_text(encoding="utf-8")))
    assert len(codes) > 10, f"found only {sorted(codes)} in {package}"
    text = read(rules_doc(game_id))
    missing = sorted(c for c in codes if f"`{game_id}/{c}`" not in text)
    assert not missing, f"docs/rules/{game_id}.md does not list the codes {missing}"


# -- Colossus Order: gaps and options ---------------------------------------------------------------

CO_RULES = rules_doc("colossus-order")


# -- events --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_event_has_a_section_with_its_kind_and_fields(game_id):
    game = registry.get(game_id)
    text = read(game_doc(game_id))
    secs = sections(prose(text))
    problems = []
    for cls in game.event_types:
        name = cls.__name__
        if name not in secs:
            problems.append(f"no `### {name}` section")
            continue
        body = secs[name]
        if f"Kind **{cls.kind}**" not in body:
            problems.append(f"{name}: the section must say `Kind **{cls.kind}**`")
        for field in cls.__struct_fields__:
            if field not in ENVELOPE_FIELDS and f"`{field}`" not in body:
                problems.append(f"{name}: field `{field}` is not described")
    assert not problems, f"docs/games/{game_id}.md:\n" + "\n".join(problems)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_json_example_decodes_in_its_section(game_id):
    game = registry.get(game_id)
    text = read(game_doc(game_id))
    names = {cls.__name__ for cls in game.event_types}
    examples: dict[str, int] = {}
    problems = []
    blocks = json_blocks(text, "json")
    assert blocks, "no ```json examples"
    for start, body in blocks:
        pos = sum(len(x) + 1 for x in text.split("\n")[: start - 1])
        section = enclosing_heading(text, pos)
        if section not in names:
            problems.append(f"line {start}: a ```json block outside an event section ({section!r})")
            continue
        for i, line in enumerate(body.splitlines(), start=start + 1):
            if not line.strip():
                continue
            try:
                event = game.decoder.decode(line.encode())
            except msgspec.MsgspecError as exc:
                problems.append(f"line {i}: does not decode: {exc}")
                continue
            if type(event).__name__ != section:
                problems.append(f"line {i}: a {type(event).__name__} example in the section {section}")
                continue
            examples[section] = examples.get(section, 0) + 1
    missing = sorted(names - set(examples))
    if missing:
        problems.append(f"event sections without a ```json example: {missing}")
    assert not problems, f"docs/games/{game_id}.md:\n" + "\n".join(problems)


