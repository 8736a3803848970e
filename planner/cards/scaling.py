"""Scaling efficiency of a job spread over several GPUs (SPEC §8): the table behind
``scaling_efficiency: auto``.

The efficiency E of a job of g GPUs is the share of the linear speed-up g it reaches: g GPUs
do the work of g × E of them. Inside one instance or machine it depends on how the GPUs are
connected (``pcie``, ``nvlink``, ``nvswitch``: the catalog's interconnects table); a job wider
than one instance or machine takes the figure of the network between them (``infiniband``,
``rdma``, ``ethernet``). The figures and their sources are in ``pricing/CATALOG.md``
("Scaling efficiency"); a test checks that the two agree.

Between the anchors of a connection, E is linear in log2(g); beyond its last anchor the last
segment's slope goes on, down to :data:`LOWEST_TABLE_EFFICIENCY` at least.
"""

from __future__ import annotations

import numpy as np

#: Connection inside one instance or machine -> anchors (GPUs, efficiency), g = 1 first.
WITHIN: dict[str, tuple[tuple[float, float], ...]] = {
    # 4 GPUs on PCIe with a good framework: 3.6-3.8x (Dettmers); 3.7 / 4.
    "pcie": ((1, 1.0), (4, 0.925)),
    # 8 GPUs on NVLink (DGX-1, V100) and NVSwitch (DGX A100): 6.72-7.76x of 8, 0.84-0.97 per
    # GPU (NVIDIA DeepLearningExamples, ResNet-50 v1.5); 0.90 between the two ends.
    "nvlink": ((1, 1.0), (8, 0.90)),
    "nvswitch": ((1, 1.0), (8, 0.90)),
}
#: Network between instances or machines -> the efficiency of a job that spans them.
ACROSS: dict[str, float] = {
    # Horovod's benchmark: 90% on 512 GPUs (128 servers) over 25 Gbit/s RoCE for Inception V3
    # and ResNet-101 (68% for VGG-16). InfiniBand: at least as fast a fabric, the same figure.
    "infiniband": 0.90,
    "rdma": 0.90,
    # Plain TCP (estimate): leans on the communication-heavy end of the same benchmark.
    "ethernet": 0.70,
}
#: No figure of the table is below this; a job that scales worse gives its own number.
LOWEST_TABLE_EFFICIENCY = 0.5


def within_efficiency(interconnect: str, gpus) -> np.ndarray:
    """Efficiency of a job of ``gpus`` GPUs inside one instance or machine whose GPUs are
    connected by ``interconnect``; 1 for one GPU. Broadcasts over ``gpus``. [fraction]

    >>> float(within_efficiency("pcie", 4))
    0.925
    >>> float(within_efficiency("nvswitch", 2))  # a third of the way from 1 to 8 in log2
    0.9666666666666667
    """
    anchors = WITHIN[interconnect]
    x = np.log2(np.maximum(np.asarray(gpus, dtype=float), 1.0))
    xs = np.log2([g for g, _ in anchors])
    ys = np.array([e for _, e in anchors])
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    inside = np.interp(x, xs, ys)
    beyond = ys[-1] + slope * (x - xs[-1])
    return np.maximum(np.where(x > xs[-1], beyond, inside), LOWEST_TABLE_EFFICIENCY)


def auto_efficiency(interconnect: str, across_machines: str, gpus, gpus_per_machine):
    """SPEC §8's ``auto``: the efficiency of a job of ``gpus`` GPUs on an option whose
    instances or machines hold ``gpus_per_machine`` GPUs each: inside one of them
    :func:`within_efficiency`, wider the figure of ``across_machines``; 1 for one GPU.
    Broadcasts. [fraction]

    >>> float(auto_efficiency("nvswitch", "infiniband", 16, 8))  # two 8-GPU instances
    0.9
    """
    g = np.asarray(gpus, dtype=float)
    wide = g > np.asarray(gpus_per_machine, dtype=float)
    inside = within_efficiency(interconnect, g)
    return np.where(g <= 1, 1.0, np.where(wide, ACROSS[across_machines], inside))
