"""MemWars: the memory game played on the 100-place Macunx."""
