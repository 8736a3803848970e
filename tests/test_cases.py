"""Published worked examples (shared cases), reproduced through usage.yaml."""

import numpy_financial as npf
import pytest

import planner

LENOVO = """
version: 1
title: Lenovo LP2225
hours_per_month: 720
horizon_months: 36
demand: {utilization: 1.0, gpus: 8}
site: {electricity_per_kwh: 0}
options:
  - name: server
    own: {purchase_price: 833806, gpu_count: 8, operating_cost_per_hour: 0.87, power_watts: 0}
  - name: p5
    cloud: {price_per_hour: 98.32, gpus: 8}
"""


def test_lenovo_lp2225_server_against_p5(tmp_path):
    # Published: break-even after 8,556 hours, about 11.9 months.
    path = tmp_path / "lenovo.yaml"
    path.write_text(LENOVO)
    pair = planner.load(path).evaluate().to_dict()["break_even"][0]
    assert (pair["own"], pair["versus"]) == ("server", "p5")
    assert pair["system_hours"] == pytest.approx(8556.2, abs=0.05)
    assert pair["months"] == pytest.approx(11.88, abs=0.005)


def test_numpy_financial_financed_purchase():
    # numpy_financial.pmt(0.075/12, 15*12, 200000) = −1854.0247200054619
    data = {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 0},
        "site": {"electricity_per_kwh": 0},
        "options": [{"name": "machine", "own": {
            "purchase_price": 200_000, "power_watts": 0, "lifetime_years": 20,
            "financing": {"annual_rate": 0.075, "months": 180, "down_payment": 0}}}],
    }
    monthly = planner.load(data).evaluate().to_dict()["options"][0]["monthly_cost"]
    assert monthly[0] == 0
    assert monthly[1] == pytest.approx(1854.0247200054619, rel=1e-12)
    assert monthly[1] == pytest.approx(-npf.pmt(0.075 / 12, 180, 200_000), rel=1e-12)
