"""The async API client and everything it speaks: signing, filters, models, errors. No Textual here."""

import sys

# httpx's __init__ imports its command-line client (httpx._main, which pulls in pygments, rich.progress and
# rich.syntax: ~20 ms, most of what `import httpx` costs beyond httpx itself) whenever click and rich are installed,
# as they are here. svctui never runs that client. A None entry makes the import fail, and httpx then defines the
# stub `main` it ships for installs without its CLI extra. Only before httpx is first imported.
if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
