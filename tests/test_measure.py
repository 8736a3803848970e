"""``planner measure``: the arithmetic, the catalog file and the command, without a GPU (the
benchmark itself on a GPU: ``tests/test_measure_gpu.py``).

Every figure is worked by hand in a comment. The reference figures are Lambda's 1-GPU
A100 80GB SXM4 samples/s (pytorch-train-throughput-fp16/fp32.csv, 2024-07-24).
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import planner
from planner.cli import main
from planner.measure import bench
from planner.measure.catalog_row import measured_row_csv
from planner.measure.names import catalog_gpu
from planner.measure.power import PowerSampler, mean_watts
from planner.measure.reference import MODELS, relative_columns, relative_speed
from planner.measure.results import Device, Measurement, Run, scaling_efficiency
from pricing.catalog import load_catalog

H200 = Device(name="NVIDIA H200", memory_gib=139.8, count=1, catalog_id="h200",
              torch_version="2.11.0", cuda_version="13.0")


def _run(model, precision, per_second, gpus=1, watts=600.0):
    return Run(model=model, precision=precision, gpus=gpus, batch=32, steps=100,
               seconds=10.0, per_second=per_second, watts=watts,
               dtype="bfloat16" if precision == "mixed" else "tf32")


#: 3,955 images/s = 2.5 × 1,582; 87,552 tokens/s = 1.5 × 58,368; 2,373 = 1.5 × 1,582;
#: 29,184 tokens/s = 0.5 × 58,368.
FAKE = Measurement(device=H200, date="2026-12-01", runs=[
    _run("resnet50", "mixed", 3955.0), _run("resnet50", "fp32", 2373.0),
    _run("transformer", "mixed", 87552.0), _run("transformer", "fp32", 29184.0)])


# --------------------------------------------------------------------------------------------
# Reference and relative speed


def test_the_reference_is_lambdas_a100_row():
    assert MODELS["resnet50"].per_second_mixed == 1582
    assert MODELS["resnet50"].per_second_fp32 == 1066
    # BERT-large SQuAD: 152 sequences/s (75 in FP32) of 384 tokens.
    assert MODELS["transformer"].per_second_mixed == 152 * 384 == 58368
    assert MODELS["transformer"].per_second_fp32 == 75 * 384 == 28800


def test_the_reference_reproduces_the_catalogs_own_figures():
    # The catalog's H100 SXM row from Lambda's H100 80GB SXM5 row over these references:
    # cv = sqrt(2616/1582 × 782/458) = sqrt(1.65360 × 1.70742) = 1.680;
    # llm = sqrt(301/152 × 30841/17918) = sqrt(1.98026 × 1.72123) = 1.846;
    # the A100's FP32 cv = sqrt(1066/1582 × 304/458) = sqrt(0.67383 × 0.66376) = 0.669.
    h100, a100 = load_catalog().gpu("h100-80gb"), load_catalog().gpu("a100-80gb")
    ssd_h100, ssd_a100, ssd_a100_fp32, txl_h100, txl_a100 = 782, 458, 304, 30841, 17918
    cv = math.sqrt(relative_speed("resnet50", 2616) * ssd_h100 / ssd_a100)
    llm = math.sqrt(relative_speed("transformer", 301 * 384) * txl_h100 / txl_a100)
    cv_fp32 = math.sqrt(relative_speed("resnet50", 1066) * ssd_a100_fp32 / ssd_a100)
    assert round(cv, 3) == h100.throughput["cv"] == 1.68
    assert round(llm, 3) == h100.throughput["llm"] == 1.846
    assert round(cv_fp32, 3) == a100.throughput["cv_fp32"] == 0.669


def test_relative_columns_by_hand():
    columns = FAKE.columns()
    # cv = 3955 / 1582 = 2.5; nlp = llm = 87552 / 58368 = 1.5; generic = sqrt(2.5 × 1.5)
    # = sqrt(3.75) = 1.93649. FP32, over the same mixed-precision references: cv 2373 / 1582
    # = 1.5, nlp 29184 / 58368 = 0.5, generic sqrt(0.75) = 0.86603.
    assert columns == pytest.approx({
        "cv": 2.5, "nlp": 1.5, "llm": 1.5, "generic": 1.936492,
        "cv_fp32": 1.5, "nlp_fp32": 0.5, "llm_fp32": 0.5, "generic_fp32": 0.866025})
    # One model alone gives no generic column.
    assert relative_columns({("resnet50", "mixed"): 791.0}) == {"cv": 0.5}


def test_a_runs_own_figures():
    run = _run("resnet50", "mixed", 6000.0, gpus=2, watts=600.0)
    # 6,000 images/s on 2 GPUs: 3,000 a GPU, 3000 / 1582 = 1.89633 × the A100; 600 W per
    # GPU / 3,000 images/s per GPU = 0.2 J an image.
    assert run.per_second_per_gpu == 3000
    assert run.relative == pytest.approx(1.896334)
    assert run.joules_per_sample == pytest.approx(0.2)
    assert _run("resnet50", "mixed", 1.0, watts=None).joules_per_sample is None


def test_scaling_efficiency_by_hand():
    # 4 GPUs at 3,600 samples/s against one at 1,000: 3600 / (4 × 1000) = 0.9.
    assert scaling_efficiency(1000.0, 3600.0, 4) == pytest.approx(0.9)
    m = Measurement(device=H200, date="2026-12-01", runs=[
        _run("resnet50", "mixed", 1000.0), _run("resnet50", "mixed", 1900.0, gpus=2),
        _run("resnet50", "mixed", 3600.0, gpus=4)])
    # 1900 / (2 × 1000) = 0.95
    assert [(r.gpus, round(e, 6)) for r, e in m.scaling()] == [(2, 0.95), (4, 0.9)]
    # The catalog columns come from the one-GPU run alone: 1000 / 1582.
    assert m.columns() == pytest.approx({"cv": 1000 / 1582})


def test_gpu_counts_for_scaling():
    assert bench.gpu_counts(1) == []
    assert bench.gpu_counts(2) == [2]
    assert bench.gpu_counts(6) == [2, 4, 6]
    assert bench.gpu_counts(8) == [2, 4, 8]


# --------------------------------------------------------------------------------------------
# Power


def test_mean_watts_weighs_each_reading_by_its_time():
    # Trapezoids: 0–1 s at (100 + 200) / 2 = 150 W, 1–3 s at 200 W: (150 + 400) / 3 = 183.33.
    assert mean_watts([(0.0, 100.0), (1.0, 200.0), (3.0, 200.0)]) == pytest.approx(550 / 3)
    assert mean_watts([(5.0, 300.0)]) == 300.0
    assert mean_watts([]) is None


def test_power_is_unknown_without_nvml(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # import pynvml fails
    with PowerSampler([0, 1], interval_s=0.01) as sampler:
        pass
    assert sampler.watts() is None


def test_the_sampler_reads_every_gpu_until_stopped(monkeypatch):
    watts = {0: 300_000, 1: 500_000}  # milliwatts
    fake = types.SimpleNamespace(
        NVMLError=RuntimeError, nvmlInit=lambda: None, nvmlShutdown=lambda: None,
        nvmlDeviceGetHandleByIndex=lambda i: i, nvmlDeviceGetPowerUsage=lambda h: watts[h])
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    import time

    with PowerSampler([0, 1], interval_s=0.005) as sampler:
        time.sleep(0.05)
    assert all(len(s) >= 2 for s in sampler.samples.values())
    # Each GPU's mean is its constant reading; the mean per GPU (300 + 500) / 2 = 400 W.
    assert sampler.watts() == pytest.approx(400.0)


# --------------------------------------------------------------------------------------------
# Which catalog GPU


@pytest.mark.parametrize(("name", "gib", "expected"), [
    ("NVIDIA H200", 139.8, "h200"),
    ("NVIDIA H100 80GB HBM3", 79.6, "h100-80gb"),
    ("NVIDIA H100 PCIe", 79.6, "h100-80gb-pcie"),
    ("NVIDIA H100 NVL", 93.1, "h100-nvl"),
    ("NVIDIA A100-SXM4-80GB", 79.2, "a100-80gb"),
    ("NVIDIA A100-SXM4-40GB", 39.4, "a100-40gb"),
    ("NVIDIA A100 80GB PCIe", 79.2, "a100-80gb-pcie"),
    ("Tesla V100-SXM2-32GB", 31.7, "v100-32gb"),
    ("Tesla V100-SXM2-16GB", 15.8, "v100-16gb"),
    ("Tesla T4", 14.6, "t4"),
    ("NVIDIA A10G", 22.0, "a10g"),
    ("NVIDIA A10", 22.0, "a10"),
    ("NVIDIA L40S", 44.4, "l40s"),
    ("NVIDIA GeForce RTX 4090", 23.6, "rtx-4090"),
    ("NVIDIA GeForce RTX 2080 Ti", 10.7, "rtx-2080ti"),
    ("NVIDIA RTX 6000 Ada Generation", 47.5, "rtx-6000-ada"),
    ("NVIDIA GH200 480GB", 94.5, "gh200"),
    ("NVIDIA A30", 23.5, None),
    ("NVIDIA A100-PCIE-40GB", 39.4, None),  # not in the catalog
])
def test_device_names_become_catalog_ids(name, gib, expected):
    assert catalog_gpu(name, gib, load_catalog().ids("gpus")) == expected


# --------------------------------------------------------------------------------------------
# The catalog file


def test_the_catalog_row_replaces_only_the_measured_columns():
    text = measured_row_csv(FAKE, "h200")
    header, row = list(csv.reader(io.StringIO(text)))
    cells = dict(zip(header, row))
    builtin = next(r for r in csv.DictReader(io.StringIO(
        (__import__("importlib.resources").resources.files("pricing.data") / "gpus.csv")
        .read_text())) if r["id"] == "h200")
    assert cells["throughput_cv"] == "2.500" and cells["throughput_generic"] == "1.936"
    assert cells["throughput_nlp_fp32"] == "0.500"
    for key in ("name", "memory_gb", "street_price", "price_as_of", "tdp_watts", "as_of"):
        assert cells[key] == builtin[key]
    assert "measured by planner measure on 2026-12-01" in cells["notes"]
    assert "resnet50 mixed (bfloat16, batch 32): 3955 images/s" in cells["notes"]


def _fake_gpu(monkeypatch, measurement=FAKE, device=H200):
    monkeypatch.setattr(bench, "probe", lambda: device)
    calls = []

    def fake_measure(models, precisions, **kwargs):
        calls.append((tuple(models), tuple(precisions), kwargs))
        return replace(measurement, device=replace(measurement.device,
                                                   catalog_id=kwargs["catalog_id"]))

    monkeypatch.setattr(bench, "measure", fake_measure)
    return calls


def test_a_measured_file_changes_the_plans_relative_speed(monkeypatch, tmp_path):
    calls = _fake_gpu(monkeypatch)
    out = tmp_path / "mine.csv"
    result = CliRunner().invoke(main, ["measure", "-o", str(out), "--seconds", "3"])
    assert result.exit_code == 0, result.output
    assert calls[0][0] == ("resnet50", "transformer") and calls[0][2]["seconds"] == 3
    assert calls[0][2]["catalog_id"] == "h200"  # found from the name "NVIDIA H200"
    assert "3,955 images/s" in result.output and "2.500" in result.output
    assert "1.801 cv" in result.output  # the built-in H200 figure beside it
    assert "1.61× (resnet50) and 1.12× (transformer)" in result.output

    def speed(catalogs, workload):
        usage = {"version": 1, "catalogs": catalogs, "horizon_months": 12,
                 "demand": {"gpu_hours_per_month": 100, "reference_gpu": "a100-80gb",
                            "workload": workload},
                 "site": {"electricity_per_kwh": 0.15},
                 "options": [{"name": "own", "own": {"gpu": "h200", "purchase_price": 30000}}]}
        row = planner.load(usage).evaluate().to_dict()["options"][0]
        return 100 / row["gpu_hours_per_month"]  # the option needs D / relative_speed

    # Built in: the H200's cv over the A100's, 1.801 / 1; measured: 2.5 / 1.
    assert speed([], "cv") == pytest.approx(1.801)
    assert speed([str(out)], "cv") == pytest.approx(2.5)
    assert speed([str(out)], "llm") == pytest.approx(1.5)


def test_json_output(monkeypatch):
    _fake_gpu(monkeypatch)
    result = CliRunner().invoke(main, ["measure", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["throughput"]["throughput_cv"] == pytest.approx(2.5)
    assert data["runs"][0]["relative_speed"] == pytest.approx(2.5)
    # 600 W / 3,955 images/s = 0.15171 J an image.
    assert data["runs"][0]["joules_per_sample"] == pytest.approx(600 / 3955)
    assert data["catalog"][0] == {"model": "resnet50", "precision": "mixed", "cv": 1.801}


def test_without_pytorch_a_clear_message_and_exit_1(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails
    result = CliRunner().invoke(main, ["measure"])
    assert result.exit_code == 1
    assert "needs PyTorch" in result.output and "gpu-planner[measure]" in result.output
    assert "Traceback" not in result.output


def test_without_a_gpu_a_clear_message_and_exit_1(monkeypatch):
    fake = types.ModuleType("torch")
    fake.cuda = types.SimpleNamespace(is_available=lambda: False)
    monkeypatch.setitem(sys.modules, "torch", fake)
    result = CliRunner().invoke(main, ["measure", "-o", "mine.csv"])
    assert result.exit_code == 1
    assert "found no CUDA GPU" in result.output and "Traceback" not in result.output


def test_bad_arguments_exit_1_before_measuring(monkeypatch, tmp_path):
    calls = _fake_gpu(monkeypatch)
    result = CliRunner().invoke(main, ["measure", "--gpu", "h20"])
    assert result.exit_code == 1 and "did you mean h200?" in result.output
    result = CliRunner().invoke(main, ["measure", "-o", str(tmp_path / "no" / "mine.csv")])
    assert result.exit_code == 1 and "does not exist" in result.output
    assert CliRunner().invoke(main, ["measure", "--seconds", "0"]).exit_code == 2
    assert calls == []


def test_an_unknown_gpu_needs_gpu_to_write_a_file(monkeypatch, tmp_path):
    a30 = Device(name="NVIDIA A30", memory_gib=23.5, count=1, catalog_id=None,
                 torch_version="2.11.0", cuda_version="13.0")
    calls = _fake_gpu(monkeypatch, device=a30)
    out = tmp_path / "mine.csv"
    result = CliRunner().invoke(main, ["measure", "-o", str(out)])
    assert result.exit_code == 1 and "give --gpu ID" in result.output and calls == []
    assert not out.exists()
    result = CliRunner().invoke(main, ["measure", "-o", str(out), "--gpu", "A10"])
    assert result.exit_code == 0, result.output
    assert calls[-1][2]["catalog_id"] == "a10"
    assert load_catalog([out]).gpu("a10").throughput["cv"] == 2.5
    # Without -o an unknown GPU is measured all the same.
    assert CliRunner().invoke(main, ["measure"]).exit_code == 0


# --------------------------------------------------------------------------------------------
# The H200 capture (tests/fixtures/measure/h200-*: planner measure --seconds 15 -o mine.csv
# --format json on the device tool's one-GPU NVIDIA H200, 2026-12-01, with nvidia-smi
# --query-gpu=timestamp,uuid,utilization.gpu,power.draw,memory.used --format=csv -l 1 logging
# beside it: tests/fixtures/logs/h200-smi-measure.csv)

MEASURE_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "measure"
LOG_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "logs"


def test_the_h200_capture_is_in_the_catalogs_unit():
    data = json.loads((MEASURE_FIXTURES / "h200-measure.json").read_text())
    assert data["device"]["name"] == "NVIDIA H200" and data["device"]["catalog_id"] == "h200"
    per_second = {(r["model"], r["precision"]): r["per_second"] for r in data["runs"]}
    # ResNet-50 in bf16: 4,684.39 images/s / 1,582 = 2.961; the transformer in bf16:
    # 148,357.5 tokens/s / 58,368 = 2.542.
    assert per_second[("resnet50", "mixed")] / 1582 == pytest.approx(2.961, abs=5e-4)
    assert per_second[("transformer", "mixed")] / 58368 == pytest.approx(2.542, abs=5e-4)
    assert relative_columns(per_second) == pytest.approx(
        {k.removeprefix("throughput_"): v for k, v in data["throughput"].items()})
    mine = load_catalog([MEASURE_FIXTURES / "h200-mine.csv"]).gpu("h200")
    assert mine.throughput == {k.removeprefix("throughput_"): round(v, 3)
                               for k, v in data["throughput"].items()}
    assert mine.street_price == load_catalog().gpu("h200").street_price


def test_calibrate_reads_the_log_taken_under_the_benchmark():
    from planner.logs.figures import read_logs

    c = read_logs([str(LOG_FIXTURES / "h200-smi-measure.csv")])
    lines = (LOG_FIXTURES / "h200-smi-measure.csv").read_text().splitlines()[1:]
    busy = [line for line in lines if ", 100 %," in line]
    # 137 one-second samples, 66 of them at 100 % and a few at 2–18 %: about 67 busy seconds.
    assert len(lines) == 137 and len(busy) == 66
    assert c.gpus == 1
    assert 66 <= c.busy_gpu_hours * 3600 <= 68
    assert c.span_hours * 3600 == pytest.approx(137, abs=1)
    # nvidia-smi's busy power agrees with NVML's mean over the timed steps (587–685 W a run).
    runs = json.loads((MEASURE_FIXTURES / "h200-measure.json").read_text())["runs"]
    nvml = sum(r["watts"] * r["seconds"] for r in runs) / sum(r["seconds"] for r in runs)
    assert c.power_watts_busy == pytest.approx(nvml, rel=0.05)
    assert c.power_watts_idle < 150
    result = CliRunner().invoke(main, ["calibrate", str(LOG_FIXTURES / "h200-smi-measure.csv")])
    assert result.exit_code == 0 and "gpu_hours_per_month:" in result.output
