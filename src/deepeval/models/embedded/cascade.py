"""The judging cascade: the encoder decides where its evidence is strong, the local reader where the encoder is
unsure, and where neither is sure the answer says "unsure" instead of being rounded to a side.

For a yes/no question of kind ``k`` with encoder probability ``p``:

* ``p`` outside the encoder's unsure band of ``k`` (:data:`ENCODER_BANDS`, ``low < p < high``): the encoder decides,
  P = p, tier ``encoder``;
* else, when a reader is there and answers: its P(yes) ``r`` is calibrated, ``q = sigmoid(a + b * logit(r))``
  (:data:`READER_CALIBRATION`: the reader's first-token probabilities lean to one side, and the calibration
  puts its own cut where it separates best), and when ``q`` is outside the reader's unsure band the reader decides,
  P = q, tier ``reader``;
* else tier ``unsure``, P = the mean of the stages' probabilities (p, and q when the reader answered).

Bands and calibrations were chosen on the blind-dev sets only (``training/cascade_fit.py`` prints the tables).
A kind without a band is always decided by the encoder (the whole-metric kinds, for instance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from deepeval.models.system_one import kinds as K

ENCODER = "encoder"
READER = "reader"
UNSURE = "unsure"
TIERS = (ENCODER, READER, UNSURE)

#: the memory judge's "does the memory state the answer to this probe?" (kind ``fact_stated`` asked with a
#: question): its own band and calibration
PROBE_STATED = f"{K.FACT_STATED}/question"
#: the encoder's P for a question it cannot answer at all (retrieval finds an on-topic passage whether or not it
#: answers the probe): always in the unsure band, so the reader decides when there is one
ENCODER_CANNOT_TELL = 0.5


@dataclass(frozen=True)
class Band:
    """P(yes) strictly between ``low`` and ``high`` is unsure."""

    low: float
    high: float

    def unsure(self, p: float) -> bool:
        return self.low < p < self.high


@dataclass(frozen=True)
class Calibration:
    """``sigmoid(a + b * logit(r))`` of the reader's P(yes) ``r``, and the band where that is still unsure."""

    a: float
    b: float
    band: Band

    def __call__(self, r: float) -> float:
        r = min(1.0 - 1e-6, max(1e-6, r))
        z = self.a + self.b * math.log(r / (1.0 - r))
        return 1.0 / (1.0 + math.exp(-z))


#: where the encoder is unsure, per kind (blind-dev)
ENCODER_BANDS: dict[str, Band] = {
    K.STATEMENT_RELEVANT: Band(0.35, 0.65),
    K.CONTEXT_STATEMENT_RELEVANT: Band(0.35, 0.65),
    K.CONTEXT_NODE_RELEVANT: Band(0.35, 0.65),
    K.CLAIM_SUPPORTED: Band(0.35, 0.65),
    K.FACT_STATED: Band(0.35, 0.65),
    PROBE_STATED: Band(0.0, 1.0),
    K.TURN_ATTRITION: Band(0.35, 0.65),
    K.TURN_FORGETS: Band(0.35, 0.65),
    K.TURN_REASKS: Band(0.35, 0.65),
}

#: the reader's calibration and unsure band, per kind (blind-dev)
READER_CALIBRATION: dict[str, Calibration] = {
    K.STATEMENT_RELEVANT: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.CONTEXT_STATEMENT_RELEVANT: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.CONTEXT_NODE_RELEVANT: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.CLAIM_SUPPORTED: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.FACT_STATED: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    PROBE_STATED: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.TURN_ATTRITION: Calibration(0.0, 1.0, Band(0.35, 0.65)),
    K.TURN_FORGETS: Calibration(0.0, 1.0, Band(0.35, 0.65)),
}


def needs_reader(kind: str | None, p: float) -> bool:
    """True when the encoder is unsure of its answer ``p`` to a question of ``kind``."""
    band = ENCODER_BANDS.get(kind or "")
    return band is not None and band.unsure(p)


def settle(kind: str | None, p: float, reader_p: float | None) -> tuple[float, str]:
    """``(P(yes), tier)`` of one yes/no answer (see module docstring); ``reader_p`` is None when the reader was not
    asked or gave no answer."""
    if not needs_reader(kind, p):
        return p, ENCODER
    calibration = READER_CALIBRATION.get(kind or "")
    if reader_p is None or calibration is None:
        return p, UNSURE
    q = calibration(reader_p)
    if not calibration.band.unsure(q):
        return q, READER
    return (p + q) / 2.0, UNSURE
