"""``deepeval test run`` hands its options to ``assert_test`` and the plugin through one mechanism
(:class:`TestRunOptions`): what ``hand_off`` writes, ``read`` gives back, through the settings reader."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deepeval.config.test_run_options import FLAG_KEYS, TestRunOptions
from deepeval.errors import ConfigurationError

KEYS = [*FLAG_KEYS.values(), "DEEPEVAL_REPEAT", "DEEPEVAL_TEST_RUN_DISPLAY", "DEEPEVAL_TEST_RUN_IDENTIFIER",
        "DEEPEVAL_BACKEND", "DEEPEVAL_RAY_ADDRESS"]  # fmt: skip


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ENV_DIR_PATH", raising=False)
    monkeypatch.delenv("DEEPEVAL_DISABLE_DOTENV", raising=False)
    for key in KEYS:
        monkeypatch.setenv(key, "placeholder")  # restored by monkeypatch whatever hand_off does
        monkeypatch.delenv(key)
    return tmp_path


def test_what_is_handed_off_is_read_back(clean: Path) -> None:
    given = TestRunOptions(use_cache=True, ignore_errors=True, skip_on_missing_params=True, verbose_mode=True,
                           show_full_reason=True, repeat="3", display="failing", identifier="nightly",
                           backend="ray", ray_address="ray://head:10001")  # fmt: skip
    given.hand_off()
    assert TestRunOptions.read() == given
    assert {k: os.environ.get(k) for k in KEYS} == {
        **dict.fromkeys(FLAG_KEYS.values(), "1"), "DEEPEVAL_REPEAT": "3", "DEEPEVAL_TEST_RUN_DISPLAY": "failing",
        "DEEPEVAL_TEST_RUN_IDENTIFIER": "nightly", "DEEPEVAL_BACKEND": "ray", "DEEPEVAL_RAY_ADDRESS": "ray://head:10001",
    }  # fmt: skip


def test_defaults_remove_what_a_previous_run_set_and_leave_dotenv_flags_on(clean: Path) -> None:
    TestRunOptions(use_cache=True, identifier="x", ray_address="ray://a:1").hand_off()
    (clean / ".env").write_text("DEEPEVAL_IGNORE_ERRORS=1\nDEEPEVAL_REPEAT=5\n")
    TestRunOptions().hand_off()
    assert [k for k in KEYS if k in os.environ] == [
        "DEEPEVAL_REPEAT", "DEEPEVAL_TEST_RUN_DISPLAY", "DEEPEVAL_BACKEND",
    ]  # fmt: skip
    read = TestRunOptions.read()
    assert read.ignore_errors is True  # an option the run left off: the .env file still turns it on
    assert (
        read.repeat == "1"
        and read.use_cache is False
        and read.identifier is None
        and read.ray_address is None
    )


def test_read_normalises_and_repeat_count_names_a_bad_value(clean: Path) -> None:
    (clean / ".env").write_text(
        "DEEPEVAL_BACKEND= Ray \nDEEPEVAL_TEST_RUN_DISPLAY=PASSING\nDEEPEVAL_REPEAT=three\n"
    )
    read = TestRunOptions.read()
    assert (read.backend, read.display, read.repeat) == ("ray", "passing", "three")
    with pytest.raises(ConfigurationError, match="DEEPEVAL_REPEAT must be an integer >= 1, got 'three'"):
        read.repeat_count()
    assert TestRunOptions(repeat="2").repeat_count() == 2
