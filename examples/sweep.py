"""When does the workstation pay off against spot A100s, by electricity price and usage?

Loads ``usage.yaml`` beside this script, sweeps the site's electricity price against the
month-1 demand, and prints the break-even of ``workstation`` against ``a100-spot`` in months
("never" when buying does not pay off within the horizon).

    python examples/sweep.py
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import planner

USAGE = Path(__file__).resolve().parent / "usage.yaml"
OWN, VERSUS = "workstation", "a100-spot"
ELECTRICITY = [round(0.05 * k, 2) for k in range(1, 9)]  # 0.05 … 0.40 [USD/kWh]
DEMAND = list(range(200, 2401, 200))  # month-1 usage [reference GPU-hours per month]


def break_even_table(plan: planner.Plan) -> pd.DataFrame:
    """Break-even months of OWN against VERSUS: one row per demand level, one column per
    electricity price; NaN where buying never pays off within the horizon."""
    frame = plan.sweep({"site.electricity_per_kwh": ELECTRICITY,
                        "demand.gpu_hours_per_month": DEMAND})
    rows = frame[frame["option"] == OWN]
    return rows.pivot(index="demand.gpu_hours_per_month", columns="site.electricity_per_kwh",
                      values=f"break_even.{VERSUS}.months")


def formatted(table: pd.DataFrame) -> pd.DataFrame:
    """Months with one decimal; NaN as "never"."""
    text = table.map(lambda months: "never" if pd.isna(months) else f"{months:.1f}")
    text.index = [f"{level:,.0f}" for level in table.index]
    text.index.name = "GPU-h/month"
    text.columns = [f"{price:.2f}" for price in table.columns]
    text.columns.name = "USD/kWh"
    return text


def main() -> None:
    plan = planner.load(USAGE)
    table = break_even_table(plan)
    horizon = plan.usage["horizon_months"]
    print(f"Months until {OWN} pays off against {VERSUS} (horizon {horizon} months)")
    print(formatted(table).to_string())


if __name__ == "__main__":
    main()
