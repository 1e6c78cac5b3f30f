"""autograd_figures.page: the in-page explorer is one self-contained HTML output, coloured like the figures."""

from __future__ import annotations

import json
import re

from matplotlib.colors import to_hex

from autograd_figures import slot_color, static_explorer
from autograd_figures.page import _STATIC


def test_html_inlines_its_script_and_style_and_needs_nothing_else():
    page = static_explorer("2, 3")._repr_html_()
    script = (_STATIC / "stride-explorer.js").read_text()
    assert f"<script>{script}</script>" in page
    assert "<style>" in page and ".stride-explorer" in page
    assert re.findall(r"<script[^>]*\ssrc=", page) == [] and "<link" not in page
    assert 'data-shape="2, 3"' in page


def test_the_start_shape_is_escaped():
    page = static_explorer('4"><img src=x onerror=alert(1)>')._repr_html_()
    assert "<img src=x" not in page
    assert "&quot;&gt;&lt;img" in page


def test_slots_have_the_colours_of_the_figures():
    script = (_STATIC / "stride-explorer.js").read_text()
    palette = json.loads(re.search(r"const PALETTE = (\[[^\]]*\]);", script).group(1).replace(",\n  ]", "]"))
    assert palette == [to_hex(slot_color(k)) for k in range(len(palette))]
    assert to_hex(slot_color(len(palette))) == palette[0]  # the palette repeats where the figures' does
