"""From light on the sensor to the bytes a webcam sends: lens blur and camera shake, the
exposure and colour gains, photon and read noise, the camera's sharpening, and JPEG.

Noise is drawn afresh for every frame: from a large field of correlated Gaussian noise made
once per picture size, each frame takes its own offset (drawing millions of
normal deviates per frame would cost more than the rest of the rendering).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.conditions import Conditions
from vision.synth.kept import kept
from vision.synth.lighting import GAMMA, Lighting

Image = NDArray[np.uint8]
Floats = NDArray[np.float32]
NOISE_MARGIN = 160
"""How far a frame's noise may be shifted within the stored field, pixels."""
SIGMA_SCALE = 8.0
"""The noise's standard deviation per level is tabulated in eighths of a level."""
NOISE_SCALE = 16.0
"""The stored noise field is in sixteenths of a standard deviation (16-bit integers are
quicker to scale and add than floats)."""
AUTO_TARGET = 118.0
"""The frame mean a camera's automatic exposure aims for: mid grey (18 % in linear light)."""
AUTO_DEAD_BAND = 0.05
"""How far off the target the mean may be before automatic exposure changes."""
AUTO_RANGE = (1 / 32, 32.0)
"""The exposures automatic exposure may choose, against 1 (linear)."""


def blur(image: Image, conditions: Conditions) -> Image:
    """What the lens and a shaking hand do: Gaussian defocus and a short straight streak."""
    out = image
    if conditions.defocus > 0.05:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), conditions.defocus), np.uint8)
    if conditions.motion_blur >= 1.0:
        streak = _streak(conditions.motion_blur, conditions.motion_angle)
        out = np.asarray(cv2.filter2D(out, -1, streak), np.uint8)
    return out


def expose(image: Image, lighting: Lighting, exposure: float = 1.0) -> Image:
    """Pixel values under the room's light, before noise. `exposure` is the camera's
    (linear): the light is multiplied by it before the sensor clips at full scale."""
    # Pixel values are sRGB: a linear factor k scales them by k ** (1 / GAMMA).
    level = exposure ** (1 / GAMMA)
    out = np.asarray(cv2.multiply(image, lighting.gain, scale=level, dtype=cv2.CV_8U), np.uint8)
    if lighting.glare is not None:
        left, top, right, bottom = lighting.glare_box
        patch = cv2.multiply(
            image[top:bottom, left:right],
            lighting.gain[top:bottom, left:right],
            scale=1 / 255,
            dtype=cv2.CV_32F,
        )
        added = lighting.glare[top:bottom, left:right, None] * np.array(lighting.tint, np.float32)
        # Glare is light added to what the paper reflects: add it in linear light.
        linear = (cv2.pow(np.asarray(patch, np.float32), GAMMA) + added) * exposure
        glared = 255.0 * cv2.pow(linear, 1 / GAMMA)
        out[top:bottom, left:right] = np.clip(glared, 0, 255).astype(np.uint8)
    return out


def metered_exposure(image: Image, exposure: float) -> float:
    """What a camera's automatic exposure sets next after a frame taken at `exposure`:
    the frame's mean brought to AUTO_TARGET, whatever it holds. Over a dark table the
    sheet is a small bright part of a dark frame, and the paper clips. Within
    AUTO_DEAD_BAND of the target it stays where it is, as cameras do, so that it settles."""
    mean = max(float(np.mean(image)), 1.0)
    if abs(math.log(mean / AUTO_TARGET)) <= math.log(1.0 + AUTO_DEAD_BAND):
        return exposure
    # Values are sRGB; clipped pixels do not grow, so this undershoots and takes a few
    # frames to settle, like a real camera's.
    wanted = exposure * (AUTO_TARGET / mean) ** GAMMA
    return float(np.clip(wanted, AUTO_RANGE[0], AUTO_RANGE[1]))


def add_noise(image: Image, conditions: Conditions, frame_rng: np.random.Generator) -> Image:
    """Read noise plus photon noise (its variance grows with the signal)."""
    height, width = image.shape[:2]
    field = _noise_field(height, width)
    dy, dx = (int(v) for v in frame_rng.integers(0, NOISE_MARGIN, 2))
    noise = field[dy : dy + height, dx : dx + width]
    sigma = cv2.LUT(image, _sigma_table(conditions.noise, conditions.shot_noise))
    # Same-type products are far quicker in OpenCV than mixed ones.
    spread = cv2.multiply(noise, sigma.astype(np.int16), scale=1 / (SIGMA_SCALE * NOISE_SCALE))
    return np.asarray(cv2.add(image, spread, dtype=cv2.CV_8U), np.uint8)


def sharpen(image: Image, amount: float) -> Image:
    """The unsharp masking most webcams apply: crisper edges, with halos."""
    if amount <= 0.01:
        return image
    soft = cv2.GaussianBlur(image, (5, 5), 1.2)
    return np.asarray(cv2.addWeighted(image, 1.0 + amount, soft, -amount, 0.0), np.uint8)


def encode(image: Image, quality: int) -> bytes:
    """JPEG at `quality` with the usual 4:2:0 chroma subsampling."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def decode(jpeg: bytes) -> Image:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError("JPEG decoding failed")
    return np.asarray(image, np.uint8)


def _streak(length: float, angle: float) -> Floats:
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    a = math.radians(angle)
    end = (length - 1) / 2
    start_point = (c - end * math.cos(a), c - end * math.sin(a))
    end_point = (c + end * math.cos(a), c + end * math.sin(a))
    cv2.line(
        kernel,
        (round(start_point[0] * 16), round(start_point[1] * 16)),
        (round(end_point[0] * 16), round(end_point[1] * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    total = float(kernel.sum())
    if total <= 0:
        kernel[int(c), int(c)] = 1.0
        total = 1.0
    return np.asarray(kernel / total, np.float32)


@lru_cache(maxsize=16)
def _sigma_table(read: float, shot: float) -> Image:
    """Noise standard deviation for each 8-bit level, in 1 / SIGMA_SCALE levels."""
    levels = np.arange(256, dtype=np.float64)
    sigma = np.sqrt(read**2 + shot * levels) * SIGMA_SCALE
    return kept(np.clip(np.round(sigma), 0, 255).astype(np.uint8).reshape(1, 256))


@lru_cache(maxsize=2)
def _noise_field(height: int, width: int) -> NDArray[np.int16]:
    """Unit-variance noise, a little blurred (demosaicing spreads it over neighbours) and
    shared in part between the colour channels."""
    rng = np.random.default_rng(7)
    shape = (height + NOISE_MARGIN, width + NOISE_MARGIN)
    common = rng.standard_normal(shape, dtype=np.float32)
    own = rng.standard_normal((*shape, 3), dtype=np.float32)
    field = 0.55 * common[:, :, None] + 0.84 * own
    field = np.asarray(cv2.GaussianBlur(field, (0, 0), 0.55), np.float32)
    return kept(np.round(field * (NOISE_SCALE / float(np.std(field)))).astype(np.int16))
