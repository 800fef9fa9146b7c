from __future__ import annotations

import pytest
from _memory_paths import EXAMPLE

from deepeval.memory.generator import GeneratedConversation, generate_conversation
from deepeval.memory.manifest import FactManifest, load_manifest


@pytest.fixture(scope="session")
def manifest() -> FactManifest:
    return load_manifest(EXAMPLE)


@pytest.fixture(scope="session")
def conversation(manifest: FactManifest) -> GeneratedConversation:
    return generate_conversation(manifest, n_turns=40, seed=7)
