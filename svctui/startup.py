"""Process-wide settings the svctui program makes once as it starts (never `svctui.api` used as a library)."""

from __future__ import annotations

import importlib.util
import os
import sys


def skip_unused_imports() -> None:
    """Record modules svctui never needs as absent, before anything imports httpx (cli.main calls it first):

    - httpx's command-line client (`httpx._main`: pygments, rich.progress, rich.syntax, ~20 ms of the first
      frame) is imported by httpx's __init__ whenever click and rich are installed; absent, httpx defines the stub
      `main` it ships for installs without its CLI extra.
    - where `sniffio` is not installed, httpcore's `import sniffio` on every lock it makes (several per request)
      searched every sys.path entry, since a failed import is not remembered; absent, it fails at once.
    """
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


def quiet_pydantic_plugins() -> None:
    """pydantic scans every installed distribution's entry points for plugins on the first model (~10 ms); svctui
    uses none. A value the user set (even empty) is kept."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
