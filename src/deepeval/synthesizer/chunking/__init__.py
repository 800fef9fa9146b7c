"""Documents to contexts: loading (:mod:`.doc_loader`), token chunks (:mod:`.splitter`) and context construction
(:mod:`.context_generator`)."""
