"""What a log holds once read: utilization samples of GPUs, or GPU jobs."""

from __future__ import annotations

from dataclasses import dataclass, field


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
