"""The price fetchers (pricing.fetch), on recorded samples: no network."""

import csv
import datetime as dt
import json
import urllib.error
from pathlib import Path

import pytest

from pricing import fetch
from pricing.catalog import load_catalog
from pricing.fetch import aws, azure

SAMPLES = Path(__file__).resolve().parent / "samples"
AZURE = SAMPLES / "azure_retail_prices.json"
AWS = SAMPLES / "aws_offer_ec2_us-east-1.json"
DAY = dt.date(2025, 6, 1)


def _by_key(rows):
    return {(r["instance"], r["region"]): r for r in rows}


# --------------------------------------------------------------------------------------------
# Azure Retail Prices API


def test_azure_parse_reads_linux_pay_as_you_go_spot_and_reservations():
    rows = azure.parse(json.loads(AZURE.read_text()), today=DAY)
    assert sorted(_by_key(rows)) == [
        ("Standard_NC24ads_A100_v4", "eastus"), ("Standard_NC24ads_A100_v4", "westus3"),
        ("Standard_NC40ads_H100_v5", "eastus"), ("Standard_NC4as_T4_v3", "eastus"),
        ("Standard_ND96isr_H100_v5", "eastus")]  # not the documentation's F16s (no GPU)
    a100 = _by_key(rows)[("Standard_NC24ads_A100_v4", "eastus")]
    assert a100 == {
        "id": "azure/Standard_NC24ads_A100_v4", "provider": "azure",
        "instance": "Standard_NC24ads_A100_v4", "region": "eastus", "gpu": "a100-80gb-pcie",
        "gpus": 1, "price_per_hour": 3.673,  # not the Windows or Low Priority meters
        "spot_price_per_hour": 0.444433,
        "reserved_1y_price_per_hour": round(19000 / 8760, 6),
        "reserved_3y_price_per_hour": round(36000 / 26280, 6),
        "currency": "USD", "as_of": "2025-06-01", "source": azure.API, "notes": a100["notes"]}
    t4 = _by_key(rows)[("Standard_NC4as_T4_v3", "eastus")]
    assert (t4["gpu"], t4["price_per_hour"], t4["spot_price_per_hour"]) == ("t4", 0.526,
                                                                             0.062699)
    h100 = _by_key(rows)[("Standard_ND96isr_H100_v5", "eastus")]
    assert (h100["gpus"], h100["spot_price_per_hour"]) == (8, None)  # spot = on-demand: empty


def test_azure_download_follows_every_page():
    sample = json.loads(AZURE.read_text())
    first = {"Items": sample["Items"][:5], "NextPageLink": "https://prices.azure.com/page2"}
    second = {"Items": sample["Items"][5:], "NextPageLink": None}
    asked = []

    def get(url):
        asked.append(url)
        return first if len(asked) == 1 else second

    payload = azure.download(["eastus", "westus3"], get=get)
    assert payload["Items"] == sample["Items"]
    assert asked[1] == "https://prices.azure.com/page2"
    assert asked[0].startswith(azure.API + "?$filter=serviceName%20eq%20%27Virtual%20Machines")
    assert "armSkuName%20eq%20%27Standard_NC24ads_A100_v4%27" in asked[0]
    assert "armRegionName%20eq%20%27westus3%27" in asked[0]
    assert azure.parse(payload, today=DAY) == azure.parse(sample, today=DAY)


def test_azure_sizes_name_catalog_gpus():
    gpus = set(load_catalog().ids("gpus"))
    assert {gpu for gpu, _ in azure.SIZES.values()} <= gpus


# --------------------------------------------------------------------------------------------
# AWS Price List bulk offer file


def test_aws_parse_reads_linux_shared_gpu_instances():
    skipped = {}
    rows = aws.parse(json.loads(AWS.read_text()), today=DAY, skipped=skipped)
    by_instance = {r["instance"]: r for r in rows}
    # Not the Windows or dedicated g4dn, nor inf2 (not a GPU) or m5; g5g has T4g, no catalog GPU.
    assert sorted(by_instance) == ["g4dn.xlarge", "g6.12xlarge", "p4d.24xlarge"]
    assert skipped == {"family without a catalog GPU (g5g)": 1}
    p4d = by_instance["p4d.24xlarge"]
    assert p4d == {
        "id": "aws/p4d.24xlarge", "provider": "aws", "instance": "p4d.24xlarge",
        "region": "us-east-1", "gpu": "a100-40gb", "gpus": 8, "price_per_hour": 21.957642,
        "reserved_1y_price_per_hour": 13.92109,  # the standard one, not the convertible
        "reserved_3y_price_per_hour": 9.5, "currency": "USD", "as_of": "2025-06-01",
        "source": aws.offer_url("us-east-1"), "notes": p4d["notes"]}
    g4dn = by_instance["g4dn.xlarge"]
    assert (g4dn["gpu"], g4dn["price_per_hour"]) == ("t4", 0.526)
    assert g4dn["reserved_1y_price_per_hour"] == 0.331  # no upfront, not partial upfront
    assert by_instance["g6.12xlarge"]["gpus"] == 4


def test_aws_download_prunes_while_parsing_without_changing_the_rows():
    text = AWS.read_text()
    index = {"formatVersion": "v1.0", "regions": {"us-east-1": {
        "regionCode": "us-east-1",
        "currentVersionUrl": "/offers/v1.0/aws/AmazonEC2/20250601000000/us-east-1/index.json"}}}
    asked = []

    def get(url, **options):
        asked.append(url)
        return index if url == aws.REGION_INDEX else json.loads(text, **options)

    pruned = aws.download("us-east-1", get=get)
    assert asked[1] == (aws.HOST + "/offers/v1.0/aws/AmazonEC2/20250601000000/us-east-1/"
                        "index.json")
    assert sum(1 for p in pruned["products"].values() if p) == 4  # the GPU ones parse reads
    assert aws.parse(pruned, today=DAY) == aws.parse(json.loads(text), today=DAY)
    with pytest.raises(ValueError, match="us-east-1"):
        aws.download("mars-north-1", get=get)


def test_aws_families_name_catalog_gpus():
    assert set(aws.FAMILIES.values()) <= set(load_catalog().ids("gpus"))


# --------------------------------------------------------------------------------------------
# The scripts


@pytest.mark.parametrize("module, sample, instance", [
    (azure, AZURE, "azure/Standard_NC24ads_A100_v4"),
    (aws, AWS, "aws/g6.12xlarge"),
])
def test_fetcher_writes_a_loadable_catalog_file(module, sample, instance, tmp_path, capsys):
    out = tmp_path / "prices.csv"
    assert module.main(["--from", str(sample), "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    rows = list(csv.DictReader(out.open(newline="")))
    assert rows and {r["as_of"] for r in rows} == {dt.date.today().isoformat()}
    row = load_catalog([out]).cloud(instance)
    assert row.gpu_memory_gb is not None and row.billing_increment_minutes is not None
    assert row.source.startswith("https://")


def test_fetcher_failures_exit_1_and_write_nothing(tmp_path, monkeypatch, capsys):
    def offline(url, **options):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(aws, "download", lambda region: offline(region))
    out = tmp_path / "aws.csv"
    assert aws.main(["-o", str(out)]) == 1
    assert "no network" in capsys.readouterr().err
    assert not out.exists()


def test_get_json_sends_a_user_agent_and_a_timeout(monkeypatch):
    seen = {}

    class Response:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self, *size):
            return b'{"Items": []}'

    def urlopen(request, timeout):
        seen["agent"] = request.get_header("User-agent")
        seen["timeout"] = timeout
        return Response()

    monkeypatch.setattr(fetch.urllib.request, "urlopen", urlopen)
    assert fetch.get_json("https://example.invalid/prices") == {"Items": []}
    assert seen == {"agent": fetch.USER_AGENT, "timeout": fetch.TIMEOUT_SECONDS}
