"""What this package is, for code that asks.

``deepeval.__version__`` is ``"4.3.1+oss.0.1.0"``: the deepeval API this package implements (4.3.1, so a version
check written for deepeval compares as it would for 4.3.1) and, after ``+oss.``, the version of the distribution
that provides it, deepeval-oss (a PEP 440 local label: no deepeval release on a package index carries one, so the
string never passes for PyPI's deepeval). The distribution's own version (pyproject) is :data:`OSS_VERSION`.
"""

from __future__ import annotations

#: the distribution (``pip install deepeval-oss``; ``importlib.metadata.version("deepeval-oss")``)
DISTRIBUTION = "deepeval-oss"
#: its version (read by pyproject.toml)
OSS_VERSION = "0.1.0"
#: the deepeval release whose API and behaviour this package follows
API_VERSION = "4.3.1"

__version__ = f"{API_VERSION}+oss.{OSS_VERSION}"
