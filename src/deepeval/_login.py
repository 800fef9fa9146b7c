"""``deepeval.login(api_key)``: Confident AI log-in, a warned no-op here (there is no cloud backend).

Test files call it at import, so it must not stop them: a well-formed key gets one ``UserWarning`` per process and
is neither stored nor sent anywhere; a missing or empty key is the ``ValueError`` deepeval raises.
"""

from __future__ import annotations

import warnings

_warned = False


def login(api_key: str) -> None:
    """Accept a Confident AI key and do nothing with it (results stay local); warn once per process.

    Raises:
        ValueError: ``api_key`` is not a non-empty string.
    """
    global _warned
    if not isinstance(api_key, str) or not api_key.strip():
        raise ValueError("deepeval.login() needs a non-empty API key string")
    if not _warned:
        _warned = True
        warnings.warn(
            "deepeval.login(): Confident AI is not part of this implementation; the key is ignored (neither "
            "stored nor sent) and results stay local.",
            UserWarning,
            stacklevel=2,
        )
