"""What a log holds once read: utilization samples of GPUs, or GPU jobs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: One reading as a reader yields it: the GPU's key, the time [s since the epoch],
#: utilization [%] and power [W, None where the log has none].
Sample = tuple[str, float, float, "float | None"]


@dataclass
class GpuSamples:
    """The samples of one GPU: times [s since the epoch], utilization [%], power [W, None
    where the log has none], in the order read."""

    gpu: str
    times: list[float] = field(default_factory=list)
    utilization: list[float] = field(default_factory=list)
    power: list[float | None] = field(default_factory=list)

    def add(self, time_s: float, utilization_percent: float, power_watts: float | None) -> None:
        """One more sample."""
        self.times.append(time_s)
        self.utilization.append(utilization_percent)
        self.power.append(power_watts)


@dataclass(frozen=True)
class Job:
    """One Slurm job with GPUs: its start and end [s since the epoch], its elapsed time [h]
    and the GPUs allocated to it."""

    start: float
    end: float
    elapsed_hours: float
    gpus: int


def collect(samples: Iterable[Sample]) -> list[GpuSamples]:
    """The readings of ``samples`` grouped by GPU, in the order read."""
    gpus: dict[str, GpuSamples] = {}
    for gpu, when, busy, power in samples:
        into = gpus.get(gpu)
        if into is None:
            into = gpus[gpu] = GpuSamples(gpu)
        into.add(when, busy, power)
    return list(gpus.values())
