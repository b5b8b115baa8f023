"""MeM: the abstract pattern-matching stone game (rule book [S1]); engine, rules and solver."""
