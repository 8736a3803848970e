"""pricing.suggest: the one did-you-mean of the pricing module."""

from pricing.suggest import close_matches, did_you_mean


def test_close_matches_ignore_case_by_default_and_keep_the_candidates_spelling():
    assert close_matches("A100-80GB", ["a100-80gb", "h100-80gb", "t4"], n=1) == ["a100-80gb"]
    assert close_matches("us-West", ["US-west-2", "eu-west-1"], n=1) == ["US-west-2"]
    assert close_matches("zzz", ["a100-80gb"]) == []


def test_close_matches_as_spelled():
    names = ["InstanceType", "AcceleratorName"]
    assert close_matches("InstanceTyp", names, n=1, ignore_case=False) == ["InstanceType"]
    assert close_matches("INSTANCETYPE", names, n=1, ignore_case=False) == []
    assert close_matches("INSTANCETYPE", names, n=1) == ["InstanceType"]


def test_did_you_mean():
    assert did_you_mean([]) == ""
    assert did_you_mean(["t4"]) == " (did you mean t4?)"
    assert did_you_mean(iter(["t4", "l4"])) == " (did you mean t4, l4?)"


def test_equally_close_candidates_follow_the_rank_then_the_name_before_n_cuts():
    # difflib alone returns ties in reverse alphabetical order and cuts them at n.
    names = ["8x_a100", "4x_a100", "2x_a100", "1x_a100"]
    assert close_matches("x_a100", names, n=2, rank=lambda c: int(c[0])) == ["1x_a100",
                                                                            "2x_a100"]
    assert close_matches("x_a100", names, n=2) == ["8x_a100", "4x_a100"]  # difflib's order
    # closeness comes before the rank: the count the user typed wins
    assert close_matches("8x_a100", names, n=2, rank=lambda c: int(c[0])) == ["8x_a100",
                                                                             "1x_a100"]
    assert close_matches("x_a100", names, n=0) == []


def test_a_mistyped_cloud_id_suggests_the_one_gpu_instance_first():
    """Real catalog rows: runpod lists 1x, 2x, 4x and 8x of the RTX 4090, equally close."""
    from pricing.catalog import CatalogLookupError, load_catalog

    catalog = load_catalog()
    assert catalog.near_cloud_ids("runpod/RTX4090") == [
        "runpod/1x_RTX4090_SECURE", "runpod/2x_RTX4090_SECURE", "runpod/4x_RTX4090_SECURE"]
    assert catalog.near_cloud_ids("runpod/H100", n=2) == [
        "runpod/1x_H100_SECURE", "runpod/2x_H100_SECURE"]
    # a count that is typed is closer, and comes first
    assert catalog.near_cloud_ids("runpod/8x_H100")[0] == "runpod/8x_H100_SECURE"
    assert catalog.near_cloud_ids("aws/p4d.24xlarg")[0] == "aws/p4d.24xlarge"
    try:
        catalog.cloud("runpod/RTX4090")
    except CatalogLookupError as err:
        assert err.suggestions[0] == "runpod/1x_RTX4090_SECURE"
    else:
        raise AssertionError("runpod/RTX4090 is not a catalog id")


def test_the_cli_names_the_one_gpu_instance_first(run, tmp_path):
    usage = tmp_path / "u.yaml"
    usage.write_text("version: 1\ndemand: {gpu_hours_per_month: 100}\n"
                     "options:\n  - name: pod\n    cloud: runpod/RTX4090\n")
    out = run("validate", usage)
    assert out.exit_code == 1
    assert "did you mean 'runpod/1x_RTX4090_SECURE' or 'runpod/2x_RTX4090_SECURE'" in out.output
