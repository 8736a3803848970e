"""Running the benchmark: a model's training steps timed on one GPU, or on several with DDP.

One run builds its model, makes one synthetic batch, takes ``warmup`` untimed steps, then timed
steps until ``seconds`` have passed (checking the clock every few steps, after synchronising
the GPU) or, on several GPUs, the same number of steps the one-GPU run took. NVML power is
sampled over the timed steps. A batch that does not fit is halved until it does.

Several GPUs: one process a GPU (``torch.multiprocessing.spawn``), ``DistributedDataParallel``
over NCCL, the one-GPU run's batch on each GPU. NVLink multicast stays off
(``NCCL_NVLS_ENABLE=0``, and PyTorch's and NVSHMEM's switches likewise), as it must on shared
hosts. CUDA and NVML number the GPUs alike (``CUDA_DEVICE_ORDER=PCI_BUS_ID``).

PyTorch is imported inside the functions; :func:`probe` says, without a traceback, why no
benchmark can run.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from planner.measure.models import GPT_SHAPE, GptShape
from planner.measure.power import PowerSampler
from planner.measure.results import Device, Measurement, Run

__all__ = ["DEFAULT_BATCH", "MeasureUnavailable", "Spec", "gpu_counts", "measure", "probe"]

#: Samples per GPU a step: DeepLearningExamples' ResNet-50 batch, BERT-large's of Lambda's runs.
DEFAULT_BATCH = {"resnet50": 256, "transformer": 32}
#: The clock is read (after a synchronisation) every this many timed steps.
CHECK_EVERY = 5
#: Environment every process of a run gets: NVLink multicast off, GPUs numbered as NVML does.
ENVIRONMENT = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
               "NVSHMEM_DISABLE_NVLS": "1", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"}


class MeasureUnavailable(Exception):
    """No benchmark can run here: no PyTorch, or no CUDA GPU. The message says which."""


NO_TORCH = ("planner measure needs PyTorch, which is not installed: "
            "pip install 'gpu-planner[measure]' (PyTorch and nvidia-ml-py)")
NO_GPU = ("planner measure found no CUDA GPU (torch.cuda.is_available() is False): it "
          "measures training on the GPUs of this machine, so run it where they are")


def probe() -> Device:
    """The first GPU and the software here; :class:`MeasureUnavailable` without PyTorch or
    without a CUDA GPU."""
    os.environ.update(ENVIRONMENT)  # before CUDA starts
    try:
        import torch
    except ImportError:
        raise MeasureUnavailable(NO_TORCH) from None
    if not torch.cuda.is_available():
        raise MeasureUnavailable(NO_GPU)
    properties = torch.cuda.get_device_properties(0)
    return Device(name=properties.name, memory_gib=properties.total_memory / 2**30,
                  count=torch.cuda.device_count(), catalog_id=None,
                  torch_version=torch.__version__.split("+")[0],
                  cuda_version=torch.version.cuda)


def gpu_counts(available: int) -> list[int]:
    """The GPU counts scaling is measured at: 2, 4, 8, … below ``available``, and
    ``available`` itself (none for one GPU)."""
    counts, n = [], 2
    while n < available:
        counts.append(n)
        n *= 2
    return counts + ([available] if available > 1 else [])


@dataclass(frozen=True)
class Spec:
    """One run to make: ``model`` in ``precision``, ``batch`` per GPU, ``seconds`` timed (or
    exactly ``steps`` timed steps), after ``warmup`` steps."""

    model: str
    precision: str
    batch: int
    seconds: float
    warmup: int
    steps: int | None = None
    shape: GptShape = GPT_SHAPE


def measure(models: Sequence[str], precisions: Sequence[str], *, seconds: float = 10.0,
            warmup: int = 10, max_gpus: int | None = None, catalog_id: str | None = None,
            batch: dict[str, int] | None = None, shape: GptShape = GPT_SHAPE,
            progress: Callable[[str], None] = lambda _: None) -> Measurement:
    """Every model in every precision on one GPU, then (with several GPUs, up to
    ``max_gpus``) data-parallel on each of :func:`gpu_counts`."""
    os.environ.update(ENVIRONMENT)
    device = replace(probe(), catalog_id=catalog_id)
    available = device.count if max_gpus is None else min(device.count, max_gpus)
    runs: list[Run] = []
    for model in models:
        for precision in precisions:
            spec = Spec(model, precision, (batch or DEFAULT_BATCH)[model], seconds, warmup,
                        shape=shape)
            progress(f"{model}, {precision} precision, 1 GPU")
            single = _fitting(spec)
            runs.append(single)
            for gpus in gpu_counts(available):
                progress(f"{model}, {precision} precision, {gpus} GPUs (data parallel)")
                runs.append(_parallel(replace(spec, batch=single.batch, steps=single.steps),
                                      gpus))
    return Measurement(device=device, date=_dt.date.today().isoformat(), runs=runs)


def _fitting(spec: Spec) -> Run:
    """The one-GPU run of ``spec``, its batch halved until it fits in memory."""
    import torch

    size = spec.batch
    while True:
        try:
            return _run(replace(spec, batch=size), rank=0, world=1)
        except torch.cuda.OutOfMemoryError:
            if size == 1:
                raise
        gc.collect()  # the failed run's tensors, once its traceback is gone
        torch.cuda.empty_cache()
        size //= 2


def _parallel(spec: Spec, gpus: int) -> Run:
    import torch.multiprocessing as mp

    context = mp.get_context("spawn")
    queue = context.SimpleQueue()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    mp.spawn(_worker, args=(gpus, port, spec, queue), nprocs=gpus, join=True)
    return queue.get()


def _worker(rank: int, world: int, port: int, spec: Spec, queue) -> None:
    """One process of a data-parallel run (``torch.multiprocessing.spawn``'s target)."""
    import torch
    import torch.distributed as dist

    os.environ.update(ENVIRONMENT)
    os.environ.update({"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world)
    try:
        run = _run(spec, rank=rank, world=world)
        if rank == 0:
            queue.put(run)
    finally:
        dist.destroy_process_group()


def _run(spec: Spec, rank: int, world: int) -> Run:
    """One timed run of ``spec`` on GPU ``rank`` of ``world`` (DDP when ``world`` > 1)."""
    import torch
    from torch.nn import functional as F

    from planner.measure.models import batch as make_batch
    from planner.measure.models import build

    device = torch.device("cuda", rank)
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    torch.manual_seed(0)
    model = build(spec.model, spec.shape).to(device)
    if spec.model == "resnet50":
        model = model.to(memory_format=torch.channels_last)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9,
                                    weight_decay=5e-5)
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    inputs, targets = make_batch(spec.model, spec.batch, device, spec.shape)
    if spec.precision == "mixed":
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        autocast = torch.autocast("cuda", dtype=dtype)
        scaler = torch.amp.GradScaler("cuda") if dtype == torch.float16 else None
        dtype_name = str(dtype).removeprefix("torch.")
    else:
        autocast, scaler = contextlib.nullcontext(), None
        dtype_name = "tf32" if torch.cuda.get_device_capability(device)[0] >= 8 else "float32"

    def step() -> None:
        with autocast:
            logits = model(inputs)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                   targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()

    for _ in range(spec.warmup):
        step()
    torch.cuda.synchronize(device)
    sampler = PowerSampler(range(world) if rank == 0 else [])
    with sampler:
        start, steps = time.perf_counter(), 0
        while True:
            step()
            steps += 1
            if spec.steps is not None:
                if steps < spec.steps:
                    continue
            elif steps % CHECK_EVERY or time.perf_counter() - start < spec.seconds:
                continue
            torch.cuda.synchronize(device)
            elapsed = time.perf_counter() - start
            if spec.steps is not None or elapsed >= spec.seconds:
                break
    samples = spec.batch * (spec.shape.tokens if spec.model == "transformer" else 1)
    return Run(model=spec.model, precision=spec.precision, gpus=world, batch=spec.batch,
               steps=steps, seconds=elapsed, per_second=world * samples * steps / elapsed,
               watts=sampler.watts(), dtype=dtype_name)
