"""Integrations with other tools (the pytest plugin)."""
