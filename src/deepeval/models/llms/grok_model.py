"""xAI Grok as judge (``GrokModel``): xAI's OpenAI-compatible API at ``https://api.x.ai/v1`` (deepeval 4.3.1 uses
the ``xai-sdk``; the wire API is the same service, so no extra is needed here)."""

from __future__ import annotations

from deepeval.models.llms.hosted import HostedOpenAIModel
from deepeval.models.pricing import GROK_PRICES


class GrokModel(HostedOpenAIModel):
    """A Grok model as judge; settings ``GROK_MODEL_NAME`` (required), ``GROK_API_KEY``,
    ``GROK_COST_PER_INPUT_TOKEN`` / ``GROK_COST_PER_OUTPUT_TOKEN`` (``deepeval set-grok``). Arguments as
    :class:`~deepeval.models.llms.hosted.HostedOpenAIModel`."""

    provider = "Grok"
    prefix = "GROK"
    key_setting = "GROK_API_KEY"
    default_base_url = "https://api.x.ai/v1"
    prices = GROK_PRICES
