"""A learned count of the crystals on each zone: the network's inputs, the model, training.

The reader keeps its registration and its measure of the light (the paper's white as the
reference); what a zone holds is then decided by a small network that looks at the zone's
picture once per calibrated colour (vision/learning/inputs.py) and says how many crystals of
that colour lie there (vision/learning/model.py).
"""
