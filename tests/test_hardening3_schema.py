"""The replay service's OpenAPI document describes the service (issue 29 item 13): it is a valid
OpenAPI 3.1 document (openapi-spec-validator), and Schemathesis, generating requests from it (valid
and invalid ones, the token included), finds no answer that contradicts it.

Schemathesis runs in process against the ASGI app, a bounded number of examples per operation
(``EXAMPLES``), over a store holding two matches (a finished one and one in progress, so a
generated id prefix such as ``1`` may name one).  Checks left out, each with its reason (also in
docs/replay.md, "The OpenAPI document"):

* ``positive_data_acceptance``: a request the schema allows may still be refused with 400 for a
  reason that depends on the stored data (``at`` past the match's end, ``as`` naming no player of
  this match, ``var`` holding events that are not events of this game, an unknown game id), which
  no schema can state;
* ``use_after_free`` and ``ensure_resource_availability``: stateful checks for APIs that create and
  delete resources; this service deletes nothing, and a recording or an upload made with random
  data is not expected to be readable (a refused one stores nothing).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from litestar.testing import TestClient
from openapi_spec_validator import validate
from schemathesis.generation import GenerationMode
from schemathesis.checks import ensure_resource_availability, positive_data_acceptance, use_after_free

from adjudicator.core.store import MatchStore
from adjudicator.replays.web import create_app

TOKEN = "schema-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
#: generated requests per operation (and per generation mode): the suite's budget, about 30 s
EXAMPLES = 10
#: what counts as refusing a request the schema does not allow: Schemathesis's list, and 413/414 (a body
#: or a request target over the service's bound is refused before it is read)
REJECTIONS = ["400", "401", "403", "404", "405", "406", "409", "413", "414", "415", "422", "428", "429", "5xx"]
#: the checks left out, with the reasons the module docstring gives
EXCLUDED = [positive_data_acceptance, use_after_free, ensure_resource_availability]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    root = tmp_path_factory.mktemp("schema")
    store = MatchStore(str(root / "s.db"))
    store.import_file("examples/logos/legal-hidden-picks.jsonl")
    lines = Path("examples/logos/legal-seat-ann-hidden-picks.jsonl").read_bytes().splitlines(keepends=True)
    (root / "in-progress.jsonl").write_bytes(b"".join(lines[:9]))
    store.import_file(root / "in-progress.jsonl")
    yield create_app(store, upload_token=TOKEN, recordings=root / "recs")
    store.close()


@pytest.fixture(scope="module")
def web_schema(app: object) -> object:
    config = schemathesis.Config.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTIONS}}})
    return schemathesis.openapi.from_asgi("/schema/openapi.json", app, config=config)


def test_the_document_is_valid_openapi_and_complete(app: object) -> None:
    doc = TestClient(app).get("/schema/openapi.json").json()
    validate(doc)
    ops = {(m, p): op for p, item in doc["paths"].items() for m, op in item.items()}
    ids = [op["operationId"] for op in ops.values()]
    assert len(ids) == len(set(ids)) and not any("callable" in i.lower() for i in ids)
    assert doc["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer", "description": doc["components"]["securitySchemes"]["bearer"]["description"]}
    for (m, p), op in ops.items():
        if m == "get":
            assert ("head", p) in ops, p
        if "{" in p:
            assert "404" in op["responses"], (m, p)
    for m, p in (("post", "/api/matches"), ("post", "/api/recordings"), ("post", "/api/recordings/{rid}/entries")):
        assert ops[(m, p)]["security"] == [{"bearer": []}] and {"401", "403", "503"} <= set(ops[(m, p)]["responses"])
    upload = ops[("post", "/api/matches")]["requestBody"]["content"]
    assert set(upload) == {"application/x-ndjson", "multipart/form-data"}
    assert set(upload["multipart/form-data"]["schema"]["properties"]) == {"log", "pool", "board", "island"}
    assert list(ops[("get", "/api/matches/{match_id}/log")]["responses"]["200"]["content"]) == ["application/x-ndjson"]
    assert list(ops[("get", "/api/matches/{match_id}/export.html")]["responses"]["200"]["content"]) == ["text/html"]
    events = {q["name"]: q["schema"] for q in ops[("get", "/api/matches/{match_id}/events")]["parameters"]}
    assert "from" in events and "first" not in events and events["limit"]["maximum"] == 10_000
    assert doc["components"]["schemas"]["NewRecording"]["additionalProperties"] is False


def test_no_answer_contradicts_the_document(web_schema: object) -> None:
    """Every operation, valid and invalid requests (``EXAMPLES`` of each), every check but
    ``EXCLUDED``.  (Schemathesis's pytest plugin does not run under pytest 9, so the operations are
    walked here, each under its own Hypothesis test.)"""
    failures: list[str] = []
    operations = 0
    for result in web_schema.get_all_operations():
        op = result.ok()
        operations += 1
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=op.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                      derandomize=True, phases=[Phase.explicit, Phase.generate])
            def run(case: schemathesis.Case) -> None:
                case.call_and_validate(headers=AUTH, excluded_checks=EXCLUDED)

            try:
                run()
            except Unsatisfiable:  # no invalid request exists (an operation without parameters or body)
                pass
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collected, then shown together
                failures.append(f"{op.label} ({mode.value}): {str(exc)[:1500]}")
    assert operations >= 30
    assert not failures, "\n\n".join(failures)
