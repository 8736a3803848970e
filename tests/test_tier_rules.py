"""Free-tier rules beyond quotas: frameworks, files that do not persist, random hardware."""

import pytest

import planner


def plan(tier: dict, **demand):
    return {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 100, **demand},
        "options": [
            {"name": "tier", "free_tier": tier, "fallback": "rent"},
            {"name": "rent", "cloud": {"price_per_hour": 2.0}},
        ],
    }


def tier_row(result):
    return next(o for o in result.to_dict()["options"] if o["name"] == "tier")


def test_a_tier_for_another_framework_sends_all_work_to_its_fallback():
    tier = {"monthly_quota_hours": 60, "frameworks": ["paddlepaddle"]}
    row = tier_row(planner.load(plan(tier)).evaluate())  # demand.framework: pytorch
    assert row["feasible"] and row["gpu_hours_per_month"] == 0
    assert row["total_cost"] == pytest.approx(100 * 2.0 * 12)
    assert any("paddlepaddle" in w and "pytorch" in w for w in row["warnings"])
    same = tier_row(planner.load(plan(tier, framework="paddlepaddle")).evaluate())
    assert same["gpu_hours_per_month"] == pytest.approx(60)


def test_a_tier_for_another_framework_without_fallback_is_infeasible():
    data = plan({"frameworks": ["paddlepaddle"]})
    del data["options"][0]["fallback"]
    row = tier_row(planner.load(data).evaluate())
    assert not row["feasible"]
    assert any("paddlepaddle" in r for r in row["reasons"])


def test_files_that_do_not_persist_are_fetched_every_session():
    """SPEC §5.4's capacity counts setup_minutes only: 40 × (4 − 5/60) / 4 whether files
    persist or not; where they do not, a warning says what each session spends fetching the
    data again: 10 GB at 100 MB/s = 10,000 MB / 100 / 60 = 1.67, about 2 minutes."""
    tier = {"monthly_quota_hours": 40, "session_hours": 4, "setup_minutes": 5,
            "files_persist": False, "download_mb_per_s": 100}
    row = tier_row(planner.load(plan(tier, data_gb=10)).evaluate())
    assert row["capacity_gpu_hours_per_month"] == pytest.approx(40 * (4 - 5 / 60) / 4)
    assert any("fetches the 10 GB of data again, about 2 minutes at 100 MB/s" in w
               for w in row["warnings"]), row["warnings"]
    kept = tier_row(planner.load(plan({**tier, "files_persist": True}, data_gb=10)).evaluate())
    assert kept["capacity_gpu_hours_per_month"] == pytest.approx(40 * (4 - 5 / 60) / 4)
    assert not any("fetches" in w for w in kept["warnings"])
