"""Benchmarks: `make bench` measures ratios against a baseline taken in the same run."""
