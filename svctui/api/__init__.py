"""The async API client and everything it speaks: signing, filters, models, errors. No Textual here."""
