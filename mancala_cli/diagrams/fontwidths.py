"""How wide a line of bold label text is drawn, without a font at hand:
DejaVu Sans Bold's advance widths (the font shipped for PNG images), for
the headers of game sheets and the captions under diagrams."""
from __future__ import annotations

#: DejaVu Sans Bold's advance widths (thousandths of an em) of the
#: characters 32–126, read from the font shipped for PNG images; a header is
#: measured with them (other characters count as a full em).
_BOLD_WIDTHS = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821,
    837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457,
    365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)
_BOLD_OTHER = {'·': 380, '–': 500, '—': 1000, '…': 1000}


def text_width(text: str, size: int) -> int:
    """A header line's width in DejaVu Sans Bold at ``size`` px, rounded up,
    with 2% to spare (a browser's sans-serif of the same size is no wider
    for the usual fonts)."""
    total = 0
    for char in text:
        code = ord(char)
        total += _BOLD_WIDTHS[code - 32] if 32 <= code < 127 else _BOLD_OTHER.get(char, 1000)
    return -(-total * size * 102 // 100_000)
