"""Offline training and evaluation of the embedded judge (not part of the installed package)."""
