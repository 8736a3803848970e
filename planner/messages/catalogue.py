"""The one message catalogue: key -> (English, Chinese), made of what the model writes
(:mod:`planner.messages.model_texts`) and the report's fixed texts
(:mod:`planner.messages.report_texts`). A key is in one of them only (a test checks).
"""

from __future__ import annotations

from planner.messages.model_texts import MODEL_TEXTS
from planner.messages.report_texts import REPORT_TEXTS

CATALOGUE: dict[str, tuple[str, str]] = {**MODEL_TEXTS, **REPORT_TEXTS}
