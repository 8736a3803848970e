"""What a benchmark measured: one run per model, precision and GPU count, and the whole
measurement with the device it ran on."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from planner.measure.reference import MODELS, REFERENCE_GPU, relative_columns, relative_speed

__all__ = ["Device", "Measurement", "Run", "scaling_efficiency"]


@dataclass(frozen=True)
class Run:
    """One timed benchmark: ``model`` in ``precision`` (``mixed`` or ``fp32``) on ``gpus``
    GPUs, ``batch`` samples per GPU a step, ``steps`` timed steps in ``seconds``;
    ``per_second`` samples (images or tokens) a second over all its GPUs; ``watts`` the mean
    power per GPU during the timed steps (None without NVML); ``dtype`` what mixed precision
    ran in (``bfloat16``, ``float16``; ``tf32`` or ``float32`` for FP32 runs)."""

    model: str
    precision: str
    gpus: int
    batch: int
    steps: int
    seconds: float
    per_second: float
    watts: float | None
    dtype: str

    @property
    def unit(self) -> str:
        """What a sample is: ``images`` or ``tokens``."""
        return MODELS[self.model].unit

    @property
    def per_second_per_gpu(self) -> float:
        return self.per_second / self.gpus

    @property
    def relative(self) -> float:
        """Throughput per GPU in units of the reference A100's mixed-precision throughput."""
        return relative_speed(self.model, self.per_second_per_gpu)

    @property
    def joules_per_sample(self) -> float | None:
        """Energy of one sample on one GPU [J]: watts per GPU over samples/s per GPU."""
        if self.watts is None or self.per_second <= 0:
            return None
        return self.watts / self.per_second_per_gpu


def scaling_efficiency(single_per_second: float, per_second: float, gpus: int) -> float:
    """The share of linear speed-up ``gpus`` GPUs reach: their samples/s over ``gpus`` times
    one GPU's (SPEC §8's ``scaling_efficiency``)."""
    return per_second / (gpus * single_per_second)


@dataclass(frozen=True)
class Device:
    """The GPU measured: the driver's name, memory [GiB], how many there are, the catalog id
    it was taken for (None when unknown) and the software that ran."""

    name: str
    memory_gib: float
    count: int
    catalog_id: str | None
    torch_version: str
    cuda_version: str | None


@dataclass(frozen=True)
class Measurement:
    """Every run of one ``planner measure``, on :attr:`device`, on the date ``date``
    (``YYYY-MM-DD``)."""

    device: Device
    date: str
    runs: list[Run] = field(default_factory=list)

    def single(self) -> list[Run]:
        """The one-GPU runs."""
        return [r for r in self.runs if r.gpus == 1]

    def columns(self) -> dict[str, float]:
        """The catalog's ``throughput_*`` columns (no prefix) from the one-GPU runs."""
        return relative_columns({(r.model, r.precision): r.per_second for r in self.single()})

    def scaling(self) -> list[tuple[Run, float]]:
        """Each run on several GPUs with its scaling efficiency against the one-GPU run of the
        same model and precision."""
        single = {(r.model, r.precision): r for r in self.single()}
        return [(r, scaling_efficiency(single[(r.model, r.precision)].per_second,
                                       r.per_second, r.gpus))
                for r in self.runs if r.gpus > 1 and (r.model, r.precision) in single]

    def to_dict(self) -> dict:
        """The measurement as JSON data: device, date, reference GPU, runs (with their
        relative speed and energy per sample), catalog columns and scaling efficiencies."""
        return {
            "device": asdict(self.device), "date": self.date, "reference_gpu": REFERENCE_GPU,
            "runs": [{**asdict(r), "unit": r.unit, "relative_speed": r.relative,
                      "joules_per_sample": r.joules_per_sample} for r in self.runs],
            "throughput": {f"throughput_{k}": v for k, v in self.columns().items()},
            "scaling": [{"model": r.model, "precision": r.precision, "gpus": r.gpus,
                         "scaling_efficiency": e} for r, e in self.scaling()],
        }
