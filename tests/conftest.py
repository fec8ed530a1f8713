import os

import pytest
from hypothesis import HealthCheck, settings

# CI (CI=true, as .ci/run is run) draws the same examples every run (derandomize): a submission's
# verdict must not depend on the draw; a developer's run draws new ones each time and finds more
# (seeds it finds go into the tests as regressions, as tests/test_seat_colossus_order.py does).
settings.register_profile(
    "default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("CI", "").lower() == "true",
)
settings.register_profile(
    "thorough", deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")

#: ``ADJUDICATOR_PROPERTY_SCALE=N``: every property test draws N times its examples, new ones each run
#: (never derandomized), even where the test sets its own ``max_examples`` (README, "The properties
#: with random draws"; ``--hypothesis-show-statistics`` prints how many ran)
_scale = os.environ.get("ADJUDICATOR_PROPERTY_SCALE", "1") or "1"
if not _scale.isdigit() or not 1 <= int(_scale) <= 1000:
    raise pytest.UsageError(f"ADJUDICATOR_PROPERTY_SCALE={_scale!r}: a whole number from 1 to 1000")
PROPERTY_SCALE = int(_scale)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if PROPERTY_SCALE == 1:
        return
    for item in items:
        fn = getattr(item, "obj", None)
        own = getattr(fn, "_hypothesis_internal_use_settings", None)
        if own is not None and not getattr(fn, "_adjudicator_scaled", False):  # once per function
            fn._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
                own, max_examples=own.max_examples * PROPERTY_SCALE, derandomize=False)
            fn._adjudicator_scaled = True  # type: ignore[union-attr]

# the browser suites skip where Debian's chromium is missing (a developer's machine); CI must run
# them: .ci/run sets ADJUDICATOR_REQUIRE_CHROMIUM, and then a missing browser fails the run at once
if os.environ.get("ADJUDICATOR_REQUIRE_CHROMIUM") and not os.path.exists("/usr/bin/chromium"):
    raise pytest.UsageError("ADJUDICATOR_REQUIRE_CHROMIUM is set (CI) but /usr/bin/chromium is missing")


@pytest.fixture(scope="session")
def toy():
    from tests.toygame import install

    return install()


# -- PostgreSQL: the store and web service suites run against SQLite and PostgreSQL both ---------

@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the session (tests/pg.py); skips without one."""
    from tests import pg

    yield from pg.start()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request):
    """Run a whole module once with SQLite stores and once with every SQLite store a test opens
    sent to a PostgreSQL database of its own (``pytestmark = pytest.mark.usefixtures("backend")``)."""
    if request.param == "sqlite":
        yield "sqlite"
        return
    from tests import pg

    server = request.getfixturevalue("pg_server")
    with pytest.MonkeyPatch.context() as mp:
        pg.as_postgres(mp, server)
        yield "postgres"
