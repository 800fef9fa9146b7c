"""Re-export of :mod:`deepeval.judge_eval.stats` (the one implementation) for the training scripts."""

from deepeval.judge_eval.stats import accuracy, auroc, brier, ece, reliability, summary

__all__ = ["accuracy", "auroc", "brier", "ece", "reliability", "summary"]
