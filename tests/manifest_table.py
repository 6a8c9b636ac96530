"""Laying a small manifest-only definition in a test: checked as a build checks it, then laid
with its art drawn into a throwaway picture store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table


def lay(data: dict[str, Any], root: Path, name: str = "manifest") -> Any:
    """The table ``data["table"]`` lays (its art under ``root``), after the schema and the
    manifest's own checks; GUIDs and the picture store are named ``name``."""
    MANIFEST.check(data["table"], "table")
    check_manifest(data)
    images = ImageSet(name, BuildOptions(out_dir=root), {})
    return lay_table(data, Art(root, data["components"], images), GuidAllocator(name))
