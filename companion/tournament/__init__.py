"""`companion tournament`: the hub of an event with many tables (docs/tournament.md).

The functional core takes an event as read (`model.Event`) and decides, without touching a
file or the network:

- `pairing`: who plays whom (Swiss, round robin, Swiss pods for 3- and 4-side games);
- `standings`: match points and the tie-breaks;
- `ratings`: openskill ratings, replayed from the results in order;
- `rounds`: the next round of a division, with its boards;
- `matching`: which pairing a table's result belongs to, or why it is ignored;
- `messages`: what the hub publishes.

The imperative shell: `event_store` (the event's SQLite file), `hub` (MQTT), `export` (CSV
and PDF), and the command (companion/commands/tournament_cmd.py).
"""
