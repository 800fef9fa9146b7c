"""Fixtures shared by every area. Keeps ``tests/`` on ``sys.path`` (this conftest's folder), so that any test
imports the shared helpers as ``_support.<module>``.

``regression_env``: the environment of a regression test (see ``tests/_support/markers.py``): it runs in its own
folder with no dotenv files and no deepeval settings from the developer's environment, so the embedded offline
judge is the default and nothing is cached across tests."""

from __future__ import annotations

import signal

import pytest

# A test run started in the background by a non-interactive shell inherits SIGINT ignored, and every subprocess a
# test interrupts would inherit that too (Python keeps an ignored SIGINT: no KeyboardInterrupt). Python's own handler
# is reset to the default in a child, so the Ctrl-C tests see what a user at a terminal sees however pytest started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

_KEYS = (
    "OPENAI_API_KEY",
    "TYPESAFE_API_KEY",
    "USE_LOCAL_MODEL",
    "LOCAL_MODEL_BASE_URL",
    "DEEPEVAL_EVAL_MODE",
    "DEEPEVAL_RESULTS_FOLDER",
    "DEEPEVAL_CACHE_PATH",
    "DEEPEVAL_USE_CACHE",
    "DEEPEVAL_IGNORE_ERRORS",
    "DEEPEVAL_SKIP_ON_MISSING_PARAMS",
    "DEEPEVAL_VERBOSE_MODE",
    "DEEPEVAL_REPEAT",
)


@pytest.fixture
def regression_env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    for key in _KEYS:
        monkeypatch.delenv(key, raising=False)


@pytest.fixture(autouse=True)
def _no_local_reader(request, monkeypatch):
    """The embedded judge's local reader is off unless a test is marked ``real_model`` (a developer's installed
    model must not change what the encoder-only tests assert)."""
    if request.node.get_closest_marker("real_model") is None:
        monkeypatch.setenv("DEEPEVAL_READER", "off")


@pytest.fixture(autouse=True)
def _registered_secrets_restored():
    """Secrets a test registers (a model's key, URL credentials) are process-wide by design; forget them after
    the test, so a test asserting what ``redact`` leaves alone does not depend on which tests ran before it."""
    from deepeval.config import redaction

    with redaction._lock:
        before = set(redaction._values)
    yield
    with redaction._lock:
        redaction._values.intersection_update(before)
        redaction._ordered = tuple(sorted(redaction._values, key=len, reverse=True))
