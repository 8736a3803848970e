"""What every model of usage.yaml shares: a map that forbids unknown keys, and a field with
its description (from which the JSON Schema and the reference page are generated)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


def key(description: str, default: Any = ..., *, default_text: str | None = None) -> Any:
    """A field with its description; ``default_text`` says what a ``None`` default means."""
    extra = {"x-default": default_text} if default_text else None
    return Field(default, description=description, json_schema_extra=extra)


class Map(BaseModel):
    """A map of usage.yaml: unknown keys are problems."""

    model_config = ConfigDict(extra="forbid")
