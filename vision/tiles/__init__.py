"""Reading Rummikub tiles from photos: renderer, finder, reader, and their training."""
