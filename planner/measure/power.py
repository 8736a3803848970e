"""Power drawn during a benchmark: NVML read in a thread, and the samples averaged.

:class:`PowerSampler` reads every GPU's board power (``nvmlDeviceGetPowerUsage``, milliwatts)
every ``interval_s`` seconds while a benchmark runs; :func:`mean_watts` averages one GPU's
samples over time (trapezoids between samples, so an uneven interval weighs each reading by
the time it stands for). Without nvidia-ml-py or without NVML the sampler records nothing and
the power reads as unknown.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Sequence

__all__ = ["PowerSampler", "mean_watts"]


def mean_watts(samples: Sequence[tuple[float, float]]) -> float | None:
    """The time-weighted mean power [W] of ``(time_s, watts)`` samples in time order: the
    area under the line through them over their span. One sample is its own mean; none is
    None."""
    if not samples:
        return None
    if len(samples) == 1 or samples[-1][0] <= samples[0][0]:
        return sum(w for _, w in samples) / len(samples)
    area = sum((t1 - t0) * (w0 + w1) / 2.0
               for (t0, w0), (t1, w1) in itertools.pairwise(samples))
    return area / (samples[-1][0] - samples[0][0])


class PowerSampler:
    """A thread that samples the power of the GPUs ``indices`` (NVML indices) until stopped.

    Use as a context manager around the timed part of a benchmark; :meth:`watts` is then the
    mean power per GPU [W] over the GPUs sampled (None without readings).
    """

    def __init__(self, indices: Sequence[int], interval_s: float = 0.1):
        self.indices = list(indices)
        self.interval_s = interval_s
        self.samples: dict[int, list[tuple[float, float]]] = {i: [] for i in self.indices}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._nvml = None
        self._handles: list = []

    def __enter__(self):
        try:
            import pynvml  # nvidia-ml-py
        except ImportError:  # no nvidia-ml-py: power unknown
            return self
        try:
            pynvml.nvmlInit()
            self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in self.indices]
        except pynvml.NVMLError:  # no driver, no permission: power unknown
            return self
        self._nvml = pynvml
        self._thread = threading.Thread(target=self._run, name="planner-power", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._nvml is not None:
            with contextlib.suppress(self._nvml.NVMLError):
                self._nvml.nvmlShutdown()

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.perf_counter()
            for index, handle in zip(self.indices, self._handles):
                with contextlib.suppress(self._nvml.NVMLError):  # a reading missed
                    milliwatts = self._nvml.nvmlDeviceGetPowerUsage(handle)
                    self.samples[index].append((now, milliwatts / 1000.0))
            self._stop.wait(self.interval_s)

    def watts(self) -> float | None:
        """The mean over the sampled GPUs of each one's time-weighted mean power [W]."""
        means = [m for m in (mean_watts(s) for s in self.samples.values()) if m is not None]
        return sum(means) / len(means) if means else None
