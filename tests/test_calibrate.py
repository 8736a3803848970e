"""``planner calibrate`` (SPEC §9): demand from nvidia-smi logs and Slurm sacct output.

Figures are worked by hand in each test; ``tests/fixtures/logs/h200-*.csv`` are real logs of
an NVIDIA H200 taken with nvidia-smi (``-lms 500`` with units, ``-l 1`` without) while a
bf16 matrix multiply ran for 12 s, paused 5 s and ran 6 s more; ``h200-dmon*.txt`` are
``nvidia-smi dmon -c 30`` (plain, and ``-o DT -s pu``) while one ran for 10 s.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli import main
from planner.errors import UserError
from planner.logs.figures import read_logs
from planner.logs.sacct import elapsed_hours, tres_gpus

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "logs"
STAMP = "2024/05/01 12:{:02d}:{:02d}.000"


def _stamp(seconds: int) -> str:
    return STAMP.format(seconds // 60, seconds % 60)


def _smi(tmp_path: Path) -> list[str]:
    """GPU A: samples at 0, 60, 120, 180 s at 100, 50, 0, 100 % (300, 200, 50, 300 W); GPU B
    (another file): at 0, 60, 120, 1200 s, always 100 % (400 W, one power [Not Supported])."""
    a = tmp_path / "a.csv"
    a.write_text("timestamp, uuid, utilization.gpu [%], power.draw [W]\n" + "".join(
        f"{_stamp(t)}, GPU-a, {u} %, {w} W\n"
        for t, u, w in ((0, 100, 300), (60, 50, 200), (120, 0, 50), (180, 100, 300))))
    b = tmp_path / "b.csv"
    b.write_text("timestamp, uuid, utilization.gpu [%], power.draw [W]\n" + "".join(
        f"{_stamp(t)}, GPU-b, {u}, {w}\n"
        for t, u, w in ((0, 100, 400), (60, 100, 400), (120, 100, "[Not Supported]"),
                        (1200, 100, 400))))
    return [str(a), str(b)]


def test_nvidia_smi_figures_by_hand(tmp_path):
    c = read_logs(_smi(tmp_path))
    # A: Δt 60 s each (its last the median, 60): busy 60 × (1 + 0.5 + 0 + 1) = 150 s.
    # B: intervals 60, 60, 1,080; median 60, so the gap counts 5 × 60 = 300 s; last 60 s:
    # busy 60 + 60 + 300 + 60 = 480 s. Span: 0 to 1,200 + 60 = 1,260 s = 0.35 h.
    assert c.gpus == 2
    assert c.span_hours == pytest.approx(0.35)
    assert c.busy_gpu_hours == pytest.approx(630 / 3600)
    assert c.utilization == pytest.approx(0.175 / (2 * 0.35))
    assert c.gpu_hours_per_month == pytest.approx(0.175 / 0.35 * 730)
    # Busy samples (≥ 50 %) with power: 300, 200, 300, 400, 400, 400; idle: 50.
    assert c.power_watts_busy == pytest.approx(2000 / 6)
    assert c.power_watts_idle == pytest.approx(50)
    assert c.growth_per_year is None and c.source == "nvidia-smi"



def test_the_span_ends_at_the_last_sample_plus_its_own_interval(tmp_path):
    """SPEC §9: "from the first sample to the last, plus that last sample's Δt". GPU c: every
    10 min from 0 to 60 min at 100 %; GPU e: every minute from 0 to 65 min at 50 %. The last
    sample is e's at 65 min, its Δt e's median, 1 min: span 66 min = 1.1 h (not c's 60 + 10 =
    70 min). Busy: c 7 × 10 min × 1 = 70 min, e 66 × 1 min × 0.5 = 33 min: 103 min = 1.7167 h;
    utilization 1.7167 / (2 × 1.1) = 0.7803; 1.7167 / 1.1 × 730 = 1,139.24 GPU-hours a month."""
    c, e = tmp_path / "c.csv", tmp_path / "e.csv"
    start = _dt.datetime(2026, 11, 1)

    def minute(m: int) -> str:
        return (start + _dt.timedelta(minutes=m)).strftime("%Y/%m/%d %H:%M:%S.000")

    c.write_text("timestamp,utilization.gpu\n" + "".join(
        f"{minute(m)},100\n" for m in range(0, 61, 10)))
    e.write_text("timestamp,utilization.gpu\n" + "".join(
        f"{minute(m)},50\n" for m in range(66)))
    found = read_logs([str(c), str(e)])
    assert found.span_hours == pytest.approx(1.1)
    assert found.busy_gpu_hours == pytest.approx(103 / 60)
    assert found.utilization == pytest.approx(103 / 60 / 2.2)
    assert found.gpu_hours_per_month == pytest.approx(103 / 60 / 1.1 * 730)

def test_gpus_without_a_uuid_are_told_apart_by_index_within_a_file(tmp_path):
    log = tmp_path / "two.csv"
    log.write_text("timestamp, index, utilization.gpu [%]\n" + "".join(
        f"{_stamp(t)}, {i}, {u} %\n" for t in (0, 60, 120) for i, u in ((0, 100), (1, 0))))
    c = read_logs([str(log)])
    assert c.gpus == 2 and c.busy_gpu_hours == pytest.approx(180 / 3600)
    assert c.utilization == pytest.approx(0.5) and c.power_watts_busy is None


def test_a_repeated_header_and_missing_values_are_skipped(tmp_path):
    log = tmp_path / "appended.csv"
    header = "timestamp, utilization.gpu [%]\n"
    log.write_text(header + f"{_stamp(0)}, 100 %\n{_stamp(60)}, [N/A]\n" + header
                   + f"{_stamp(120)}, 100 %\n")
    c = read_logs([str(log)])
    # Samples at 0 and 120 s: Δt 120 s each; busy 240 s over 240 s.
    assert c.busy_gpu_hours == pytest.approx(240 / 3600) and c.utilization == pytest.approx(1)


SACCT = """JobID|JobName|State|Start|End|Elapsed|AllocTRES
1001|train|COMPLETED|2024-05-01T00:00:00|2024-05-01T10:00:00|10:00:00|billing=8,cpu=8,gres/gpu:a100=2,gres/gpu=2,mem=64G,node=1
1001.batch|batch|COMPLETED|2024-05-01T00:00:00|2024-05-01T10:00:00|10:00:00|cpu=8,gres/gpu=2,mem=64G,node=1
1001.0|python|COMPLETED|2024-05-01T00:00:00|2024-05-01T10:00:00|10:00:00|cpu=8,gres/gpu=2,mem=64G,node=1
1002|eval|COMPLETED|2024-05-01T05:00:00|2024-05-02T07:00:00|1-02:00:00|cpu=4,gres/gpu=1
1003|queued|PENDING|Unknown|Unknown|00:00:00|billing=1,cpu=1,gres/gpu=4
1004|cpu-only|COMPLETED|2024-05-01T01:00:00|2024-05-01T02:00:00|01:00:00|cpu=4,mem=8G
1005|typed|COMPLETED|2024-05-02T08:00:00|2024-05-02T10:00:00|02:00:00|gres/gpu:h100=4
"""


def test_sacct_figures_by_hand(tmp_path):
    log = tmp_path / "sacct.txt"
    log.write_text(SACCT)
    c = read_logs([str(log)])
    # Jobs 1001 (10 h × 2), 1002 (26 h × 1), 1005 (2 h × 4): 54 GPU-hours; steps, the
    # pending job and the CPU job skipped. Span: May 1 00:00 to May 2 10:00, 34 h. Most at
    # once: 4 (job 1005; 1001 and 1002 overlap with 3).
    assert c.busy_gpu_hours == pytest.approx(54)
    assert c.span_hours == pytest.approx(34)
    assert c.gpus == 4
    assert c.utilization == pytest.approx(54 / (4 * 34))
    assert c.gpu_hours_per_month == pytest.approx(54 / 34 * 730)
    assert c.power_watts_busy is None and c.source == "sacct"


def test_sacct_fields():
    assert elapsed_hours("1-02:03:04") == pytest.approx(26 + 3 / 60 + 4 / 3600)
    assert elapsed_hours("02:03:04") == pytest.approx(2 + 3 / 60 + 4 / 3600)
    assert elapsed_hours("03:04") == pytest.approx(3 / 60 + 4 / 3600)
    assert tres_gpus("billing=8,gres/gpu:a100=2,gres/gpu=2") == 2  # counted once
    assert tres_gpus("gres/gpu:a100=2,gres/gpu:v100=1") == 3
    assert tres_gpus("cpu=4,mem=8G") == 0


def test_a_growth_is_fitted_on_whole_months(tmp_path):
    # One job at the start of each of five months, 100 × 1.1^k hours on one GPU: four whole
    # months (the fifth has not ended), busy 100, 110, 121, 133.1: 10 % a month, 1.1^12 − 1
    # a year.
    lines = ["JobID|Start|End|Elapsed|AllocTRES"]
    import datetime as dt

    origin = dt.datetime(2024, 1, 1)
    for k in range(5):
        hours = 100 * 1.1 ** k
        start = origin + dt.timedelta(hours=730 * k)
        end = start + dt.timedelta(hours=hours)
        clock = f"{int(hours):02d}:{int(hours * 60) % 60:02d}:{round(hours * 3600) % 60:02d}"
        lines.append(f"{k}|{start.isoformat()}|{end.isoformat()}|{clock}|gres/gpu=1")
    log = tmp_path / "months.txt"
    log.write_text("\n".join(lines) + "\n")
    c = read_logs([str(log)])
    assert c.growth_per_year == pytest.approx(1.1 ** 12 - 1, rel=1e-3)


def test_real_h200_logs_with_and_without_units():
    units = read_logs([str(FIXTURES / "h200-smi-units.csv")])
    plain = read_logs([str(FIXTURES / "h200-smi-nounits.csv")])
    for c in (units, plain):
        assert c.gpus == 1
        # 18 s of work in about 45 s of logging.
        assert 0.3 < c.utilization < 0.55
        assert c.power_watts_busy > 500 and c.power_watts_idle < 150
    assert units.utilization == pytest.approx(plain.utilization, abs=0.06)


def test_the_command_prints_a_demand_block_that_loads(tmp_path):
    import yaml

    import planner

    result = CliRunner().invoke(main, ["calibrate", *_smi(tmp_path)])
    assert result.exit_code == 0, result.output
    block = yaml.safe_load(result.output)
    assert block["demand"]["gpu_hours_per_month"] == pytest.approx(365)
    plan = planner.load({"version": 1, **block, "options": [
        {"name": "rent", "cloud": {"price_per_hour": 1, "gpus": 1}}]})
    assert plan.evaluate().to_dict()["options"][0]["total_cost"] == pytest.approx(365 * 36)
    data = json.loads(CliRunner().invoke(main, ["calibrate", "--format", "json",
                                                 "--hours-per-month", "720",
                                                 *_smi(tmp_path)]).output)
    assert data["gpu_hours_per_month"] == pytest.approx(360)
    assert set(data) >= {"gpus", "span_hours", "busy_gpu_hours", "utilization",
                         "gpu_hours_per_month", "power_watts_busy", "power_watts_idle"}



def test_the_demand_block_keeps_a_small_demand(tmp_path):
    """600 one-minute samples, one of them at 1 %: busy 0.01 min of 600 min, so
    0.01 / 600 × 730 = 0.0121667 GPU-hours a month, which the block prints to six digits (it
    once rounded to 0.1, printing 0) and which reads back as the JSON's figure."""
    import yaml

    log = tmp_path / "low.csv"
    start = _dt.datetime(2026, 11, 1)
    log.write_text("timestamp,utilization.gpu\n" + "".join(
        f"{(start + _dt.timedelta(minutes=m)).strftime('%Y/%m/%d %H:%M:%S.000')},"
        f"{1 if m == 0 else 0}\n" for m in range(600)))
    block = yaml.safe_load(CliRunner().invoke(main, ["calibrate", str(log)]).output)
    figure = json.loads(CliRunner().invoke(main, ["calibrate", "--format", "json",
                                                  str(log)]).output)["gpu_hours_per_month"]
    assert figure == pytest.approx(0.01 / 600 * 730)
    assert block["demand"]["gpu_hours_per_month"] == pytest.approx(figure, rel=1e-5)

def test_unreadable_logs_are_user_errors_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("timestamp, utilization.gpu [%]\n2024/05/01 12:00:00.000, 10 %\nyesterday, 5 %\n")
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    sacct = tmp_path / "sacct.txt"
    sacct.write_text(SACCT)
    with pytest.raises(UserError) as caught:
        read_logs([str(bad), str(other)])
    found = {(Path(p.file).name, p.line) for p in caught.value.problems}
    assert found == {("bad.csv", 3), ("notes.txt", 1)}
    with pytest.raises(UserError, match="not both"):
        read_logs([str(sacct), *_smi(tmp_path)])
    result = CliRunner().invoke(main, ["calibrate", str(tmp_path / "missing.csv")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert math.isfinite(read_logs([str(sacct)]).utilization)


def test_real_dmon_logs_count_their_seconds():
    # 30 one-second samples each: 10 at 100 % with -o DT, 11 in the plain log (its sampling
    # caught one more second of the burst); the rest at 0 %.
    dated = read_logs([str(FIXTURES / "h200-dmon-dt.txt")])
    plain = read_logs([str(FIXTURES / "h200-dmon.txt")])
    assert dated.gpus == plain.gpus == 1
    assert dated.span_hours == plain.span_hours == pytest.approx(30 / 3600)
    assert dated.busy_gpu_hours == pytest.approx(10 / 3600)
    assert plain.busy_gpu_hours == pytest.approx(11 / 3600)
    assert dated.power_watts_busy > 600 and dated.power_watts_idle < 150


def test_dmon_with_a_clock_alone_crosses_midnight_and_skips_missing_values(tmp_path):
    log = tmp_path / "dmon.txt"
    log.write_text("#Time        gpu    pwr     sm\n#HH:MM:SS    Idx      W      %\n"
                   " 23:59:58      0    300    100\n 23:59:58      1    100      0\n"
                   " 23:59:59      0    300    100\n 23:59:59      1      -      -\n"
                   "#Time        gpu    pwr     sm\n#HH:MM:SS    Idx      W      %\n"
                   " 00:00:00      0    300     50\n 00:00:00      1    100      0\n")
    c = read_logs([str(log)])
    # GPU 0: 23:59:58, :59, 00:00:00 (the next day), 1 s each: busy 1 + 1 + 0.5 = 2.5 s.
    # GPU 1: 23:59:58 and 00:00:00 (its :59 line has no value): Δt 2 s each, idle.
    assert c.gpus == 2
    assert c.busy_gpu_hours == pytest.approx(2.5 / 3600)
    assert c.span_hours == pytest.approx(4 / 3600)  # 23:59:58 to 00:00:00 + 2 s
    assert c.power_watts_busy == pytest.approx(300) and c.power_watts_idle == pytest.approx(100)
    log.write_text("# gpu    pwr     sm\n# Idx      W      %\n    0    300\n")
    with pytest.raises(UserError) as caught:
        read_logs([str(log)])
    assert caught.value.problems[0].line == 3


# --------------------------------------------------------------------------------------------
# DCGM exporter metrics scraped to a file (planner calibrate, issue 14). The layout is
# dcgm-exporter's own (NVIDIA/dcgm-exporter, internal/pkg/rendermetrics/render_metrics.go):
# FIELD{gpu="0",UUID="GPU-…",pci_bus_id=…,device="nvidia0",modelName=…,Hostname=…} VALUE,
# doubles printed with %f, under # HELP / # TYPE lines. tests/fixtures/logs/h200-dcgm*.prom
# are the readings of h200-smi-measure.csv (a real H200 under planner measure) written in that
# layout: one scrape per nvidia-smi sample, without timestamps (with # HELP/# TYPE) and with
# them (the samples' milliseconds, no # lines).

_DCGM_LABELS = ('gpu="{i}",UUID="GPU-{u}",pci_bus_id="00000000:0{i}:00.0",device="nvidia{i}",'
                'modelName="NVIDIA H200",Hostname="node-1"')


def _dcgm_scrape(values: dict[str, tuple[object, object]], stamp: str = "") -> str:
    """One scrape: for each GPU letter its (utilization, power) as the exporter prints them,
    with an SM clock line that is not read."""
    lines = ["# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).",
             "# TYPE DCGM_FI_DEV_SM_CLOCK gauge"]
    lines += [f"DCGM_FI_DEV_SM_CLOCK{{{_DCGM_LABELS.format(i=i, u=u)}}} 1980{stamp}"
              for i, u in enumerate(values)]
    lines += ["# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
              "# TYPE DCGM_FI_DEV_GPU_UTIL gauge"]
    lines += [f"DCGM_FI_DEV_GPU_UTIL{{{_DCGM_LABELS.format(i=i, u=u)}}} {v[0]}{stamp}"
              for i, (u, v) in enumerate(values.items()) if v[0] is not None]
    lines += ["# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).",
              "# TYPE DCGM_FI_DEV_POWER_USAGE gauge"]
    lines += [f"DCGM_FI_DEV_POWER_USAGE{{{_DCGM_LABELS.format(i=i, u=u)}}} {v[1]}{stamp}"
              for i, (u, v) in enumerate(values.items()) if v[1] is not None]
    return "\n".join(lines) + "\n"


def test_dcgm_scrapes_by_hand(tmp_path):
    # GPU a: 100, 50, 0, 100 % (300, 200, 50, 300 W); GPU b: 100 % in the first two scrapes
    # only (its first power is DCGM's integer blank, as older exporters printed it).
    scrapes = [{"a": (100, "300.000000"), "b": (100, "9223372036854775794")},
               {"a": (50, "200.000000"), "b": (100, "400.000000")},
               {"a": (0, "50.000000"), "b": (None, None)},
               {"a": (100, "300.000000"), "b": (None, None)}]
    log = tmp_path / "dcgm.prom"
    log.write_text("".join(_dcgm_scrape(s) for s in scrapes))
    c = read_logs([str(log)])
    # No timestamps: scrapes 30 s apart. a: Δt 30 s each (the last one the median, 30 s):
    # busy 30 × (1 + 0.5 + 0 + 1) = 75 s over 0–120 s; b: 30 × (1 + 1) = 60 s over 0–60 s.
    # Busy 135 s = 0.0375 h; span 120 s = 1/30 h; utilization 135 / (2 × 120) = 0.5625;
    # a month 0.0375 / (1/30) × 730 = 821.25 h. Busy power (≥ 50 %): 300, 200, 300 and b's
    # 400 (its blank skipped) → 300 W; idle: a's 50 W.
    assert c.source == "dcgm-exporter" and c.gpus == 2
    assert c.busy_gpu_hours == pytest.approx(0.0375)
    assert c.span_hours == pytest.approx(1 / 30)
    assert c.utilization == pytest.approx(0.5625)
    assert c.gpu_hours_per_month == pytest.approx(821.25)
    assert c.power_watts_busy == pytest.approx(300) and c.power_watts_idle == pytest.approx(50)


def test_dcgm_timestamps_and_the_old_uuid_label(tmp_path):
    # Prometheus timestamps [ms]: samples at 0, 10 and 40 s; the median of the intervals 10
    # and 30 s, 20 s, stands for the last one: busy 10 × 1 + 30 × 0.25 + 20 × 1 = 37.5 s
    # over 40 + 20 = 60 s. --use-old-namespace spells the label uuid.
    start = 1_700_000_000_000
    log = tmp_path / "stamped.prom"
    log.write_text(
        f'DCGM_FI_DEV_GPU_UTIL{{gpu="0",uuid="GPU-x"}} 100 {start}\n'
        f'DCGM_FI_DEV_POWER_USAGE{{gpu="0",uuid="GPU-x"}} 500.000000 {start}\n'
        f'DCGM_FI_DEV_GPU_UTIL{{gpu="0",uuid="GPU-x"}} 25 {start + 10_000}\n'
        f'DCGM_FI_DEV_GPU_UTIL{{gpu="0",uuid="GPU-x"}} 100 {start + 40_000}\n'
        f'DCGM_FI_DEV_POWER_USAGE{{gpu="0",uuid="GPU-x"}} 600.000000 {start + 40_000}\n')
    c = read_logs([str(log)])
    assert c.gpus == 1
    assert c.busy_gpu_hours == pytest.approx(37.5 / 3600)
    assert c.span_hours == pytest.approx(60 / 3600)
    # Busy power: 500 and 600 W (the 25 % sample is neither busy nor idle).
    assert c.power_watts_busy == pytest.approx(550) and c.power_watts_idle is None


def test_dcgm_scrapes_of_a_real_h200_read_as_its_nvidia_smi_log():
    smi = read_logs([str(FIXTURES / "h200-smi-measure.csv")])
    stamped = read_logs([str(FIXTURES / "h200-dcgm-stamped.prom")])
    plain = read_logs([str(FIXTURES / "h200-dcgm.prom")])
    # The same readings at the same milliseconds: the same figures.
    for field in ("gpus", "span_hours", "busy_gpu_hours", "utilization",
                  "gpu_hours_per_month", "power_watts_busy", "power_watts_idle"):
        assert getattr(stamped, field) == pytest.approx(getattr(smi, field), rel=1e-9), field
    # Without timestamps: 137 scrapes 30 s apart, the same shares (nvidia-smi's intervals
    # are 1.00–1.03 s, near enough even).
    assert plain.span_hours == pytest.approx(137 * 30 / 3600)
    assert plain.utilization == pytest.approx(smi.utilization, abs=0.005)
    assert plain.gpu_hours_per_month == pytest.approx(smi.gpu_hours_per_month, rel=0.01)
    assert plain.power_watts_busy == pytest.approx(smi.power_watts_busy)
    result = CliRunner().invoke(main, ["calibrate", str(FIXTURES / "h200-dcgm.prom")])
    assert result.exit_code == 0 and "From dcgm-exporter logs: 1 GPU" in result.output


def test_unreadable_dcgm_lines_are_located(tmp_path):
    log = tmp_path / "bad.prom"
    log.write_text("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                   'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a"} 50\n'
                   'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a"} busy\n'
                   "half a line\n")
    with pytest.raises(UserError) as caught:
        read_logs([str(log)])
    assert [(p.line, "busy" in p.message) for p in caught.value.problems] == [
        (3, True), (4, False)]
    sacct = tmp_path / "sacct.txt"
    sacct.write_text(SACCT)
    log.write_text('DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a"} 50\n')
    with pytest.raises(UserError, match="not both"):
        read_logs([str(log), str(sacct)])


# --------------------------------------------------------------------------------------------
# Streaming: the readings are read twice, never held (planner/logs/figures.py)

from hypothesis import given
from hypothesis import strategies as st

from planner.logs.figures import _from_samples, read_log_lines
from planner.logs.samples import GpuSamples

_FIELDS = ("gpus", "span_hours", "busy_gpu_hours", "utilization", "gpu_hours_per_month",
           "power_watts_busy", "power_watts_idle", "growth_per_year")


def _smi_lines(readings: dict[str, list[tuple[float, int, float | None]]]) -> list[str]:
    lines = ["timestamp, uuid, utilization.gpu [%], power.draw [W]\n"]
    for gpu, rows in readings.items():
        for t, u, w in rows:
            stamp = _dt.datetime.fromtimestamp(t, _dt.timezone.utc)
            lines.append(f"{stamp:%Y/%m/%d %H:%M:%S.%f}"[:-3]
                         + f", {gpu}, {u} %, {'[N/A]' if w is None else f'{w} W'}\n")
    return lines


_READINGS = st.dictionaries(
    st.sampled_from(["GPU-a", "GPU-b", "GPU-c"]),
    st.lists(st.tuples(st.integers(1, 5_000_000), st.integers(0, 100),
                       st.one_of(st.none(), st.integers(50, 700))), min_size=2, max_size=12),
    min_size=1)


@given(_READINGS, st.booleans())
def test_the_streamed_figures_equal_those_of_the_readings_held(raw, shuffled):
    # Each GPU's readings at cumulative gaps of 1 ms to 5,000 s (months apart for growth,
    # gaps beyond 5 medians too), streamed; the same readings held and sorted in memory give
    # the same figures. Shuffled, the streaming pass finds them out of order and sorts them.
    start = 1_700_000_000.0
    readings = {}
    for gpu, rows in raw.items():
        t, out = start, []
        for gap_ms, u, w in rows:
            t += gap_ms / 1000.0
            out.append((round(t, 3), u, w))
        readings[gpu] = out
    lines = _smi_lines(readings)
    if shuffled:
        lines = [lines[0], *reversed(lines[1:])]
    streamed = read_log_lines([("log.csv", lambda: iter(lines))])
    held = []
    for gpu, rows in readings.items():
        samples = GpuSamples(gpu)
        for t, u, w in rows:
            samples.add(t, u, w)
        held.append(samples)
    expected = _from_samples(held, 730.0, ["log.csv"], "nvidia-smi")
    for field in _FIELDS:
        got, want = getattr(streamed, field), getattr(expected, field)
        assert (got is None) == (want is None), field
        if want is not None:
            assert got == pytest.approx(want, rel=1e-6, abs=1e-9), field


def _dmon_lines(count: int):
    """``count`` lines of plain dmon output for 8 GPUs (no time columns: one second apart),
    made as they are read."""
    rows = [f"    {g}    {300 if u else 80}    {u}\n" for u in (100, 0, 50) for g in range(8)]

    def lines():
        yield "# gpu    pwr     sm\n"
        yield "# Idx      W      %\n"
        for i in range(count):
            yield rows[i % 24]
    return lines


def test_memory_does_not_grow_with_the_log():
    import tracemalloc

    peaks = []
    for count in (2_400, 24_000):
        tracemalloc.start()
        try:
            c = read_log_lines([("dmon.txt", _dmon_lines(count))])
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        # Each GPU: count / 8 seconds, a third of them at 100 % and a third at 50 %.
        assert c.gpus == 8 and c.span_hours == pytest.approx(count / 8 / 3600)
        assert c.utilization == pytest.approx(0.5)
    # Ten times the lines, not ten times the memory: what is held does not grow with them
    # (held readings would take some 100 bytes each, 2 MB more for the longer log).
    assert peaks[1] < peaks[0] + 100_000, peaks


def test_a_ten_million_line_log_in_bounded_memory():
    # 10^7 lines (a year and more of 1 s dmon samples of 8 GPUs' worth of lines), made as
    # they are read, in a fresh interpreter: its peak resident memory grows by less than
    # 64 MiB over what it had before reading (holding the readings would take over 500 MB).
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(f"""
        import resource, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        from test_calibrate import _dmon_lines
        from planner.logs.figures import read_log_lines
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        c = read_log_lines([("dmon.txt", _dmon_lines(10_000_000))])
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(c.gpus, c.span_hours, c.utilization, (after - before) * 1024)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    gpus, span_hours, utilization, grown = int(out[0]), *map(float, out[1:])
    # 1,250,000 one-second samples a GPU: 347.2 hours; utilization (100 + 0 + 50) / 3 %.
    assert gpus == 8 and span_hours == pytest.approx(1_250_000 / 3600)
    assert utilization == pytest.approx(0.5, abs=1e-5)  # 10^7 is not a multiple of 24
    assert grown < 64 * 2**20
