"""The judging cascade: the encoder decides where its evidence is strong, the local reader where the encoder is
unsure, and where neither is sure the answer says "unsure" instead of being rounded to a side.

For a yes/no question of kind ``k`` with encoder probability ``p``:

* ``p`` outside the encoder's unsure band of ``k`` (:data:`ENCODER_BANDS`, ``low < p < high``): the encoder decides,
  P = p, tier ``encoder``;
* else, when a reader is there and answers: its P(yes) ``r`` is calibrated together with the encoder's ``p``,
  ``q = sigmoid(a + b * logit(r) + c * logit(p))`` (:data:`READER_CALIBRATION`: the reader's first-token
  probabilities lean to one side, and the calibration puts the cut where the two separate best on blind-dev), and
  when ``q`` is outside the reader's unsure band the reader decides, P = q, tier ``reader``;
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


def _logit(p: float) -> float:
    p = min(1.0 - 1e-4, max(1e-4, p))
    return math.log(p / (1.0 - p))


@dataclass(frozen=True)
class Calibration:
    """``sigmoid(a + b * logit(r) + c * logit(p))`` of the reader's P(yes) ``r`` and the encoder's ``p`` (the
    encoder's unsure answer still carries some evidence), and the band where that is still unsure."""

    a: float
    b: float
    band: Band
    c: float = 0.0

    def __call__(self, r: float, p: float = 0.5) -> float:
        z = self.a + self.b * _logit(r) + self.c * _logit(p)
        return 1.0 / (1.0 + math.exp(-z))


# Provenance of the constants below (blind-dev only; 2026-12-01/02; reader Qwen2.5-Coder-1.5B-Instruct Q4_K_M, first
# token's log-probabilities): the units were collected with
#   python training/cascade_fit.py --metric M --reader /work/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \
#       --reader-cache C.jsonl --units U.json
# over training/blind/rel/*.blind_dev.jsonl and training/blind/dev2/rel/*.blind_dev.jsonl, and the bands and the
# calibration read from  python training/cascade_fit.py --from-units U.json ...  (answer statements: first set +
# dev2, 438 units; context statements: dev2, 163; claims: first set, 142, fitted with c = 0 (the three-parameter
# fit, c = -4.6 on 53 read units, is an overfit); fact_stated: dev2, 120). Never tuned on a blind-test file.

#: where the encoder is unsure, per kind; chosen on blind-dev (training/cascade_fit.py: the first blind-dev set and
#: dev2; dev2 weighs most where the encoder was recalibrated on the first set)
ENCODER_BANDS: dict[str, Band] = {
    # answer statements, blind-dev 438 (dev2 192): encoder alone 0.804 (0.719); cascade 0.852 (0.797), 27% read
    K.STATEMENT_RELEVANT: Band(0.3, 0.8),
    # context statements, dev2 163: encoder alone 0.687; cascade 0.81, 54% read
    K.CONTEXT_STATEMENT_RELEVANT: Band(0.1, 0.8),
    K.CONTEXT_NODE_RELEVANT: Band(0.1, 0.8),
    K.CLAIM_SUPPORTED: Band(0.2, 0.8),
    # contradiction: the encoder only rules it out (a supported claim, P <= 0.2); the rest is the reader's
    K.CLAIM_CONTRADICTED: Band(0.2, 1.0),
    # fact stated in a passage, dev2 120: encoder alone 0.733; cascade 0.85, 69% read
    K.FACT_STATED: Band(0.05, 0.95),
    PROBE_STATED: Band(0.0, 1.0),
    # blind-dev (first set) keeps/forgets per encoder P: 0.387 "no evidence of forgetting" 64/40 (the encoder's
    # keep, as before); 0.46 "another name or number near a fact" 27/23 and 29/25: unsure (the reader's);
    # named evidence 0.556 7/9, 0.684 11/25, 0.71 4/11, >= 0.875 1/13: the encoder's forgets, as before
    K.TURN_ATTRITION: Band(0.4, 0.55),
    K.TURN_FORGETS: Band(0.4, 0.55),
    K.TURN_REASKS: Band(0.4, 0.55),
}

_READER_UNSURE = Band(0.45, 0.55)

#: kinds whose "yes" the encoder never decides (it can only rule one out: ``claim_contradicted``): an answer that
#: needs their "yes" rests on the local reader, so the engine refuses a question only they answer without one
READER_DECIDES_YES = frozenset({K.CLAIM_CONTRADICTED})

#: the reader's calibration (a, b, c) and unsure band, per kind (fitted on the blind-dev units the reader answered)
READER_CALIBRATION: dict[str, Calibration] = {
    K.STATEMENT_RELEVANT: Calibration(0.649, 1.098, _READER_UNSURE, 0.689),
    K.CONTEXT_STATEMENT_RELEVANT: Calibration(1.86, 1.878, _READER_UNSURE, -0.209),
    K.CONTEXT_NODE_RELEVANT: Calibration(1.86, 1.878, _READER_UNSURE, -0.209),
    K.CLAIM_SUPPORTED: Calibration(-1.206, 2.916, _READER_UNSURE),
    K.FACT_STATED: Calibration(-1.462, 1.386, _READER_UNSURE),
    # PROBE_STATED (the memory judge's "does the memory answer this probe?") has no calibration: its blind-dev
    # measurement (the whole transcript read per probe, ~2,500 prompt tokens per memory) did not finish on the
    # shared 2-core machine, so the reader is not asked and such probes stay unsure. The turn kinds have none
    # either: on blind-dev turns the reader's P(forgets) ranked no better than chance (AUROC 0.50-0.56 for three
    # prompt variants on 33 turns, 0.34 for a "reply against the facts" form on the 37 turns the encoder is unsure of).
    # CLAIM_CONTRADICTED has none either (h-contra, 2026-12-07, bench/RESULTS.md): on the blind v3 blind-dev units
    # the encoder could not rule out (47 Faithfulness claims, 33 Hallucination documents) the reader's P(contradicted)
    # ranked contradicted units BELOW chance (AUROC 0.27 / 0.35: it says yes to text that matches the source), so
    # the reader is never asked it: Faithfulness' unsupported claims stay idk and Hallucination refuses offline.
}


def needs_reader(kind: str | None, p: float) -> bool:
    """True when the encoder is unsure of its answer ``p`` to a question of ``kind``."""
    band = ENCODER_BANDS.get(kind or "")
    return band is not None and band.unsure(p)


def reader_reads(kind: str | None) -> bool:
    """True when the reader's answers to ``kind`` are used (a calibration was fitted on blind-dev): a kind the
    reader could not separate there is never sent to it, and its unsure answers stay unsure."""
    return (kind or "") in READER_CALIBRATION


def settle(kind: str | None, p: float, reader_p: float | None) -> tuple[float, str]:
    """``(P(yes), tier)`` of one yes/no answer (see module docstring); ``reader_p`` is None when the reader was not
    asked or gave no answer."""
    if not needs_reader(kind, p):
        return p, ENCODER
    calibration = READER_CALIBRATION.get(kind or "")
    if reader_p is None or calibration is None:
        return p, UNSURE
    q = calibration(reader_p, p)
    if not calibration.band.unsure(q):
        return q, READER
    return (p + q) / 2.0, UNSURE
