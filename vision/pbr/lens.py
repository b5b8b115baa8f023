"""The camera: where it stands over the table, how a world point lands in its picture
(through its lens's radial distortion), and the distortion itself, made after rendering by
remapping a slightly wider view.

World millimetres are right-handed with z up; the board's own millimetres (x right, y down
the sheet) are laid on the table by `Table` (vision/pbr/world.py).

    camera = aim_camera(pose, corners, (1280, 720))
    pixels = project(camera, world_points)            # (n, 2), distorted
    picture = distort(camera, wide_render)            # the lens's picture, (720, 1280, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.pbr.conditions import CameraPose

Floats = NDArray[np.float64]
WIDER = 1.1
"""How much wider (each way) the rendered view is than the lens's picture: room for the
distortion to pull in what lies beyond the frame's corners."""


@dataclass(frozen=True, slots=True)
class Camera:
    origin: tuple[float, float, float]
    target: tuple[float, float, float]
    up: tuple[float, float, float]
    fov: float
    """Horizontal, degrees, of the undistorted picture."""
    size: tuple[int, int]
    distortion: tuple[float, float]

    @property
    def focal(self) -> float:
        """Pixels per unit of tan(angle)."""
        return self.size[0] / 2 / math.tan(math.radians(self.fov) / 2)

    def wide_view(self) -> tuple[float, tuple[int, int]]:
        """The rendered view: its horizontal field of view and size, same focal length."""
        width = 2 * math.ceil(self.size[0] * WIDER / 2)
        height = 2 * math.ceil(self.size[1] * WIDER / 2)
        fov = 2 * math.degrees(math.atan(width / 2 / self.focal))
        return fov, (width, height)


def camera_axes(camera: Camera) -> tuple[Floats, Floats, Floats]:
    """The camera's right, up and forward directions in the world, unit length."""
    origin = np.array(camera.origin)
    forward = np.array(camera.target) - origin
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, np.array(camera.up))
    right /= np.linalg.norm(right)
    return right, np.cross(right, forward), forward


def ideal(camera: Camera, points: Floats) -> Floats:
    """World points -> undistorted normalised picture coordinates (x right, y down)."""
    right, up, forward = camera_axes(camera)
    relative = np.asarray(points, np.float64) - np.array(camera.origin)
    depth = relative @ forward
    return np.stack([relative @ right / depth, -(relative @ up) / depth], axis=-1)


def _stretch(camera: Camera, radius_squared: Floats) -> Floats:
    k1, k2 = camera.distortion
    return np.asarray(1.0 + k1 * radius_squared + k2 * radius_squared**2)


def project(camera: Camera, points: Floats) -> Floats:
    """World points -> pixels in the lens's (distorted) picture, pixel centres at integers."""
    wanted = ideal(camera, points)
    seen = wanted.copy()
    for _ in range(20):
        seen = wanted / _stretch(camera, np.sum(seen**2, axis=-1))[..., None]
    width, height = camera.size
    centre = np.array([width / 2, height / 2])
    return np.asarray(centre + seen * camera.focal - 0.5)


def distort(camera: Camera, wide: NDArray[np.float32]) -> NDArray[np.float32]:
    """The lens's picture from a render of `camera.wide_view()`."""
    width, height = camera.size
    xs, ys = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    seen = np.stack([(xs - width / 2) / camera.focal, (ys - height / 2) / camera.focal], -1)
    wanted = seen * _stretch(camera, np.sum(seen**2, axis=-1))[..., None]
    wide_height, wide_width = wide.shape[:2]
    map_x = (wide_width / 2 + wanted[..., 0] * camera.focal - 0.5).astype(np.float32)
    map_y = (wide_height / 2 + wanted[..., 1] * camera.focal - 0.5).astype(np.float32)
    return np.asarray(
        cv2.remap(wide, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT),
        np.float32,
    )


def _look(pose: CameraPose, target: Floats, distance: float) -> tuple[Floats, Floats]:
    """The camera's position and up vector for a pose at `distance` from `target`."""
    tilt, azimuth = math.radians(pose.tilt), math.radians(pose.azimuth)
    towards = np.array([math.cos(azimuth), math.sin(azimuth)])
    origin = target + distance * np.array(
        [math.sin(tilt) * towards[0], math.sin(tilt) * towards[1], math.cos(tilt)]
    )
    # The far side of the table at the top of the picture, then the camera's roll.
    up = np.array([-towards[0], -towards[1], 0.0])
    forward = (target - origin) / distance
    roll = math.radians(pose.roll)
    up = up * math.cos(roll) + np.cross(forward, up) * math.sin(roll)
    return origin, up


def aim_camera(pose: CameraPose, corners: Floats, size: tuple[int, int]) -> Camera:
    """Stand the camera so the sheet (its world `corners`) spans `pose.fill` of the frame
    and lies where `pose.aim` puts it, wholly inside."""
    middle = np.asarray(corners, np.float64).mean(axis=0)

    def camera_at(distance: float, shift: Floats) -> Camera:
        origin, up = _look(pose, middle, distance)
        return Camera(
            tuple(origin + shift), tuple(middle + shift), tuple(up), pose.fov, size,
            pose.distortion,
        )  # fmt: skip

    def extent(camera: Camera) -> tuple[Floats, Floats]:
        pixels = project(camera, corners)
        return pixels.min(axis=0), pixels.max(axis=0)

    near, far = 50.0, 50_000.0
    for _ in range(60):
        distance = math.sqrt(near * far)
        low, high = extent(camera_at(distance, np.zeros(3)))
        spans = (high - low) / np.array(size)
        near, far = (distance, far) if max(spans) > pose.fill else (near, distance)
    camera = camera_at(distance, np.zeros(3))
    right, up, _forward = camera_axes(camera)
    low, high = extent(camera)
    room = (np.array(size) - (high - low)) / 2 * 0.92
    per_pixel = distance / camera.focal
    for shrink in (1.0, 0.7, 0.45, 0.2, 0.0):
        move = np.array(pose.aim) * room * shrink
        # Moving the camera right moves the board left in the picture.
        shift = -(move[0] * right - move[1] * up) * per_pixel
        moved = camera_at(distance, shift)
        low, high = extent(moved)
        if low.min() >= 2 and high[0] <= size[0] - 3 and high[1] <= size[1] - 3:
            return moved
    return camera
