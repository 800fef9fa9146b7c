"""``deepeval`` CLI entry point: the app of :mod:`deepeval.cli.app`, each sub-command module registered."""

from __future__ import annotations

import importlib

from deepeval.cli.app import app

#: the sub-command modules, each adding its commands to ``app`` when imported
COMMAND_MODULES = (
    "deepeval.cli.settings_cmds",
    "deepeval.cli.test_run",
    "deepeval.cli.memory_cmds",
    "deepeval.cli.memory_run_cmds",
    "deepeval.cli.evaluate_cmd",
    "deepeval.cli.compare_cmd",
    "deepeval.cli.judge_eval_cmd",
    "deepeval.cli.quickstart",
    "deepeval.cli.view_cmd",
    "deepeval.cli.generate_cmd",
)


def _register() -> None:
    # a missing optional module must not break the others
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise


_register()

__all__ = ["app"]

if __name__ == "__main__":
    # run as ``python -m deepeval.cli.main``: the command modules register on the imported module's app, not on
    # this __main__ copy of it
    from deepeval.cli.main import app as registered_app

    registered_app()
