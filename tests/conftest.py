import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


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
