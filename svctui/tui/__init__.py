"""The Textual dashboard: talks to svctui.api and svctui.store only."""
