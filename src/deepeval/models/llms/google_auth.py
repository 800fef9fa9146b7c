"""OAuth access tokens for Vertex AI (``GeminiModel(use_vertexai=True)``), on our HTTP stack.

Two kinds of Google credentials, read from a JSON document (``service_account_key=``,
``GOOGLE_SERVICE_ACCOUNT_KEY``, else the Application Default Credentials file: ``GOOGLE_APPLICATION_CREDENTIALS`` or
gcloud's ``~/.config/gcloud/application_default_credentials.json``):

* ``"type": "service_account"``: a JWT signed with the account's RSA key (``google-auth``'s signer: the ``vertex``
  extra, ``pip install -e ".[vertex]"``) exchanged at its ``token_uri`` (the JWT bearer grant, RFC 7523);
* ``"type": "authorized_user"`` (``gcloud auth application-default login``): its refresh token exchanged at
  ``token_uri`` (default Google's), no extra needed.

A token is cached until a minute before it expires. Every secret of the document (private key, refresh token,
client secret) and every token is registered for redaction; a refused exchange is a ``JudgeError`` of kind ``auth``
that names where the credentials came from, never their content.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import time
from pathlib import Path
from typing import Any

import httpx

from deepeval._install import extra_install_command
from deepeval.config.environment import process_env
from deepeval.config.redaction import register_secret
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.errors import read_json, status_error, transport_error
from deepeval.models.http.json_client import error_detail
from deepeval.models.http.reply_limit import capped_event_hooks

SCOPE = "https://www.googleapis.com/auth/cloud-platform"
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
#: seconds before expiry a token is refreshed
_MARGIN = 60.0


def load_credentials(value: str | dict[str, Any] | None) -> tuple[dict[str, Any], str]:
    """The credentials document and where it came from: ``value`` (JSON text or a dict), else the Application
    Default Credentials file.

    Raises:
        ConfigurationError: none found, not JSON, or of a type other than service_account / authorized_user.
    """
    source = "service_account_key / GOOGLE_SERVICE_ACCOUNT_KEY"
    if value is None:
        path_text = process_env("GOOGLE_APPLICATION_CREDENTIALS")
        path = (
            Path(path_text)
            if path_text
            else Path.home() / ".config" / "gcloud" / "application_default_credentials.json"
        )
        if not path.is_file():
            raise ConfigurationError(
                "Vertex AI needs Google credentials: pass service_account_key=, set GOOGLE_SERVICE_ACCOUNT_KEY "
                "(deepeval set-gemini -S key.json --save dotenv), or run gcloud auth application-default login"
            )
        source = str(path)
        value = path.read_text(encoding="utf-8")
    try:
        info = json.loads(value) if isinstance(value, str) else dict(value)
    except ValueError:
        raise ConfigurationError(f"the Google credentials in {source} are not JSON") from None
    kind = info.get("type")
    if kind not in ("service_account", "authorized_user"):
        raise ConfigurationError(
            f"the Google credentials in {source} are of type {kind!r}; service_account or authorized_user needed"
        )
    for field in ("private_key", "refresh_token", "client_secret"):
        register_secret(info.get(field))
    return info, source


class GoogleTokens:
    """Access tokens for one credentials document (see the module docstring)."""

    def __init__(self, info: dict[str, Any], source: str, *, timeout: float) -> None:
        self.info = info
        self.source = source
        self.timeout = timeout
        self._token: str | None = None
        self._expires = 0.0
        self._lock: asyncio.Lock | None = None
        if info.get("type") == "service_account":
            self._signer()  # a missing extra is an error when the judge is built, not at the first call

    async def token(self, model: str) -> str:
        """A valid access token (refreshed when it expires within a minute)."""
        if self._token is not None and time.time() < self._expires - _MARGIN:
            return self._token
        if self._lock is None:
            self._lock = asyncio.Lock()
        try:
            async with self._lock:
                if self._token is None or time.time() >= self._expires - _MARGIN:
                    await self._refresh(model)
        except RuntimeError:  # the lock belongs to another (closed) event loop: refresh without it
            self._lock = None
            await self._refresh(model)
        assert self._token is not None
        return self._token

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_lock"] = None
        return state

    async def _refresh(self, model: str) -> None:
        uri = str(self.info.get("token_uri") or GOOGLE_TOKEN_URI)
        form = self._grant()
        label = f"judge {model}"
        try:
            async with httpx.AsyncClient(timeout=self.timeout, event_hooks=capped_event_hooks()) as client:
                resp = await client.post(uri, data=form)
        except Exception as exc:
            mapped = transport_error(exc, label=label, model=model, base_url=uri, timeout=self.timeout)
            if mapped is None:
                raise
            raise mapped from None
        if resp.status_code != 200:
            detail, code = error_detail(resp)
            err = status_error(resp.status_code, model=model, detail=detail, headers=resp.headers, code=code)
            if resp.status_code in (
                400,
                401,
                403,
            ):  # invalid_grant, a revoked key: the credentials are refused
                raise JudgeError(
                    f"{label}: Google refused the credentials from {self.source} ({err})",
                    model=model,
                    kind=ErrorKind.auth,
                ) from None
            raise err
        data = read_json(resp.content, label=label, model=model, base_url=uri, status=resp.status_code)
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise JudgeError(
                f"{label}: the token reply has no access_token", model=model, kind=ErrorKind.auth
            )
        register_secret(token)
        self._token = token
        self._expires = time.time() + float(data.get("expires_in") or 3600)

    def _grant(self) -> dict[str, str]:
        info = self.info
        if info["type"] == "authorized_user":
            return {
                "grant_type": "refresh_token",
                "client_id": str(info.get("client_id") or ""),
                "client_secret": str(info.get("client_secret") or ""),
                "refresh_token": str(info.get("refresh_token") or ""),
            }
        jwt = importlib.import_module("google.auth.jwt")
        now = int(time.time())
        payload = {
            "iss": info.get("client_email"),
            "scope": SCOPE,
            "aud": str(info.get("token_uri") or GOOGLE_TOKEN_URI),
            "iat": now,
            "exp": now + 3600,
        }
        assertion = jwt.encode(self._signer(), payload)
        text = assertion.decode() if isinstance(assertion, bytes) else str(assertion)
        return {"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": text}

    def _signer(self) -> Any:
        try:
            crypt = importlib.import_module("google.auth.crypt")
        except ImportError as exc:
            raise ImportError(
                f"Vertex AI with a service account key needs google-auth: {extra_install_command('vertex')}"
            ) from exc
        try:
            return crypt.RSASigner.from_service_account_info(self.info)
        except (ValueError, KeyError) as exc:
            raise ConfigurationError(
                f"the service account key from {self.source} cannot sign ({type(exc).__name__})"
            ) from None
