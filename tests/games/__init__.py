"""The engine conformance suite: every check here runs once per registered game
(companion.games.plugin_names()), over random games the plugin's own random player plays
from its example setups, so a game added to the registry is checked with no edit here.

    test_determinism   same setup, seed and actions: equal states and events
    test_codecs        states, actions, events and setups read back equal through JSON
    test_refusals      a refusal changes nothing and names a rule its rules doc explains
    test_views         every viewer's view, the summary and the expectation are JSON
    test_records       a live game's exported record replays to it; golden records exist
    test_narration     every event narrates to text
    test_house_rules   every switch is described and each of its values starts a game
"""
