"""The catalog's tables, as data: for each table its columns (name, type, unit, meaning,
required), the file it ships in and the other names it answers to.

``pricing/CATALOG.md`` documents the same columns with their sources; a test checks that it
names every one. This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ACROSS_MACHINES", "ANY_REGION", "FILES", "INTERCONNECTS", "QUOTA_RESETS", "TABLES",
           "TABLE_ALIASES", "THROUGHPUT_PREFIX", "Column"]

ANY_REGION = "*"
"""Region of a row whose price holds in every region the source lists."""

THROUGHPUT_PREFIX = "throughput_"
"""Prefix of the gpus columns of relative throughput, one per workload (and precision)."""

@dataclass(frozen=True)
class Column:
    """One column of a catalog table: its type, unit and meaning."""

    name: str
    kind: str  # "str", "float", "int", "bool" or "date"
    unit: str
    description: str
    required: bool = False


def _money(name: str, description: str, required: bool = False) -> Column:
    return Column(name, "float", "currency", description, required)


_PROVENANCE = (
    Column("currency", "str", "ISO 4217", "currency of every money value in the row", True),
    Column("as_of", "date", "YYYY-MM-DD or YYYY-MM", "date of the data in the row", True),
    Column("source", "str", "URLs", "original public sources, separated by '; '", True),
    Column("notes", "str", "", "caveats; 'estimate' marks estimated or unverified values"),
)

QUOTA_RESETS = ("daily", "weekly", "monthly", "rolling-24h", "none")
"""Values of a free tier's ``quota_reset``: when its quotas refill."""

INTERCONNECTS = ("pcie", "nvlink", "nvswitch")
"""Values of ``interconnect``: how the GPUs of one instance or machine are connected."""

ACROSS_MACHINES = ("infiniband", "rdma", "ethernet")
"""Values of ``across_machines``: the network between instances or machines."""

TABLES: dict[str, tuple[Column, ...]] = {
    "gpus": (
        Column("id", "str", "", "lowercase GPU id, e.g. a100-80gb", True),
        Column("name", "str", "", "marketing name", True),
        Column("vendor", "str", "", "NVIDIA, AMD, ..."),
        Column("memory_gb", "float", "GB", "memory per GPU"),
        Column("memory_bandwidth_gb_per_s", "float", "GB/s", "memory bandwidth per GPU"),
        Column("tdp_watts", "float", "W", "board or module TDP"),
        Column("peak_fp16_tflops", "float", "TFLOP/s", "dense FP16/BF16 tensor peak"),
        Column("peak_fp32_tflops", "float", "TFLOP/s", "non-tensor FP32 peak"),
        _money("street_price", "purchase price of one GPU at price_as_of"),
        Column("price_as_of", "date", "YYYY-MM-DD or YYYY-MM", "date of street_price"),
        _money("launch_price", "launch / list price of one GPU at launch_date"),
        Column("launch_date", "date", "YYYY-MM-DD or YYYY-MM", "launch date of the GPU"),
        Column("throughput_generic", "float", "x a100-80gb", "relative training throughput"),
        Column("throughput_cv", "float", "x a100-80gb", "relative throughput, vision models"),
        Column("throughput_nlp", "float", "x a100-80gb", "relative throughput, NLP models"),
        Column("throughput_llm", "float", "x a100-80gb", "relative throughput, large LMs"),
        Column("throughput_generic_fp32", "float", "x a100-80gb", "FP32/TF32 training throughput"),
        Column("throughput_cv_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, vision"),
        Column("throughput_nlp_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, NLP"),
        Column("throughput_llm_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, large LMs"),
        *_PROVENANCE,
    ),
    "clouds": (
        Column("id", "str", "", "provider/instance, e.g. aws/p4d.24xlarge", True),
        Column("provider", "str", "", "lowercase provider: aws, gcp, azure, lambda, ...", True),
        Column("instance", "str", "", "instance type as the provider spells it", True),
        Column("region", "str", "", "provider region; '*' = same price in every region"),
        Column("gpu", "str", "", "GPU id in gpus.csv"),
        Column("gpus", "int", "GPUs", "GPUs per instance", True),
        Column("gpu_memory_gb", "float", "GB", "memory per GPU"),
        _money("price_per_hour", "on-demand price per instance-hour", required=True),
        _money("spot_price_per_hour", "spot / preemptible price per instance-hour"),
        _money("reserved_1y_price_per_hour", "1-year commitment, effective per instance-hour"),
        _money("reserved_3y_price_per_hour", "3-year commitment, effective per instance-hour"),
        Column("billing_increment_minutes", "float", "min", "rented time is rounded up to it"),
        Column("interruptions_per_hour", "float", "1/h", "expected spot interruptions"),
        _money("storage_per_gb_month", "block / persistent storage per GB-month"),
        *_PROVENANCE,
    ),
    "free-tiers": (
        Column("id", "str", "", "tier id, e.g. kaggle", True),
        Column("name", "str", "", "product name", True),
        Column("provider", "str", "", "company running the tier"),
        Column("gpu", "str", "", "GPU id in gpus.csv"),
        Column("gpus", "int", "GPUs", "GPUs per session (empty = 1)"),
        Column("gpu_memory_gb", "float", "GB", "memory per GPU"),
        Column("session_hours", "float", "h", "longest session (wall clock)"),
        Column("idle_timeout_minutes", "float", "min", "idle time before a session ends"),
        Column("weekly_quota_hours", "float", "h", "GPU session hours per week"),
        Column("daily_quota_hours", "float", "h", "GPU session hours per day"),
        Column("monthly_quota_hours", "float", "h", "GPU session hours per month"),
        _money("fee_per_month", "subscription fee"),
        Column("setup_minutes", "float", "min", "time lost setting up each session"),
        Column("availability", "float", "fraction", "share of requests that get a GPU"),
        Column("files_persist", "bool", "", "files survive between sessions"),
        Column("gpu_options", "str", "id:share;...", "GPUs handed out at random, with shares"),
        Column("quota_reset", "str", "", "when quotas refill: " + ", ".join(QUOTA_RESETS)),
        Column("frameworks", "str", "name;...", "lowercase frameworks allowed (empty = any)"),
        Column("download_mb_per_s", "float", "MB/s", "typical rate a session fetches data at"),
        Column("compute_units_per_month", "float", "units", "compute units the fee buys a month"),
        Column("compute_units_per_hour", "float", "units/h", "compute units an hour of gpu uses"),
        *_PROVENANCE,
    ),
    "regions": (
        Column("id", "str", "", "lowercase region id: us, us-ca, eu, de, gb, jp, ...", True),
        Column("name", "str", "", "country, state or union", True),
        _money("electricity_household_per_kwh", "household retail price of 1 kWh, taxes included"),
        _money("electricity_business_per_kwh", "non-household price of 1 kWh, excluding VAT"),
        Column("carbon_kg_per_kwh", "float", "kg CO2e/kWh", "grid carbon intensity"),
        *_PROVENANCE,
        Column("household_as_of", "date", "YYYY-MM-DD or YYYY-MM",
               "date of the household price where it is newer than as_of (empty: as_of)"),
        Column("business_as_of", "date", "YYYY-MM-DD or YYYY-MM",
               "date of the business price where it is newer than as_of (empty: as_of)"),
    ),
    "site-kinds": (
        Column("id", "str", "", "home-office, server-closet, colocation, hyperscale", True),
        Column("name", "str", "", "description", True),
        Column("pue", "float", "ratio", "facility energy / IT energy (>= 1)", True),
        *_PROVENANCE[1:],
    ),
    "systems": (
        Column("id", "str", "", "lowercase system id, e.g. workstation-4gpu, server-8gpu-sxm",
               True),
        Column("name", "str", "", "description", True),
        Column("gpu_slots", "int", "GPUs", "GPUs the system takes"),
        _money("system_price", "non-GPU parts: chassis, CPUs, RAM, disks, PSUs, NICs"),
        Column("non_gpu_power_watts", "float", "W", "power of everything but the GPUs, at load"),
        Column("idle_power_watts", "float", "W", "power of everything but the GPUs, idle"),
        *_PROVENANCE,
    ),
    "interconnects": (
        Column("id", "str", "", "cloud id provider/instance, system id, or a GPU id (the "
               "default for instances and machines of that GPU without a row of their own)",
               True),
        Column("interconnect", "str", "", "GPU to GPU inside one instance or machine: "
               + ", ".join(INTERCONNECTS), True),
        Column("across_machines", "str", "", "network between instances or machines: "
               + ", ".join(ACROSS_MACHINES), True),
        *_PROVENANCE[1:],
    ),
}
"""Table name -> its columns, in the order of its file."""

FILES = {
    "gpus": "gpus.csv",
    "clouds": "clouds.csv",
    "free-tiers": "free_tiers.csv",
    "regions": "regions.csv",
    "site-kinds": "site_kinds.csv",
    "systems": "systems.csv",
    "interconnects": "interconnects.csv",
}
"""Table name -> the file of ``pricing/data`` it ships in."""

TABLE_ALIASES = {
    "free_tiers": "free-tiers",
    "free-tier": "free-tiers",
    "gpu": "gpus",
    "cloud": "clouds",
    "region": "regions",
    "site_kinds": "site-kinds",
    "site-kind": "site-kinds",
    "system": "systems",
    "interconnect": "interconnects",
}
"""Other names of the tables, accepted by :meth:`pricing.catalog.Catalog.rows` and ``ids``."""
