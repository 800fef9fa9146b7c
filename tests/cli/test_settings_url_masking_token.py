"""A token carried as the user name of a base URL (``https://TOKEN@host/...``, the form git hosts
and many proxies use). Judge errors drop the whole userinfo; `deepeval settings` still prints it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


def test_settings_masks_a_token_carried_as_url_user_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
    monkeypatch.setenv("LOCAL_MODEL_NAME", "m")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", "http://tok_QS7@127.0.0.1:9/v1")
    result = CliRunner().invoke(app, ["settings"])
    assert result.exit_code == 0, result.output
    assert "127.0.0.1:9" in result.output
    assert "tok_QS7" not in result.output
