"""The centre of kangle: board model, record types, the 康樂棋 referee engine and game log.

Nothing here imports OpenCV, pymunk or pygame; every other package imports this one.
"""
