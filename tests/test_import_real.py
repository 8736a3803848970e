"""planner catalog import on real skypilot-catalog excerpts (tests/samples/skypilot/<cloud>,
origins in tests/samples/README.md): one test per cloud, the failures of issue 15 among them."""

import csv
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from planner.cli import main
from pricing import importer
from pricing.accelerators import suggest_gpu
from pricing.catalog import CatalogFileError, load_catalog
from pricing.import_gcp import gcp_host
from pricing.import_zones import is_edge_zone, median_zone_price

SAMPLES = Path(__file__).resolve().parent / "samples" / "skypilot"
GPUS = {r["id"]: r for r in load_catalog().rows("gpus")}


def _read(cloud, **options):
    path = SAMPLES / cloud / "vms.csv"
    result = importer.read_price_list(path.read_text(encoding="utf-8"), str(path), gpus=GPUS,
                                      provider=cloud, as_of="2026-11", **options)
    return result, {(r["id"], r["region"]): r for r in result.rows}


def test_aws_local_zone_left_out_and_region_at_its_median_zone():
    result, rows = _read("aws")
    p5 = rows["aws/p5.48xlarge", "us-east-1"]
    # Zones of the region: use1-az1..az6 at 55.04 on demand; spot 55.04 (= on-demand, no spot
    # offer), 19.2531, 21.1543, 55.04, 25.7522, 17.6289; the Atlanta Local Zone use1-atl2-az1
    # (spot 10.2397) is left out. Spot offers sorted: 17.6289, 19.2531, 21.1543, 25.7522 ->
    # lower median 19.2531 (the cheapest-zone rule gave 10.2397).
    assert (p5["gpu"], p5["gpus"], p5["price_per_hour"]) == ("h100-80gb", 8, 55.04)
    assert p5["spot_price_per_hour"] == 19.2531
    assert "1 Local/Wavelength zone row(s) left out" in p5["notes"]
    assert result.skipped["rows of AWS Local Zones and Wavelength zones"] == 1
    # us-east-2: 11.2543, 11.5616, 11.9912 -> 11.5616
    assert rows["aws/p5.48xlarge", "us-east-2"]["spot_price_per_hour"] == 11.5616
    # p5.4xlarge in us-east-1 has no spot price in any zone; ap-northeast-2 none for p5
    assert rows["aws/p5.4xlarge", "us-east-1"]["spot_price_per_hour"] is None
    assert rows["aws/p5.48xlarge", "ap-northeast-2"]["spot_price_per_hour"] is None
    assert rows["aws/p4de.24xlarge", "us-east-1"]["gpu"] == "a100-80gb"
    assert result.skipped["CPU-only rows"] == 1


def test_edge_zones_by_name_and_id():
    standard = [("us-east-1", "us-east-1a"), ("us-east-1", "use1-az1"), ("us-west-2", "usw2-az4")]
    edge = [("us-east-1", "us-east-1-bos-1a"), ("us-west-2", "us-west-2-lax-1a"),
            ("us-east-1", "us-east-1-wl1-bos-wlz-1"), ("us-east-1", "use1-wl1-bos-wlz1"),
            ("us-east-1", "use1-atl2-az1"), ("us-west-2", "usw2-lax1-az1")]
    assert not any(is_edge_zone("aws", r, z) for r, z in standard)
    assert all(is_edge_zone("aws", r, z) for r, z in edge)
    # Only AWS has them: GCP's and RunPod's zones are never left out.
    assert not is_edge_zone("gcp", "us-south1", "us-south1-ai1b")
    assert not is_edge_zone("runpod", "CA", "CA-MTL-1")
    assert median_zone_price([3.0, 1.0, 2.0, 4.0]) == 2.0 and median_zone_price([]) is None


def test_gcp_machine_type_and_gpu_rows_added():
    result, rows = _read("gcp")
    # a3-highgpu-8g us-central1: machine 9.46006 + H100 x8 33.60609 = 43.06615 (SkyPilot's
    # 43.07); spot 2.88933 + 23.9408 = 26.83013. us-east4: 9.46006 + 78.37241 = 87.83247.
    a3 = rows["gcp/a3-highgpu-8g", "us-central1"]
    assert (a3["gpu"], a3["gpus"]) == ("h100-80gb", 8)
    assert a3["price_per_hour"] == pytest.approx(43.06615)
    assert a3["spot_price_per_hour"] == pytest.approx(26.83013)
    assert rows["gcp/a3-highgpu-8g", "us-east4"]["price_per_hour"] == pytest.approx(87.83247)
    # a3-highgpu-4g europe-west4: 4.96653 + 50.94206 = 55.90859
    assert rows["gcp/a3-highgpu-4g", "europe-west4"]["price_per_hour"] == pytest.approx(55.90859)
    assert "machine type and GPU rows added" in a3["notes"]
    assert result.skipped == {
        "GCP machine types without a GPU row in their zone": 3,  # a2 x2 (no A100 rows), a4
        "CPU-only rows": 1,  # n1-highmem-8
        "GCP GPU rows without a machine type of their own (N1 attachable GPUs)": 2,  # L4 x1
        "TPU rows": 2,
    }
    assert {r["id"] for r in result.rows} == {"gcp/a3-highgpu-4g", "gcp/a3-highgpu-8g"}


def test_gcp_hosts():
    assert gcp_host("a3-highgpu-8g") == ("H100", 8)
    assert gcp_host("a3-ultragpu-8g-nolssd") == ("H200", 8)
    assert gcp_host("a2-megagpu-16g") == ("A100", 16)
    assert gcp_host("g2-standard-48") == ("L4", 4)
    assert gcp_host("n1-highmem-8") is None and gcp_host("c2-standard-16") is None


def test_azure_nc_h100_v5_is_h100_nvl_and_nd_is_sxm():
    result, rows = _read("azure", skip_unknown=True)
    assert rows["azure/Standard_NC40ads_H100_v5", "eastus"]["gpu"] == "h100-nvl"
    assert rows["azure/Standard_NC80adis_H100_v5", "eastus"]["gpu"] == "h100-nvl"
    assert rows["azure/Standard_ND96isr_H100_v5", "eastus"]["gpu"] == "h100-80gb"
    assert rows["azure/Standard_NC24ads_A100_v4", "eastus"]["gpu"] == "a100-80gb-pcie"
    assert rows["azure/Standard_ND96amsr_A100_v4", "eastus"]["gpu"] == "a100-80gb"
    # spot equal to on-demand (6.98, 6.98) is no spot offer
    assert rows["azure/Standard_NC40ads_H100_v5", "eastus"]["spot_price_per_hour"] is None
    assert result.skipped["rows of unknown accelerator Radeon MI25"] == 1


def test_lambda_h100_pcie_is_the_pcie_card():
    _, rows = _read("lambda")
    assert rows["lambda/gpu_1x_h100_pcie", "us-east-1"]["gpu"] == "h100-80gb-pcie"
    assert rows["lambda/gpu_1x_h100_sxm5", "us-east-1"]["gpu"] == "h100-80gb"
    assert rows["lambda/gpu_8x_h100_sxm5", "us-east-1"]["price_per_hour"] == 31.92
    assert rows["lambda/gpu_1x_a6000", "us-west-3"]["gpu"] == "rtx-a6000"


def test_runpod_zones_fold_into_country_regions():
    _, rows = _read("runpod")
    assert sorted(rows) == [("runpod/1x_A100-80GB_SECURE", r) for r in ("CA", "IN", "SE", "US")] \
        + [("runpod/2x_A100-80GB_SECURE", r) for r in ("CA", "US")]
    ca = rows["runpod/1x_A100-80GB_SECURE", "CA"]
    assert (ca["gpu"], ca["price_per_hour"], ca["spot_price_per_hour"]) == (
        "a100-80gb-pcie", 1.39, None)
    assert "median of 2 zones" in ca["notes"]


def test_nebius_rows_and_spot():
    _, rows = _read("nebius")
    h100 = rows["nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb", "eu-north1"]
    assert (h100["gpu"], h100["gpus"], h100["price_per_hour"], h100["spot_price_per_hour"]) \
        == ("h100-80gb", 8, 23.6, 10.0)
    assert rows["nebius/gpu-b200-sxm_8gpu-160vcpu-1792gb", "us-central1"]["gpu"] == "b200"
    assert len(rows) == 11


def test_hyperstack_names_pcie_nvlink_and_sxm5():
    _, rows = _read("hyperstack")
    gpu = {key[0]: row["gpu"] for key, row in rows.items()}
    assert gpu["hyperstack/n3-A100x1"] == "a100-80gb-pcie"
    assert gpu["hyperstack/n3-A100x8-NVLink"] == "a100-80gb-pcie"
    assert gpu["hyperstack/n3-H100x1"] == "h100-80gb-pcie"
    # NVLink bridges between PCIe cards, 80 GB: not the 94 GB H100 NVL
    assert gpu["hyperstack/n3-H100x8-NVLink"] == "h100-80gb-pcie"
    assert gpu["hyperstack/n3-H100-SXM5x8"] == "h100-80gb"
    assert gpu["hyperstack/n3-RTX-A4000x1"] == "rtx-a4000"
    assert rows["hyperstack/n3-H100-SXM5x8", "US-1"]["price_per_hour"] == 19.2


def test_jarvislabs_rtxpro6000_is_the_blackwell_card():
    _, rows = _read("jarvislabs")
    pro = rows["jarvislabs/8x_RTXPRO6000_224V_1280G", "IN1"]
    assert (pro["gpu"], pro["gpus"], pro["price_per_hour"]) == ("rtx-pro-6000-blackwell", 8, 17.52)
    assert rows["jarvislabs/1x_H200_28V_300G", "IN2"]["gpu"] == "h200"
    # An unknown name close to a GPU id's letters gets that id, not the nearest spelling.
    assert suggest_gpu("RTXPRO6000", GPUS) == "rtx-pro-6000-blackwell"
    assert suggest_gpu("T4g", GPUS) == "t4" and suggest_gpu("RTX4070", GPUS) is None


def test_vast_unknown_names_once_each_and_pcie_nvl_apart():
    with pytest.raises(CatalogFileError) as err:
        _read("vast")
    messages = [m for _, m in err.value.problems]
    # Listed once each; no suggestion of rtx-4090, another card.
    assert messages == ["unknown accelerator 'RTX4070' on 1 row: no GPU id of the catalog",
                        "unknown accelerator 'RTX4060' on 1 row: no GPU id of the catalog"]
    _, rows = _read("vast", skip_unknown=True)
    assert rows["vast/1x-H100_NVL-32-65536", "Bulgaria, BG, EU"]["gpu"] == "h100-nvl"
    assert rows["vast/1x-H100_SXM-32-65536", "Texas, US, NA"]["gpu"] == "h100-80gb"
    assert rows["vast/1x-A100_PCIE-32-65536", "Oklahoma, US, NA"]["gpu"] == "a100-80gb-pcie"
    assert rows["vast/1x-A100_SXM4-32-65536", "Georgia, US, NA"]["gpu"] == "a100-40gb"
    assert rows["vast/1x-RTX_PRO_6000_S-32-65536", "New York, US, NA"]["gpu"] == \
        "rtx-pro-6000-blackwell"
    # Vast's spot column is 0.00: no spot price
    assert all(r["spot_price_per_hour"] is None for r in rows.values())


def test_a_quoting_error_prints_ten_problems_and_a_count(tmp_path):
    # A stray quote in the real AWS excerpt's first GPU row: every later record is off.
    lines = (SAMPLES / "aws" / "vms.csv").read_text().splitlines()
    bad = [lines[0]] + [line.replace('"{', '{', 1) for line in lines[1:]] * 40
    source = tmp_path / "aws" / "vms.csv"
    source.parent.mkdir()
    source.write_text("\n".join(bad) + "\n")
    result = CliRunner().invoke(main, ["catalog", "import", str(source), "--as-of", "2026-11",
                                       "-o", str(tmp_path / "out.csv")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    shown = [line for line in result.output.splitlines() if re.search(r"vms\.csv:\d+:", line)]
    assert len(shown) == 10
    # 46 GPU rows x 40 copies = 1,840 rows with too many cells
    assert "... and 1,830 more problems (1,840 in all" in result.output
    assert len(result.output.splitlines()) < 20
    assert not (tmp_path / "out.csv").exists()


def test_partial_import_replaces_only_its_rows_and_keeps_other_pricings(tmp_path):
    builtin = load_catalog()
    before = {r["region"]: r for r in builtin.rows("clouds") if r["id"] == "aws/p4d.24xlarge"}
    assert len(before) > 2 and before["us-east-1"]["reserved_1y_price_per_hour"] is not None
    # An import that brings one region's on-demand price only.
    out = tmp_path / "partial.csv"
    out.write_text("id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,source\n"
                   "aws/p4d.24xlarge,aws,p4d.24xlarge,us-east-1,a100-40gb,8,20.0,USD,2026-11,"
                   "https://example.org/quote\n")
    merged = load_catalog([out])
    after = {r["region"]: r for r in merged.rows("clouds") if r["id"] == "aws/p4d.24xlarge"}
    assert set(after) == set(before)  # the other regions stay
    east = after["us-east-1"]
    assert east["price_per_hour"] == 20.0 and east["as_of"] == "2026-11"
    assert east["reserved_1y_price_per_hour"] == before["us-east-1"]["reserved_1y_price_per_hour"]
    assert "kept from the earlier row" in east["notes"]
    other = next(r for r in before if r != "us-east-1")
    assert after[other] == before[other]
    # A plan priced on the reserved term still finds it.
    assert merged.cloud("aws/p4d.24xlarge", region="us-east-1").reserved_1y_price_per_hour \
        == before["us-east-1"]["reserved_1y_price_per_hour"]


def test_every_sample_has_its_origin_in_the_readme():
    readme = (SAMPLES.parent / "README.md").read_text()
    for folder in sorted(p for p in SAMPLES.iterdir() if p.is_dir()):
        assert f"`skypilot/{folder.name}/vms.csv`" in readme
        with open(folder / "vms.csv", newline="", encoding="utf-8") as handle:
            assert "InstanceType" in next(csv.reader(handle))


def test_a_broken_catalog_file_is_summarized_too(tmp_path):
    # The same cap when a catalog file is merged (planner catalog --catalog ...).
    header = "id,provider,instance,region,gpu,gpus,price_per_hour,currency,as_of,source\n"
    bad = "".join(f"x/{i},x,{i},r,h100-80gb,8,not-a-number,USD,2026-11,q\n" for i in range(25))
    source = tmp_path / "mine.csv"
    source.write_text(header + bad)
    result = CliRunner().invoke(main, ["catalog", "clouds", "--catalog", str(source)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert len(re.findall(r"mine\.csv:\d+:", result.output)) == 10
    assert "... and 15 more problems (25 in all" in result.output
