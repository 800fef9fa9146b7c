"""Options of the Ray backend that must stay cheap to import (``import deepeval`` re-exports them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from deepeval.errors import ConfigurationError

#: key in ``RayConfig.rate_limits`` that applies to every judge without its own entry
ANY_JUDGE = "*"


@dataclass(frozen=True)
class RateLimit:
    """A limit for one judge across the whole cluster.

    ``requests_per_second``: sustained call rate (> 0), or None for no rate limit. ``burst``: calls that may start
    back to back before the rate applies (>= 1; 1 = evenly spaced). ``max_concurrent``: calls in flight at once
    over all workers (>= 1), or None. At least one of ``requests_per_second`` / ``max_concurrent`` must be set.
    """

    requests_per_second: float | None = None
    max_concurrent: int | None = None
    burst: int = 1

    def validate(self, judge: str) -> None:
        rps = self.requests_per_second
        if rps is not None and (
            isinstance(rps, bool) or not isinstance(rps, (int, float)) or not math.isfinite(rps) or rps <= 0
        ):
            raise ConfigurationError(
                f"RateLimit.requests_per_second for judge {judge!r} must be a number > 0 or None, got {rps!r}"
            )
        mc = self.max_concurrent
        if mc is not None and (isinstance(mc, bool) or not isinstance(mc, int) or mc < 1):
            raise ConfigurationError(
                f"RateLimit.max_concurrent for judge {judge!r} must be an integer >= 1 or None, got {mc!r}"
            )
        if isinstance(self.burst, bool) or not isinstance(self.burst, int) or self.burst < 1:
            raise ConfigurationError(
                f"RateLimit.burst for judge {judge!r} must be an integer >= 1, got {self.burst!r}"
            )
        if rps is None and mc is None:
            raise ConfigurationError(
                f"RateLimit for judge {judge!r} sets neither requests_per_second nor max_concurrent"
            )
