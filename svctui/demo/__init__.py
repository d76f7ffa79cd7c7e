"""The embedded demo server: a faithful local stand-in for the real API. Never imports the TUI."""
