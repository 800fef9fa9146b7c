"""The package version, in a module that imports nothing (``deepeval.__version__`` re-exports it), so a module
that needs it -- the cache key, ``deepeval --version`` -- need not import the ``deepeval`` package itself."""

__version__: str = "0.1.0"
