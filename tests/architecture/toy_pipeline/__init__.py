"""A toy LLM metric built with the public pipeline API (``deepeval.metrics.pipeline``), in its own folder: the test
adds its declaration module to ``registry.BUILTIN`` (the one line a metric of this project adds) and runs it in llm,
hybrid, system_one and on the embedded default, through measure, evaluate, ``deepeval evaluate --metric`` and
``deepeval judge-eval --metric``, with no edit anywhere else. Every module here uses public names only."""
