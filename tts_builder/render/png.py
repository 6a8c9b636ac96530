"""Deterministic PNG bytes and encoder-independent image digests."""

from __future__ import annotations

import hashlib
import io

from PIL import Image

COMPRESS_LEVEL = 6  # a fixed level: same pixels, same bytes; 9 is 2x slower for ~5% smaller


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img``: same pixels give the same bytes (no metadata, fixed settings)."""
    clean = img.copy()
    clean.info = {}  # drop icc_profile, dpi, text chunks, gamma... that Pillow would copy
    buf = io.BytesIO()
    clean.save(buf, format="PNG", compress_level=COMPRESS_LEVEL, optimize=False)
    return buf.getvalue()


def image_digest(img: Image.Image) -> str:
    """SHA-256 (hex) of the mode, size and pixels of ``img``; independent of any encoder."""
    h = hashlib.sha256()
    h.update(f"{img.mode} {img.width}x{img.height}\n".encode())
    if img.mode == "P":
        h.update(bytes(img.getpalette() or []))
    h.update(img.tobytes())
    return h.hexdigest()
