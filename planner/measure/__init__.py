"""``planner measure``: a short training benchmark on the user's own GPUs (issue 14).

Two standard models on synthetic data, in mixed precision (bf16 autocast, fp16 with loss
scaling where bf16 is not supported) and in FP32/TF32: a ResNet-50 (images/s) and a GPT-style
transformer of BERT-large's size (tokens/s). Throughput becomes the catalog's relative speed
against the A100 80GB SXM4 (:mod:`planner.measure.reference`), power comes from NVML
(:mod:`planner.measure.power`), and a ``gpus`` catalog row with the measured columns can be
written for ``catalogs:`` (:mod:`planner.measure.catalog_row`). On several GPUs the same step
runs data-parallel (DDP over NCCL, one process a GPU) and gives the scaling efficiency.

PyTorch and nvidia-ml-py (the optional ``planner[measure]`` extra) are imported only inside
:mod:`planner.measure.bench` and :mod:`planner.measure.models`, when a benchmark runs; every
other module here is pure and tested without a GPU.
"""
