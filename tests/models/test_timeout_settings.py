"""Judge timeout settings. RetryPolicy requires a timeout > 0; timeout=0 as an argument is refused."""

from __future__ import annotations

import pytest

from _support.markers import REGRESSION
from deepeval.errors import ConfigurationError
from deepeval.models import LocalModel

pytestmark = REGRESSION


def test_timeout_zero_argument_is_refused() -> None:
    """Held up: the argument form."""
    with pytest.raises(ConfigurationError, match="> 0"):
        LocalModel(model="m", base_url="http://127.0.0.1:9/v1", timeout=0)


def test_timeout_zero_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_JUDGE_TIMEOUT", "0")
    with pytest.raises(ConfigurationError, match="> 0"):
        LocalModel(model="m", base_url="http://127.0.0.1:9/v1")
