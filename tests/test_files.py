"""pricing.files.write_atomic: the one way files are written (reports, diffs, catalog files)."""

import os
import stat

import pytest

import pricing.files
from pricing.files import write_atomic


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield 0o022
    os.umask(old)


def test_a_new_file_gets_the_mode_of_a_file_opened_for_writing(tmp_path, umask_022):
    target = write_atomic(tmp_path / "new.csv", b"a,b\n")
    assert target == tmp_path / "new.csv" and target.read_bytes() == b"a,b\n"
    assert _mode(target) == 0o666 & ~umask_022
    assert [p.name for p in tmp_path.iterdir()] == ["new.csv"]


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        target = write_atomic(str(tmp_path / "private.md"), b"x")
    finally:
        os.umask(old)
    assert _mode(target) == 0o600


@pytest.mark.parametrize("mode", [0o640, 0o600, 0o664, 0o444])
def test_a_replaced_file_keeps_its_mode(tmp_path, umask_022, mode):
    target = tmp_path / "plan.csv"
    target.write_text("old\n")
    target.chmod(mode)
    write_atomic(target, b"new\n")
    assert target.read_text() == "new\n" and _mode(target) == mode


def test_the_check_sees_the_whole_temporary_file_with_its_final_mode(tmp_path, umask_022):
    target = tmp_path / "out.csv"
    target.write_text("old")
    target.chmod(0o640)
    seen = []

    def check(path):
        seen.append((path.parent, path.name != target.name, path.read_bytes(), _mode(path)))

    write_atomic(target, b"new", check=check)
    assert seen == [(tmp_path, True, b"new", 0o640)]
    assert target.read_text() == "new"


def test_a_failed_check_leaves_no_file_and_the_old_one_alone(tmp_path):
    target = tmp_path / "out.csv"

    def reject(path):
        raise ValueError("rejected")

    with pytest.raises(ValueError, match="rejected"):
        write_atomic(target, b"new", check=reject)
    assert list(tmp_path.iterdir()) == []
    target.write_text("previous")
    target.chmod(0o640)
    with pytest.raises(ValueError, match="rejected"):
        write_atomic(target, b"new", check=reject)
    assert target.read_text() == "previous" and _mode(target) == 0o640
    assert list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("exists", [False, True])
def test_a_failed_write_leaves_no_partial_file_and_never_alters_an_existing_one(
        tmp_path, monkeypatch, exists):
    target = tmp_path / "report.pdf"
    if exists:
        target.write_bytes(b"the old report")
        target.chmod(0o640)

    def broken(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pricing.files.os, "replace", broken)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, b"x" * 100_000)
    if exists:
        assert target.read_bytes() == b"the old report" and _mode(target) == 0o640
        assert list(tmp_path.iterdir()) == [target]
    else:
        assert list(tmp_path.iterdir()) == []


def test_an_interrupt_while_writing_leaves_nothing_behind(tmp_path, monkeypatch):
    target = tmp_path / "out.md"
    target.write_text("old")

    def interrupted(descriptor):
        raise KeyboardInterrupt

    monkeypatch.setattr(pricing.files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    assert target.read_text() == "old" and list(tmp_path.iterdir()) == [target]


def test_write_catalog_writes_through_write_atomic(tmp_path, umask_022):
    from pricing import importer

    target = tmp_path / "clouds.csv"
    target.write_text("old")
    target.chmod(0o600)
    assert importer.write_catalog(target, "id\nä\n") == target
    assert target.read_bytes() == "id\nä\n".encode() and _mode(target) == 0o600
    fresh = importer.write_catalog(tmp_path / "fresh.csv", "x\r\n")
    assert fresh.read_bytes() == b"x\r\n" and _mode(fresh) == 0o644


def test_a_device_or_pipe_is_written_to_not_replaced(tmp_path):
    # `planner report -o /dev/null` once renamed a regular file over the device.
    import os
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, b"report bytes")
    reader.join(timeout=30)
    assert received == [b"report bytes"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file left
