"""Profiles, secrets and settings on disk. No Textual here."""
