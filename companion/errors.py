"""Errors a user can cause, each worth one clear line and exit code 2.

UserError is defined in vision/common/errors.py, since vision raises it too and vision never
imports companion; it is the same class here, for the many companion modules that name it.
"""

from __future__ import annotations

from vision.common.errors import UserError

__all__ = ["UserError"]
