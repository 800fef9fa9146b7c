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
from deepeval.cli.settings_cmds import (
    _display,
    _fail_cleanly,
    _judges,
    _remove,
    _resolved_mode,
    _target,
    _write,
)
from deepeval.config.dotenv_file import DEFAULT_DOTENV, unset_keys
from deepeval.config.settings import (
    KNOWN_KEYS,
    dotenv_disabled,
    env_dir,
    get_settings,
    parse_log_level,
    redact,
)

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


# ---------------------------------------------------------------------------------------------------------------
# deepeval settings (here, beside its editors: the command shows the settings, or edits them with 4.3.1's options)


@app.command("settings")
def show_settings(
    filters: list[str] | None = typer.Argument(None, help="With --list: only keys holding one of these."),
    show_all: bool = typer.Option(False, "--all", help="Also list known keys that are not set."),
    set_: list[str] | None = typer.Option(
        None, "--set", "-u", help="KEY=VALUE to write (repeatable; needs --save)."
    ),
    unset: list[str] | None = typer.Option(
        None, "--unset", "-U", help="A key, or part of key names, to remove (repeatable; needs --save)."
    ),
    list_: bool = typer.Option(False, "--list", "-l", help="List the known settings (FILTER... narrows it)."),
    save: str | None = SaveOpt,
    quiet: bool = QuietOpt,
) -> None:
    """Print the resolved configuration with the source of each value (secrets masked); with deepeval 4.3.1's
    options: -l/--list [FILTER...], -u/--set KEY=VALUE, -U/--unset NAME, -s/--save, -q/--quiet."""
    if list_ or set_ or unset:
        if list_:
            list_settings(list(filters or []))
        if set_ or unset:
            edit(
                parse_assignments(list(set_ or [])),
                matching_keys(list(unset or [])),
                save,
                quiet,
                "Settings updated.",
            )
        return
    with _fail_cleanly():
        s = get_settings()
        base = env_dir()
    secrets = s.secrets()
    files = (
        "disabled by DEEPEVAL_DISABLE_DOTENV"
        if dotenv_disabled()
        else f"{base / DEFAULT_DOTENV}, {base / '.env'}"
    )
    echo("Precedence: process environment > .env.local > .env")
    echo(f"Dotenv files: {files}")
    keys = [k for k in KNOWN_KEYS if show_all or s.get(k) is not None]
    keys += sorted(k for k in s.values if k not in KNOWN_KEYS and s.get(k) is not None)
    rows = [
        (k, _display(k, s.values[k], secrets) if s.get(k) is not None else "<unset>", s.sources.get(k, "-"))
        for k in keys
    ]
    if rows:
        w1 = max(len(r[0]) for r in rows)
        w2 = min(max(len(r[1]) for r in rows), 60)
        for key, value, source in rows:
            echo(f"  {key:<{w1}}  {value:<{w2}}  {source}")
    else:
        echo("  (no settings found)")
    mode, why = _resolved_mode(s)
    echo(f"Eval mode: {mode} ({redact(why, secrets)})")
    for label, text in _judges(s):
        echo(f"{label}: {redact(text, secrets)}")
    if mode == "INVALID":
        raise typer.Exit(1)


__all__ = ["DEBUG_KEYS", "edit", "list_settings", "matching_keys", "parse_assignments", "show_settings"]
