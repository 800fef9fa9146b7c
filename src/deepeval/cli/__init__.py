"""The ``deepeval`` command line."""
