"""Errors raised by deepeval.

Every error message is written for the user: it names what was wrong and what to do. No message ever contains an
API key (see :func:`deepeval.config.redact`).
"""

from __future__ import annotations

import enum
from typing import Any

from pydantic_core import PydanticCustomError, ValidationError

# defined below config/ (which raises them), public here
from deepeval.base_errors import ConfigurationError as ConfigurationError
from deepeval.base_errors import DeepEvalError as DeepEvalError
from deepeval.base_errors import InvalidEvalModeError as InvalidEvalModeError


class MissingTestCaseParamsError(DeepEvalError):
    """A metric needs a test-case field that is ``None`` (or an ``actual_output`` that is empty)."""


class WrongTestCaseTypeError(DeepEvalError, TypeError, ValueError):
    """A metric given the wrong kind of test case (an ``LLMTestCase`` to a conversational metric, or the reverse).
    A ``ValueError``, as deepeval raises, and a ``TypeError``."""


class ErrorKind(enum.StrEnum):
    """What went wrong: in a judge call (``JudgeError.kind``), or in a measure (a result row's ``error_kind``, see
    :func:`error_kind`). A str enum: ``err.kind == "timeout"`` and ``err.kind in {"timeout"}`` hold (member names
    equal their values, so hashes match the plain strings)."""

    connection = "connection"
    timeout = "timeout"
    rate_limit = "rate_limit"
    context_limit = "context_limit"
    model_unavailable = "model_unavailable"  # the server does not serve the model asked for
    auth = "auth"
    bad_request = "bad_request"
    server = "server"
    invalid_output = "invalid_output"
    missing_answer = "missing_answer"
    unsupported_question = "unsupported_question"
    error = "error"
    # -- a measure's failure that is no judge call's (result rows: :func:`error_kind`)
    missing_params = "missing_params"  # MissingTestCaseParamsError
    wrong_test_case = "wrong_test_case"  # WrongTestCaseTypeError
    invalid_test_case = "invalid_test_case"  # InvalidTestCaseError: a test case that does not validate
    configuration = "configuration"  # ConfigurationError, InvalidEvalModeError
    deadline = "deadline"  # the measure did not finish within measure_timeout
    user_code = "user_code"  # a user's metric raised (or reported) an error of its own
    internal = "internal"  # a bug of this package: a hook or the runner failed
    interrupted = "interrupted"  # the run was stopped before the row finished


class JudgeError(DeepEvalError):
    """A judge (LLM or System One model) call failed after retries.

    ``model`` names the judge; ``status_code`` is the HTTP status when there was one; ``retryable`` says whether the
    failure was transient (timeout, 429, 5xx, connection) so that hybrid mode may fall back to the LLM.
    """

    #: seconds the server asked us to wait (``Retry-After``), when it said
    retry_after: float | None = None
    #: the request field the server blamed (OpenAI's ``error.param``), when it said
    param: str | None = None
    #: attempts made before giving up (set by :func:`deepeval.models.http.retry.call_with_retries`)
    attempts: int | None = None
    #: the server's own error type (OpenAI's ``error.code``, Jev's ``detail.error_type``, avrik's ``error.code``)
    error_type: str | None = None
    #: the server's id of the failed request (TypeSafe's ``x-typesafe-request-id`` header), when it sent one
    request_id: str | None = None

    def __init__(
        self,
        message: str,
        *,
        model: str | None = None,
        status_code: int | None = None,
        retryable: bool = False,
        kind: ErrorKind | str = ErrorKind.error,
    ) -> None:
        from deepeval.config.settings import redact

        # by value, whatever the message quotes (a server's reply excerpt, a URL): see deepeval.config.redaction
        super().__init__(redact(message))
        self.model = model
        self.status_code = status_code
        self.retryable = retryable
        #: an :class:`ErrorKind` (a kind of a caller's own that is not one of them stays the string given)
        self.kind: ErrorKind | str = _kind_of(kind)


class StructuredOutputError(JudgeError, ValueError):
    """The judge's reply could not be parsed into the requested schema, even after repair and one re-ask."""

    def __init__(self, message: str, *, model: str | None = None) -> None:
        super().__init__(message, model=model, kind=ErrorKind.invalid_output)


class SystemOneError(JudgeError):
    """A System One model call failed (HTTP error, refused request, missing answer)."""


class UnsupportedQuestionError(SystemOneError):
    """A local System One model was asked a question kind it cannot answer; the message names the kind."""

    def __init__(self, message: str, *, model: str | None = None, question_kind: str | None = None) -> None:
        super().__init__(message, model=model, kind=ErrorKind.unsupported_question)
        self.question_kind = question_kind


class RequestTooLargeError(SystemOneError):
    """A System One request exceeds the token budget; it was refused before sending."""

    def __init__(self, message: str, *, model: str | None = None) -> None:
        super().__init__(message, model=model, kind=ErrorKind.context_limit)


class InvalidTestCaseError(ValidationError, DeepEvalError, TypeError):
    """A test case (``LLMTestCase``, ``Turn``, ``ToolCall``, ``ConversationalTestCase``...) built or assigned with a
    missing or wrongly typed field.

    A pydantic ``ValidationError`` (so a ``ValueError``) with pydantic's ``.errors()``, as deepeval's pydantic test
    cases raise; also a ``TypeError``, which deepeval raises for some checks and this package raised before. ``str()``
    is one readable line per wrong field (``LLMTestCase.input is required``). Build one with :meth:`wrap`.
    """

    message: str

    def __str__(self) -> str:
        return self.message

    @classmethod
    def wrap(cls, err: ValidationError, message: str) -> InvalidTestCaseError:
        """``err``'s errors (same types, locations and inputs) under ``message``."""
        lines: list[Any] = [
            {
                "type": e["type"],
                "loc": e["loc"],
                "input": e["input"],
                **({"ctx": e["ctx"]} if "ctx" in e else {}),
            }
            for e in err.errors()
        ]
        try:
            new = cls.from_exception_data(err.title, lines)
        except (KeyError, TypeError, ValueError):  # an error type of our own (PydanticCustomError) or odd ctx
            lines = [
                {"type": PydanticCustomError(e["type"], e["msg"]), "loc": e["loc"], "input": e["input"]}
                for e in err.errors()
            ]
            new = cls.from_exception_data(err.title, lines)
        new.message = message
        return new


class DatasetError(DeepEvalError, ValueError):
    """An :class:`~deepeval.dataset.EvaluationDataset` operation cannot be done (nothing to save, unknown file
    type, goldens of the wrong kind)."""


class InvalidGoldenError(DeepEvalError, TypeError, ValueError):
    """A golden (or persona, expectations...) built with a missing or wrongly typed field. A ``TypeError`` like a bad
    test case, and a ``ValueError`` like deepeval's pydantic validation error; the message names the field."""


class DatasetFileError(DatasetError):
    """A dataset file cannot be loaded. The message names the file and, where they apply, the line, the row
    (1-based record number) and the field; the same facts are attributes. Nothing from the file was added.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str,
        line: int | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.row = row
        self.field = field


class NoMetricsError(DeepEvalError):
    """``EvaluationDataset.evals_iterator()`` ran the app but found no metric to measure: none passed to it, on no
    ``@observe`` span and through no ``update_current_span`` / ``update_current_trace`` (as deepeval 4.3.1)."""


class UnsupportedFeatureError(DeepEvalError, NotImplementedError):
    """A deepeval feature this package does not provide; the message names what to use instead."""


class ConfidentAIRequiredError(UnsupportedFeatureError, ValueError):
    """A dataset method that talks to Confident AI (``pull``, ``push``, ``queue``...); this package has no cloud
    backend. The message names the local-file method that does the same job. Also a ``ValueError``: deepeval raises
    one when no Confident AI key is set, and code may catch that."""


def _kind_of(kind: ErrorKind | str) -> ErrorKind | str:
    try:
        return ErrorKind(kind)
    except ValueError:
        return kind


def error_kind(err: BaseException | None, *, raised_by: object = None) -> ErrorKind | str:
    """The kind of a measure's failure, for its result row: the one mapping from an exception to an
    :class:`ErrorKind`.

    A judge error keeps its own kind (``timeout``, ``auth``...); a missing test-case field is ``missing_params``, a
    test case of the wrong kind ``wrong_test_case``, one that does not validate ``invalid_test_case``, a bad
    configuration or eval mode ``configuration``, a ``TimeoutError`` (the measure's deadline, ``measure_timeout``)
    ``deadline``. Anything else is ``user_code`` when ``raised_by`` (the metric) is a user's class, outside this
    package, else ``error``. ``err`` None is an error the metric reported without raising (its ``error``
    attribute, a score that is no number): ``user_code`` for a user's metric, else ``error``.
    """
    if isinstance(err, JudgeError):
        return err.kind
    for cls, kind in _KINDS:
        if isinstance(err, cls):
            return kind
    if raised_by is not None and not type(raised_by).__module__.startswith("deepeval."):
        return ErrorKind.user_code
    return ErrorKind.error


_KINDS: tuple[tuple[type[BaseException], ErrorKind], ...] = (
    (MissingTestCaseParamsError, ErrorKind.missing_params),
    (WrongTestCaseTypeError, ErrorKind.wrong_test_case),
    (InvalidTestCaseError, ErrorKind.invalid_test_case),
    (ConfigurationError, ErrorKind.configuration),
    (InvalidEvalModeError, ErrorKind.configuration),
    (TimeoutError, ErrorKind.deadline),
)
