"""HTTP plumbing shared by both judge-client families (:mod:`deepeval.models.llms`, OpenAI-compatible chat
completions, and :mod:`deepeval.models.system_one`, TypeSafe's System One API), which keep only their wire formats:

* :mod:`~deepeval.models.http.secrets`: ``Secret`` (API keys), ``check_base_url``;
* :mod:`~deepeval.models.http.transport`: transport choice (aiohttp or httpx), the transport-error classes;
* :mod:`~deepeval.models.http.errors`: the one mapping of transport errors, HTTP statuses and reply bodies to
  ``JudgeError`` kinds (with redaction before truncation), and the int parsing of replies;
* :mod:`~deepeval.models.http.per_loop`: one async client per event loop, shared by judges of one configuration;
* :mod:`~deepeval.models.http.retry`: retry policy, ``call_with_retries``;
* :mod:`~deepeval.models.http.rate_limit`: the adaptive limiter of requests in flight;
* :mod:`~deepeval.models.http.tls`: the process-wide TLS context.

Nothing here imports ``llms`` or ``system_one`` (checked by ``tests/models/test_import_rules.py``).
"""
