"""``planner measure``'s benchmark on a real GPU (marked ``gpu``; skipped without PyTorch and
CUDA, as on CI). Imports only the measure package, so it runs on a machine with PyTorch and
numpy alone."""

from __future__ import annotations

import pytest

from planner.measure import bench


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


gpu = pytest.mark.skipif(not _cuda(), reason="needs PyTorch and a CUDA GPU")


@pytest.mark.gpu
@gpu
def test_the_models_have_their_standard_sizes():
    from planner.measure.models import gpt, resnet50

    count = lambda m: sum(p.numel() for p in m.parameters())
    assert count(resnet50()) == 25_557_032  # torchvision's resnet50
    # Embedding 30,522 × 1,024 (tied) + positions 384 × 1,024 + 24 blocks of
    # (3·1024² + 3·1024) + (1024² + 1024) + (1024·4096 + 4096) + (4096·1024 + 1024) + 4·1024
    # = 12,596,224, + the final norm's 2,048.
    assert count(gpt()) == 30522 * 1024 + 384 * 1024 + 24 * 12_596_224 + 2048
    torchvision = pytest.importorskip("torchvision")
    assert count(torchvision.models.resnet50()) == count(resnet50())


@pytest.mark.gpu
@gpu
def test_a_short_benchmark_on_the_gpu():
    from planner.measure.models import GptShape

    small = GptShape(layers=2, width=256, heads=4, feed_forward=1024, tokens=128,
                     vocabulary=1000)
    m = bench.measure(["resnet50", "transformer"], ["mixed", "fp32"], seconds=0.5, warmup=2,
                      max_gpus=2, batch={"resnet50": 16, "transformer": 8}, shape=small)
    single = m.single()
    assert [(r.model, r.precision) for r in single] == [
        ("resnet50", "mixed"), ("resnet50", "fp32"), ("transformer", "mixed"),
        ("transformer", "fp32")]
    assert all(r.per_second > 0 and r.seconds >= 0.5 for r in single)
    if m.device.count > 1:
        assert all(0 < e < 1.5 for _, e in m.scaling())


@pytest.mark.gpu
@gpu
def test_the_data_parallel_path_runs():
    # The DDP run (spawned processes, NCCL, DistributedDataParallel, the result sent back)
    # on as many GPUs as there are, one of them too; NVLink multicast off in every process.
    import torch

    from planner.measure.models import GptShape

    small = GptShape(layers=2, width=256, heads=4, feed_forward=1024, tokens=128,
                     vocabulary=1000)
    for gpus in sorted({1, torch.cuda.device_count()}):
        spec = bench.Spec("transformer", "mixed", batch=8, seconds=0.0, warmup=2, steps=5,
                          shape=small)
        run = bench._parallel(spec, gpus)
        assert (run.gpus, run.steps, run.batch) == (gpus, 5, 8)
        # 5 steps of 8 sequences of 128 tokens on each GPU.
        assert run.per_second == pytest.approx(gpus * 5 * 8 * 128 / run.seconds)
    assert bench.ENVIRONMENT["NCCL_NVLS_ENABLE"] == "0"
