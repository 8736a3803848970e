"""The catalog's tables laid out for the terminal (planner/render/catalog_tables.py)."""

from __future__ import annotations

from planner.render.catalog_tables import catalog_table, gpu_prices_table, whole_width

ROWS = [{"id": "t4", "name": "NVIDIA T4", "memory_gb": 16.0, "tdp_watts": 70.0,
         "as_of": "2024-07-24", "age_days": 860,
         "source": "https://epoch.ai/data/machine-learning-hardware; https://example.org"}]


def _headers(table) -> list[str]:
    return [str(c.header).replace("\n", "") for c in table.columns]


def test_a_pipe_gets_every_column_whole():
    table = catalog_table("gpus", ROWS, None)
    headers = _headers(table)
    assert {"id", "memory_gb", "as_of", "age_days", "source"} <= set(headers)
    assert table.caption is None and all(c.no_wrap for c in table.columns)
    # the source's first site without its scheme: 39 characters, so the table is wider
    assert whole_width(table) > len("epoch.ai/data/machine-learning-hardware")


def test_a_narrow_terminal_keeps_id_date_age_and_source_and_names_what_it_left_out():
    table = catalog_table("gpus", ROWS, 40)
    headers = _headers(table)
    assert {"id", "as_of", "age_days", "source"} <= set(headers)
    left_out = [h for h in _headers(catalog_table("gpus", ROWS, None)) if h not in headers]
    assert left_out and table.caption.startswith(
        f"left out to fit the terminal: {', '.join(left_out)}")


def test_gpu_prices_table_formats_money_through_fmt():
    line = {"gpu": "h100-80gb", "gpus": 8.0, "id": "aws/p5.48xlarge",
            "on_demand_per_gpu_hour": 3.933, "spot_per_gpu_hour": None,
            "reserved_1y_per_gpu_hour": 2.5, "region": "us-east-1", "as_of": "2026-07-30",
            "age_days": 124}
    table = gpu_prices_table([line], "USD")
    cells = [next(iter(c.cells)) for c in table.columns]
    assert cells[:3] == ["h100-80gb", "8", "aws/p5.48xlarge"]
    assert cells[3] == "$3.933" and cells[5] == "$2.50" and cells[-1] == "124"
