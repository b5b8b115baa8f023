"""The app's screens, one module each. Layout is in kv/*.kv; here are the properties the
layouts show and the handlers the buttons call. Every decision goes to the controller; no
rule is decided here."""
