"""Camera to board state. The camera pipeline arrives with the vision work; this package
holds it so that `companion` never imports OpenCV itself."""
