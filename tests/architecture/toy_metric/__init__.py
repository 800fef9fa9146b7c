"""A toy metric in its own folder: the registry test adds it with ``register_metric`` and runs it through measure,
evaluate, ``deepeval evaluate --metric toy_overlap`` and ``deepeval judge-eval --metric toy_overlap`` with no edit
anywhere else."""
