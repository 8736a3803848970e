"""Files written completely or not at all (SPEC §3), by one function: :func:`write_atomic`.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike, content: bytes,
                 check: Callable[[Path], Any] | None = None) -> Path:
    """Write ``content`` to ``path`` completely or not at all; return ``path`` as a Path.

    The bytes go to a new temporary file beside ``path``, which is flushed to disk;
    ``check(temporary_path)``, when given, may inspect that file and raise to stop; only then
    is it renamed over ``path``. On any failure (a full disk, a failed check, an interrupt)
    the temporary file is removed and an existing ``path`` is left as it was.

    Permissions follow one rule: a file replaced keeps its mode; a new file gets
    ``0o666 & ~umask``, as a file opened for writing would.

    A ``path`` that is not a regular file (``/dev/null``, a named pipe, a terminal) is written
    to, once the check has passed, never renamed over: renaming would put a regular file in
    the device's place.
    """
    path = Path(path)
    while True:
        temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            # The umask applies to the mode given here: a new file's rule.
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        if check is not None:
            check(temporary)
        if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            with open(path, "wb") as device:
                device.write(content)
            temporary.unlink()
        else:
            os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path
