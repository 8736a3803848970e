"""``planner gpus [NAME[:COUNT]]``: price per GPU-hour of every cloud instance with a GPU, at its
cheapest region, cheapest first; GPU names through the table shared with import and export.

The command-line tests add a catalog file of made-up 3-GPU L4 instances (no built-in instance
has 3 L4s), so that ``L4:3`` lists exactly them whatever the built-in prices are. Every
expected price is worked out by hand in the comments."""

from __future__ import annotations

import csv
import datetime
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pricing.catalog import TABLES
from pricing.gpu_prices import gpu_names, gpus_named, parse_gpu_query, price_lines
from pricing.query import QueryError

DAY = "2026-12-01"

# id, region, price, spot, 1-year, currency, as_of  (3 GPUs each)
ROWS = [
    ("acme/l4x3", "us-east-1", 3.0, 1.5, 2.4, "USD", "2026-11-01"),
    ("acme/l4x3", "eu-west-1", 2.7, None, None, "USD", "2026-10-01"),
    ("beta/l4-3", "*", 2.4, 0.9, None, "USD", "2026-06"),
    ("yun/GN-L4x3", "ap-shanghai", 6.3, None, 4.2, "CNY", "2026-11-15"),
]
# Per GPU-hour (÷ 3): acme us-east-1 1.0 (spot 0.5, 1-year 0.8), acme eu-west-1 0.9 (its
# cheapest region), beta 0.8 (spot 0.3), yun 2.1 CNY (1-year 1.4 CNY).


def _rows():
    out = []
    for cloud_id, region, price, spot, year, currency, as_of in ROWS:
        provider, instance = cloud_id.split("/")
        out.append({"id": cloud_id, "provider": provider, "instance": instance,
                    "region": region, "gpu": "l4", "gpus": 3, "price_per_hour": price,
                    "spot_price_per_hour": spot, "reserved_1y_price_per_hour": year,
                    "currency": currency, "as_of": as_of, "source": "made up for a test"})
    return out


@pytest.fixture
def quotes(tmp_path):
    path = tmp_path / "quotes.csv"
    columns = [c.name for c in TABLES["clouds"]]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in _rows():
            writer.writerow({k: "" if row.get(k) is None else row.get(k) for k in columns})
    return path


def _json(run, *args):
    result = run("gpus", *args, "--date", DAY, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- the lines --------------------------------------------------------------------------------


def test_one_line_per_instance_at_its_cheapest_region_cheapest_first(run, quotes):
    lines = _json(run, "L4:3", "--catalog", quotes)
    # yun is in CNY and there is no rate: left out. beta 0.8 before acme 0.9 (eu-west-1, the
    # cheaper of its regions; its spot and 1-year prices are that region's: none).
    assert [(x["id"], x["region"]) for x in lines] == [("beta/l4-3", "*"),
                                                      ("acme/l4x3", "eu-west-1")]
    beta, acme = lines
    assert beta["on_demand_per_gpu_hour"] == pytest.approx(0.8)
    assert beta["spot_per_gpu_hour"] == pytest.approx(0.3)
    assert beta["reserved_1y_per_gpu_hour"] is None
    assert acme["on_demand_per_gpu_hour"] == pytest.approx(0.9)
    assert acme["spot_per_gpu_hour"] is None
    # Ages to 2026-12-01: 2026-10-01 is 31 + 30 = 61 days; "2026-06" reads as 2026-06-01,
    # 30 + 31 + 31 + 30 + 31 + 30 = 183 days.
    assert acme["age_days"] == 61 and beta["age_days"] == 183
    assert all(x["currency"] == "USD" and x["gpu"] == "l4" and x["gpus"] == 3 for x in lines)


def test_rows_in_another_currency_need_a_rate(run, quotes):
    result = run("gpus", "L4:3", "--catalog", quotes, "--date", DAY)
    assert result.exit_code == 0
    assert "1 instance priced in CNY left out: add --fx CNY=<USD per CNY>" in result.stderr
    # With a rate: 6.3 CNY / 3 GPUs = 2.1 CNY × 0.14 = 0.294 USD per GPU-hour, now the
    # cheapest; 1-year 4.2 / 3 × 0.14 = 0.196.
    lines = _json(run, "L4:3", "--catalog", quotes, "--fx", "CNY=0.14")
    assert lines[0]["id"] == "yun/GN-L4x3"
    assert lines[0]["on_demand_per_gpu_hour"] == pytest.approx(0.294)
    assert lines[0]["reserved_1y_per_gpu_hour"] == pytest.approx(0.196)
    assert [x["id"] for x in lines] == ["yun/GN-L4x3", "beta/l4-3", "acme/l4x3"]


def test_currency_conversion_by_hand(run, quotes):
    # In EUR at 0.5 EUR a USD and 0.07 EUR a CNY: yun 2.1 × 0.07 = 0.147, beta 0.8 × 0.5 =
    # 0.4, acme 0.9 × 0.5 = 0.45 (spot of beta 0.3 × 0.5 = 0.15).
    lines = _json(run, "l4:3", "--catalog", quotes, "--currency", "eur", "--fx", "USD=0.5",
                  "--fx", "cny=0.07")
    assert [(x["id"], x["currency"]) for x in lines] == [
        ("yun/GN-L4x3", "EUR"), ("beta/l4-3", "EUR"), ("acme/l4x3", "EUR")]
    assert [x["on_demand_per_gpu_hour"] for x in lines] == pytest.approx([0.147, 0.4, 0.45])
    assert lines[1]["spot_per_gpu_hour"] == pytest.approx(0.15)


def test_a_region_keeps_its_rows_and_those_priced_everywhere(run, quotes):
    # us-east-1: acme at 1.0 there (spot 0.5, 1-year 0.8), beta's "*" row at 0.8.
    lines = _json(run, "L4:3", "--catalog", quotes, "--region", "US-EAST-1")
    assert [(x["id"], x["region"]) for x in lines] == [("beta/l4-3", "*"),
                                                      ("acme/l4x3", "us-east-1")]
    assert lines[1]["on_demand_per_gpu_hour"] == pytest.approx(1.0)
    assert lines[1]["spot_per_gpu_hour"] == pytest.approx(0.5)
    assert lines[1]["reserved_1y_per_gpu_hour"] == pytest.approx(0.8)


def test_built_in_lines_are_sorted_and_every_one_has_the_gpus_asked(run):
    lines = _json(run, "H100:8")
    prices = [x["on_demand_per_gpu_hour"] for x in lines]
    assert lines and prices == sorted(prices)
    assert {x["gpu"] for x in lines} <= {"h100-80gb", "h100-80gb-pcie"}
    assert all(x["gpus"] == 8 for x in lines)
    assert len({x["id"] for x in lines}) == len(lines)  # one line per instance


def test_table_and_csv(run, quotes):
    table = run("gpus", "L4:3", "--catalog", quotes, "--date", DAY)
    assert "beta/l4-3" in table.stdout and "$0.80" in table.stdout and "183" in table.stdout
    rows = list(csv.DictReader(run("gpus", "L4:3", "--catalog", quotes, "--date", DAY,
                                   "--format", "csv").stdout.splitlines()))
    assert [r["id"] for r in rows] == ["beta/l4-3", "acme/l4x3"]
    assert float(rows[0]["on_demand_per_gpu_hour"]) == pytest.approx(0.8)


# -- names ------------------------------------------------------------------------------------


def test_names_as_a_user_types_them():
    ids = ["a100-40gb", "a100-80gb", "a100-80gb-pcie", "h100-80gb", "h100-80gb-pcie",
           "h100-nvl", "rtx-a6000", "rtx-4090"]
    assert gpus_named("A100", ids) == ["a100-40gb"]  # SkyPilot's A100 is the 40 GB card
    assert gpus_named("a100-80gb", ids) == ["a100-80gb", "a100-80gb-pcie"]
    assert gpus_named("A100-80GB-PCIE", ids) == ["a100-80gb-pcie"]  # a catalog id
    assert gpus_named("h100", ids) == ["h100-80gb", "h100-80gb-pcie"]  # SkyPilot's "H100"
    assert gpus_named("H100-NVL", ids) == ["h100-nvl"]
    assert gpus_named("h100-80gb", ids) == ["h100-80gb"]
    assert gpus_named("RTX4090", ids) == ["rtx-4090"]
    assert gpus_named("rtxa6000", ids) == ["rtx-a6000"]  # SkyPilot catalog spelling
    assert gpus_named("b200", ids) == []
    assert {"A100", "A100-80GB", "H100", "H100-NVL", "RTX4090", "a100-80gb-pcie"} <= set(
        gpu_names(ids))


def test_parse_gpu_query():
    assert parse_gpu_query("A100:8") == ("A100", 8)
    assert parse_gpu_query("t4") == ("t4", None)
    for bad in ("A100:0", "A100:x", ":8", "A100:-1"):
        with pytest.raises(QueryError):
            parse_gpu_query(bad)


def test_price_lines_alone():
    day = datetime.date(2026, 12, 1)
    lines, left_out = price_lines(_rows(), gpus=["l4"], count=3, day=day)
    assert [x["id"] for x in lines] == ["beta/l4-3", "acme/l4x3"] and left_out == {"CNY": 1}
    lines, left_out = price_lines(_rows(), gpus=["t4"], day=day)
    assert lines == [] and left_out == {}


# -- problems ---------------------------------------------------------------------------------


def test_an_unknown_gpu_gets_a_suggestion(run):
    result = run("gpus", "H10")
    assert result.exit_code == 1
    assert "unknown GPU 'H10'" in result.output and "did you mean H100" in result.output
    assert "Traceback" not in result.output


def test_a_count_no_instance_has_lists_those_that_exist(run):
    result = run("gpus", "L4:3")
    assert result.exit_code == 1
    assert "no cloud instance with L4:3" in result.output and "1, 2, 4, 8" in result.output


def test_an_unknown_region_gets_a_suggestion(run):
    result = run("gpus", "t4", "--region", "us-eest-1")
    assert result.exit_code == 1
    assert "us-east-1" in result.output


def test_an_unknown_currency_is_a_user_error(run):
    result = run("gpus", "t4", "--currency", "USDD")
    assert result.exit_code == 1
    assert "ISO 4217" in result.output and "USD" in result.output


@pytest.mark.parametrize("args", [("L4:0",), ("L4:x",), ("t4", "--fx", "CNY"),
                                  ("t4", "--fx", "CNY=-1"), ("t4", "--fx", "CNY=nan"),
                                  ("t4", "--format", "xml")])
def test_wrong_command_line_is_exit_2(run, args):
    assert run("gpus", *args).exit_code == 2


# -- the name table shared with import and export ------------------------------------------------


def test_every_skypilot_name_is_of_a_catalog_gpu_and_reads_back():
    from pricing.accelerators import ACCELERATORS, SKYPILOT_NAMES
    from pricing.catalog import load_catalog

    ids = load_catalog().ids("gpus")
    assert set(SKYPILOT_NAMES) <= set(ids)
    # GPUs SkyPilot names nowhere have no name (a GPU added to the catalog needs one here
    # where SkyPilot names it).
    assert not {"gtx-1080ti", "rtx-2080ti", "quadro-rtx-8000"} & set(SKYPILOT_NAMES)
    for gpu, name in SKYPILOT_NAMES.items():
        assert gpu in gpus_named(name, ids)  # `planner gpus NAME` finds the GPU exported as NAME
        # A name the import knows is read as a GPU the export writes back under that name.
        if name.lower() in ACCELERATORS:
            assert SKYPILOT_NAMES[ACCELERATORS[name.lower()]] == name


# -- properties -------------------------------------------------------------------------------

_REGIONS = ("r1", "r2", "r3", "*")
_row = st.fixed_dictionaries({
    "id": st.sampled_from(["p/a", "p/b", "q/c"]),
    "region": st.sampled_from(_REGIONS),
    "gpus": st.sampled_from([1, 2, 8]),
    "price_per_hour": st.floats(0.01, 100),
    "spot_price_per_hour": st.one_of(st.none(), st.floats(0.01, 100)),
})


def _full(rows):
    return [{**r, "provider": r["id"].split("/")[0], "instance": r["id"].split("/")[1],
             "gpu": "l4", "reserved_1y_price_per_hour": None, "currency": "USD",
             "as_of": "2026-11-01", "source": "s"} for r in rows]


@settings(max_examples=60, deadline=None)
@given(st.lists(_row, max_size=12), st.sampled_from([None, "r1", "r2"]))
def test_a_line_is_the_cheapest_row_of_its_instance_by_brute_force(rows, region):
    rows = _full(rows)
    lines, _ = price_lines(rows, region=region, day=datetime.date(2026, 12, 1))
    expected = {}
    for r in rows:
        if region is not None and r["region"] not in (region, "*"):
            continue
        key = (r["price_per_hour"] / r["gpus"], r["region"])
        expected[r["id"]] = min(expected.get(r["id"], key), key)
    assert {x["id"]: (x["on_demand_per_gpu_hour"], x["region"]) for x in lines} == expected
    prices = [x["on_demand_per_gpu_hour"] for x in lines]
    assert prices == sorted(prices)


@settings(max_examples=60, deadline=None)
@given(st.lists(_row, min_size=1, max_size=12), st.floats(0.001, 1000))
def test_a_rate_scales_every_price(rows, k):
    rows = _full(rows)
    day = datetime.date(2026, 12, 1)
    usd, _ = price_lines(rows, day=day)
    eur, _ = price_lines(rows, currency="EUR", fx={"usd": k}, day=day)
    by_id = {x["id"]: x for x in usd}
    assert sorted(by_id) == sorted(x["id"] for x in eur)
    for b in eur:
        a = by_id[b["id"]]
        assert b["region"] == a["region"]
        assert b["on_demand_per_gpu_hour"] == pytest.approx(k * a["on_demand_per_gpu_hour"])
        if a["spot_per_gpu_hour"] is not None:
            assert b["spot_per_gpu_hour"] == pytest.approx(k * a["spot_per_gpu_hour"])
    prices = [x["on_demand_per_gpu_hour"] for x in eur]
    assert prices == sorted(prices)
