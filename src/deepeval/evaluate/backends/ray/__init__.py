"""The Ray backend (``evaluate(..., backend="ray")``), all in this package: :mod:`.backend` (``RayConfig``,
``run_on_ray``: plans blocks of test cases and drives them), :mod:`.block` (the per-block worker), :mod:`.limits`
(the cluster-wide judge rate limiter), :mod:`.cache` (block parts and their merge), :mod:`.pickle` (payload
pickling), :mod:`.options` (``RateLimit``). None of these modules imports ``ray`` at import time."""
