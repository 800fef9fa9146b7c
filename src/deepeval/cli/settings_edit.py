"""deepeval 4.3.1's settings editors: ``deepeval settings -l/--list [FILTER...]``, ``--set KEY=VALUE`` (``-u``),
``--unset NAME`` (``-U``), with ``--save dotenv[:path]`` / ``--quiet``; and ``deepeval set-debug`` (``--log-level``,
``--verbose/--no-verbose``, ``--save``, ``--quiet``) / ``deepeval unset-debug`` (``--save``, ``--quiet``).

As in 4.3.1, a change is persisted only where ``--save`` says (default file of ``--save=dotenv``: ``.env.local``);
without ``--save`` nothing is written and a note says so (4.3.1 changes only the command's own process, which
then exits). The keys are ours (:data:`~deepeval.config.settings.KNOWN_KEYS`): an unknown one is refused (exit 2,
4.3.1's ``Unknown setting: 'NAME'``). ``LOG_LEVEL`` is stored as its number (``DEBUG`` -> ``10``), as 4.3.1 stores
it, and sets the level of the ``deepeval`` logger when deepeval is imported.
"""

from __future__ import annotations

from pathlib import Path

import typer

from deepeval.cli._echo import echo
from deepeval.cli.app import app
from deepeval.config.settings import KNOWN_KEYS, get_settings, parse_log_level

#: what ``set-debug`` sets and ``unset-debug`` removes (4.3.1's set-debug also has gRPC, retry-log and Confident AI
#: tracing options, which have nothing to act on here and are not offered)
DEBUG_KEYS = ("LOG_LEVEL", "DEEPEVAL_VERBOSE_MODE")


def _unknown(name: str, option: str) -> typer.BadParameter:
    return typer.BadParameter(f"Unknown setting: {name!r}", param_hint=option)


def parse_assignments(items: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` items (``--set``) as a dict; the key matched case-insensitively against the known keys.

    Raises:
        typer.BadParameter: no ``=``, or an unknown key.
    """
    by_upper = {k.upper(): k for k in KNOWN_KEYS}
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--set")
        key = by_upper.get(name.strip().upper())
        if key is None:
            raise _unknown(name.strip(), "--set")
        out[key] = str(parse_log_level(value)) if key == "LOG_LEVEL" else value
    return out


def matching_keys(terms: list[str], option: str = "--unset") -> list[str]:
    """The known keys each term names: the key itself, else every key holding the term (case-insensitive).

    Raises:
        typer.BadParameter: a term that names no key.
    """
    found: list[str] = []
    for term in terms:
        upper = term.strip().upper()
        keys = [k for k in KNOWN_KEYS if k == upper] or [k for k in KNOWN_KEYS if upper and upper in k]
        if not keys:
            raise _unknown(term, option)
        found += [k for k in keys if k not in found]
    return found


def list_settings(filters: list[str]) -> None:
    """``deepeval settings -l [FILTER...]``: every known key holding one of the filters (all without one), its
    value (secrets masked) and what it means."""
    from deepeval.cli.settings_cmds import _display

    s = get_settings()
    secrets = s.secrets()
    terms = [f.upper() for f in filters if f.strip()]
    keys = [k for k in KNOWN_KEYS if not terms or any(t in k for t in terms)]
    if not keys:
        echo("No setting matches " + ", ".join(repr(f) for f in filters))
        return
    rows = [
        (k, _display(k, s.values[k], secrets) if s.get(k) is not None else "", KNOWN_KEYS[k]) for k in keys
    ]
    w1 = max(len(r[0]) for r in rows)
    w2 = min(max(len(r[1]) for r in rows), 40)
    echo(f"  {'Name':<{w1}}  {'Value':<{w2}}  Description")
    for key, value, meaning in rows:
        echo(f"  {key:<{w1}}  {value:<{w2}}  {meaning}")


def edit(values: dict[str, str], remove: list[str], save: str | None, quiet: bool, done: str) -> None:
    """Write ``values`` and remove ``remove`` in the ``--save`` target; without ``--save`` a note that nothing was
    written (deepeval 4.3.1 changes only its own process)."""
    from deepeval.cli.settings_cmds import _fail_cleanly, _remove, _target, _write

    if save is None:
        if not quiet:
            what = ", ".join([*values, *remove]) or "nothing"
            echo(
                f"Not saved ({what}): pass --save=dotenv[:path] to write the change to a dotenv file (default "
                ".env.local); settings are read from there by the next command."
            )
        return
    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        _write(path, values, quiet)
        if remove:
            _remove(path, remove, quiet)
    if not quiet and done:
        echo(done)


SaveOpt = typer.Option(
    None, "--save", "-s", help="Write to 'dotenv' (.env.local) or 'dotenv:PATH'.", metavar="dotenv[:PATH]"
)
QuietOpt = typer.Option(False, "--quiet", "-q", help="Print nothing on success.")


@app.command("set-debug")
def set_debug(
    log_level: str | None = typer.Option(
        None,
        "--log-level",
        help="Level of the 'deepeval' logger: DEBUG|INFO|WARNING|ERROR|CRITICAL|NOTSET or a number.",
    ),
    verbose: bool | None = typer.Option(
        None, "--verbose/--no-verbose", help="DEEPEVAL_VERBOSE_MODE: verbose metric logs in assert_test."
    ),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Set debug options (LOG_LEVEL, DEEPEVAL_VERBOSE_MODE), as deepeval 4.3.1's set-debug; --save persists them."""
    values: dict[str, str] = {}
    if log_level is not None:
        try:
            values["LOG_LEVEL"] = str(parse_log_level(log_level))
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--log-level") from None
    if verbose is not None:
        values["DEEPEVAL_VERBOSE_MODE"] = "1" if verbose else "0"
    edit(values, [], save, quiet, "Debug options updated." if values else "")


@app.command("unset-debug")
def unset_debug(save: str | None = SaveOpt, quiet: bool = QuietOpt) -> None:
    """Remove the debug options (LOG_LEVEL, DEEPEVAL_VERBOSE_MODE) from the --save file."""
    if save is None:
        edit({}, list(DEBUG_KEYS), save, quiet, "")
        return
    from deepeval.cli.settings_cmds import _fail_cleanly, _target
    from deepeval.config.dotenv_file import unset_keys

    with _fail_cleanly():
        path = _target(save)
        assert path is not None
        removed = unset_keys(path, DEBUG_KEYS)
    if not quiet:
        shown = Path(path).name
        echo(
            f"Debug options unset (removed from {shown}: {', '.join(removed)})."
            if removed
            else f"No debug option set in {shown}."
        )


__all__ = ["DEBUG_KEYS", "edit", "list_settings", "matching_keys", "parse_assignments"]
