"""Subcommands of the `svctui` command line, one module per family, loaded lazily."""
