"""Study: spaced repetition over a MemDeck (the fsrs scheduler), the board as a heatmap of
recall strength. schedule.py is the pure part, log.py keeps the reviews."""
