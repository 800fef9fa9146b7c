from __future__ import annotations

from pathlib import Path

import pytest

from deepeval.memory.generator import GeneratedConversation, generate_conversation
from deepeval.memory.manifest import FactManifest, load_manifest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "memory" / "manifest.yaml"
DATASETS = REPO.parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def manifest() -> FactManifest:
    return load_manifest(EXAMPLE)


@pytest.fixture(scope="session")
def conversation(manifest: FactManifest) -> GeneratedConversation:
    return generate_conversation(manifest, n_turns=40, seed=7)
