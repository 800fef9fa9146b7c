"""Rules read from the sources (``src/deepeval``), each with the one place it points to:

* the process environment is read and written only in ``config/`` (settings, the environment, the hand-off of
  ``deepeval test run``'s options);
* an OpenAI SDK client is built only in ``models/`` (key as a ``Secret``, URL credentials split off and
  redacted, the shared retries): the memory evaluation's model under test goes through
  ``models/llms/chat_endpoint.py`` too;
* success has one rule, ``metrics/scoring.success_of``: no other module compares a score with a threshold, and only
  ``BaseMetric`` defines ``is_successful`` (which calls it).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import deepeval

SRC = Path(deepeval.__file__).resolve().parent


def _offenders(pattern: re.Pattern[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """``file:line`` of every source line matching ``pattern`` outside the ``allowed`` folders/files."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(allowed):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                out.append(f"{rel}:{number}")
    return out


ENVIRONMENT = re.compile(
    r"\bos\.environ\b|\bgetenv\(|\bputenv\(|\bunsetenv\(|from os import [^#]*\benviron\b"
)


def test_the_process_environment_is_touched_only_in_config() -> None:
    assert _offenders(ENVIRONMENT, ("config/",)) == []
    assert len(_offenders(ENVIRONMENT)) >= 3  # the grep itself works: config/ reads and writes it


def test_the_environment_grep_sees_every_spelling() -> None:
    for line in (
        "x = os.environ.get('A')",
        "os.environ['A'] = '1'",
        "os.getenv('A')",
        "from os import environ",
    ):
        assert ENVIRONMENT.search(line), line
    assert not ENVIRONMENT.search("settings (process environment > .env.local > .env)")


SDK_CLIENT = re.compile(r"\b(?:Async)?OpenAI\(")


def test_openai_sdk_clients_are_built_only_in_models() -> None:
    assert _offenders(SDK_CLIENT, ("models/",)) == []
    assert len(_offenders(SDK_CLIENT)) >= 2  # the grep itself works: models/llms builds them
    assert not SDK_CLIENT.search("OpenAIModel(api_key=key)")


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def success_comparisons(source: str) -> list[int]:
    """Lines comparing something with a ``threshold`` by ``>=`` / ``<=`` / ``>`` / ``<`` (a success rule)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.GtE, ast.LtE, ast.Gt, ast.Lt)) for op in node.ops
        ):
            if any(_name(x) == "threshold" for x in [node.left, *node.comparators]):
                lines.append(node.lineno)
    return lines


#: thresholds that are not a metric's: the embedded judge's feature and similarity cuts, the agreement statistics'
#: probability cut
OTHER_THRESHOLDS = ("models/embedded/", "judge_eval/stats.py")


def test_success_has_one_rule() -> None:
    found = [
        f"{path.relative_to(SRC).as_posix()}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if not path.relative_to(SRC).as_posix().startswith(("metrics/scoring.py", *OTHER_THRESHOLDS))
        for line in success_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert success_comparisons(
        (SRC / "metrics" / "scoring.py").read_text(encoding="utf-8")
    )  # the check works
    defines = sorted(
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if re.search(r"^\s+def is_successful\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    )
    assert defines == ["metrics/base_metric.py"]
