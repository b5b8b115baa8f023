"""Where frames come from: cameras, video files, folders of images, the virtual camera.

with open_source("0") as source:      # see spec.py for every form a user may type
    frame = source.read()             # Frame(image=BGR uint8, t_ns, index), or None at
                                      # the end of a file; CameraLost when a camera fails
"""

from __future__ import annotations

from vision.sources.camera import CameraSource
from vision.sources.frame import CameraLost, Frame, FrameSource, Image, Source
from vision.sources.images import IMAGE_SUFFIXES, ImageFolderSource
from vision.sources.picamera import PicameraSource
from vision.sources.spec import open_source, synthetic_source
from vision.sources.synthetic import SyntheticSource
from vision.sources.video import VIDEO_SUFFIXES, VideoFileSource

__all__ = [
    "IMAGE_SUFFIXES",
    "VIDEO_SUFFIXES",
    "CameraLost",
    "CameraSource",
    "Frame",
    "FrameSource",
    "Image",
    "ImageFolderSource",
    "PicameraSource",
    "Source",
    "SyntheticSource",
    "VideoFileSource",
    "open_source",
    "synthetic_source",
]
