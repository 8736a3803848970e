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
