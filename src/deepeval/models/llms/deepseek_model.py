"""DeepSeek as judge (``DeepSeekModel``): DeepSeek's OpenAI-compatible API at ``https://api.deepseek.com``."""

from __future__ import annotations

from deepeval.models.llms.hosted import HostedOpenAIModel
from deepeval.models.pricing import DEEPSEEK_PRICES


class DeepSeekModel(HostedOpenAIModel):
    """A DeepSeek model as judge; settings ``DEEPSEEK_MODEL_NAME`` (required), ``DEEPSEEK_API_KEY``,
    ``DEEPSEEK_COST_PER_INPUT_TOKEN`` / ``DEEPSEEK_COST_PER_OUTPUT_TOKEN`` (``deepeval set-deepseek``). Arguments
    as :class:`~deepeval.models.llms.hosted.HostedOpenAIModel`."""

    provider = "Deepseek"
    prefix = "DEEPSEEK"
    key_setting = "DEEPSEEK_API_KEY"
    default_base_url = "https://api.deepseek.com"
    default_format = "json_object"  # its API has JSON mode, not JSON schema (4.3.1 sends json_object too)
    prices = DEEPSEEK_PRICES
