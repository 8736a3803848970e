"""Files written completely or not at all (SPEC §3)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_atomic(path: Path, content: bytes) -> None:
    """``content`` into ``path`` through a temporary file and a rename: a failure leaves no
    partial file and never alters an existing one; a file replaced keeps its permissions."""
    folder = path.parent
    while True:
        temporary = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
