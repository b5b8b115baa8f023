"""What the camera makes of the light that reaches it: a smear when it or the table moved,
the lens's softness, exposure metered over the whole frame, its white balance, shot and
read noise, the sRGB curve, and JPEG.

Linear RGB in (float32, rows x columns x 3), BGR bytes out, decoded from the JPEG the
camera would send.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.pbr.conditions import Sensor

Linear = NDArray[np.float32]
METERED_GREY = 0.18
"""What the frame's mean luminance is exposed to: the usual middle grey."""


def smear(image: Linear, rng: np.random.Generator) -> Linear:
    """A short straight motion blur, a few pixels long."""
    length = float(rng.uniform(2.0, 9.0))
    angle = float(rng.uniform(0.0, math.pi))
    side = math.ceil(length) | 1
    kernel = np.zeros((side, side), np.float32)
    middle = side // 2
    for t in np.linspace(-length / 2, length / 2, 4 * side):
        x = round(middle + t * math.cos(angle))
        y = round(middle + t * math.sin(angle))
        kernel[y, x] += 1.0
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT), np.float32)


def soften(image: Linear, sigma: float) -> Linear:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.float32)


def luminance(image: Linear) -> NDArray[np.float32]:
    return np.asarray(image @ np.array([0.2126, 0.7152, 0.0722], np.float32), np.float32)


def expose(image: Linear, sensor: Sensor) -> tuple[Linear, float]:
    """Scale so the whole frame's mean luminance is middle grey (a dark table brightens the
    paper until it clips), then white-balance towards the frame's mean colour; the gain."""
    mean = max(1e-6, float(luminance(image).mean()))
    gain = METERED_GREY / mean * 2.0**sensor.exposure_bias
    cast = image.reshape(-1, 3).mean(axis=0)
    cast = cast / max(1e-6, float(cast @ np.array([0.2126, 0.7152, 0.0722])))
    balance = cast**-sensor.white_balance * np.array(sensor.balance_error)
    balance /= float(balance @ np.array([0.2126, 0.7152, 0.0722]))
    return np.asarray(image * (gain * balance).astype(np.float32), np.float32), gain


def add_noise(image: Linear, sensor: Sensor, gain: float, rng: np.random.Generator) -> Linear:
    """Shot noise from the photons really caught (fewer when the gain is up), and read noise."""
    photons = sensor.photons / max(1.0, gain / 2.0)
    caught = rng.poisson(np.clip(image, 0.0, 4.0) * photons) / photons
    read = rng.normal(0.0, sensor.read_noise * max(1.0, gain / 2.0), image.shape)
    return np.asarray(caught + read, np.float32)


def encode(image: Linear, quality: int) -> bytes:
    """sRGB curve, clip, 8 bits, JPEG."""
    clipped = np.clip(image, 0.0, 1.0)
    srgb = np.where(clipped <= 0.0031308, clipped * 12.92, 1.055 * clipped ** (1 / 2.4) - 0.055)
    pixels = np.round(srgb[:, :, ::-1] * 255.0).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return bytes(data.tobytes())


def decode(jpeg: bytes) -> NDArray[np.uint8]:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("not a JPEG picture")
    return np.asarray(image, np.uint8)


def develop(
    image: Linear, sensor: Sensor, rng: np.random.Generator
) -> tuple[NDArray[np.uint8], bytes]:
    """The camera's processing of one frame's light: the picture as decoded, and its JPEG."""
    if rng.random() < sensor.shake:
        image = smear(image, rng)
    image = soften(image, sensor.softness)
    exposed, gain = expose(image, sensor)
    noisy = add_noise(exposed, sensor, gain, rng)
    low, high = sensor.quality
    jpeg = encode(noisy, int(rng.integers(low, high + 1)))
    return decode(jpeg), jpeg
