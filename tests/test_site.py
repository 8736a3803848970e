"""site.region, site.tariff and site.kind fill the site's figures from the catalog."""

import pytest

import planner
from planner.errors import UserError


def plan(site, **top):
    return {
        "version": 1, "horizon_months": 12, **top,
        "demand": {"gpu_hours_per_month": 100},
        "site": site,
        "options": [{"name": "box", "own": {"purchase_price": 1000, "power_watts": 1000}}],
    }


def box(site, **top):
    p = planner.load(plan(site, **top))
    return p, next(o for o in p.evaluate().to_dict()["options"] if o["name"] == "box")


def test_region_fills_electricity_and_carbon():
    p, row = box({"region": "us-tx"})
    texas = p.catalog.region("us-tx")
    # 100 system-hours at 1 kW, PUE 1: 100 kWh a month
    assert row["energy_kwh"] == pytest.approx(1200)
    assert row["total_cost"] == pytest.approx(
        1000 - 750 + 1200 * texas.electricity_business_per_kwh)
    assert row["carbon_kg"] == pytest.approx(1200 * texas.carbon_kg_per_kwh)
    items = [str(a["item"]) for a in p.evaluate().assumptions]
    assert any("Texas" in item for item in items)


def test_the_users_values_win_and_household_tariff():
    p, row = box({"region": "us-tx", "electricity_per_kwh": 0.5, "carbon_kg_per_kwh": 0})
    assert row["total_cost"] == pytest.approx(250 + 1200 * 0.5)
    assert row["carbon_kg"] == 0
    p, row = box({"region": "us-tx", "tariff": "household"})
    assert row["total_cost"] == pytest.approx(
        250 + 1200 * p.catalog.region("us-tx").electricity_household_per_kwh)


def test_site_kind_fills_pue():
    p, row = box({"electricity_per_kwh": 0.1, "kind": "colocation"})
    pue = p.catalog.site_kind("colocation").pue
    assert row["energy_kwh"] == pytest.approx(1200 * pue)
    assert p.evaluate().pue == pue  # the report splits cooling from energy by it
    p, row = box({"electricity_per_kwh": 0.1, "kind": "colocation", "pue": 1.2})
    assert row["energy_kwh"] == pytest.approx(1200 * 1.2)
    assert p.evaluate().pue == 1.2
    assert planner.load(plan({"electricity_per_kwh": 0.1})).evaluate().pue == 1.0


def test_foreign_region_needs_an_exchange_rate():
    cn = planner.load({"version": 1, "demand": {"gpu_hours_per_month": 1},
                       "options": [{"name": "c", "cloud": {"price_per_hour": 1}}]}
                      ).catalog.region("cn")
    tariff = "business" if cn.electricity_business_per_kwh is not None else "household"
    with pytest.raises(UserError) as err:
        planner.load(plan({"region": "cn", "tariff": tariff}))
    assert "fx" in str(err.value) and "CNY" in str(err.value)
    _, row = box({"region": "cn", "tariff": tariff}, fx={"CNY": 0.14})
    price = (cn.electricity_business_per_kwh if tariff == "business"
             else cn.electricity_household_per_kwh)
    assert row["total_cost"] == pytest.approx(250 + 1200 * price * 0.14)


def test_unknown_region_and_missing_price_are_user_errors():
    with pytest.raises(UserError) as err:
        planner.load(plan({"region": "us-tx2"}))
    assert "did you mean" in str(err.value) and "us-tx" in str(err.value)



def test_a_region_without_the_tariffs_price_is_a_user_error(tmp_path):
    quotes = tmp_path / "regions.csv"
    quotes.write_text(
        "id,name,electricity_household_per_kwh,electricity_business_per_kwh,carbon_kg_per_kwh,"
        "currency,as_of,source,notes\n"
        "lab,Our campus,0.3,,0.2,USD,2026-10,https://example.org/tariff,\n")
    with pytest.raises(UserError) as err:
        planner.load(plan({"region": "lab"}), catalogs=[quotes])
    assert "no business electricity price for region 'lab'" in str(err.value)
    p = planner.load(plan({"region": "lab", "tariff": "household"}), catalogs=[quotes])
    row = next(o for o in p.evaluate().to_dict()["options"] if o["name"] == "box")
    assert row["total_cost"] == pytest.approx(250 + 1200 * 0.3)


def test_own_system_fills_the_non_gpu_price_and_power():
    data = plan({"electricity_per_kwh": 0.2})
    data["options"][0]["own"] = {"gpu": "rtx-4090", "gpu_count": 4, "system": "workstation-4gpu",
                                 "always_on": True}
    p = planner.load(data)
    system, gpu = p.catalog.system("workstation-4gpu"), p.catalog.gpu("rtx-4090")
    card = p.model.cards["box"]
    assert card.purchase_price[0, 0] == pytest.approx(4 * gpu.street_price + system.system_price)
    assert card.power_kw[0, 0] * 1000 == pytest.approx(4 * gpu.tdp_watts
                                                       + system.non_gpu_power_watts)
    assert card.idle_power_kw[0, 0] * 1000 == pytest.approx(system.idle_power_watts)
    data["options"][0]["own"].update(system_price=100, idle_power_watts=5)
    card = planner.load(data).model.cards["box"]
    assert card.purchase_price[0, 0] == pytest.approx(4 * gpu.street_price + 100)
    assert card.idle_power_kw[0, 0] * 1000 == pytest.approx(5)


def test_a_region_without_the_tariffs_price_comes_with_the_other_problems():
    """SPEC §1: all problems at once; Brazil has no business price in the catalog, found from
    the raw document together with an unknown key."""
    doc = plan({"region": "br"}, fx={"BRL": 0.18})
    doc["horizon_month"] = 12
    with pytest.raises(UserError) as err:
        planner.load(doc)
    found = {p.path: p.message for p in err.value.problems}
    assert "horizon_month" in found
    assert "business electricity price" in found["site.region"]
    assert "tariff: household" in found["site.region"]


def test_a_regions_tariff_is_dated_by_its_own_price():
    """Germany's household price (BDEW, 2026-08) is newer than its business price (Eurostat,
    second half of 2025, which dates the row): a plan on the household tariff is dated by its
    own price, one on the business tariff by the row's date; the catalog row's as_of (SPEC
    §2's catalog_as_of) is the same for both."""
    dated = {}
    for tariff in ("household", "business"):
        result = planner.load(plan({"region": "de", "tariff": tariff},
                                   fx={"EUR": 1.1})).evaluate()
        price = next(a for a in result.assumptions if a["kind"] == "price")
        dated[tariff] = (result.data["prices_as_of"], result.data["catalog_as_of"],
                         price["as_of"], price["price_as_of"])
    assert dated == {"household": ("2026-08", "2025-07", "2025-07", "2026-08"),
                     "business": ("2025-07", "2025-07", "2025-07", "2025-07")}


def test_a_foreign_region_for_carbon_alone_needs_no_exchange_rate():
    """The user's electricity price wins, so the region's price in CNY is not used and needs
    no fx rate; its carbon intensity still is."""
    p, row = box({"region": "cn", "electricity_per_kwh": 0.1})
    assert row["carbon_kg"] == pytest.approx(1200 * p.catalog.region("cn").carbon_kg_per_kwh)
    assert row["total_cost"] == pytest.approx(250 + 1200 * 0.1)


def test_a_tariff_is_a_word_of_the_readers_language():
    """The tariff in the key inputs and the assumptions is a message: "household" in English,
    居民 in Chinese (the JSON's English text is as before)."""
    import datetime

    from planner.render import render

    result = planner.load(plan({"region": "de", "tariff": "household"},
                               fx={"EUR": 1.1})).evaluate()
    day = datetime.date(2026, 12, 1)
    english = render(result, "md", date=day).decode()
    chinese = render(result, "md", date=day, lang="zh").decode()
    assert "(de, household)" in english and "electricity, Germany (household)" in english
    assert "（de，居民）" in chinese and "电价，Germany（居民）" in chinese
    assert "household" not in chinese
