"""The reference of the catalog's throughput columns, and a measurement turned into them.

``gpus.csv``'s ``throughput_*`` columns are samples/s of Lambda's PyTorch training benchmark
(https://github.com/lambdal/deeplearning-benchmark, ``pytorch/pytorch-train-throughput-fp16.csv``
and ``-fp32.csv``, the 2024-07-24 version the catalog is built from) divided by the 1-GPU
"A100 80GB SXM4" row's samples/s **in mixed precision**, FP32 columns included
(``pricing/CATALOG.md``). A measured samples/s is put in the same unit by dividing it by that
A100 row's mixed-precision samples/s of the matching model:

- ResNet-50 → ``cv``: Lambda's ``resnet50``, 1,582 images/s (FP32/TF32 row: 1,066).
- The GPT-style transformer (BERT-large's shape: 24 layers of width 1,024, 16 heads, 4,096
  feed-forward, 384-token sequences, 30,522-word vocabulary) → ``nlp`` and ``llm``: Lambda's
  ``bert_large_squad``, 152 sequences/s of 384 tokens = 58,368 tokens/s (FP32/TF32: 75
  sequences/s = 28,800 tokens/s). BERT-large is one of the two models of the ``llm`` column
  and one of the five of ``nlp``.
- ``generic``: the geometric mean of the measured ``cv`` and ``nlp`` (the catalog's is that of
  nine models).

The catalog's ``cv`` also averages in SSD and its ``nlp`` four more language models, and
Lambda ran NVIDIA's tuned DeepLearningExamples code where this benchmark runs plain PyTorch;
the figures are comparable, not identical (``pricing/CATALOG.md``, "Measured on your own GPU",
states how far they were apart on an H200).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["H200_CHECK", "MODELS", "REFERENCE_GPU", "Reference", "relative_columns",
           "relative_speed"]

REFERENCE_GPU = "a100-80gb"
"""The catalog GPU whose mixed-precision throughput is 1.0 in every workload column."""

#: Lambda's A100 80GB SXM4 row, BERT-large SQuAD: sequences of this many tokens.
BERT_SEQUENCE_TOKENS = 384


@dataclass(frozen=True)
class Reference:
    """One benchmark model: the unit of its throughput, the catalog columns it measures, and
    the reference A100 80GB SXM4's samples/s in mixed precision and in FP32/TF32 (Lambda)."""

    model: str
    unit: str  # "images" or "tokens"
    workloads: tuple[str, ...]
    lambda_model: str
    per_second_mixed: float
    per_second_fp32: float


MODELS: dict[str, Reference] = {
    "resnet50": Reference("resnet50", "images", ("cv",), "resnet50", 1582.0, 1066.0),
    "transformer": Reference(
        "transformer", "tokens", ("nlp", "llm"), "bert_large_squad",
        152.0 * BERT_SEQUENCE_TOKENS, 75.0 * BERT_SEQUENCE_TOKENS),
}
"""The benchmark's models by name, with their references."""


H200_CHECK = {"resnet50": 1.61, "transformer": 1.12}
"""This benchmark's mixed-precision throughput over the catalog's derived figure for the same
model, on an NVIDIA H200 on 2026-12-01 (ResNet-50: 2.961 against 2,616 / 1,582 × 1.110 =
1.835; BERT-large: 2.542 against 301 / 152 × 1.149 = 2.275): how far a measured row reads above
the built-in rows' scale (``pricing/CATALOG.md``, "Measured on your own GPU")."""


def relative_speed(model: str, per_second: float) -> float:
    """``per_second`` samples/s of ``model`` (in either precision) in units of the reference
    A100's mixed-precision samples/s: the catalog's throughput unit."""
    return per_second / MODELS[model].per_second_mixed


def relative_columns(per_second: dict[tuple[str, str], float]) -> dict[str, float]:
    """The ``throughput_*`` columns (without the prefix) that measurements give.

    ``per_second`` maps (model, precision) — precision ``"mixed"`` or ``"fp32"`` — to the
    samples/s measured on one GPU. ``generic`` (and ``generic_fp32``) is the geometric mean of
    ``cv`` and ``nlp`` when both were measured in that precision.
    """
    columns: dict[str, float] = {}
    for (model, precision), value in per_second.items():
        suffix = "" if precision == "mixed" else f"_{precision}"
        for workload in MODELS[model].workloads:
            columns[workload + suffix] = relative_speed(model, value)
    for suffix in ("", "_fp32"):
        cv, nlp = columns.get("cv" + suffix), columns.get("nlp" + suffix)
        if cv is not None and nlp is not None:
            columns["generic" + suffix] = math.sqrt(cv * nlp)
    return columns
