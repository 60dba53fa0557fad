"""Draw the app's icons (``web/public/icons/``): the table's dark ground, a disc half gold for the
good and half crimson for the evil, and the brand's cross. Run it when the design changes; the
PNG files it writes are kept in the repository, so that the build needs no drawing library.

usage: .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "web" / "public" / "icons"
GROUND = (19, 16, 27)  # --bg
GOOD = (232, 193, 90)  # --good
EVIL = (226, 87, 76)  # --evil
INK = (42, 33, 49)  # --card-ink
SCALE = 4  # drawn this much larger, then shrunk: smooth edges


def draw(size: int, *, maskable: bool) -> Image.Image:
    """The icon at ``size`` pixels. A maskable one fills its square with the ground and keeps
    the mark within the middle 80 % (what every platform's mask leaves visible); the other has
    rounded corners of its own."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=GROUND)
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=GROUND)
    disc = big * (0.56 if maskable else 0.72)
    left = (big - disc) / 2
    box = (left, left, left + disc, left + disc)
    pen.pieslice(box, 90, 270, fill=GOOD)
    pen.pieslice(box, 270, 90, fill=EVIL)
    # the cross: a long upright and a crossbar a third of the way down
    middle, bar = big / 2, disc * 0.11
    top, bottom = left + disc * 0.16, left + disc * 0.86
    pen.rectangle((middle - bar / 2, top, middle + bar / 2, bottom), fill=INK)
    cross_y = top + (bottom - top) * 0.3
    pen.rectangle(
        (middle - disc * 0.24, cross_y - bar / 2, middle + disc * 0.24, cross_y + bar / 2), fill=INK
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
        draw(size, maskable=True).save(OUT / f"maskable-{size}.png", optimize=True)
    draw(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    draw(32, maskable=False).save(OUT / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
