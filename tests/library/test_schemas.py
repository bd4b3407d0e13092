"""The published JSON Schemas (docs/schemas/) are those the models give now, and every
example file is valid against its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from fracas.library.kinds import KINDS, battlefield_file_model
from fracas.library.schemas import schemas, text

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "schemas"


@pytest.mark.parametrize("name", sorted(schemas()))
def test_the_published_schema_is_current(name: str) -> None:
    path = PUBLISHED / name
    assert path.exists(), f"{path} is missing: python -m fracas.library.schemas docs/schemas"
    assert path.read_text() == text(schemas()[name]), (
        f"{path} is out of date: python -m fracas.library.schemas docs/schemas"
    )


def test_nothing_else_is_published() -> None:
    assert sorted(p.name for p in PUBLISHED.glob("*.json")) == sorted(schemas())


@pytest.mark.parametrize("ruleset", sorted(KINDS))
def test_each_battlefield_schema_describes_its_kind(ruleset: str) -> None:
    found = json.loads((PUBLISHED / f"battlefield-{ruleset}.json").read_text())
    assert found["properties"]["ruleset"]["const"] == ruleset
    assert set(KINDS[ruleset].keys) <= set(found["properties"])
    assert found["additionalProperties"] is False


def test_every_example_battlefield_reads_as_its_file_model() -> None:
    read = 0
    for path in sorted((ROOT / "examples").glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict) or data.get("ruleset") not in KINDS:
            continue
        keys = ("title", "ruleset", *KINDS[data["ruleset"]].keys)
        battlefield_file_model(data["ruleset"]).model_validate(
            {k: v for k, v in data.items() if k in keys}
        )
        read += 1
    assert read >= 10


def test_the_battlefield_files_in_the_formats_document_import(tmp_path: Path) -> None:
    from fracas.library import Library
    from fracas.table.store import Store

    blocks = re.findall(
        r"```yaml battlefield\n(.*?)```", (ROOT / "docs" / "formats.md").read_text(), re.S
    )
    assert blocks
    library = Library(Store.open(f"sqlite:///{tmp_path / 'docs.db'}"))
    for i, block in enumerate(blocks):
        record = library.import_battlefield(block, f"formats-{i}.yaml")
        assert yaml.safe_load(library.export_battlefield(record.name)) == yaml.safe_load(block)
