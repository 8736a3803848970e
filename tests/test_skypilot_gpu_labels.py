"""The names an export to SkyPilot prices (pricing.accelerators.skypilot_names) include the name
SkyPilot itself gives a Kubernetes node whose GPU is labelled by NVIDIA's GPU feature discovery
(``nvidia.com/gpu.product``).

SkyPilot's rule, restated here (GFDLabelFormatter.get_accelerator_from_label_value in
sky/provision/kubernetes/utils.py; its cases in tests/unit_tests/kubernetes/
test_gpu_label_formatters.py at skypilot-org/skypilot 16f394cd75927964608b17912fddb4ced9715c22,
e.g. NVIDIA-H100-80GB-HBM3 -> H100-80GB, NVIDIA-RTX-A6000 -> A6000): the first name of
CANONICAL_GPU_NAMES (sky/utils/gpu_names.py, 4e419473d532290b3837fe09c6cb2dc6d9f79f82) found
in the label as a whole word, where ``H100-80GB`` and ``A100-80GB`` stand for "H100 (or A100),
then anything, then -80GB"; with none found, the label upper-cased without ``NVIDIA-`` and
``GEFORCE-`` and with ``RTX-`` joined to what follows.

The labels are the product names GPU feature discovery writes, as node selectors of public
Kubernetes manifests and SkyPilot's own docstring spell them (pricing/CATALOG.md, "Decisions
of the third pass").
"""

from __future__ import annotations

import re

import pytest

from pricing.accelerators import skypilot_names

# The part of CANONICAL_GPU_NAMES (same order) that the labels below can meet.
CANONICAL = ["GB200", "B200", "GH200", "H200", "H100-80GB", "H100-MEGA", "H100", "A100-80GB",
             "A100", "A10G", "A10", "A30", "A40", "RTX6000-Ada", "L40S", "L40", "L4", "A6000",
             "A5000", "A4000", "V100-32GB", "V100", "P100", "T4"]


def skypilot_kubernetes_name(label: str) -> str:
    """SkyPilot's name for a node labelled ``nvidia.com/gpu.product=label`` (rule above)."""
    for name in CANONICAL:
        if name in ("H100-80GB", "A100-80GB"):
            if re.search(name[:4] + r".*-80GB", label):
                return name
        elif re.search(rf"\b{re.escape(name)}\b", label):
            return name
    return label.upper().replace("NVIDIA-", "").replace("GEFORCE-", "").replace("RTX-", "RTX")


def test_the_rule_gives_skypilots_own_cases():
    # From SkyPilot's test file named above: these must come out as SkyPilot has them, or the
    # restatement is wrong.
    assert skypilot_kubernetes_name("NVIDIA-H100-80GB-HBM3") == "H100-80GB"
    assert skypilot_kubernetes_name("NVIDIA-H100-SXM") == "H100"
    assert skypilot_kubernetes_name("NVIDIA-A100-SXM4-40GB") == "A100"
    assert skypilot_kubernetes_name("NVIDIA-L40S-48GB") == "L40S"
    assert skypilot_kubernetes_name("NVIDIA-RTX-A6000") == "A6000"
    assert skypilot_kubernetes_name("NVIDIA-GEFORCE-RTX-3090") == "RTX3090"


@pytest.mark.parametrize(("gpu", "label", "name"), [
    ("h100-80gb", "NVIDIA-H100-80GB-HBM3", "H100-80GB"),  # the SXM card
    ("h100-nvl", "NVIDIA-H100-NVL", "H100"),  # 94 GB, PCIe with NVLink bridges
    ("h100-80gb-pcie", "NVIDIA-H100-PCIe", "H100"),
    ("a100-80gb", "NVIDIA-A100-SXM4-80GB", "A100-80GB"),
    ("a100-80gb-pcie", "NVIDIA-A100-80GB-PCIe", "A100-80GB"),
    ("rtx-4090", "NVIDIA-GeForce-RTX-4090", "RTX4090"),
    ("rtx-a6000", "NVIDIA-RTX-A6000", "A6000"),
    ("l4", "NVIDIA-L4", "L4"),
])
def test_an_export_prices_the_name_skypilot_gives_the_node(gpu, label, name):
    assert skypilot_kubernetes_name(label) == name
    assert name in skypilot_names(gpu)
