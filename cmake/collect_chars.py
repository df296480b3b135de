"""Collects the characters outside Latin-1 used by the given UTF-8 files (the catalog's
provider names such as 算家云, UI strings) into one text file. The CJK font is subset to
exactly these characters and the page builds its glyph ranges from the same file.

    python3 collect_chars.py OUTPUT INPUT...
"""
import sys

chars = set()
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        chars.update(ch for ch in f.read() if ord(ch) >= 0x3000)
text = "".join(sorted(chars))
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        if f.read() == text:
            sys.exit(0)
except FileNotFoundError:
    pass
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write(text)
