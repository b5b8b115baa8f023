"""Where the product is put together: the app, the main job and the simulated game are each
assembled here from typed options, and the commands only turn arguments into those options.
"""
