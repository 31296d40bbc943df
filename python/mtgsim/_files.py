"""Writing a file whole or not at all (the CLI's outputs, replays and event logs)."""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Callable
from typing import IO


def target(path: str | os.PathLike[str]) -> str:
    """Where writing ``path`` puts the data: through a symbolic link to the file it names (the
    link is kept), and never over something that isn't a regular file (a device, a pipe), which
    an atomic rename would replace. An ``OSError`` says what is wrong."""
    real = os.path.realpath(os.fspath(path))
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return real  # nothing there yet (or no directory to hold it: writing will say so)
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(f"{os.fspath(path)} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise OSError(f"{os.fspath(path)} is not a regular file (a device or a pipe), which writing whole would replace")
    return real


def write_whole(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object]) -> None:
    """Writes ``path`` whole or not at all: into a new file beside it, renamed over it once
    complete. On any failure (or an interrupt) the new file is removed and the old one is left
    as it was; the error is raised."""
    real = target(path)
    parent, name = os.path.split(real)
    tmp = os.path.join(parent, f".{name}.{uuid.uuid4().hex[:12]}.partial")
    created = False
    try:
        with open(tmp, "xb") as f:
            created = True
            write(f)
        os.replace(tmp, real)
    except BaseException:
        if created:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
