"""The toy's prompts."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list


class ToySupportTemplate:
    PROMPT_VERSION = "toy_support/1"

    @staticmethod
    def generate_claims(actual_output: str) -> str:
        return f'List the claims of the answer. Reply {{"claims": [...]}}.\n{DATA_NOTICE}\n{quote("toy answer", actual_output)}'

    @staticmethod
    def generate_verdicts(claims: Sequence[str], input: str) -> str:
        return (
            'Is each claim stated by the question? Reply {"verdicts": [{"verdict": "yes|no"}]}.\n'
            f"{DATA_NOTICE}\n{quote('toy question', input)}\n{quote_list('toy claims', claims)}"
        )

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        return f'Explain {score:.2f}. Reply {{"reason": "..."}}.\n{quote("toy judged", json.dumps(list(judged)))}'
