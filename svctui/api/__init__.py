"""The async API client and everything it speaks: signing, filters, models, errors. No Textual here.

Imported as a library it changes no process-wide state (the svctui program's own start-up settings are in
svctui/startup.py)."""
