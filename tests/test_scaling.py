"""SPEC §8, jobs on several GPUs: ``scaling_efficiency`` (a fraction or ``auto``) beside every
option, ``demand.parallelism``, the interconnects table behind ``auto``, and the option fields
``scaling_efficiency`` and ``job_days``. Every expected figure is worked out by hand in the
comments."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import planner
from planner.cards.scaling import (
    ACROSS,
    LOWEST_TABLE_EFFICIENCY,
    WITHIN,
    auto_efficiency,
    within_efficiency,
)
from planner.errors import UserError
from pricing.catalog import CatalogFileError, load_catalog

ROOT = Path(__file__).resolve().parents[1]


def plan_data(efficiency=None, gpus=4, **demand):
    """1,000 reference GPU-hours a month for 12 months of 730 hours, jobs of ``gpus`` GPUs and
    90 hours; an inline 4-GPU instance at 4.00 an instance-hour (no discounting)."""
    option = {"name": "rent", "cloud": {"price_per_hour": 4.0, "gpus": 4}}
    if efficiency is not None:
        option["scaling_efficiency"] = efficiency
    return {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 1000, "gpus": gpus, "job_hours": 90, **demand},
            "options": [option]}


def row(result, name="rent"):
    return next(o for o in result.to_dict()["options"] if o["name"] == name)


# -- the formula: G = D / (relative_speed × E), L = job_hours / (relative_speed × E) ----------


def test_four_gpus_at_efficiency_0_9_need_a_ninth_more_hours_and_days():
    # G = 1,000 / 0.9 = 1,111.1 own GPU-hours a month; a job of 4 GPUs fills one 4-GPU
    # instance: 1,111.1 / 4 = 277.78 instance-hours a month, × 4.00 × 12 months = 13,333.33.
    # One job: 90 h / 0.9 = 100 h = 4.1667 days.
    r = row(planner.load(plan_data(0.9)).evaluate())
    assert r["scaling_efficiency"] == 0.9
    assert r["gpu_hours_per_month"] == pytest.approx(1000 / 0.9)
    assert r["total_cost"] == pytest.approx(13333.333333333334)
    assert r["job_days"] == pytest.approx(100 / 24)


def test_the_default_is_one_and_changes_nothing():
    # 1,000 / 4 × 4.00 × 12 = 12,000; a job of 90 h is 3.75 days.
    r = row(planner.load(plan_data()).evaluate())
    assert r["scaling_efficiency"] == 1.0
    assert r["total_cost"] == pytest.approx(12000)
    assert r["job_days"] == pytest.approx(3.75)
    assert row(planner.load(plan_data(1)).evaluate()) == r


def test_efficiency_multiplies_relative_speed():
    # relative_speed 2 and E 0.8: G = 1,000 / (2 × 0.8) = 625; 625 / 4 × 4 × 12 = 7,500.
    # A job: 90 / 1.6 = 56.25 h = 2.34375 days.
    data = plan_data(0.8)
    data["options"][0]["relative_speed"] = 2
    r = row(planner.load(data).evaluate())
    assert r["gpu_hours_per_month"] == pytest.approx(625)
    assert r["total_cost"] == pytest.approx(7500)
    assert r["job_days"] == pytest.approx(2.34375)


def test_flops_demand_is_divided_by_the_efficiency_too():
    # 3.6e21 FLOP a month on a 100 TFLOP/s GPU at 40 %: 3.6e21 / (1e14 × 0.4 × 3,600) =
    # 3.6e21 / 1.44e17 = 25,000 GPU-hours at E = 1, 25,000 / 0.5 = 50,000 at E = 0.5; a job: 90 / 0.5 = 180 h.
    data = plan_data(0.5)
    data["demand"] = {"flops_per_month": 3.6e21, "gpus": 4, "job_hours": 90}
    data["options"][0]["cloud"]["peak_tflops"] = 100
    r = row(planner.load(data).evaluate())
    assert r["gpu_hours_per_month"] == pytest.approx(50000)
    assert r["job_days"] == pytest.approx(180 / 24)


def test_own_and_free_tier_options_take_it_too():
    # An own machine of 4 GPUs at E = 0.8: 400 reference GPU-hours need 500 of its own.
    # A free tier of 2 GPUs at E = 0.5 (jobs of 2 GPUs): 100 reference GPU-hours need 200.
    data = {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 400, "gpus": 4},
            "site": {"electricity_per_kwh": 0.2},
            "options": [{"name": "box", "scaling_efficiency": 0.8,
                         "own": {"purchase_price": 8000, "power_watts": 1500, "gpu_count": 4}}]}
    assert row(planner.load(data).evaluate(), "box")["gpu_hours_per_month"] == pytest.approx(500)
    tier = {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 100, "gpus": 2},
            "options": [{"name": "tier", "scaling_efficiency": 0.5,
                         "free_tier": {"gpus": 2, "weekly_quota_hours": 168}}]}
    assert row(planner.load(tier).evaluate(), "tier")["gpu_hours_per_month"] == pytest.approx(200)


def test_job_days_is_null_without_job_hours_and_when_infeasible():
    data = plan_data(0.9)
    del data["demand"]["job_hours"]
    assert row(planner.load(data).evaluate())["job_days"] is None
    # A 4-GPU job on a 2-GPU machine cannot run there: infeasible, no job length.
    wide = {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 100, "gpus": 4, "job_hours": 10},
            "site": {"electricity_per_kwh": 0.2},
            "options": [{"name": "box", "own": {"purchase_price": 1, "power_watts": 1,
                                                "gpu_count": 2}}]}
    box = row(planner.load(wide).evaluate(), "box")
    assert not box["feasible"] and box["job_days"] is None
    assert box["scaling_efficiency"] == 1.0


def test_independent_runs_are_scaled_by_one():
    # Four one-GPU runs side by side: no efficiency applies; 1,000 / 4 × 4 × 12 = 12,000.
    r = row(planner.load(plan_data(parallelism="independent")).evaluate())
    assert r["scaling_efficiency"] == 1.0
    assert r["total_cost"] == pytest.approx(12000)


# -- auto: the interconnects table -------------------------------------------------------------


def test_the_table_by_hand():
    # PCIe, anchors (1, 1) and (4, 0.925): linear in log2 g, slope −0.0375 a doubling.
    assert within_efficiency("pcie", 1) == 1.0
    assert within_efficiency("pcie", 2) == pytest.approx(0.9625)
    assert within_efficiency("pcie", 4) == pytest.approx(0.925)
    assert within_efficiency("pcie", 8) == pytest.approx(0.8875)  # the slope goes on
    # NVSwitch, anchors (1, 1) and (8, 0.90): −0.1 / 3 a doubling.
    assert within_efficiency("nvswitch", 4) == pytest.approx(1 - 0.2 / 3)
    assert within_efficiency("nvswitch", 16) == pytest.approx(0.9 - 0.1 / 3)
    # log2(2^40) = 40: 1 − 0.0375 × 40 = −0.5 → held at the lowest figure, 0.5.
    assert within_efficiency("pcie", 2.0 ** 40) == LOWEST_TABLE_EFFICIENCY
    # Wider than one instance of 8: the network's figure; one GPU: 1.
    assert auto_efficiency("nvswitch", "ethernet", 16, 8) == ACROSS["ethernet"]
    assert auto_efficiency("pcie", "ethernet", 1, 8) == 1.0
    got = auto_efficiency("pcie", "rdma", np.array([[1.0], [2.0], [4.0], [8.0]]), 4)
    assert got[:, 0] == pytest.approx([1.0, 0.9625, 0.925, ACROSS["rdma"]])


def _auto(cloud_id, gpus):
    data = {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 1000, "gpus": gpus, "job_hours": 24},
            "options": [{"name": "rent", "cloud": cloud_id, "scaling_efficiency": "auto"}]}
    return row(planner.load(data).evaluate())


def test_auto_on_an_instance_with_a_row_of_its_own():
    # aws/p4d.24xlarge: 8 A100 through NVSwitch, EFA between instances (rdma).
    assert _auto("aws/p4d.24xlarge", 1)["scaling_efficiency"] == 1.0
    four = _auto("aws/p4d.24xlarge", 4)
    assert four["scaling_efficiency"] == pytest.approx(1 - 0.2 / 3)  # 0.9333
    # G = 1,000 / 0.9333 = 1,071.43; a job: 24 h / 0.9333 = 25.71 h = 1.0714 days.
    assert four["gpu_hours_per_month"] == pytest.approx(1000 / (1 - 0.2 / 3))
    assert four["job_days"] == pytest.approx(1 / (1 - 0.2 / 3))
    assert _auto("aws/p4d.24xlarge", 8)["scaling_efficiency"] == pytest.approx(0.90)


def test_a_job_wider_than_one_instance_takes_the_across_machines_figure():
    # 16 GPUs on 8-GPU instances: two instances, EFA (rdma) between them: 0.90.
    wide = _auto("aws/p4d.24xlarge", 16)
    assert wide["scaling_efficiency"] == pytest.approx(ACROSS["rdma"])
    # 8 GPUs on 4-GPU instances of T4 without a row of their own: the t4 default, ethernet.
    assert _auto("aws/g4dn.12xlarge", 8)["scaling_efficiency"] == pytest.approx(
        ACROSS["ethernet"])
    # 4 GPUs on the same instance: PCIe, 3.7 / 4.
    assert _auto("aws/g4dn.12xlarge", 4)["scaling_efficiency"] == pytest.approx(0.925)


def test_auto_on_an_own_system_and_on_its_gpu():
    def box(**own):
        data = {"version": 1, "horizon_months": 12,
                "demand": {"gpu_hours_per_month": 100, "gpus": 4},
                "site": {"electricity_per_kwh": 0.2},
                "options": [{"name": "box", "scaling_efficiency": "auto",
                             "own": {"purchase_price": 1000, "power_watts": 500,
                                     "gpu_count": 8, **own}}]}
        return row(planner.load(data).evaluate(), "box")["scaling_efficiency"]
    # server-8gpu-sxm: NVSwitch, 4 GPUs: 0.9333. rtx-4090 without a system: PCIe, 0.925.
    assert box(system="server-8gpu-sxm", gpu="h100-80gb") == pytest.approx(1 - 0.2 / 3)
    assert box(gpu="rtx-4090") == pytest.approx(0.925)
    assert box(system="server-8gpu-pcie", gpu="h100-80gb") == pytest.approx(0.925)


def test_auto_on_a_free_tier():
    # Kaggle's two T4 are PCIe cards: a 2-GPU job, 0.9625.
    data = {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 10, "gpus": 2},
            "options": [{"name": "kaggle", "free_tier": "kaggle", "scaling_efficiency": "auto"}]}
    assert row(planner.load(data).evaluate(), "kaggle")["scaling_efficiency"] == pytest.approx(
        0.9625)


def test_every_multi_gpu_instance_type_and_every_system_has_an_interconnect():
    catalog = load_catalog()
    instances = [catalog.cloud_regions(cloud_id)[0] for cloud_id in catalog.ids("clouds")]
    assert sum(r.gpus > 1 for r in instances) > 100
    missing = [r.id for r in instances
               if r.gpus > 1 and catalog.interconnect(r.id, r.gpu) is None]
    assert not missing
    for system in catalog.ids("systems"):
        assert catalog.interconnect(system) is not None, system
        assert catalog.interconnect(system).id == system  # a row of its own, not a default
    for gpu in catalog.ids("gpus"):
        assert catalog.interconnect(gpu) is not None, gpu


def test_catalog_md_states_the_table_the_code_uses():
    text = (ROOT / "pricing" / "CATALOG.md").read_text(encoding="utf-8")
    for connection, anchors in WITHIN.items():
        line = next(x for x in text.splitlines() if x.startswith(f"| `{connection}` | 1 → 1"))
        written = [(float(g), float(e)) for g, e in re.findall(r"(\d+) → ([\d.]+)", line)]
        assert written == [(float(g), e) for g, e in anchors]
        at = [float(x) for x in line.split("|")[3].split("/")]
        assert at == pytest.approx(list(within_efficiency(connection, [2, 4, 8])), abs=5e-5)
    for network, figure in ACROSS.items():
        line = next(x for x in text.splitlines() if x.startswith(f"| `{network}` | 0."))
        assert float(line.split("|")[2]) == figure


def test_the_shipped_interconnects_file_uses_only_known_words():
    with (ROOT / "pricing" / "data" / "interconnects.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["interconnect"] for r in rows} <= set(WITHIN)
    assert {r["across_machines"] for r in rows} <= set(ACROSS)
    assert all(r["source"].startswith("https://") for r in rows)


def test_a_user_interconnects_file_is_checked_and_replaces_rows(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text("id,interconnect,across_machines,as_of,source\n"
                    "aws/g4dn.12xlarge,nvlnk,ethernet,2026-12,https://example.org\n",
                    encoding="utf-8")
    with pytest.raises(CatalogFileError) as err:
        load_catalog([path])
    assert "interconnect must be one of pcie, nvlink, nvswitch, got 'nvlnk'" in str(err.value)
    assert "did you mean" in str(err.value) and "mine.csv" in str(err.value)
    path.write_text("id,interconnect,across_machines,as_of,source\n"
                    "aws/g4dn.12xlarge,nvswitch,infiniband,2026-12,https://example.org\n",
                    encoding="utf-8")
    row_ = load_catalog([path]).interconnect("aws/g4dn.12xlarge", "t4")
    assert (row_.interconnect, row_.across_machines) == ("nvswitch", "infiniband")


# -- validation ------------------------------------------------------------------------------


YAML = """\
version: 1
horizon_months: 12
demand:
  gpu_hours_per_month: 100
  gpus: 4
  parallelism: {parallelism}
options:
  - name: rent
    cloud: {{price_per_hour: 2, gpus: 4}}
    scaling_efficiency: {value}
"""


def _problems(text, tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as err:
        planner.load(path).evaluate()
    return err.value.problems


@pytest.mark.parametrize("value, message, suggestion", [
    ("1.5", "expected a fraction above 0 and at most 1, or auto, got 1.5", None),
    ("0", "expected a fraction above 0 and at most 1, or auto, got 0", None),
    ("-0.5", "expected a fraction above 0 and at most 1, or auto, got -0.5", None),
    ("Auto", "expected a fraction above 0 and at most 1, or auto, got the text 'Auto'", "auto"),
    ("automatic", "expected a fraction above 0", "auto"),
    ("auto", "scaling_efficiency: auto needs to know how the option's GPUs are connected",
     None),
])
def test_bad_values_are_located_at_the_value(tmp_path, value, message, suggestion):
    text = YAML.format(parallelism="data", value=value)
    problems = _problems(text, tmp_path)
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.path == "options[0].scaling_efficiency"
    assert problem.message.startswith(message), problem.message
    assert problem.suggestion == suggestion
    assert problem.file.endswith("plan.yaml")
    assert problem.line == 10 and text.splitlines()[9][problem.column - 1:].startswith(value)


@pytest.mark.parametrize("value", ["0.9", "auto"])
def test_independent_runs_with_a_scaling_efficiency_is_an_error_at_its_key(tmp_path, value):
    problems = _problems(YAML.format(parallelism="independent", value=value), tmp_path)
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.path == "options[0].scaling_efficiency"
    assert problem.message.startswith("demand.parallelism is independent: every run uses one "
                                      "GPU, so scaling_efficiency is 1")
    assert (problem.line, problem.column) == (10, 5)  # the key


def test_a_misspelt_parallelism_is_suggested(tmp_path):
    problems = _problems(YAML.format(parallelism="indep", value="0.9"), tmp_path)
    assert [p.path for p in problems] == ["demand.parallelism"]
    assert problems[0].suggestion == "independent"


def test_validate_exits_1_without_a_traceback(tmp_path, run):
    path = tmp_path / "plan.yaml"
    path.write_text(YAML.format(parallelism="independent", value="0.9"), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1
    assert "plan.yaml:10:5: options[0].scaling_efficiency: demand.parallelism is independent" \
        in result.output
    assert "Traceback" not in result.output


# -- Plan.replace, sweeps, frames ------------------------------------------------------------


def test_replace_sets_it_like_the_file():
    plan = planner.load(plan_data())
    replaced = plan.replace({"options.rent.scaling_efficiency": 0.9}).evaluate().to_dict()
    written = planner.load(plan_data(0.9)).evaluate().to_dict()
    assert replaced["options"] == written["options"]


@settings(max_examples=8, deadline=None)
@given(efficiencies=st.lists(st.floats(0.05, 1.0), min_size=1, max_size=4),
       gpus=st.sampled_from([[1], [2, 4], [4, 8, 16]]),
       speed=st.floats(0.25, 4.0))
def test_a_sweep_over_scaling_efficiency_equals_its_evaluations(efficiencies, gpus, speed):
    data = plan_data(0.5)
    data["options"][0]["relative_speed"] = speed
    data["options"].append({"name": "p4d", "cloud": "aws/p4d.24xlarge",
                            "scaling_efficiency": "auto"})
    plan = planner.load(data)
    frame = plan.sweep({"options.rent.scaling_efficiency": efficiencies, "demand.gpus": gpus})
    assert len(frame) == 2 * len(efficiencies) * len(gpus)
    for (e, g), rows in frame.groupby(["options.rent.scaling_efficiency", "demand.gpus"],
                                      sort=False):
        single = plan.replace({"options.rent.scaling_efficiency": float(e),
                               "demand.gpus": int(g)}).evaluate()
        for name in ("rent", "p4d"):
            got = rows[rows.option == name].iloc[0]
            expected = row(single, name)
            for key in ("scaling_efficiency", "job_days", "gpu_hours_per_month", "total_cost",
                        "present_value"):
                if expected[key] is None:
                    assert math.isnan(got[key])
                else:
                    assert got[key] == pytest.approx(expected[key], rel=1e-12), key


def test_a_sweep_with_auto_among_the_numbers():
    plan = planner.load(_auto_plan())
    frame = plan.sweep({"options.rent.scaling_efficiency": [0.5, "auto"]})
    assert frame[frame.option == "rent"].scaling_efficiency.tolist() == pytest.approx(
        [0.5, 1 - 0.2 / 3])


def _auto_plan():
    return {"version": 1, "horizon_months": 12,
            "demand": {"gpu_hours_per_month": 1000, "gpus": 4},
            "options": [{"name": "rent", "cloud": "aws/p4d.24xlarge"}]}


def test_the_options_frame_has_the_new_columns():
    options = planner.load(plan_data(0.9)).evaluate().options
    assert options.loc[0, "scaling_efficiency"] == 0.9
    assert options.loc[0, "job_days"] == pytest.approx(100 / 24)


# -- the report and the terminal --------------------------------------------------------------


def test_the_days_column_makes_the_options_table_smaller_two_characters_sooner():
    from planner.render.html import options_table_pt

    class Row:
        def __init__(self, text, days=""):
            self.total_cost = self.present_value = text
            self.cost_per_gpu_hour = self.residual_value = "$1.00"
            self.job_days = days

    # "$244,922" is 8 characters: 8 pt without the column; 8 + 2 = 10 with it: 7 pt.
    assert options_table_pt([Row("$244,922")]) == 8.0
    assert options_table_pt([Row("$244,922", "3.5")]) == 7.0
    assert options_table_pt([Row("$2,449,220", "3.5")]) == 6.5  # 10 + 2 = 12


def test_the_report_and_the_terminal_show_days_beside_cost():
    from planner.render.content import option_rows, shows_job_days
    from planner.render.terminal import summary_table

    result = planner.load(plan_data(0.9)).evaluate()
    assert shows_job_days(result)
    (rent,) = option_rows(result)
    assert rent.job_days == "4.2"  # 100 h / 24 = 4.17 days
    assert rent.scaling == "90% scaling"
    assert "Days / job: rent 4.2" in summary_table(result).caption
    data = plan_data()
    del data["demand"]["job_hours"]
    plain = planner.load(data).evaluate()
    assert not shows_job_days(plain) and option_rows(plain)[0].scaling == ""
    assert "Days / job" not in summary_table(plain).caption


def test_uncertainty_draws_it_within_its_range():
    # Draws are truncated to (0, 1] (SPEC §7): every drawn plan needs at least the GPU-hours of
    # E = 1, so every drawn cost is at least 12,000 (1,000 / 4 × 4.00 × 12) and the median of
    # uniform(0.6, 1.2) truncated at 1 is 0.8: about 12,000 / 0.8 = 15,000.
    data = plan_data(0.9)
    data["uncertainty"] = {"samples": 400, "seed": 7, "inputs": {
        "options.rent.scaling_efficiency": {"distribution": "uniform", "low": 0.6,
                                            "high": 1.2}}}
    drawn = planner.load(data).evaluate().to_dict()["uncertainty"]["options"][0]["total_cost"]
    assert drawn["p5"] >= 12000 - 1e-6
    assert drawn["p50"] == pytest.approx(15000, rel=0.02)


def test_auto_names_the_interconnects_row_among_the_assumptions():
    plan = planner.load(_auto_plan() | {"options": [
        {"name": "rent", "cloud": "aws/p4d.24xlarge", "scaling_efficiency": "auto"}]})
    rows = [a for a in plan.evaluate().assumptions
            if a["item"].key == "assumption.interconnect"]
    assert len(rows) == 1
    params = dict(rows[0]["value"].params)
    assert params["interconnect"] == "nvswitch" and params["across"] == "rdma"
    assert params["share"] == pytest.approx(1 - 0.2 / 3) and params["gpus"] == 4
    assert rows[0]["source"] == "https://aws.amazon.com/ec2/instance-types/p4/"
    assert not [a for a in planner.load(plan_data(0.9)).evaluate().assumptions
                if a["item"].key == "assumption.interconnect"]


def test_a_sweep_over_numbers_is_one_array_computation(monkeypatch):
    # 1,000 efficiencies are one group: the cards are resolved a few times (the group's
    # validation, its chunk), each time with all 1,000 values as one array, never per value.
    import planner.cards.resolve as resolve_module

    shapes = []
    original = resolve_module.scaling_efficiency

    def counted(*args, **kwargs):
        value = original(*args, **kwargs)
        shapes.append(value.shape)
        return value

    monkeypatch.setattr(resolve_module, "scaling_efficiency", counted)
    values = list(np.linspace(0.1, 1.0, 1000))
    frame = planner.load(plan_data(0.5)).sweep({"options.rent.scaling_efficiency": values})
    assert len(frame) == 1000
    assert frame.scaling_efficiency.to_numpy() == pytest.approx(values)
    assert (1000, 1) in shapes and len(shapes) <= 5, shapes
