"""Per-kind calibrated logistic models of the embedded judge, loaded from the shipped coefficient file.

The file ``data/embedded_judge.json`` is written by ``training/train_embedded.py``: for each model id it holds the
feature names, their training mean and standard deviation, logistic-regression weights and bias, and a Platt
scaling pair ``(a, c)`` fitted on out-of-fold scores. ``P(yes) = sigmoid(a * (w . z + b) + c)`` with
``z = (x - mean) / std`` (Platt 1999, "Probabilistic outputs for support vector machines"). Probabilities are clipped
to [0.005, 0.995]: the judge is never fully certain.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

P_MIN, P_MAX = 0.005, 0.995
DATA_FILE = "embedded_judge.json"


@dataclass(frozen=True)
class CalibratedModel:
    """One fitted model: see the module docstring for the formula."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    platt_a: float = 1.0
    platt_c: float = 0.0

    def logit(self, feats: dict[str, float]) -> float:
        """Uncalibrated score ``w . z + b``; a feature missing from ``feats`` counts as its training mean."""
        total = self.bias
        for name, mu, sd, w in zip(self.features, self.mean, self.std, self.weights, strict=True):
            x = feats.get(name, mu)
            total += w * (x - mu) / (sd or 1.0)
        return total

    def probability(self, feats: dict[str, float]) -> float:
        """Calibrated P(yes) in [0.005, 0.995]."""
        z = self.platt_a * self.logit(feats) + self.platt_c
        p = 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))
        return min(P_MAX, max(P_MIN, p))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CalibratedModel:
        return cls(
            features=tuple(d["features"]),
            mean=tuple(float(x) for x in d["mean"]),
            std=tuple(float(x) for x in d["std"]),
            weights=tuple(float(x) for x in d["weights"]),
            bias=float(d["bias"]),
            platt_a=float(d.get("platt", [1.0, 0.0])[0]),
            platt_c=float(d.get("platt", [1.0, 0.0])[1]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "mean": list(self.mean),
            "std": list(self.std),
            "weights": list(self.weights),
            "bias": self.bias,
            "platt": [self.platt_a, self.platt_c],
        }


@lru_cache(maxsize=1)
def load_models() -> dict[str, CalibratedModel]:
    """Model id -> :class:`CalibratedModel` from the shipped file (read once).

    Raises:
        FileNotFoundError: the coefficient file is missing from the installation.
    """
    raw = resources.files("deepeval.models.embedded").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    doc = json.loads(raw)
    return {kind: CalibratedModel.from_dict(d) for kind, d in doc["models"].items()}


def get_model(model_id: str) -> CalibratedModel:
    """The model for ``model_id`` (e.g. ``"statement_relevant"``).

    Raises:
        KeyError: no model with that id was shipped.
    """
    models = load_models()
    if model_id not in models:
        raise KeyError(f"the embedded judge has no calibrated model {model_id!r}")
    return models[model_id]


RECALIBRATION_FILE = "blind_calibration.json"


@lru_cache(maxsize=1)
def load_recalibrations() -> dict[str, CalibratedModel]:
    """Second-stage models fitted on the blind-dev sets by ``training/calibrate_blind.py`` (kind -> model over the
    first stage's logit ``z``, the named relevance rules and ``z_weak`` = ``z`` when the statement shares no content
    word with the request); ``{}`` when the file is not shipped."""
    path = resources.files("deepeval.models.embedded").joinpath("data", RECALIBRATION_FILE)
    if not path.is_file():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {kind: CalibratedModel.from_dict(d) for kind, d in doc["models"].items()}


@lru_cache(maxsize=1)
def share_ramp() -> float | None:
    """The item-score ramp margin chosen on blind-dev by ``training/calibrate_blind.py`` (None when not shipped)."""
    path = resources.files("deepeval.models.embedded").joinpath("data", RECALIBRATION_FILE)
    if not path.is_file():
        return None
    margin = json.loads(path.read_text(encoding="utf-8")).get("share_ramp")
    return None if margin is None else float(margin)


def share_weight(p: float) -> float | None:
    """A statement's weight in a share score: 0 for ``p`` up to the ramp margin ``m``, 1 from ``1 - m``, linear
    between, so confident verdicts count whole and unsure ones in part (the mean of calibrated probabilities is the
    expected share; the ramp keeps 0 and 1 reachable). None without a shipped margin (count verdicts)."""
    m = share_ramp()
    if m is None:
        return None
    return min(1.0, max(0.0, (p - m) / (1.0 - 2.0 * m)))


def logit(p: float) -> float:
    """``log(p / (1 - p))`` of a probability clipped to [P_MIN, P_MAX]."""
    q = min(P_MAX, max(P_MIN, p))
    return math.log(q / (1.0 - q))


def recalibrated(kind: str, p: float, rules: dict[str, float]) -> float:
    """``p`` through the blind recalibration of ``kind`` (unchanged when none is shipped)."""
    model = load_recalibrations().get(kind)
    if model is None:
        return p
    z = logit(p)
    return model.probability({"z": z, "z_weak": z * rules.get("weak", 0.0), **rules})
