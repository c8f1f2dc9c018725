"""Formulas of the specs drawn as images for the HTML report (matplotlib mathtext)."""

from __future__ import annotations

import base64
import io
import re

from .model import esc
from .plots import pyplot


class Formulas:
    """LaTeX -> small PNG data URIs via matplotlib mathtext (cached); None when mathtext
    cannot draw a formula, or without ``images`` (a report without plots: the report then shows its LaTeX
    source, and matplotlib is never imported)."""

    def __init__(self, images: bool = True):
        self.cache: dict[str, str | None] = {}
        self.images = images

    def uri(self, latex: str) -> str | None:
        if not self.images:
            return None
        if latex in self.cache:
            return self.cache[latex]
        uri = None
        try:
            pyplot()
            import numpy as np
            from matplotlib.font_manager import FontProperties
            from matplotlib.image import imsave
            from matplotlib.mathtext import MathTextParser

            text = latex.replace(r"\left\{", r"\{").replace(r"\right\}", r"\}")
            text = re.sub(r"\\mathrm\{([^{}]*)\}", lambda m: r"\mathrm{" + m.group(1).replace("_", r"\_") + "}", text)
            # one parse straight to pixels (math_to_image parses three times and lays out a figure)
            ink = np.asarray(MathTextParser("agg").parse(f"${text}$", dpi=120, prop=FontProperties(size=11)).image)
            rgba = np.zeros((*ink.shape, 4), dtype=np.uint8)
            rgba[..., 3] = ink  # black, the glyphs' coverage as opacity
            buf = io.BytesIO()
            imsave(buf, rgba, format="png")
            uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        except Exception:  # noqa: BLE001 - fall back to the LaTeX source
            uri = None
        self.cache[latex] = uri
        return uri

    def html(self, latex: str | None, source: str | None = None) -> str:
        if not latex:
            return esc(source or "")
        uri = self.uri(latex)
        title = esc(source or latex)
        if uri:
            # a long formula scrolls in its box (CSS .mathbox) instead of widening the page
            return f'<span class="mathbox"><img class="math" src="{uri}" alt="{esc(latex)}" title="{title}"></span>'
        return f'<code title="{title}">{esc(latex)}</code>'

