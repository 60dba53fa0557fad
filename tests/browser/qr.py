"""Reading a QR code as a phone would, for the lobby's tests: from a screenshot of the code to its
modules (:func:`modules`), and from the modules to the text (:func:`decode`), written from the
standard (ISO/IEC 18004) and not from the library that draws the lobby's codes.

Enough of the standard for the lobby's links: versions 1–10, any error correction level that
the tables below hold (M, the lobby's, and L), byte mode. Every block's error correction
codewords are checked against the data (Reed–Solomon over GF(256)), so a module read wrongly
fails the decoding instead of passing unnoticed: a code that decodes here is one a scanner reads
without having to correct anything.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

Grid = list[list[bool]]  # [row][column]: True for a dark module

# Per version (1–10) and level: the blocks, as (count, total codewords, data codewords).
BLOCKS: dict[str, list[list[tuple[int, int, int]]]] = {
    "L": [
        [(1, 26, 19)],
        [(1, 44, 34)],
        [(1, 70, 55)],
        [(1, 100, 80)],
        [(1, 134, 108)],
        [(2, 86, 68)],
        [(2, 98, 78)],
        [(2, 121, 97)],
        [(2, 146, 116)],
        [(2, 86, 68), (2, 87, 69)],
    ],
    "M": [
        [(1, 26, 16)],
        [(1, 44, 28)],
        [(1, 70, 44)],
        [(2, 50, 32)],
        [(2, 67, 43)],
        [(4, 43, 27)],
        [(4, 49, 31)],
        [(2, 60, 38), (2, 61, 39)],
        [(3, 58, 36), (2, 59, 37)],
        [(4, 69, 43), (1, 70, 44)],
    ],
}
LEVEL_BITS = {0b01: "L", 0b00: "M", 0b11: "Q", 0b10: "H"}
ALIGNMENT = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42]]
ALIGNMENT += [[6, 26, 46], [6, 28, 50]]
MASKS: list[Callable[[int, int], bool]] = [
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i * j) % 3 + (i + j) % 2) % 2 == 0,
]


class Unreadable(AssertionError):
    """The image or the modules are no QR code this reader can read."""


def modules(png: bytes) -> Grid:
    """The modules of the one QR code in a screenshot (dark on light, its quiet zone around it,
    at least two pixels per module): its dark pixels' bounds are the symbol's, the top-left
    finder pattern's top row is seven modules wide, and each module is read at its centre."""
    image = Image.open(io.BytesIO(png)).convert("L")
    width, height = image.size
    pixels = image.load()
    assert pixels is not None

    def dark(x: int, y: int) -> bool:
        value = pixels[x, y]
        assert isinstance(value, int)
        return value < 128

    # An element's box may lie between pixels: the screenshot's edges can then hold a sliver of
    # the page around it. Lines at the edges that are not the quiet zone's light are cut off.
    x0, y0, x1, y1 = 0, 0, width, height
    while x1 - x0 > 1 and sum(dark(x0, y) for y in range(y0, y1)) * 2 > y1 - y0:
        x0 += 1
    while x1 - x0 > 1 and sum(dark(x1 - 1, y) for y in range(y0, y1)) * 2 > y1 - y0:
        x1 -= 1
    while y1 - y0 > 1 and sum(dark(x, y0) for x in range(x0, x1)) * 2 > x1 - x0:
        y0 += 1
    while y1 - y0 > 1 and sum(dark(x, y1 - 1) for x in range(x0, x1)) * 2 > x1 - x0:
        y1 -= 1
    found = [(x, y) for y in range(y0, y1) for x in range(x0, x1) if dark(x, y)]
    if not found:
        raise Unreadable("no dark pixel")
    left, right = min(x for x, _ in found), max(x for x, _ in found)
    top, bottom = min(y for _, y in found), max(y for _, y in found)
    finder = 0
    while left + finder <= right and dark(left + finder, top):
        finder += 1
    module = finder / 7
    side = (right - left + 1 + bottom - top + 1) / 2
    count = round((side / module - 17) / 4) * 4 + 17  # a version's size: 17 + 4·version
    if not 21 <= count <= 57 or module < 2:
        raise Unreadable(f"{count} modules of {module:.1f} pixels: no code of versions 1–10")
    step_x, step_y = (right - left + 1) / count, (bottom - top + 1) / count
    return [
        [dark(int(left + (c + 0.5) * step_x), int(top + (r + 0.5) * step_y)) for c in range(count)]
        for r in range(count)
    ]


def _format_code(level_bits: int, mask: int) -> int:
    """The 15 format bits of a level and mask: BCH(15,5) and the fixed XOR pattern."""
    data = (level_bits << 3) | mask
    remainder = data << 10
    for shift in range(4, -1, -1):
        if remainder & (1 << (shift + 10)):
            remainder ^= 0b10100110111 << shift
    return ((data << 10) | remainder) ^ 0b101010000010010


def _format(grid: Grid) -> tuple[str, int]:
    """The error correction level and the mask, from the format bits beside the top-left finder
    (and, where those do not match a code, their copy beside the other two)."""
    n = len(grid)
    near = [grid[8][c] for c in (0, 1, 2, 3, 4, 5, 7, 8)] + [
        grid[r][8] for r in (7, 5, 4, 3, 2, 1, 0)
    ]
    far = [grid[r][8] for r in range(n - 1, n - 8, -1)] + [grid[8][c] for c in range(n - 8, n)]
    for copy in (near, far):
        value = sum(bit << (14 - i) for i, bit in enumerate(copy))
        for level_bits, level in LEVEL_BITS.items():
            for mask in range(8):
                if _format_code(level_bits, mask) == value:
                    return level, mask
    raise Unreadable("neither copy of the format bits is a format code")


def _function_modules(n: int, version: int) -> Grid:
    """Where the finder, separator, timing and alignment patterns, the format and version bits
    and the dark module are: every other module holds data."""
    used = [[False] * n for _ in range(n)]

    def fill(top: int, left: int, size_r: int, size_c: int) -> None:
        for r in range(max(top, 0), min(top + size_r, n)):
            for c in range(max(left, 0), min(left + size_c, n)):
                used[r][c] = True

    fill(0, 0, 9, 9)  # top-left finder, separator and format bits
    fill(0, n - 8, 9, 8)
    fill(n - 8, 0, 8, 9)  # with the dark module at (n - 8, 8)
    fill(6, 0, 1, n)  # timing
    fill(0, 6, n, 1)
    centres = ALIGNMENT[version - 1]
    corners = {(6, 6), (6, n - 7), (n - 7, 6)}  # where a finder is, no alignment pattern is
    for r in centres:
        for c in centres:
            if (r, c) not in corners:
                fill(r - 2, c - 2, 5, 5)
    if version >= 7:
        fill(0, n - 11, 6, 3)
        fill(n - 11, 0, 3, 6)
    return used


def _gf_tables() -> tuple[list[int], list[int]]:
    exp, log = [0] * 512, [0] * 256
    value = 1
    for i in range(255):
        exp[i], log[value] = value, i
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    for i in range(255, 512):
        exp[i] = exp[i - 255]
    return exp, log


EXP, LOG = _gf_tables()


def _error_codewords(data: list[int], count: int) -> list[int]:
    """Reed–Solomon: the ``count`` error correction codewords of ``data``."""
    generator = [1]
    for i in range(count):  # ∏ (x − αⁱ)
        nxt = [0] * (len(generator) + 1)
        for j, coefficient in enumerate(generator):
            nxt[j] ^= coefficient
            if coefficient:
                nxt[j + 1] ^= EXP[LOG[coefficient] + i]
        generator = nxt
    remainder = [*data, *[0] * count]
    for i in range(len(data)):
        factor = remainder[i]
        if factor:
            for j, coefficient in enumerate(generator):
                if coefficient:
                    remainder[i + j] ^= EXP[LOG[coefficient] + LOG[factor]]
    return remainder[len(data) :]


def decode(grid: Grid) -> str:
    """The text of a QR code's modules (byte mode, read as UTF-8)."""
    n = len(grid)
    version = (n - 17) // 4
    if n != 17 + 4 * version or not 1 <= version <= 10 or any(len(row) != n for row in grid):
        raise Unreadable(f"a {n}×{n} grid is no QR code of versions 1–10")
    level, mask = _format(grid)
    if level not in BLOCKS:
        raise Unreadable(f"error correction level {level} is not in this reader's tables")
    used = _function_modules(n, version)
    bits: list[int] = []
    col, upward = n - 1, True
    while col > 0:
        if col == 6:  # the vertical timing pattern: the column pairs skip it
            col -= 1
        for r in range(n - 1, -1, -1) if upward else range(n):
            for c in (col, col - 1):
                if not used[r][c]:
                    bits.append(int(grid[r][c] != MASKS[mask](r, c)))
        upward, col = not upward, col - 2
    codewords = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - 7, 8)]
    sizes = [
        (total, data) for count, total, data in BLOCKS[level][version - 1] for _ in range(count)
    ]
    blocks: list[list[int]] = [[] for _ in sizes]
    position = 0
    for i in range(max(data for _, data in sizes)):  # interleaved: the data first, then the rest
        for b, (_, data) in enumerate(sizes):
            if i < data:
                blocks[b].append(codewords[position])
                position += 1
    for i in range(max(total - data for total, data in sizes)):
        for b, (total, data) in enumerate(sizes):
            if i < total - data:
                blocks[b].append(codewords[position])
                position += 1
    stream: list[int] = []
    for block, (total, data) in zip(blocks, sizes, strict=True):
        if _error_codewords(block[:data], total - data) != block[data:]:
            raise Unreadable("a block's error correction codewords do not match its data")
        stream.extend(block[:data])
    return _segments(stream, version)


def _segments(stream: list[int], version: int) -> str:
    bits = "".join(f"{byte:08b}" for byte in stream)
    at, text = 0, b""
    while at + 4 <= len(bits):
        mode = int(bits[at : at + 4], 2)
        at += 4
        if mode == 0:  # the terminator
            break
        if mode != 0b0100:
            raise Unreadable(f"mode {mode:04b}: this reader knows byte mode only")
        width = 8 if version <= 9 else 16
        length = int(bits[at : at + width], 2)
        at += width
        text += bytes(int(bits[at + 8 * i : at + 8 * i + 8], 2) for i in range(length))
        at += 8 * length
    return text.decode("utf-8")
