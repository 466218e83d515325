"""Computer vision: the synthetic scene renderer, per-frame detection, tracking and shot
segmentation, and reading Rummikub tiles."""
