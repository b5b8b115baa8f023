"""MnemoGame: secret words laid as face-down letter chips, a D12 and its Number Codex, and
guesses at the chips of the other players' words; engine, word checks, drawn table."""
