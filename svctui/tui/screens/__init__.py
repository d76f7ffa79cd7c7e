"""Dashboard screens, one module per screen (see SCREENS in svctui.tui.app)."""
