"""Camera pictures on the screen."""

from __future__ import annotations

from typing import Any


def texture_of(picture: Any) -> Any:
    """A Kivy texture of an OpenCV (BGR, top row first) picture."""
    import numpy as np
    from kivy.graphics.texture import Texture

    height, width = picture.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    # Kivy's rows go bottom up.
    texture.blit_buffer(
        np.ascontiguousarray(picture[::-1]).tobytes(), colorfmt="bgr", bufferfmt="ubyte"
    )
    return texture
