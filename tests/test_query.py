"""pricing.query: the catalog listing's queries, on tiny tables built inline."""

import datetime

import pytest

from pricing.query import (
    AGE_COLUMN,
    QueryError,
    cell_equals,
    check_column,
    containing,
    every_table,
    listing_columns,
    parse_where,
    sort_rows,
    table_named,
    view_columns,
    where,
    with_age_days,
)

ROWS = [
    {"id": "aws/p5", "gpu": "H100-80GB", "gpus": 8, "price_per_hour": 98.3, "spot": None},
    {"id": "gcp/a2", "gpu": "a100-40gb", "gpus": 1, "price_per_hour": 3.67, "spot": 1.1},
    {"id": "lambda/1x", "gpu": "a100-80gb", "gpus": 1, "price_per_hour": None, "spot": ""},
]
TABLES = ["gpus", "clouds", "free-tiers", "site-kinds"]


@pytest.mark.parametrize("text, table", [
    ("gpus", "gpus"), ("GPU", "gpus"), (" cloud ", "clouds"), ("free_tiers", "free-tiers"),
    ("free-tier", "free-tiers"), ("site_kind", "site-kinds"),
])
def test_a_table_by_any_of_its_spellings(text, table):
    assert table_named(text, TABLES) == table


def test_an_unknown_table_suggests_the_closest_and_lists_them_all():
    with pytest.raises(QueryError) as info:
        table_named("gpuz", TABLES)
    assert str(info.value) == ("'gpuz' is not a catalog table (did you mean gpus?); the tables "
                               "are gpus, clouds, free-tiers, site-kinds")
    with pytest.raises(QueryError, match=r"^'zzz' is not a catalog table; the tables"):
        table_named("zzz", TABLES)


def test_parse_where():
    assert parse_where("GPU = A100") == ("gpu", "A100")
    assert parse_where("spot=") == ("spot", "")
    assert parse_where("note=a=b") == ("note", "a=b")
    for bad in ("gpu", "=a100", " =x"):
        with pytest.raises(QueryError, match="expected COLUMN=VALUE"):
            parse_where(bad)


def test_containing_is_case_insensitive_and_skips_empty_cells():
    assert [r["id"] for r in containing(ROWS, "A100")] == ["gcp/a2", "lambda/1x"]
    assert [r["id"] for r in containing(ROWS, "98.3")] == ["aws/p5"]
    assert containing(ROWS, "none") == []
    assert containing(ROWS, "") == ROWS


@pytest.mark.parametrize("value, wanted, equal", [
    (8, "8", True), (8, "8.0", True), (3.67, "3.670", True), (8, "eight", False),
    ("H100-80GB", "h100-80gb", True), (" t4 ", "T4", True), ("t4", "t4x", False),
    (None, "", True), ("", "", True), (None, "x", False), (0, "", False),
    (True, "true", True), (True, "TRUE", True), (False, "0", False),
])
def test_cell_equals(value, wanted, equal):
    assert cell_equals(value, wanted) is equal


def test_where_keeps_the_rows_whose_cell_equals():
    assert [r["id"] for r in where(ROWS, "gpus", "1")] == ["gcp/a2", "lambda/1x"]
    assert [r["id"] for r in where(ROWS, "spot", "")] == ["aws/p5", "lambda/1x"]
    assert [r["id"] for r in where(ROWS, "missing", "")] == ["aws/p5", "gcp/a2", "lambda/1x"]


def test_sort_puts_numbers_before_text_and_empty_cells_last_either_way():
    rows = [{"v": "b"}, {"v": None}, {"v": 10}, {"v": "A"}, {"v": 2.5}, {"v": ""}, {"v": 10}]
    assert [r["v"] for r in sort_rows(rows, "v")] == [2.5, 10, 10, "A", "b", None, ""]
    assert [r["v"] for r in sort_rows(rows, "v", descending=True)] == \
        ["b", "A", 10, 10, 2.5, None, ""]
    assert [r["id"] for r in sort_rows(ROWS, "price_per_hour")] == ["gcp/a2", "aws/p5",
                                                                     "lambda/1x"]


def test_age_in_days_follows_as_of():
    rows = [{"id": "a", "as_of": "2025-06", "source": "s"},
            {"id": "b", "as_of": "2025-12-30", "source": "s"},
            {"id": "c", "as_of": None, "source": "s"},
            {"id": "d"}]
    aged = with_age_days(rows, datetime.date(2026, 1, 1))
    assert [list(r) for r in aged[:3]] == [["id", "as_of", AGE_COLUMN, "source"]] * 3
    assert [r.get(AGE_COLUMN) for r in aged] == [214, 2, None, None]
    assert aged[3] == {"id": "d"} and rows[0] == {"id": "a", "as_of": "2025-06", "source": "s"}


def test_listing_columns_add_the_age_after_as_of():
    assert listing_columns(["id", "as_of", "source"]) == ["id", "as_of", AGE_COLUMN, "source"]
    assert listing_columns(["id", "as_of", AGE_COLUMN]) == ["id", "as_of", AGE_COLUMN]
    assert listing_columns(["id", "pue"]) == ["id", "pue"]


def test_check_column_suggests_the_closest_as_spelled():
    check_column("gpu", ["id", "gpu"])
    with pytest.raises(QueryError) as info:
        check_column("gpux", ["id", "gpu", "gpus"])
    assert str(info.value) == "no column 'gpux' (did you mean gpu?)"
    with pytest.raises(QueryError, match=r"^no column 'zzz'$"):
        check_column("zzz", ["id", "gpu"])


def test_every_table_names_each_row_s_table_and_unites_the_columns():
    rows, columns = every_table(
        {"gpus": [{"id": "t4", "memory_gb": 16.0}], "site-kinds": [],
         "clouds": [{"id": "aws/g4", "gpu": "t4", "memory_gb": None}]},
        {"gpus": ["id"], "site-kinds": ["id", "pue"], "clouds": ["id"]})
    assert rows == [{"table": "gpus", "id": "t4", "memory_gb": 16.0},
                    {"table": "clouds", "id": "aws/g4", "gpu": "t4", "memory_gb": None}]
    assert columns == ["table", "id", "memory_gb", "pue", "gpu"]


def test_view_columns():
    rows = [{"id": "x", "pue": 1.2, "as_of": "2025-01", AGE_COLUMN: 3, "source": "s"}]
    assert view_columns("site-kinds", [], rows) == ["id", "pue", "as_of", AGE_COLUMN, "source"]
    assert view_columns("site-kinds", [], [{"id": "x"}]) == ["id"]
    schema = ["id", "a", "b", "c", "d", "e", "f", "g", "currency", "as_of", "source", "notes"]
    assert view_columns("other", schema, []) == ["id", "a", "b", "c", "d", "e", "as_of",
                                                 AGE_COLUMN, "source"]
    assert view_columns("other", ["id", "name"], []) == ["id", "name"]
