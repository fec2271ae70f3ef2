"""Write the demo's second collection: lamps.jsonl, segments.jsonl and topics.xml.

Our own text about lamps and light, in JSON Lines (docs/collections.md), with a segment file in
MS MARCO V2.1's shape: one segment per paragraph of each document's text, offsets into the
record's own text field. Reproducible byte for byte (tests/test_demo_lamps.py):

    .venv/bin/python demo/lamps/make_lamps.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

DOCUMENTS = [
    (
        "lamp-oil",
        "Oil lamps",
        [
            "An oil lamp draws fuel up a wick by capillary action. The flame burns the vapour "
            "just above the wick, not the liquid itself.",
            "Olive oil lit houses around the Mediterranean for centuries. Whale oil and later "
            "kerosene gave a brighter flame with less smoke.",
            "A glass chimney steadies the draught, so the flame stops flickering and the soot "
            "falls when the air flows evenly.",
        ],
    ),
    (
        "lamp-gas",
        "Gas lighting",
        [
            "Coal gas was piped into city streets in the early nineteenth century. Lamplighters "
            "walked their rounds at dusk with long poles.",
            "The incandescent mantle, a fabric sock soaked in metal salts, made a gas flame glow "
            "white instead of yellow.",
        ],
    ),
    (
        "lamp-electric",
        "Electric bulbs",
        [
            "A carbon filament in a vacuum glowed for hours before it broke. Tungsten filaments "
            "lasted longer and could run hotter.",
            "Halogen gas inside a quartz bulb carries evaporated tungsten back to the filament, "
            "so the glass stays clear.",
            "An LED turns current straight into light in a semiconductor junction; little of the "
            "energy becomes heat.",
        ],
    ),
    (
        "lamp-safety",
        "Miners' safety lamps",
        [
            "Firedamp, the methane of coal mines, exploded around open flames.\r\nA fine wire "
            "gauze around the flame cools escaping gases below their ignition point.",
            "A miner read the danger from the flame itself: a blue cap above it meant gas in "
            "the air.",
        ],
    ),
    (
        "lamp-signal",
        "Signal lamps",
        [
            "Ships flash messages in Morse code with shuttered lamps that open and close in "
            "the dark.",
            "Lighthouses rotate a lens of glass prisms so that one lamp sweeps a beam across "
            "many miles of sea 𝔸.",
        ],
    ),
    (
        "lamp-notes",
        "",
        [
            "Notes without a title: candles, rushlights and tallow dips were the light of "
            "poorer homes.",
            "A rushlight is a dried rush soaked in fat; it burns for about half an hour.",
        ],
    ),
]

TOPICS = """<?xml version="1.0" encoding="UTF-8"?>
<inex-topic-file>
<topic id="9101" ct_no="1"><title>flame wick fuel</title>
<castitle>//article[about(., flame wick)]</castitle><phrasetitle>"oil lamp"</phrasetitle>
<description>How does a lamp's flame get its fuel?</description>
<narrative>Passages explaining how fuel reaches a flame (wick, gas pipes, mantles) are
relevant; history without the mechanism is not.</narrative></topic>
<topic id="9102" ct_no="2"><title>lamp safety gas</title>
<castitle>//article[about(., safety gas)]</castitle><phrasetitle>"safety lamp"</phrasetitle>
<description>How did lamps keep people safe from gas?</description>
<narrative>Passages on preventing explosions or detecting gas with a lamp are relevant.
</narrative></topic>
</inex-topic-file>
"""

BLANK_LINE = "\n\n"


def main(folder: Path = HERE) -> None:
    """Write the three files into `folder` (the demo's own by default)."""
    records, segments = [], []
    for docid, title, paragraphs in DOCUMENTS:
        text = BLANK_LINE.join(paragraphs)
        record = {"docid": docid, "title": title, "text": text} if title else {
            "docid": docid, "text": text}  # fmt: skip
        records.append(json.dumps(record, ensure_ascii=False) + "\n")
        start = 0
        for number, paragraph in enumerate(paragraphs):
            end = start + len(paragraph)
            assert text[start:end] == paragraph
            segments.append(json.dumps({
                "docid": f"{docid}#{number}", "start_char": start, "end_char": end,
                "segment": paragraph,
            }, ensure_ascii=False) + "\n")  # fmt: skip
            start = end + len(BLANK_LINE)
    (folder / "lamps.jsonl").write_text("".join(records), encoding="utf-8", newline="")
    (folder / "segments.jsonl").write_text("".join(segments), encoding="utf-8", newline="")
    (folder / "topics.xml").write_text(TOPICS, encoding="utf-8")


if __name__ == "__main__":
    main()
