"""Free and low-cost notebook tiers, electricity regions and site kinds in the built-in catalog.

Ranges are wide enough for any honest figure and narrow enough to catch a unit slip (a price
in cents, a carbon intensity in grams, a share in percent).
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from pricing.catalog import (
    QUOTA_RESETS,
    CatalogFileError,
    CatalogLookupError,
    FreeTierRow,
    load_catalog,
    parse_as_of,
)

NAMED_TIERS = {
    "colab-free",
    "colab-pro",
    "kaggle",
    "sagemaker-studio-lab",
    "paperspace-free",
    "baidu-ai-studio",
}

# Currencies a region may be priced in, with plausible bounds of one kWh in that currency.
KWH_PRICE_BOUNDS = {
    "USD": (0.05, 0.60),
    "EUR": (0.05, 0.60),
    "GBP": (0.05, 0.60),
    "CAD": (0.05, 0.60),
    "AUD": (0.10, 0.80),
    "SGD": (0.10, 0.60),
    "CNY": (0.30, 2.00),
    "BRL": (0.30, 2.00),
    "INR": (2.0, 15.0),
    "JPY": (10.0, 80.0),
    "KRW": (50.0, 400.0),
}

REGION_IDS = {
    "us",
    "us-ca",
    "us-tx",
    "eu",
    "de",
    "fr",
    "nl",
    "ie",
    "se",
    "pl",
    "it",
    "es",
    "gb",
    "cn",
    "jp",
    "in",
    "kr",
    "sg",
    "ca",
    "au",
    "br",
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text.lstrip("\n"), encoding="utf-8")
    return path


# Free tiers ---------------------------------------------------------------------------------


def test_at_least_five_tiers_including_the_named_ones(catalog):
    ids = set(catalog.ids("free-tiers"))
    assert len(ids) >= 5
    assert ids >= NAMED_TIERS


def test_every_tier_row_is_complete_and_plausible(catalog):
    gpu_ids = set(catalog.ids("gpus"))
    for row in catalog.rows("free-tiers"):
        tier = catalog.free_tier(row["id"])
        assert tier.gpu in gpu_ids, tier.id
        assert 0 < tier.session_hours <= 24, tier.id
        assert 0 < tier.availability <= 1, tier.id
        assert isinstance(tier.files_persist, bool), tier.id
        assert tier.quota_reset in QUOTA_RESETS, tier.id
        assert tier.download_mb_per_s is not None and 0.1 <= tier.download_mb_per_s <= 1000
        assert tier.fee_per_month is not None and tier.fee_per_month >= 0
        assert re.fullmatch(r"[A-Z]{3}", tier.currency)
        for quota in (tier.weekly_quota_hours, tier.daily_quota_hours, tier.monthly_quota_hours):
            assert quota is None or 0 < quota <= 744
        has_quota = any(
            q is not None
            for q in (tier.weekly_quota_hours, tier.daily_quota_hours, tier.monthly_quota_hours)
        )
        assert (tier.quota_reset == "none") == (not has_quota), tier.id
        assert "estimate" in tier.notes, tier.id


def test_gpu_options_are_dicts_whose_shares_add_up_to_one(catalog):
    gpu_ids = set(catalog.ids("gpus"))
    for tier_id in catalog.ids("free-tiers"):
        tier = catalog.free_tier(tier_id)
        assert isinstance(tier.gpu_options, dict)
        if tier.gpu_options:
            assert sum(tier.gpu_options.values()) == pytest.approx(1.0)
            assert set(tier.gpu_options) <= gpu_ids
            assert tier.gpu == max(tier.gpu_options, key=tier.gpu_options.get)


def test_colab_pro_is_a_fee_for_compute_units(catalog):
    pro = catalog.free_tier("colab-pro")
    assert pro.fee_per_month == pytest.approx(9.99) and pro.currency == "USD"
    assert pro.compute_units_per_month == 100
    assert pro.compute_units_per_hour > 0
    assert pro.monthly_quota_hours == pytest.approx(
        pro.compute_units_per_month / pro.compute_units_per_hour, abs=0.01
    )
    assert pro.quota_reset == "monthly"
    for tier_id in catalog.ids("free-tiers"):
        tier = catalog.free_tier(tier_id)
        # Compute units come in pairs, and only with a monthly quota derived from them.
        units = (tier.compute_units_per_month, tier.compute_units_per_hour)
        assert (units[0] is None) == (units[1] is None), tier_id


def test_frameworks_are_parsed_into_a_tuple(catalog):
    baidu = catalog.free_tier("baidu-ai-studio")
    assert baidu.frameworks == ("paddlepaddle",)
    assert baidu.currency == "CNY" and baidu.fee_per_month == 0
    assert catalog.free_tier("kaggle").frameworks == ()
    for tier_id in catalog.ids("free-tiers"):
        frameworks = catalog.free_tier(tier_id).frameworks
        assert isinstance(frameworks, tuple)
        assert all(f == f.lower() and f.strip() == f and f for f in frameworks)


def test_quota_resets_of_the_named_tiers(catalog):
    assert catalog.free_tier("kaggle").quota_reset == "weekly"
    assert catalog.free_tier("sagemaker-studio-lab").quota_reset == "rolling-24h"
    assert catalog.free_tier("baidu-ai-studio").quota_reset == "daily"
    assert catalog.free_tier("paperspace-free").quota_reset == "none"


def test_a_user_tier_file_with_random_gpus_and_frameworks(tmp_path):
    path = write(
        tmp_path,
        "tiers.csv",
        """
id,name,gpu,gpu_options,quota_reset,frameworks,daily_quota_hours,currency,as_of,source
lottery,Lottery,t4,T4:0.8; p100:0.2,Daily,JAX; PyTorch;jax,3,USD,2026-01,https://example.org
""",
    )
    tier = load_catalog([path], builtin=True).free_tier("lottery")
    assert tier.gpu_options == {"t4": 0.8, "p100": 0.2}
    assert tier.quota_reset == "daily"
    assert tier.frameworks == ("jax", "pytorch")


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ("t4,t4:0.7;p100:0.2,daily", "add up to 1"),
        ("t4,t4:0.5;t4:0.5,daily", "twice"),
        ("t4,t4=1,daily", "id:share"),
        ("t4,p100:1,daily", "not among gpu_options"),
        ("t4,,sometimes", "quota_reset must be one of"),
    ],
)
def test_bad_tier_lists_are_reported_with_their_line(tmp_path, cells, message):
    path = write(
        tmp_path,
        "bad.csv",
        f"""
id,name,gpu,gpu_options,quota_reset,currency,as_of,source
bad,Bad,{cells},USD,2026-01,https://example.org
""",
    )
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    assert info.value.line == 2 and message in info.value.message


def test_unknown_gpu_in_gpu_options_is_reported(tmp_path):
    path = write(
        tmp_path,
        "bad.csv",
        """
id,name,gpu,gpu_options,currency,as_of,source
bad,Bad,t4,t4:0.5;t5:0.5,USD,2026-01,https://example.org
""",
    )
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    assert "'t5' is not in the gpus table" in str(info.value)


def test_a_tier_row_built_in_code_parses_its_lists():
    row = FreeTierRow(
        id="x",
        name="X",
        provider=None,
        gpu="t4",
        gpus=1,
        gpu_memory_gb=None,
        session_hours=None,
        idle_timeout_minutes=None,
        weekly_quota_hours=None,
        daily_quota_hours=None,
        monthly_quota_hours=None,
        fee_per_month=0,
        setup_minutes=None,
        availability=None,
        files_persist=None,
        gpu_options="t4:0.5;l4:0.5",
        quota_reset=None,
        frameworks="PaddlePaddle",
        download_mb_per_s=None,
        compute_units_per_month=None,
        compute_units_per_hour=None,
        currency="USD",
        as_of="2026-01",
        source="https://example.org",
        notes=None,
    )
    assert row.gpu_options == {"t4": 0.5, "l4": 0.5}
    assert row.frameworks == ("paddlepaddle",)


# Regions ------------------------------------------------------------------------------------


def test_regions_cover_the_required_ids(catalog):
    ids = set(catalog.ids("regions"))
    assert ids >= REGION_IDS
    assert len([i for i in ids if i.startswith("us-")]) >= 5
    assert all(i == i.lower() for i in ids)


def test_region_prices_and_carbon_are_plausible(catalog):
    priced = 0
    for row in catalog.rows("regions"):
        region = catalog.region(row["id"])
        assert region.currency in KWH_PRICE_BOUNDS, region.id
        low, high = KWH_PRICE_BOUNDS[region.currency]
        for price in (region.electricity_household_per_kwh, region.electricity_business_per_kwh):
            if price is not None:
                assert low <= price <= high, (region.id, price)
                priced += 1
        assert region.carbon_kg_per_kwh is not None, region.id
        assert 0.005 <= region.carbon_kg_per_kwh <= 1.2, region.id
    assert priced >= 30


def test_region_spot_checks(catalog):
    # BDEW 2026 household average as checked on 2026-08-21: 37.0 ct/kWh = 0.370 EUR/kWh (the
    # January evaluation gave 37.2), dated by its own household_as_of; Eurostat nrg_pc_205,
    # second half of 2025, band IC (500-1,999 MWh a year): 226.4 EUR/MWh = 0.2264 EUR/kWh
    de = catalog.region("de")
    assert de.electricity_household_per_kwh == pytest.approx(0.370)
    assert de.electricity_business_per_kwh == pytest.approx(0.2264)
    assert (de.as_of, de.price_as_of("household"), de.price_as_of("business")) == (
        "2025-07", "2026-08", "2025-07")
    # Eurostat, second half of 2025: EUR 18.37 per 100 kWh for non-household consumers (IC)
    assert catalog.region("eu").electricity_business_per_kwh == pytest.approx(0.1837)
    assert catalog.region("eu").currency == "EUR"
    assert catalog.region("gb").currency == "GBP"
    assert catalog.region("jp").currency == "JPY"
    # EIA Electric Power Monthly Table 5.6.B, California residential January-July 2026:
    # 33.25 cents/kWh; commercial January-May 2026: 25.11 cents/kWh
    assert catalog.region("us-ca").electricity_household_per_kwh == pytest.approx(0.3325)
    assert catalog.region("us-ca").electricity_business_per_kwh == pytest.approx(0.2511)
    # Ofgem's cap for October-December 2026, 26.32 p/kWh, newer than DESNZ's April-June 2026
    # small-business price (27.87 p/kWh), which dates the row
    gb = catalog.region("gb")
    assert (gb.price_as_of("household"), gb.price_as_of("business")) == ("2026-10", "2026-04")
    # Clean and dirty grids stay in their order.
    assert catalog.region("fr").carbon_kg_per_kwh < catalog.region("de").carbon_kg_per_kwh
    assert catalog.region("se").carbon_kg_per_kwh < catalog.region("pl").carbon_kg_per_kwh


def test_unknown_region_and_site_kind_suggest_close_ids(catalog):
    with pytest.raises(CatalogLookupError) as info:
        catalog.region("us-cal")
    assert info.value.kind == "region" and "us-ca" in info.value.suggestions
    assert "did you mean" in str(info.value)
    assert catalog.region(" US-CA ").id == "us-ca"
    with pytest.raises(CatalogLookupError) as info:
        catalog.site_kind("colocaton")
    assert info.value.kind == "site_kind" and info.value.suggestions == ["colocation"]


# Site kinds ---------------------------------------------------------------------------------


def test_site_kinds_have_pue_at_least_one(catalog):
    ids = set(catalog.ids("site-kinds"))
    assert ids >= {"home-office", "server-closet", "colocation", "hyperscale"}
    for kind_id in ids:
        kind = catalog.site_kind(kind_id)
        assert 1.0 <= kind.pue <= 3.0, kind_id
    home = catalog.site_kind("home-office")
    assert home.pue == 1.0 and "ASSUMPTION" in home.notes
    assert catalog.site_kind("hyperscale").pue < catalog.site_kind("colocation").pue
    assert catalog.site_kind("colocation").pue < catalog.site_kind("server-closet").pue


def test_pue_below_one_is_rejected(tmp_path):
    path = write(
        tmp_path,
        "sites.csv",
        """
id,name,pue,as_of,source
garage,Garage,0.9,2026-01,https://example.org
""",
    )
    with pytest.raises(CatalogFileError) as info:
        load_catalog([path])
    assert "pue must be >= 1" in info.value.message


def test_user_region_file_replaces_a_row(tmp_path):
    path = write(
        tmp_path,
        "regions.csv",
        """
id,name,electricity_household_per_kwh,carbon_kg_per_kwh,currency,as_of,source
DE,Germany (my contract),0.30,0.35,EUR,2026-10,my bill
""",
    )
    merged = load_catalog([path])
    assert merged.region("de").electricity_household_per_kwh == 0.30
    assert merged.region("de").electricity_business_per_kwh is None
    assert len(merged.ids("regions")) == len(load_catalog().ids("regions"))


# Provenance of all three tables --------------------------------------------------------------


@pytest.mark.parametrize("table", ["free-tiers", "regions", "site-kinds"])
def test_every_row_has_as_of_source_and_currency_where_money(catalog, table):
    for row in catalog.rows(table):
        assert row["as_of"] and row["source"], row["id"]
        assert date(2007, 1, 1) <= parse_as_of(row["as_of"]) <= date(2027, 12, 31), row["id"]
        assert all("http" in s or s.startswith("assumption") for s in row["source"].split("; ")), (
            row["id"]
        )
        assert "reference" not in row["source"]
        if table != "site-kinds":
            assert re.fullmatch(r"[A-Z]{3}", row["currency"]), row["id"]
        else:
            assert "currency" not in row


@pytest.mark.parametrize("table", ["regions", "site-kinds", "site_kinds", "region"])
def test_new_tables_list_as_json_ready_rows(catalog, table):
    rows = catalog.rows(table)
    json.dumps(rows)
    assert rows and all(r["id"] for r in rows)


def test_cli_lists_the_new_tables():
    from click.testing import CliRunner

    from planner.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["catalog", "regions", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {"us", "de", "jp"} <= {r["id"] for r in rows}
    assert all(r["as_of"] and r["source"] and r["currency"] for r in rows)
    result = runner.invoke(main, ["catalog", "site-kinds", "--format", "csv"])
    assert result.exit_code == 0 and "colocation" in result.output
    result = runner.invoke(main, ["catalog"])
    assert "regions" in result.output and "site-kinds" in result.output


def test_a_random_tier_warns_with_its_gpus_and_shares_as_data(tmp_path):
    """The warning names each GPU with its share as a Share value in a list message, so that
    each language joins and formats them (review E7)."""
    import planner
    from planner.messages import Message, Share, render

    path = write(
        tmp_path,
        "tiers.csv",
        """
id,name,gpu,gpu_options,quota_reset,daily_quota_hours,currency,as_of,source
lottery,Lottery,t4,t4:0.8; p100:0.2,daily,3,USD,2026-01,https://example.org
""",
    )
    plan = planner.load({"version": 1, "horizon_months": 12,
                         "demand": {"gpu_hours_per_month": 10},
                         "options": [{"name": "lot", "free_tier": "lottery", "fallback": "rent"},
                                     {"name": "rent", "cloud": {"price_per_hour": 1.0}}]},
                        catalogs=[path])
    warning, = [m for m in plan.resolved.warnings["lot"] if m.key == "warning.random_gpus"]
    assert warning == Message("warning.random_gpus", handed_out=Message(
        "warning.list", first=Message("warning.gpu_share", gpu="t4", share=Share(0.8)),
        rest=Message("warning.gpu_share", gpu="p100", share=Share(0.2))))
    assert "(t4 80%, p100 20%)" in render(warning, "en")
    assert "（t4 80%，p100 20%）" in render(warning, "zh")
