"""MemWars' own printables: the topology counters."""
