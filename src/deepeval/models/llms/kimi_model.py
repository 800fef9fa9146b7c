"""Moonshot Kimi as judge (``KimiModel``): Moonshot's OpenAI-compatible API at ``https://api.moonshot.cn/v1``."""

from __future__ import annotations

from deepeval.models.llms.hosted import HostedOpenAIModel
from deepeval.models.pricing import KIMI_PRICES


class KimiModel(HostedOpenAIModel):
    """A Kimi / Moonshot model as judge; settings ``MOONSHOT_MODEL_NAME`` (required), ``MOONSHOT_API_KEY``,
    ``MOONSHOT_COST_PER_INPUT_TOKEN`` / ``MOONSHOT_COST_PER_OUTPUT_TOKEN`` (``deepeval set-moonshot``). Arguments
    as :class:`~deepeval.models.llms.hosted.HostedOpenAIModel`."""

    provider = "KIMI"
    prefix = "MOONSHOT"
    key_setting = "MOONSHOT_API_KEY"
    default_base_url = "https://api.moonshot.cn/v1"
    default_format = "json_object"  # its API has JSON mode, not JSON schema (4.3.1 sends json_object too)
    prices = KIMI_PRICES
