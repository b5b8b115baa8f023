"""memento ludis: four triangles of seven points, figures of stacked stones under a colour
marker; engine, board geometry, legal actions and a companion opponent."""
