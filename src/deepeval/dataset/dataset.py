"""``EvaluationDataset``: goldens and test cases, loaded from and saved to local JSON, CSV and JSONL files."""

from __future__ import annotations

import datetime
from collections.abc import Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from deepeval.dataset import _read
from deepeval.dataset._cells import DELIMITER, TOOLS_DELIMITER
from deepeval.dataset.golden import ConversationalGolden, Golden, Persona
from deepeval.dataset.writer import write_goldens
from deepeval.errors import ConfidentAIRequiredError, DatasetError
from deepeval.test_case import ConversationalTestCase, LLMTestCase

if TYPE_CHECKING:
    from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.evaluate.results import EvaluationResult
    from deepeval.metrics.base_metric import BaseMetric

FILE_TYPES = ("json", "csv", "jsonl")
AnyGolden = Golden | ConversationalGolden
AnyTestCase = LLMTestCase | ConversationalTestCase

_LOCAL_INSTEAD = (
    "this package has no Confident AI backend. Keep the dataset in a local file instead: "
    "dataset.save_as(file_type='json', directory=...) to store it, and "
    "dataset.add_goldens_from_json_file(path) (or _csv_file / _jsonl_file) to load it."
)


def _golden_specs(fmt: _read.Format, k: dict[str, Any]) -> list[_read.FieldSpec]:
    """Single-turn golden fields and the keys/columns they are read from (``k``: the loader's keyword values)."""
    text, S = _read.text_value(fmt), _read.FieldSpec
    return [
        S("input", k["input"], text),
        S("actual_output", k["actual_output"], text),
        S("expected_output", k["expected_output"], text),
        S("context", k["context"], _read.list_value(fmt, k["context_delimiter"])),
        S(
            "retrieval_context",
            k["retrieval_context"],
            _read.list_value(fmt, k["retrieval_context_delimiter"], retrieval=True),
        ),
        S("tools_called", k["tools_called"], _read.tools_value(fmt, k["tools_called_delimiter"])),
        S("expected_tools", k["expected_tools"], _read.tools_value(fmt, k["expected_tools_delimiter"])),
        S("token_cost", k["token_cost"], _read.number_value(fmt, integer=False)),
        S("input_token_count", k["input_token_count"], _read.number_value(fmt, integer=True)),
        S("output_token_count", k["output_token_count"], _read.number_value(fmt, integer=True)),
        S("comments", k["comments"], text),
        S("name", k["name"], text),
        S("source_file", k["source_file"], text),
        S("additional_metadata", k["additional_metadata"], _read.object_value(fmt, python_literal=True)),
        S(
            "custom_column_key_values",
            k["custom_column_key_values"],
            _read.object_value(fmt, python_literal=True),
        ),
        S("expectations", "expectations", _read.object_value(fmt)),
        S("expected_labels", "expected_labels", _read.object_value(fmt)),
    ]


def _conversational_specs(fmt: _read.Format, k: dict[str, Any]) -> list[_read.FieldSpec]:
    text, S = _read.text_value(fmt), _read.FieldSpec
    return [
        S("scenario", k["scenario"], text),
        S("turns", k["turns"], _read.turns_value(fmt)),
        S("expected_outcome", k["expected_outcome"], text),
        S("user_description", k["user_description"], text),
        S("persona", k.get("persona"), _read.object_value(fmt)),
        S("context", k["context"], _read.list_value(fmt, k["context_delimiter"])),
        S("comments", k["comments"], text),
        S("name", k["name"], text),
        S("additional_metadata", k["additional_metadata"], _read.object_value(fmt, python_literal=True)),
        S(
            "custom_column_key_values",
            k["custom_column_key_values"],
            _read.object_value(fmt, python_literal=True),
        ),
        S("expectations", "expectations", _read.object_value(fmt)),
        S("expected_labels", "expected_labels", _read.object_value(fmt)),
    ]


def _is_conversational(record: _read.Record, scenario_key: str | None) -> bool:
    """deepeval's rule: a record with a non-empty scenario is conversational."""
    return scenario_key is not None and bool(record.values.get(scenario_key))


def _load_goldens(fmt: _read.Format, path: str, keys: dict[str, Any], encoding: str) -> list[AnyGolden]:
    src = _read.READERS[fmt](str(path), encoding)
    if src.columns is not None and keys["input"] not in src.columns and keys["scenario"] not in src.columns:
        found = ", ".join(repr(c) for c in src.columns)
        raise src.error(
            f"no {keys['input']!r} column (nor {keys['scenario']!r} for conversational goldens); found {found}"
        )
    single, multi = _golden_specs(fmt, keys), _conversational_specs(fmt, keys)
    goldens: list[AnyGolden] = []
    for record in src.records:
        convo = _is_conversational(record, keys["scenario"])
        if goldens and convo != isinstance(goldens[0], ConversationalGolden):
            kind = "conversational (it has a scenario)" if convo else "single-turn (it has no scenario)"
            raise src.error(f"is {kind}, unlike the records before it; a dataset holds one kind", record)
        goldens.append(
            _read.build(src, record, ConversationalGolden if convo else Golden, multi if convo else single)
        )
    return goldens


def _load_test_cases(
    fmt: _read.Format, path: str, keys: dict[str, Any], encoding: str, required: tuple[str, ...]
) -> list[LLMTestCase]:
    src = _read.READERS[fmt](str(path), encoding)
    if src.columns is not None:
        missing = [keys[r] for r in required if keys[r] not in src.columns]
        if missing:
            found = ", ".join(repr(c) for c in src.columns)
            raise src.error(f"no {missing[0]!r} column; found {found}")
    text, S = _read.text_value(fmt), _read.FieldSpec
    specs = [
        S("input", keys["input"], text),
        S("actual_output", keys["actual_output"], text),
        S("expected_output", keys["expected_output"], text),
        S("context", keys["context"], _read.list_value(fmt, keys["context_delimiter"])),
        S(
            "retrieval_context",
            keys["retrieval_context"],
            _read.list_value(fmt, keys["retrieval_context_delimiter"], retrieval=True),
        ),
        S("tools_called", keys["tools_called"], _read.tools_value(fmt, keys["tools_called_delimiter"])),
        S("expected_tools", keys["expected_tools"], _read.tools_value(fmt, keys["expected_tools_delimiter"])),
        S("metadata", keys["additional_metadata"], _read.object_value(fmt, python_literal=True)),
    ]
    if "expectations" in LLMTestCase.model_fields:
        specs.append(S("expectations", "expectations", _read.object_value(fmt)))
    cases: list[LLMTestCase] = []
    for record in src.records:
        absent = [keys[r] for r in required if keys[r] not in record.values]
        if absent:
            raise src.error("required key is missing", record, absent[0])
        cases.append(_read.build(src, record, LLMTestCase, specs))
    return cases


def _test_case_to_golden(tc: AnyTestCase) -> AnyGolden:
    if isinstance(tc, ConversationalTestCase):
        if not tc.scenario:
            raise DatasetError(
                "a ConversationalTestCase needs a scenario to be saved as a ConversationalGolden"
            )
        return ConversationalGolden(
            scenario=tc.scenario,
            turns=tc.turns,
            expected_outcome=tc.expected_outcome,
            persona=Persona(characteristics=tc.user_description) if tc.user_description else None,
            context=tc.context,
            additional_metadata=tc.metadata,
            expectations=getattr(tc, "expectations", None),
        )
    return Golden(
        input=tc.input,
        actual_output=tc.actual_output,
        expected_output=tc.expected_output,
        context=tc.context,
        retrieval_context=tc.retrieval_context,
        tools_called=tc.tools_called,
        expected_tools=tc.expected_tools,
        token_cost=tc.token_cost,
        input_token_count=getattr(tc, "input_token_count", None),
        output_token_count=getattr(tc, "output_token_count", None),
        additional_metadata=tc.metadata,
        expectations=getattr(tc, "expectations", None),
    )


class EvaluationDataset:
    """A list of goldens (single-turn :class:`Golden` or multi-turn :class:`ConversationalGolden`, never both) and
    a list of test cases, with loaders and ``save_as`` for local JSON, CSV and JSONL files.

    ``len(dataset)`` and ``iter(dataset)`` are over the goldens (deepeval has neither). Every loader is all or
    nothing: a bad file raises :class:`~deepeval.errors.DatasetFileError` naming the file, row/line and field, and
    the dataset is unchanged. Methods that need Confident AI raise :class:`~deepeval.errors.ConfidentAIRequiredError`.
    """

    def __init__(
        self, goldens: Sequence[AnyGolden] | None = None, confident_api_key: str | None = None
    ) -> None:
        self.confident_api_key = confident_api_key
        self._multi_turn = False
        self._goldens: list[Golden] = []
        self._conversational_goldens: list[ConversationalGolden] = []
        self._llm_test_cases: list[LLMTestCase] = []
        self._conversational_test_cases: list[ConversationalTestCase] = []
        if goldens:
            self.goldens = list(goldens)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(goldens={len(self.goldens)}, test_cases={len(self.test_cases)}, "
            f"multi_turn={self._multi_turn})"
        )

    def __len__(self) -> int:
        return len(self.goldens)

    def __iter__(self) -> Iterator[AnyGolden]:
        return iter(list(self.goldens))

    # ---- goldens and test cases -------------------------------------------------------------------------------

    @property
    def goldens(self) -> list[Any]:
        """The goldens (the list itself: appending to it adds goldens)."""
        return self._conversational_goldens if self._multi_turn else self._goldens

    @goldens.setter
    def goldens(self, goldens: Sequence[AnyGolden]) -> None:
        goldens = list(goldens)
        self._check_kinds(goldens, "golden", Golden, ConversationalGolden, replacing="goldens")
        multi = bool(goldens) and isinstance(goldens[0], ConversationalGolden)
        if goldens and self.test_cases and multi != self._multi_turn:
            raise DatasetError(
                f"cannot set {'conversational' if multi else 'single-turn'} goldens on a dataset holding "
                f"{'conversational' if self._multi_turn else 'single-turn'} test cases"
            )
        if goldens:
            self._multi_turn = multi
        self._goldens = [g for g in goldens if isinstance(g, Golden)]
        self._conversational_goldens = [g for g in goldens if isinstance(g, ConversationalGolden)]

    @property
    def test_cases(self) -> list[Any]:
        """The test cases added with :meth:`add_test_case` or a ``add_test_cases_from_*`` loader."""
        return self._conversational_test_cases if self._multi_turn else self._llm_test_cases

    @test_cases.setter
    def test_cases(self, test_cases: Sequence[AnyTestCase]) -> None:
        cases = list(test_cases)
        self._check_kinds(cases, "test case", LLMTestCase, ConversationalTestCase, replacing="test_cases")
        multi = bool(cases) and isinstance(cases[0], ConversationalTestCase)
        if cases and self.goldens and multi != self._multi_turn:
            raise DatasetError(
                f"cannot set {'conversational' if multi else 'single-turn'} test cases on a dataset holding "
                f"{'conversational' if self._multi_turn else 'single-turn'} goldens"
            )
        if cases:
            self._multi_turn = multi
        self._llm_test_cases = [c for c in cases if isinstance(c, LLMTestCase)]
        self._conversational_test_cases = [c for c in cases if isinstance(c, ConversationalTestCase)]

    @staticmethod
    def _check_kinds(items: list[Any], what: str, single: type, multi: type, *, replacing: str) -> None:
        for i, item in enumerate(items):
            if not isinstance(item, (single, multi)):
                raise TypeError(
                    f"{replacing}[{i}] is a {type(item).__name__}; expected {single.__name__} or {multi.__name__}"
                )
            if not isinstance(item, type(items[0])):
                raise TypeError(
                    f"{replacing}[{i}] is a {type(item).__name__} but {replacing}[0] is a "
                    f"{type(items[0]).__name__}; a dataset holds one kind of {what}"
                )

    def _accept(self, multi: bool, what: str) -> None:
        """Refuse single-turn items on a multi-turn dataset and the reverse; the first item decides the kind."""
        holds_any = bool(self.goldens or self.test_cases)
        if holds_any and multi != self._multi_turn:
            kind = "multi-turn" if self._multi_turn else "single-turn"
            raise TypeError(f"You cannot add '{what}' to a {kind} dataset.")
        self._multi_turn = multi

    def add_golden(self, golden: AnyGolden) -> None:
        """Append one golden.

        Raises:
            TypeError: not a golden, or of the other kind than the dataset's goldens and test cases.
        """
        if not isinstance(golden, (Golden, ConversationalGolden)):
            raise TypeError(f"add_golden takes a Golden or ConversationalGolden, got {type(golden).__name__}")
        self._accept(isinstance(golden, ConversationalGolden), type(golden).__name__)
        self.goldens.append(golden)

    def add_test_case(self, test_case: AnyTestCase) -> None:
        """Append one test case.

        Raises:
            TypeError: not a test case, or of the other kind than the dataset's goldens and test cases.
        """
        if not isinstance(test_case, (LLMTestCase, ConversationalTestCase)):
            raise TypeError(
                f"add_test_case takes an LLMTestCase or ConversationalTestCase, got {type(test_case).__name__}"
            )
        self._accept(isinstance(test_case, ConversationalTestCase), type(test_case).__name__)
        self.test_cases.append(test_case)

    def _add_all_goldens(self, goldens: list[AnyGolden], path: str) -> None:
        if not goldens:
            return
        multi = isinstance(goldens[0], ConversationalGolden)
        if (self.goldens or self.test_cases) and multi != self._multi_turn:
            raise DatasetError(
                f"{path}: holds {'conversational' if multi else 'single-turn'} goldens but the dataset is "
                f"{'multi-turn' if self._multi_turn else 'single-turn'}; nothing was added"
            )
        self._multi_turn = multi
        self.goldens.extend(goldens)

    def _add_all_test_cases(self, cases: list[LLMTestCase], path: str) -> None:
        if cases and self._multi_turn and (self.goldens or self.test_cases):
            raise DatasetError(
                f"{path}: holds single-turn test cases but the dataset is multi-turn; nothing was added"
            )
        if cases:
            self._multi_turn = False
        self.test_cases.extend(cases)

    # ---- loading goldens --------------------------------------------------------------------------------------

    def add_goldens_from_csv_file(
        self,
        file_path: str,
        input_col_name: str | None = "input",
        actual_output_col_name: str | None = "actual_output",
        expected_output_col_name: str | None = "expected_output",
        context_col_name: str | None = "context",
        context_col_delimiter: str = DELIMITER,
        retrieval_context_col_name: str | None = "retrieval_context",
        retrieval_context_col_delimiter: str = DELIMITER,
        tools_called_col_name: str | None = "tools_called",
        tools_called_col_delimiter: str = TOOLS_DELIMITER,
        expected_tools_col_name: str | None = "expected_tools",
        expected_tools_col_delimiter: str = TOOLS_DELIMITER,
        token_cost_col_name: str | None = "token_cost",
        input_token_count_col_name: str | None = "input_token_count",
        output_token_count_col_name: str | None = "output_token_count",
        comments_key_name: str = "comments",
        name_key_name: str = "name",
        source_file_col_name: str | None = "source_file",
        additional_metadata_col_name: str | None = "additional_metadata",
        custom_column_key_values_col_name: str | None = "custom_column_key_values",
        scenario_col_name: str | None = "scenario",
        turns_col_name: str | None = "turns",
        expected_outcome_col_name: str | None = "expected_outcome",
        user_description_col_name: str | None = "user_description",
        encoding_type: str = "utf-8",
    ) -> None:
        """Add the goldens of a CSV file with a header row (read with the standard ``csv`` module).

        A row with a non-empty scenario cell is a :class:`ConversationalGolden`, any other a :class:`Golden`.
        ``context``/``retrieval_context`` cells are split on their delimiter (``|``), or hold a JSON array of
        strings; tool cells hold a JSON array of tool objects or ``;``-separated tool names; metadata cells hold a
        JSON object (or a Python dict literal); ``turns`` a JSON array. An empty cell is no value (``None``).

        Raises:
            FileNotFoundError: no such file.
            DatasetFileError: the file is empty, not decodable, not valid CSV, has no input (or scenario) column, or
                a row holds a bad value; the message names the file, row, line and column. Nothing is added.
        """
        keys = {
            "input": input_col_name,
            "actual_output": actual_output_col_name,
            "expected_output": expected_output_col_name,
            "context": context_col_name,
            "context_delimiter": context_col_delimiter,
            "retrieval_context": retrieval_context_col_name,
            "retrieval_context_delimiter": retrieval_context_col_delimiter,
            "tools_called": tools_called_col_name,
            "tools_called_delimiter": tools_called_col_delimiter,
            "expected_tools": expected_tools_col_name,
            "expected_tools_delimiter": expected_tools_col_delimiter,
            "token_cost": token_cost_col_name,
            "input_token_count": input_token_count_col_name,
            "output_token_count": output_token_count_col_name,
            "comments": comments_key_name,
            "name": name_key_name,
            "source_file": source_file_col_name,
            "additional_metadata": additional_metadata_col_name,
            "custom_column_key_values": custom_column_key_values_col_name,
            "scenario": scenario_col_name,
            "turns": turns_col_name,
            "expected_outcome": expected_outcome_col_name,
            "user_description": user_description_col_name,
        }
        self._add_all_goldens(_load_goldens("csv", file_path, keys, encoding_type), str(file_path))

    def add_goldens_from_json_file(
        self,
        file_path: str,
        input_key_name: str = "input",
        actual_output_key_name: str | None = "actual_output",
        expected_output_key_name: str | None = "expected_output",
        context_key_name: str | None = "context",
        retrieval_context_key_name: str | None = "retrieval_context",
        tools_called_key_name: str | None = "tools_called",
        expected_tools_key_name: str | None = "expected_tools",
        token_cost_key_name: str | None = "token_cost",
        input_token_count_key_name: str | None = "input_token_count",
        output_token_count_key_name: str | None = "output_token_count",
        comments_key_name: str = "comments",
        name_key_name: str = "name",
        source_file_key_name: str | None = "source_file",
        additional_metadata_key_name: str | None = "additional_metadata",
        custom_column_key_values_key_name: str | None = "custom_column_key_values",
        scenario_key_name: str | None = "scenario",
        turns_key_name: str | None = "turns",
        expected_outcome_key_name: str | None = "expected_outcome",
        user_description_key_name: str | None = "user_description",
        persona_key_name: str | None = "persona",
        encoding_type: str = "utf-8",
    ) -> None:
        """Add the goldens of a JSON file holding an array of objects (an object with a non-empty scenario is a
        :class:`ConversationalGolden`). Keys not named here are ignored.

        Raises:
            FileNotFoundError: no such file.
            DatasetFileError: the file is empty, not decodable, not valid JSON, not an array of objects, or an item
                holds a bad value; the message names the file, item, line and key. Nothing is added.
        """
        keys = self._json_keys(locals())
        self._add_all_goldens(_load_goldens("json", file_path, keys, encoding_type), str(file_path))

    def add_goldens_from_jsonl_file(
        self,
        file_path: str,
        input_key_name: str = "input",
        actual_output_key_name: str | None = "actual_output",
        expected_output_key_name: str | None = "expected_output",
        context_key_name: str | None = "context",
        context_col_delimiter: str = DELIMITER,
        retrieval_context_key_name: str | None = "retrieval_context",
        retrieval_context_col_delimiter: str = DELIMITER,
        tools_called_key_name: str | None = "tools_called",
        expected_tools_key_name: str | None = "expected_tools",
        token_cost_key_name: str | None = "token_cost",
        input_token_count_key_name: str | None = "input_token_count",
        output_token_count_key_name: str | None = "output_token_count",
        comments_key_name: str = "comments",
        name_key_name: str = "name",
        source_file_key_name: str | None = "source_file",
        additional_metadata_key_name: str | None = "additional_metadata",
        custom_column_key_values_key_name: str | None = "custom_column_key_values",
        scenario_key_name: str | None = "scenario",
        turns_key_name: str | None = "turns",
        expected_outcome_key_name: str | None = "expected_outcome",
        user_description_key_name: str | None = "user_description",
        persona_key_name: str | None = "persona",
        encoding_type: str = "utf-8",
    ) -> None:
        """Add the goldens of a JSONL file (one JSON object per line; blank lines are skipped). A context value may
        be a list or a delimited string, as ``save_as(file_type="jsonl")`` writes it.

        Raises:
            FileNotFoundError: no such file.
            DatasetFileError: the file is empty, not decodable, or a line is not a JSON object or holds a bad value;
                the message names the file, line and key. Nothing is added.
        """
        keys = self._json_keys(locals())
        self._add_all_goldens(_load_goldens("jsonl", file_path, keys, encoding_type), str(file_path))

    @staticmethod
    def _json_keys(args: dict[str, Any]) -> dict[str, Any]:
        """The golden keys of a JSON/JSONL loader's arguments (``xxx_key_name`` -> ``xxx``)."""
        keys = {
            name[: -len("_key_name")]: value for name, value in args.items() if name.endswith("_key_name")
        }
        keys["context_delimiter"] = args.get("context_col_delimiter", DELIMITER)
        keys["retrieval_context_delimiter"] = args.get("retrieval_context_col_delimiter", DELIMITER)
        keys["tools_called_delimiter"] = keys["expected_tools_delimiter"] = TOOLS_DELIMITER
        return keys

    # ---- loading test cases -----------------------------------------------------------------------------------

    def add_test_cases_from_csv_file(
        self,
        file_path: str,
        input_col_name: str,
        actual_output_col_name: str,
        expected_output_col_name: str | None = "expected_output",
        context_col_name: str | None = "context",
        context_col_delimiter: str = DELIMITER,
        retrieval_context_col_name: str | None = "retrieval_context",
        retrieval_context_col_delimiter: str = DELIMITER,
        tools_called_col_name: str | None = "tools_called",
        tools_called_col_delimiter: str = TOOLS_DELIMITER,
        expected_tools_col_name: str | None = "expected_tools",
        expected_tools_col_delimiter: str = TOOLS_DELIMITER,
        additional_metadata_col_name: str | None = "additional_metadata",
        encoding_type: str = "utf-8",
    ) -> None:
        """Add one :class:`LLMTestCase` per row of a CSV file (cells as in :meth:`add_goldens_from_csv_file`;
        the metadata column fills ``metadata``).

        Raises:
            FileNotFoundError: no such file.
            DatasetFileError: the file is empty or not decodable, the input or actual-output column is missing, or
                a row holds a bad value (naming file, row, line and column). Nothing is added.
        """
        keys = {
            "input": input_col_name,
            "actual_output": actual_output_col_name,
            "expected_output": expected_output_col_name,
            "context": context_col_name,
            "context_delimiter": context_col_delimiter,
            "retrieval_context": retrieval_context_col_name,
            "retrieval_context_delimiter": retrieval_context_col_delimiter,
            "tools_called": tools_called_col_name,
            "tools_called_delimiter": tools_called_col_delimiter,
            "expected_tools": expected_tools_col_name,
            "expected_tools_delimiter": expected_tools_col_delimiter,
            "additional_metadata": additional_metadata_col_name,
        }
        cases = _load_test_cases("csv", file_path, keys, encoding_type, ("input", "actual_output"))
        self._add_all_test_cases(cases, str(file_path))

    def add_test_cases_from_json_file(
        self,
        file_path: str,
        input_key_name: str,
        actual_output_key_name: str,
        expected_output_key_name: str | None = None,
        context_key_name: str | None = None,
        retrieval_context_key_name: str | None = None,
        tools_called_key_name: str | None = None,
        expected_tools_key_name: str | None = None,
        addtional_metadata_key_name: str | None = None,
        encoding_type: str = "utf-8",
    ) -> None:
        """Add one :class:`LLMTestCase` per object of a JSON array. Every object must have the input and
        actual-output keys. (``addtional_metadata_key_name`` keeps deepeval's spelling; its key fills
        ``metadata``.)

        Raises:
            FileNotFoundError: no such file.
            DatasetFileError: the file is empty, not decodable, not a JSON array of objects, an object lacks a
                required key, or holds a bad value (naming file, item, line and key). Nothing is added.
        """
        keys = self._json_keys(locals())
        keys["additional_metadata"] = addtional_metadata_key_name
        cases = _load_test_cases("json", file_path, keys, encoding_type, ("input", "actual_output"))
        self._add_all_test_cases(cases, str(file_path))

    # ---- saving -----------------------------------------------------------------------------------------------

    def save_as(
        self,
        file_type: Literal["json", "csv", "jsonl"],
        directory: str,
        file_name: str | None = None,
        include_test_cases: bool = False,
    ) -> str:
        """Write the goldens (and, with ``include_test_cases``, the test cases as goldens) to
        ``directory/<file_name or YYYYMMDD_HHMMSS>.<file_type>``, print where, and return the path. The file is
        written whole or not at all; loading it with the matching ``add_goldens_from_*_file`` gives the same goldens
        (in CSV an empty string reads back as ``None``, and a persona keeps only its characteristics).

        ``file_name`` names a file inside ``directory`` (it may hold sub-folders); an absolute name or one with a
        ``..`` component is refused (deliberate: deepeval 4.3.1 writes wherever it points), and so is a symbolic
        link at the file's path (see :mod:`deepeval._safe_path`).

        Raises:
            DatasetError: unknown file type, or nothing to save.
            UnsafePathError: ``file_name`` leaves ``directory``, or the file's path is a symbolic link (an
                ``OSError``; nothing is written).
        """
        if file_type not in FILE_TYPES:
            raise DatasetError(
                f"Invalid file type {file_type!r}. Available file types to save as: {', '.join(FILE_TYPES)}"
            )
        goldens: list[Any] = list(self.goldens)
        if include_test_cases:
            goldens.extend(_test_case_to_golden(tc) for tc in self.test_cases)
        if not goldens:
            raise DatasetError(f"No goldens found. Add goldens before saving the dataset as {file_type}.")
        name = datetime.datetime.now().strftime("%Y%m%d_%H%M%S") if file_name is None else file_name
        path = write_goldens(goldens, file_type, directory, name)
        print(f"Evaluation dataset saved at {path}!")
        return path

    # ---- not available here -----------------------------------------------------------------------------------

    def _cloud(self, method: str) -> NoReturn:
        raise ConfidentAIRequiredError(f"EvaluationDataset.{method}() needs Confident AI; {_LOCAL_INSTEAD}")

    def push(self, alias: str, finalized: bool = True, version: str | None = None) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError` (use :meth:`save_as`)."""
        self._cloud("push")

    def pull(
        self,
        alias: str,
        finalized: bool = True,
        auto_convert_goldens_to_test_cases: bool = False,
        public: bool = False,
        version: str | None = None,
    ) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError` (use
        :meth:`add_goldens_from_json_file`)."""
        self._cloud("pull")

    def queue(self, alias: str, goldens: Sequence[AnyGolden], print_response: bool = True) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("queue")

    def delete(self, alias: str) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("delete")

    def update_golden(self, golden: AnyGolden, finalized: bool = True, alias: str | None = None) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("update_golden")

    def delete_golden(self, golden: AnyGolden | str, alias: str | None = None) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("delete_golden")

    def create_version(self, alias: str, _verbose: bool | None = True) -> str:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("create_version")

    def get_versions(self, alias: str) -> list[Any]:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError`."""
        self._cloud("get_versions")

    def evals_iterator(
        self,
        metrics: list[BaseMetric] | None = None,
        hyperparameters: dict[str, Any] | None = None,
        identifier: str | None = None,
        display_config: DisplayConfig | None = None,
        cache_config: CacheConfig | None = None,
        error_config: ErrorConfig | None = None,
        async_config: AsyncConfig | None = None,
    ) -> Generator[AnyGolden, None, EvaluationResult]:
        """Component-level evaluation, as deepeval 4.3.1 runs it: yields each golden; call your
        ``@observe``-instrumented app on it in the loop body (``run_async=True``, the default, also takes
        ``task = asyncio.create_task(app(golden.input)); dataset.evaluate(task)``). After the last golden every span
        with ``metrics=`` is measured on its test case (``update_current_span(test_case=...)``) and each golden's
        trace on ``metrics`` (or ``update_current_trace(metrics=...)``); see :mod:`deepeval.evaluate.components`.

        Args:
            metrics: trace-level metrics, measured on each golden's test case (input: the golden's; output and the
                other fields: the trace's).
            hyperparameters: kept in the result as ``evaluate(hyperparameters=...)`` keeps them (default: those of
                ``deepeval.log_hyperparameters``).
            identifier, display_config, cache_config, error_config, async_config: as for ``evaluate()``.

        Returns:
            A generator of the goldens; its return value (``StopIteration.value``) is the
            :class:`~deepeval.evaluate.results.EvaluationResult` (one result per golden, then one per span with
            metrics, named by the span), also the latest run and the ``results_folder`` export.

        Raises:
            ValueError: the dataset has no goldens (when the loop starts).
            NoMetricsError: no metric at any level (after the loop).
            EvaluationError: after the run, when rows errored and ``ignore_errors`` is off.
        """
        from deepeval.evaluate import session
        from deepeval.evaluate.components import iterate

        if hyperparameters is None:
            hyperparameters = session.hyperparameters()
        return iterate(
            list(self.goldens),
            metrics,
            hyperparameters,
            identifier,
            display_config,
            cache_config,
            error_config,
            async_config,
        )

    def evaluate(self, task: Any) -> None:
        """Hand the app call of the current golden to the running :meth:`evals_iterator` (its async form):
        ``task = asyncio.create_task(app(golden.input)); dataset.evaluate(task)`` (a coroutine works too).

        Raises:
            DeepEvalError: outside an ``evals_iterator()`` loop, or a task of another, running event loop.
            TypeError: ``task`` is not awaitable.
        """
        from deepeval.evaluate.components import register_task

        register_task(task)

    @staticmethod
    def _synthesizer(synthesizer: Any) -> Any:
        from deepeval.synthesizer import Synthesizer

        if synthesizer is None:
            return Synthesizer()
        if not isinstance(synthesizer, Synthesizer):
            raise TypeError(
                f"synthesizer must be a deepeval.synthesizer.Synthesizer, got {type(synthesizer).__name__}"
            )
        return synthesizer

    def generate_goldens_from_docs(
        self,
        document_paths: list[str],
        include_expected_output: bool = True,
        max_goldens_per_context: int = 2,
        context_construction_config: Any = None,
        synthesizer: Any = None,
    ) -> None:
        """Add goldens generated from documents by ``synthesizer`` (default: ``Synthesizer()``), as
        :meth:`deepeval.synthesizer.Synthesizer.generate_goldens_from_docs` makes them."""
        self._add_generated(
            self._synthesizer(synthesizer).generate_goldens_from_docs(
                document_paths=document_paths,
                include_expected_output=include_expected_output,
                max_goldens_per_context=max_goldens_per_context,
                context_construction_config=context_construction_config,
            )
        )

    def generate_goldens_from_contexts(
        self,
        contexts: list[list[str]],
        include_expected_output: bool = True,
        max_goldens_per_context: int = 2,
        synthesizer: Any = None,
    ) -> None:
        """Add goldens generated from ``contexts`` (see
        :meth:`deepeval.synthesizer.Synthesizer.generate_goldens_from_contexts`)."""
        self._add_generated(
            self._synthesizer(synthesizer).generate_goldens_from_contexts(
                contexts=contexts,
                include_expected_output=include_expected_output,
                max_goldens_per_context=max_goldens_per_context,
            )
        )

    def generate_goldens_from_scratch(self, num_goldens: int, synthesizer: Any = None) -> None:
        """Add goldens generated from the synthesizer's styling config alone (see
        :meth:`deepeval.synthesizer.Synthesizer.generate_goldens_from_scratch`)."""
        self._add_generated(
            self._synthesizer(synthesizer).generate_goldens_from_scratch(num_goldens=num_goldens)
        )

    def _add_generated(self, goldens: list[Any]) -> None:
        for golden in goldens:
            self.add_golden(golden)
