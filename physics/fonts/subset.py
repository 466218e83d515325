"""How physics/fonts/KangleCJK-Regular.otf was made: Noto Sans CJK HK (Debian's
fonts-noto-cjk, SIL OFL 1.1) cut down with fontTools to the characters kangle draws —
printable ASCII, and every other character in its source, its profiles and the rule sheet —
and renamed, as the OFL asks of a modified font. Run from the repository root, with
fontTools installed: ``python physics/fonts/subset.py``."""

from __future__ import annotations

import string
import subprocess
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
HK = 4  # the collection's Noto Sans CJK HK (Hong Kong forms of the characters)
OUT = Path("physics/fonts/KangleCJK-Regular.otf")
SCANNED = ("rules/**/*.py", "rules/**/*.toml", "kangle/*.py", "physics/*.py", "vision/*.py",
           "../shared/specs/kangle-rules.md")


def characters() -> str:
    chars = set(string.printable.strip()) | {" "}
    for pattern in SCANNED:
        for path in Path(".").glob(pattern):
            chars |= set(path.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable()))


def main() -> None:
    text = characters()
    subprocess.run([sys.executable, "-m", "fontTools.subset", str(SOURCE), f"--font-number={HK}",
                    f"--text={text}", f"--output-file={OUT}", "--no-hinting", "--desubroutinize",
                    "--layout-features=", "--name-IDs=*"], check=True)
    font = TTFont(OUT)
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 6, 16, 17):
            record.string = (record.toUnicode().replace("Noto Sans CJK HK", "Kangle CJK")
                             .replace("NotoSansCJKhk", "KangleCJK"))
    font.save(OUT)
    print(f"{OUT}: {len(text)} characters, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
