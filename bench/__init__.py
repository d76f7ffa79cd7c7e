"""Benchmarks: `make bench` measures ratios against a baseline taken in the same run."""

from svctui.startup import skip_unused_imports

skip_unused_imports()  # the svctui program's start-up settings (cli.main makes them first), before httpx is imported
