"""Credentials inside a configured base URL (userinfo password, ``api_key`` query parameter).
Judge errors already strip them ('could not connect to http://127.0.0.1:9/v1'); the settings commands print them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


URL = "http://admin:URLPASS777@127.0.0.1:9/v1?api_key=QSECRET888"


def test_settings_masks_credentials_in_base_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
    monkeypatch.setenv("LOCAL_MODEL_NAME", "m")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", URL)
    result = CliRunner().invoke(app, ["settings"])
    assert result.exit_code == 0, result.output
    assert "127.0.0.1:9" in result.output
    assert "URLPASS777" not in result.output
    assert "QSECRET888" not in result.output


def test_set_local_model_does_not_echo_url_password() -> None:
    result = CliRunner().invoke(app, ["set-local-model", "--model", "m", "--base-url", URL.split("?")[0]])
    assert result.exit_code == 0, result.output
    assert "URLPASS777" not in result.output


# ----------------------------------------------------------------------------------------------------------
# A token carried as the user name of a base URL (``https://TOKEN@host/...``, the form git hosts and many
# proxies use). Judge errors drop the whole userinfo; `deepeval settings` still prints it.


def test_settings_masks_a_token_carried_as_url_user_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
    monkeypatch.setenv("LOCAL_MODEL_NAME", "m")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", "http://tok_QS7@127.0.0.1:9/v1")
    result = CliRunner().invoke(app, ["settings"])
    assert result.exit_code == 0, result.output
    assert "127.0.0.1:9" in result.output
    assert "tok_QS7" not in result.output
