"""What vision and companion both stand on: the error a user can cause (errors.py), reading
the files a user names and writing files whole (files.py), `with` for anything that holds a
device or a stream (closing.py).

It lives in vision, the lower layer, so that vision never imports companion; nothing here
imports numpy or OpenCV, so companion imports it on any machine.
"""
