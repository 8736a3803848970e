"""Rebuild pricing/data/*.csv from a reference extract (a folder of CSV files).

Usage::

    python pricing/tools/build_from_reference.py REFERENCE_DIR [--out DIR]

REFERENCE_DIR holds ``gpu_hardware_specs.csv``, ``epoch_ml_hardware_trimmed.csv``,
``cloud_gpu_instances.csv`` and the Lambda benchmark files
(``lambda_benchmark_pytorch_train_throughput_fp16.csv`` and ``..._v1v2_fp16.csv``); see
pricing/CATALOG.md for what each contributes. The free-tier table and the per-provider
constants (billing increments, storage prices, snapshot dates) are curated by hand below,
with their sources. ``--out`` defaults to the package's data folder.

This script is run by maintainers only; the planner never imports it.
"""

from __future__ import annotations

import argparse
import csv
import math
from dataclasses import dataclass
from pathlib import Path

from pricing.catalog import TABLES, load_catalog, parse_as_of

EPOCH = "https://epoch.ai/data/machine-learning-hardware"
LAMBDA_BENCH = "https://github.com/lambdal/deeplearning-benchmark"
SKYPILOT = "https://github.com/skypilot-org/skypilot-catalog"

# --------------------------------------------------------------------------------------------
# GPUs

SPEC_DATE = "2025-12"  # Epoch AI data (rows last modified up to 2025-12-16) and the curation
NAMES = {  # GPUs without an Epoch row: the marketing name and the vendor page
    "L40S": ("NVIDIA L40S", "https://www.nvidia.com/en-us/data-center/l40s/"),
    "A100-80GB-PCIe": ("NVIDIA A100 PCIe 80 GB", "https://www.nvidia.com/en-us/data-center/a100/"),
    "RTX-5090": (
        "NVIDIA GeForce RTX 5090",
        "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
    ),
    "RTX-A4500": (
        "NVIDIA RTX A4500",
        "https://www.nvidia.com/en-us/design-visualization/rtx-a4500/",
    ),
    "RTX-4000-Ada": (
        "NVIDIA RTX 4000 Ada Generation",
        "https://www.nvidia.com/en-us/design-visualization/rtx-4000/",
    ),
    "RTX-PRO-6000-Blackwell": (
        "NVIDIA RTX PRO 6000 Blackwell",
        "https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/",
    ),
}
HAND_FIELDS = {  # spec-file column -> catalog column, for the "hand-entered" note
    "memory_gb": "memory_gb",
    "memory_bandwidth_gbps": "memory_bandwidth_gb_per_s",
    "tdp_w": "tdp_watts",
    "fp16_bf16_tensor_dense_tflops": "peak_fp16_tflops",
    "fp32_tflops": "peak_fp32_tflops",
    "launch_price_usd": "street_price",
}
EXTRA_EPOCH_GPUS = {  # GPUs a free tier needs that the curated spec file lacks
    "quadro-m4000": "NVIDIA Quadro M4000",
}

# ncf is left out: its samples/s are not GPU-bound in these runs (the A100 40GB scores 1.24x the
# A100 80GB) and the 2022 rows lack it. maskrcnn is listed but the A100 baseline never has it.
MODELS = (
    "ssd",
    "bert_base_squad",
    "bert_large_squad",
    "gnmt",
    "maskrcnn",
    "resnet50",
    "tacotron2",
    "transformerxlbase",
    "transformerxllarge",
    "waveglow",
)
WORKLOADS = {
    "generic": MODELS,
    "cv": ("resnet50", "ssd", "maskrcnn"),
    "nlp": (
        "bert_base_squad",
        "bert_large_squad",
        "gnmt",
        "transformerxlbase",
        "transformerxllarge",
    ),
    "llm": ("transformerxllarge", "bert_large_squad"),
}
BENCH_MAIN = "lambda_benchmark_pytorch_train_throughput_fp16.csv"
BENCH_V1V2 = "lambda_benchmark_pytorch_train_throughput_v1v2_fp16.csv"
BASELINE = "A100 80GB SXM4"  # the 1-GPU row both files share; a100-80gb = 1.0
V1V2_DATE = "2025-12-10"
BENCH_ROWS = {  # GPU id -> (file, name_gpu of its 1-GPU row)
    "a10": (BENCH_MAIN, "LambdaCloud A10"),
    "v100-16gb": (BENCH_MAIN, "LambdaCloud V100 16GB"),
    "v100-32gb": (BENCH_MAIN, "V100 32GB"),
    "a100-40gb": (BENCH_MAIN, "A100 40GB SXM4"),
    "a100-80gb": (BENCH_MAIN, "A100 80GB SXM4"),
    "a100-80gb-pcie": (BENCH_MAIN, "A100 80GB PCIe"),
    "h100-80gb": (BENCH_MAIN, "H100 80GB SXM5"),
    "h100-80gb-pcie": (BENCH_MAIN, "H100 80GB PCIe Gen5"),
    "gh200": (BENCH_V1V2, "LambdaCloud 1x GH200 96GB"),
    "b200": (BENCH_V1V2, "LambdaCloud 1x B200 192GB SXM5"),
    "rtx-3090": (BENCH_MAIN, "RTX 3090"),
    "rtx-4090": (BENCH_MAIN, "RTX 4090"),
    "rtx-a6000": (BENCH_MAIN, "RTX A6000"),
    "rtx-6000-ada": (BENCH_MAIN, "RTX 6000 Ada"),
    "rtx-a5000": (BENCH_MAIN, "RTX A5000"),
    "rtx-a4500": (BENCH_MAIN, "RTX A4500"),
    "rtx-a4000": (BENCH_MAIN, "RTX A4000"),
    "a40": (BENCH_MAIN, "RTX A40"),
    "quadro-rtx-6000": (BENCH_MAIN, "Quadro RTX 6000"),
    "quadro-rtx-8000": (BENCH_MAIN, "Quadro RTX 8000"),
    "rtx-2080ti": (BENCH_MAIN, "RTX 2080Ti"),
    "rtx-3080": (BENCH_MAIN, "RTX 3080"),
    "gtx-1080ti": (BENCH_MAIN, "GTX 1080Ti"),
}

# --------------------------------------------------------------------------------------------
# Hand-curated street prices: GPUs that Lambda does not price and that have no launch price in
# the reference extract. None has an official list price from the vendor, so all are estimates.


@dataclass(frozen=True)
class StreetPrice:
    price: float | None  # USD; None: copy the price of `proxy`
    as_of: str | None  # None with a proxy: the proxy's date
    source: str | None  # None with a proxy: the proxy's source
    note: str
    proxy: str | None = None  # spec-file gpu_model whose price stands in


CHIPVERSUS = "https://chipversus.com/hardware/gpu/"
STREET_PRICES = {
    "t4": StreetPrice(
        1880,
        "2018-09-13",
        CHIPVERSUS + "tesla-t4",
        "street_price: MSRP at launch as listed by ChipVERSUS, not a current street price "
        "(the same page gives an average market price of about $1,000) (estimate)",
    ),
    "l4": StreetPrice(
        2345,
        "2023-03-21",
        CHIPVERSUS + "l4",
        "street_price: MSRP at launch as listed by ChipVERSUS (average market price there "
        "about $1,800; runlocalai.co quotes about $2,500 retail) (estimate)",
    ),
    "l40s": StreetPrice(
        8500,
        "2025-01",
        "https://datastorage.com/gpu/nvidia-l40s/",
        "street_price: midpoint of the ~$7k-$10k on-premise card price quoted by "
        "datastorage.com (rentgpu.org uses a $9,000 MSRP); the page is undated, so "
        "price_as_of is a conservative estimate (estimate)",
    ),
    "h100-nvl": StreetPrice(
        None,
        None,
        None,
        "street_price: no public price found; the per-GPU price Lambda assumes for the "
        "H100 80GB PCIe (a PCIe Hopper card like the NVL) stands in as a proxy (estimate)",
        proxy="H100-80GB-PCIe",
    ),
    "h200": StreetPrice(
        35000,
        "2026-06",
        "https://www.aiinframap.com/tools/chips/h100-vs-h200-vs-b200-tco",
        "street_price: 'mid-2026 typical' per-GPU price from trade-press surveys and "
        "secondary-market listings, +-20-40% by volume and quarter (awesomeagents.ai gives "
        "$25,000-35,000) (estimate)",
    ),
}

# --------------------------------------------------------------------------------------------
# Throughput of GPUs without a Lambda row, derived from a GPU that has one (all estimates).
#
# "specs": same architecture as `reference`; every workload column of the reference is scaled
#   by sqrt(tensor-TFLOPS ratio x memory-bandwidth ratio) (dense FP16 tensor peak and memory
#   bandwidth from the spec file). `low_power` GPUs (70-72 W boards) are further multiplied by
#   a low-power factor, the measured-over-predicted ratio of the 150 W A10 when the rule predicts it
#   from the 300 W RTX A6000 (same GA102 chip), because such boards cannot hold their boost
#   clocks (computed at build time, about 0.80).
# "clock": same chip, memory and board as `reference`; scaled by the non-tensor FP32 peak ratio,
#   i.e. the boost-clock ratio.
# "mlperf": scaled by measured throughput ratios between the GPU and `reference` in MLPerf
#   Training closed-division result logs (tracked_stats throughput, samples/s of an 8-GPU
#   system, the last full epochs/blocks of result_0); see MLPERF below.

MLPERF_V40 = "https://github.com/mlcommons/training_results_v4.0"
MLPERF_V50 = "https://github.com/mlcommons/training_results_v5.0"
MLPERF_V40_DATE = "2024-06-12"  # publication of MLPerf Training v4.0
MLPERF_V50_DATE = "2025-06-04"  # publication of MLPerf Training v5.0
# Measured samples/s of 8-GPU systems: benchmark -> (GPU system -> value).
# v4.0, NVIDIA's submissions, all with NGC 24.04 containers:
#   H100 = NVIDIA/results/eos_ngc24.04_*/<benchmark>/result_0.txt (1 node, 8x H100-SXM5-80GB)
#   H200 = NVIDIA/results/h200_ngc24.04_*/<benchmark>/result_0.txt (1 node, 8x H200-SXM5-141GB)
#   L40S = NVIDIA/results/l40s_n2_ngc24.04_*/<benchmark>/result_0.txt (2 nodes x 4 L40S, PCIe)
# v5.0 (llama2_70b_lora only):
#   MI300X = AMD/results/MI300X_EPYC_9575F_pytorch/llama2_70b_lora/result_0.txt (8x MI300X)
#   H200-v5 = Dell/results/1xXE9680Lx8H200-SXM-141GB/llama2_70b_lora/result_0.txt (8x H200)
MLPERF = {
    "resnet": {  # ResNet-50, MXNet, mean of epochs 32-35
        "H100": (57402.66 + 57141.56 + 57278.45 + 57255.75) / 4,
        "H200": (63705.93 + 63393.60 + 63529.64 + 63559.50) / 4,
        "L40S": (14813.53 + 14795.08 + 14814.39 + 14793.45) / 4,
    },
    "ssd": {  # RetinaNet (the "ssd" benchmark), PyTorch, last full epoch
        "H100": 291.019,
        "H200": 301.334,
        "L40S": 90.299,
    },
    "llama2_70b_lora": {  # Llama 2 70B LoRA fine-tuning, NeMo / PyTorch, last full blocks
        "H100": (2.155369 + 2.154987 + 2.155219) / 3,
        "H200": (2.477808 + 2.474862 + 2.476973) / 3,
        "H200-v5": (2.540324 + 2.540013 + 2.539554 + 2.540367) / 4,
        "MI300X": (2.027970 + 2.027279 + 2.028369) / 3,
    },
}
MLPERF_WORKLOADS = {  # catalog workload -> MLPerf benchmarks whose ratios are averaged
    "generic": ("resnet", "ssd", "llama2_70b_lora"),
    "cv": ("resnet", "ssd"),
    "nlp": ("llama2_70b_lora",),
    "llm": ("llama2_70b_lora",),
}


@dataclass(frozen=True)
class Derived:
    reference: str  # catalog id of a GPU with a Lambda row
    how: str  # "specs", "clock" or "mlperf"
    low_power: bool = False
    ratios: tuple[tuple[str, float], ...] = ()  # mlperf: (benchmark, GPU / reference)
    sources: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    note: str = ""


def _mlperf(bench: str, *chain: tuple[str, str]) -> tuple[str, float]:
    """(bench, product of the throughput ratios numerator / denominator along ``chain``)."""
    values = MLPERF[bench]
    return bench, math.prod(values[top] / values[bottom] for top, bottom in chain)


DERIVED = {
    "t4": Derived(
        "quadro-rtx-8000",
        "specs",
        low_power=True,
        note="Turing like the Quadro RTX 8000, whose 130.5 dense FP16 tensor TFLOPS are a "
        "hand-entered datasheet value (unverified)",
    ),
    "l4": Derived(
        "rtx-6000-ada", "specs", low_power=True, note="Ada (AD104) like the RTX 6000 Ada"
    ),
    "l40s": Derived(
        "rtx-6000-ada",
        "specs",
        note="same AD102 chip and core count as the RTX 6000 Ada; for comparison, MLPerf "
        "Training v4.0 measured 8x L40S (2 PCIe nodes) at 0.26x (ResNet-50) and 0.31x "
        "(RetinaNet) of 8x H100 SXM, i.e. lower with code tuned for Hopper and multi-node",
    ),
    "a10g": Derived(
        "a10",
        "clock",
        note="AWS's variant of the A10: same GA102 configuration, 24 GB / 600 GB/s and 150 W; "
        "Baseten (https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/) "
        "reports lower tensor throughput for the A10G, so tensor-bound jobs may be slower",
    ),
    "h200": Derived(
        "h100-80gb",
        "mlperf",
        ratios=tuple(
            _mlperf(bench, ("H200", "H100")) for bench in ("resnet", "ssd", "llama2_70b_lora")
        ),
        sources=(MLPERF_V40,),
        dates=(MLPERF_V40_DATE,),
        note="ratios of NVIDIA's 8x H200 and 8x H100 SXM submissions to MLPerf Training "
        "v4.0 (same software): ResNet-50, RetinaNet ('ssd'), Llama 2 70B LoRA",
    ),
    "mi300x": Derived(
        "h100-80gb",
        "mlperf",
        ratios=(_mlperf("llama2_70b_lora", ("MI300X", "H200-v5"), ("H200", "H100")),),
        sources=(MLPERF_V50, MLPERF_V40),
        dates=(MLPERF_V50_DATE, MLPERF_V40_DATE),
        note="Llama 2 70B LoRA only (AMD's only MLPerf Training benchmark): AMD's 8x MI300X "
        "over Dell's 8x H200 in v5.0, times NVIDIA's 8x H200 over 8x H100 in v4.0; "
        "vendor-tuned ROCm code, out-of-the-box training may be slower; no vision figure",
    ),
}
HAND_TENSOR_TFLOPS = {"quadro-rtx-8000": 130.5}  # dense FP16 tensor, NVIDIA datasheet (unverified)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def number(text: str | None) -> float | None:
    """A positive number, or None for blank, zero (= not run) and unparsable cells."""
    try:
        value = float(text) if text not in (None, "") else None
    except ValueError:
        return None
    return value if value and value > 0 else None


def fmt(value: float | None, digits: int = 6) -> str:
    """A number as short text: no trailing zeros, no float noise."""
    if value is None:
        return ""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


def oldest(*dates: str | None) -> str:
    return min((d for d in dates if d), key=parse_as_of)


def throughput(ref: Path) -> dict[str, tuple[dict[str, float], str, str]]:
    """GPU id -> (workload -> throughput vs a100-80gb, benchmark date, row label)."""
    files = {
        name: {r["name_gpu"]: r for r in read_csv(ref / name)} for name in (BENCH_MAIN, BENCH_V1V2)
    }
    result = {}
    for gpu_id, (file, label) in BENCH_ROWS.items():
        row, base = files[file][label], files[file][BASELINE]
        per_gpu = float(row["num_gpu"])
        ratios = {}
        for model in MODELS:
            value, reference = number(row.get(model)), number(base.get(model))
            if value and reference:
                ratios[model] = value / per_gpu / reference
        scores = {}
        for workload, models in WORKLOADS.items():
            found = [ratios[m] for m in models if m in ratios]
            if found:
                scores[workload] = math.exp(sum(map(math.log, found)) / len(found))
        when = row.get("source_commit_date") or V1V2_DATE
        result[gpu_id] = (
            scores,
            when,
            f"{label!r} ({'v1v2 file, ' if file == BENCH_V1V2 else ''}{when})",
        )
    return result


def _spec(spec: dict[str, str], key: str) -> float:
    gpu_id = spec["gpu_model"].lower()
    if key == "fp16_bf16_tensor_dense_tflops" and gpu_id in HAND_TENSOR_TFLOPS:
        return HAND_TENSOR_TFLOPS[gpu_id]
    value = number(spec[key])
    if value is None:
        raise ValueError(f"{gpu_id}: {key} is needed to derive a throughput estimate")
    return value


def spec_factor(target: dict[str, str], reference: dict[str, str]) -> float:
    """sqrt(dense FP16 tensor TFLOPS ratio x memory bandwidth ratio), target over reference."""
    return math.sqrt(
        _spec(target, "fp16_bf16_tensor_dense_tflops")
        / _spec(reference, "fp16_bf16_tensor_dense_tflops")
        * _spec(target, "memory_bandwidth_gbps")
        / _spec(reference, "memory_bandwidth_gbps")
    )


def derived_throughput(
    specs: dict[str, dict[str, str]],
    speeds: dict[str, tuple[dict[str, float], str, str]],
) -> dict[str, tuple[dict[str, float], list[str], list[str], str]]:
    """GPU id -> (workload -> estimate vs a100-80gb, dates, sources, note) for DERIVED."""
    a10, a6000 = speeds["a10"][0]["generic"], speeds["rtx-a6000"][0]["generic"]
    low_power = a10 / (a6000 * spec_factor(specs["a10"], specs["rtx-a6000"]))
    result = {}
    for gpu_id, how in DERIVED.items():
        base, base_date, base_label = speeds[how.reference]
        if how.how == "specs":
            factor = spec_factor(specs[gpu_id], specs[how.reference])
            scores = {w: s * factor for w, s in base.items()}
            method = (
                f"scaled by sqrt(dense FP16 tensor TFLOPS ratio x memory bandwidth ratio) "
                f"= {factor:.3f}"
            )
            if how.low_power:
                scores = {w: s * low_power for w, s in scores.items()}
                method += (
                    f" and by {low_power:.3f} for a low-power board (the A10's measured figure "
                    "over the same rule applied to the RTX A6000)"
                )
        elif how.how == "clock":
            factor = _spec(specs[gpu_id], "fp32_tflops") / _spec(
                specs[how.reference], "fp32_tflops"
            )
            scores = {w: s * factor for w, s in base.items()}
            method = f"scaled by the FP32 peak (boost clock) ratio = {factor:.3f}"
        else:
            ratios = dict(how.ratios)
            scores = {}
            for workload, benches in MLPERF_WORKLOADS.items():
                found = [ratios[b] for b in benches if b in ratios]
                if found and workload in base:
                    mean = math.exp(sum(map(math.log, found)) / len(found))
                    scores[workload] = base[workload] * mean
            method = (
                "scaled by MLPerf Training throughput ratios ("
                + ", ".join(f"{bench} {ratio:.3f}" for bench, ratio in how.ratios)
                + "; geometric mean per workload)"
            )
        note = (
            f"throughput: estimate from the Lambda 1-GPU row {base_label} of "
            f"{how.reference}, {method}; {how.note}"
        )
        result[gpu_id] = (
            scores,
            [base_date, *how.dates],
            [LAMBDA_BENCH, *how.sources],
            note,
        )
    return result


def build_gpus(ref: Path) -> list[dict[str, str]]:
    specs = read_csv(ref / "gpu_hardware_specs.csv")
    epoch = {r["hardware_name"]: r for r in read_csv(ref / "epoch_ml_hardware_trimmed.csv")}
    speeds = throughput(ref)
    by_id = {spec["gpu_model"].lower(): spec for spec in specs}
    derived = derived_throughput(by_id, speeds)
    rows = []
    for spec in specs:
        gpu_id = spec["gpu_model"].lower()
        epoch_name = spec["epoch_hardware_name"]
        name, vendor_page = NAMES.get(spec["gpu_model"], (epoch_name, None))
        sources, notes = [], []
        if epoch_name:
            sources.append(EPOCH)
        if vendor_page:
            sources.append(vendor_page)
        hand_fields = spec["spec_source"].partition("stored copy:")[2].replace(" ", "").split(",")
        hand = ", ".join(HAND_FIELDS[f] for f in hand_fields if f in HAND_FIELDS)
        if hand:
            notes.append(f"hand-entered datasheet values, unverified (estimate): {hand}")

        price, price_as_of = spec["reference_price_usd"], spec["reference_price_as_of"]
        if price:
            sources.append(LAMBDA_BENCH)
            notes.append(
                f"street_price: Lambda benchmark's assumed per-GPU price as of "
                f"{price_as_of}, a list-price proxy (estimate)"
            )
        elif spec["launch_price_usd"]:
            price, price_as_of = spec["launch_price_usd"], spec["launch_date"]
            notes.append(
                "street_price: launch/list price at release (Epoch AI or vendor), "
                "not a current street price (estimate)"
            )
        elif gpu_id in STREET_PRICES:
            curated = STREET_PRICES[gpu_id]
            price, price_as_of, source = curated.price, curated.as_of, curated.source
            if curated.proxy:
                proxy = by_id[curated.proxy.lower()]
                price, price_as_of = proxy["reference_price_usd"], proxy["reference_price_as_of"]
                source = LAMBDA_BENCH
            price = str(price)
            if source not in sources:
                sources.append(source)
            notes.append(curated.note)

        scores, bench_dates = {}, []
        if gpu_id in speeds:
            scores, bench_date, label = speeds[gpu_id]
            bench_dates.append(bench_date)
            if LAMBDA_BENCH not in sources:
                sources.append(LAMBDA_BENCH)
            approx = (
                " approximate: newer containers than the A100 baseline;"
                if BENCH_ROWS[gpu_id][0] == BENCH_V1V2
                else ""
            )
            notes.append(f"throughput: Lambda 1-GPU row {label};{approx} mixed precision")
        elif gpu_id in derived:
            scores, bench_dates, extra_sources, note = derived[gpu_id]
            sources += [s for s in extra_sources if s not in sources]
            notes.append(note)
        if spec["notes"]:
            notes.append(spec["notes"])
        rows.append(
            {
                "id": gpu_id,
                "name": name,
                "vendor": spec["vendor"],
                "memory_gb": fmt(number(spec["memory_gb"])),
                "memory_bandwidth_gb_per_s": fmt(number(spec["memory_bandwidth_gbps"])),
                "tdp_watts": fmt(number(spec["tdp_w"])),
                "peak_fp16_tflops": fmt(number(spec["fp16_bf16_tensor_dense_tflops"])),
                "peak_fp32_tflops": fmt(number(spec["fp32_tflops"])),
                "street_price": fmt(number(price)),
                "price_as_of": price_as_of if price else "",
                **{f"throughput_{w}": fmt(scores.get(w), 3) for w in WORKLOADS},
                "currency": "USD",
                # The price has its own date (price_as_of): a plan that uses only the specs and
                # throughput of a GPU is not dated by an old launch price.
                "as_of": oldest(SPEC_DATE, *bench_dates),
                "source": "; ".join(sources),
                "notes": "; ".join(notes),
            }
        )
    for gpu_id, epoch_name in EXTRA_EPOCH_GPUS.items():
        row = epoch[epoch_name]
        rows.append(
            {
                "id": gpu_id,
                "name": epoch_name,
                "vendor": row["manufacturer"],
                "memory_gb": fmt(number(row["memory_gb"])),
                "memory_bandwidth_gb_per_s": fmt(number(row["memory_bandwidth_gbps"])),
                "tdp_watts": fmt(number(row["tdp_w"])),
                "peak_fp16_tflops": fmt(number(row["tensor_fp16_bf16_tflops"])),
                "peak_fp32_tflops": fmt(number(row["fp32_tflops"])),
                "street_price": fmt(number(row["release_price_usd"])),
                "price_as_of": row["release_date"] if number(row["release_price_usd"]) else "",
                **{f"throughput_{w}": "" for w in WORKLOADS},
                "currency": "USD",
                "as_of": SPEC_DATE,
                "source": EPOCH,
                "notes": "Epoch AI row; added because the paperspace-free tier names it; "
                "no tensor cores",
            }
        )
    return rows


# --------------------------------------------------------------------------------------------
# Clouds

CLOUD_GPUS = {
    "T4",
    "L4",
    "A10",
    "A10G",
    "L40S",
    "V100-16GB",
    "V100-32GB",
    "A100-40GB",
    "A100-80GB",
    "A100-80GB-PCIe",
    "H100-80GB",
    "H100-80GB-PCIe",
    "H100-NVL",
    "H200",
    "B200",
    "MI300X",
    "RTX-4090",
    "RTX-A6000",
}
SPOT_INTERRUPTIONS_PER_HOUR = 0.05  # default estimate, see CATALOG.md


@dataclass(frozen=True)
class Provider:
    source: str
    as_of: str | None  # None: the date each source row carries
    billing_increment_minutes: float
    storage_per_gb_month: float  # USD
    note: str


PROVIDERS = {
    "aws": Provider(
        "https://instances.vantage.sh/",
        None,
        0,
        0.08,
        note=(
            "reserved_1y = 1-yr Standard RI, no upfront, Linux (effective hourly); "
            "no spot price in the source; storage = EBS gp3 us-east-1 list price "
            "(other regions differ: estimate)"
        ),
    ),
    "gcp": Provider(
        "https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator",
        None,
        0,
        0.10,
        note=(
            "full VM price incl. GPUs; spot = Spot VM price; reserved_1y/3y = committed-use "
            "price (monthly / 730); storage = pd-balanced US list price (estimate)"
        ),
    ),
    "azure": Provider(
        SKYPILOT,
        "2024-08",
        1,
        0.075,
        note=(
            "skypilot-catalog v6 snapshot 098741e, undated: as_of is an estimate (its prices "
            "match skypilot-catalog PR #79 of 2024-08-26); billed per full minute (estimate); "
            "storage = Standard SSD E30 ($76.80 / 1024 GiB per month, estimate)"
        ),
    ),
    "lambda": Provider(
        SKYPILOT,
        "2025-08",
        1,
        0.20,
        note=(
            "skypilot-catalog v8 snapshot 0f40703, undated: as_of is an estimate (earliest "
            "month its B200 types can date from); same price in all 17 regions the source "
            "lists; no spot market; storage = filesystem price (estimate)"
        ),
    ),
    "runpod": Provider(
        SKYPILOT,
        "2025-09",
        0,
        0.07,
        note=(
            "skypilot-catalog v7 snapshot 0727c2b, undated: as_of is an estimate (prices "
            "match sky show-gpus output in skypilot issue #7311 of 2025-09-22); secure "
            "cloud; same price in every listed data centre; storage = network volume"
        ),
    ),
}
ROW_NOTES = {  # phrase in a reference note -> what the catalog row says about it
    "uses H100 NVL": "NC H100 v5 is H100 NVL 94 GB (source label H100, corrected)",
    "AcceleratorCount=12": "source GPU count 12 corrected to 8",
    "spot left blank": "source spot price equals on-demand, left blank",
    "swapped back": "source spot and on-demand columns were swapped, corrected",
    "a3-mega": "a3-mega: H100 80GB with higher network bandwidth",
}


def build_clouds(ref: Path) -> list[dict[str, str]]:
    rows = []
    for src in read_csv(ref / "cloud_gpu_instances.csv"):
        provider = src["provider"]
        if src["gpu_model"] not in CLOUD_GPUS or provider not in PROVIDERS:
            continue
        if float(src["gpu_count"]) < 1 or float(src["gpu_count"]) != int(float(src["gpu_count"])):
            continue
        info = PROVIDERS[provider]
        spot = src["spot_usd_per_hr"]
        notes = [info.note]
        notes += [text for phrase, text in ROW_NOTES.items() if phrase in src["notes"]]
        if spot:
            notes.append("interruptions_per_hour: default estimate")
        rows.append(
            {
                "id": f"{provider}/{src['instance_type']}",
                "provider": provider,
                "instance": src["instance_type"],
                "region": src["region"],
                "gpu": src["gpu_model"].lower(),
                "gpus": str(int(float(src["gpu_count"]))),
                "gpu_memory_gb": fmt(number(src["gpu_memory_gb"])),
                "price_per_hour": src["ondemand_usd_per_hr"],
                "spot_price_per_hour": spot,
                "reserved_1y_price_per_hour": src["commit_1y_usd_per_hr"],
                "reserved_3y_price_per_hour": src["commit_3y_usd_per_hr"],
                "billing_increment_minutes": fmt(info.billing_increment_minutes),
                "interruptions_per_hour": fmt(SPOT_INTERRUPTIONS_PER_HOUR) if spot else "",
                "storage_per_gb_month": fmt(info.storage_per_gb_month),
                "currency": "USD",
                "as_of": info.as_of or src["as_of"],
                "source": info.source,
                "notes": "; ".join(notes),
            }
        )
    rows.sort(key=lambda r: (r["provider"], r["instance"].lower(), r["region"]))
    return rows


# --------------------------------------------------------------------------------------------
# Free tiers (curated by hand; see CATALOG.md for the reasoning behind each estimate)

FREE_TIERS = [
    {
        "id": "kaggle",
        "name": "Kaggle Notebooks",
        "provider": "Kaggle (Google)",
        "gpu": "t4",
        "gpus": "2",
        "gpu_memory_gb": "16",
        "session_hours": "12",
        "idle_timeout_minutes": "",
        "weekly_quota_hours": "30",
        "daily_quota_hours": "",
        "monthly_quota_hours": "",
        "fee_per_month": "0",
        "setup_minutes": "5",
        "availability": "0.95",
        "files_persist": "false",
        "currency": "USD",
        "as_of": "2025-11-21",
        "source": "https://www.kaggle.com/docs/notebooks",
        "notes": "2x T4 (or 1x P100) per session; about 30 GPU-hours a week, the quota floats "
        "week to week; 12 h sessions (secondary summaries, 2025-11); idle timeout not "
        "found; setup_minutes and availability are estimates; /kaggle/working is kept "
        "only when saved as a notebook version or dataset",
    },
    {
        "id": "colab-free",
        "name": "Google Colab (free)",
        "provider": "Google",
        "gpu": "t4",
        "gpus": "1",
        "gpu_memory_gb": "16",
        "session_hours": "12",
        "idle_timeout_minutes": "90",
        "weekly_quota_hours": "",
        "daily_quota_hours": "4",
        "monthly_quota_hours": "",
        "fee_per_month": "0",
        "setup_minutes": "10",
        "availability": "0.8",
        "files_persist": "false",
        "currency": "USD",
        "as_of": "2021-05",
        "source": "https://research.google.com/colaboratory/faq.html",
        "notes": "Colab publishes no GPU quota (usage limits are dynamic): daily_quota_hours 4 "
        "is a conservative estimate; 12 h maximum runtime per the FAQ (quoted 2021-05); "
        "90 min idle timeout is approximate (secondary, 2026-05); T4 typical but not "
        "guaranteed; setup_minutes and availability are estimates; the VM disk is "
        "wiped after a session (Google Drive can be mounted)",
    },
    {
        "id": "sagemaker-studio-lab",
        "name": "Amazon SageMaker Studio Lab",
        "provider": "AWS",
        "gpu": "t4",
        "gpus": "1",
        "gpu_memory_gb": "16",
        "session_hours": "4",
        "idle_timeout_minutes": "",
        "weekly_quota_hours": "",
        "daily_quota_hours": "4",
        "monthly_quota_hours": "",
        "fee_per_month": "0",
        "setup_minutes": "5",
        "availability": "0.7",
        "files_persist": "true",
        "currency": "USD",
        "as_of": "2023-07-06",
        "source": "https://studiolab.sagemaker.aws/faq",
        "notes": "4 GPU-hours per session and at most 4 per rolling 24 h (AWS maintainer in "
        "github.com/aws/studio-lab-examples/issues/221, 2023-07-06); account request "
        "required; GPU model T4 not verified (estimate); 'no runtime available' at peak: "
        "availability is an estimate; project storage persists; setup_minutes estimate",
    },
    {
        "id": "paperspace-free",
        "name": "Paperspace Gradient Free-GPU",
        "provider": "Paperspace (DigitalOcean)",
        "gpu": "quadro-m4000",
        "gpus": "1",
        "gpu_memory_gb": "8",
        "session_hours": "6",
        "idle_timeout_minutes": "",
        "weekly_quota_hours": "",
        "daily_quota_hours": "",
        "monthly_quota_hours": "",
        "fee_per_month": "0",
        "setup_minutes": "10",
        "availability": "0.3",
        "files_persist": "true",
        "currency": "USD",
        "as_of": "2021-01",
        "source": "https://github.com/Paperspace/Docs/blob/8e2711c07cafd26706882ee21817b98bc16"
        "2260a/instances/free-instances.md",
        "notes": "Free-GPU+ (Quadro M4000) from an old docs commit (undated, circa 2020-2021: "
        "as_of is an estimate); 6 h sessions; no quota published, the free machines are "
        "a limited shared pool: availability 0.3 is an estimate; notebooks are public; "
        "5 GB persistent storage; current free GPU model not re-verified; Gradient "
        "CLI/API deprecated 2024-07-15; setup_minutes estimate",
    },
]


# --------------------------------------------------------------------------------------------


def write_csv(path: Path, table: str, rows: list[dict[str, str]]) -> None:
    columns = [c.name for c in TABLES[table]]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path, help="folder of the reference extract")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "data")
    args = parser.parse_args()
    outputs = {
        "gpus": ("gpus.csv", build_gpus(args.reference)),
        "clouds": ("clouds.csv", build_clouds(args.reference)),
        "free-tiers": ("free_tiers.csv", FREE_TIERS),
    }
    for table, (filename, rows) in outputs.items():
        write_csv(args.out / filename, table, rows)
        print(f"{filename}: {len(rows)} rows")
    load_catalog([args.out / filename for filename, _ in outputs.values()], builtin=False)


if __name__ == "__main__":
    main()
