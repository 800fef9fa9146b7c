"""Helpers shared by the tests of several areas (imported as ``_support.<module>``; ``tests/conftest.py`` keeps
``tests/`` on ``sys.path``)."""
