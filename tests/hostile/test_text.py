"""Text from an implementation, its file's name or a spec folder is inert in every output: report.md
(rendered by CI systems: no image, link, autolink, HTML or table row from it), index.html, junit.xml
and the console."""

from __future__ import annotations

import re
import secrets
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

HERE = Path(__file__).parent
LIVE = {"image", "html_inline", "html_block", "em_open"}


def _inert_markdown(text: str, rows: int) -> None:
    """report.md parsed as CommonMark with tables: nothing live but the testbed's own bold status and links
    to its plots, one table row per item, no bare URL outside a code span (GitHub would link it)."""
    markdown_it = pytest.importorskip("markdown_it")
    tokens = markdown_it.MarkdownIt("commonmark").enable("table").parse(text)
    everything = [t for tok in tokens for t in [tok, *(tok.children or [])]]
    live = [t.type for t in everything if t.type in LIVE]
    links = [t.attrs.get("href") for t in everything if t.type == "link_open"]
    assert not live and all(str(href).startswith("plots/") for href in links), (live, links)
    texts = [t.content for tok in tokens for t in (tok.children or []) if t.type == "text"]
    assert not [t for t in texts if re.search(r"https?:|www\.|evil", t)], texts
    first_table = text.split("\n\n| paper |", 1)[1].split("\n\n", 1)[0]
    assert len(first_table.splitlines()) == rows + 2, first_table  # header, separator, one line per item


@pytest.mark.slow
@pytest.mark.parametrize("named", [False, True])
def test_markdown_and_html_from_an_implementation_are_inert(hostile, agree, shelf, named):
    token = secrets.token_hex(8)
    attack = "markdown_injection"
    if named:  # the file's name is Markdown and HTML too
        attack = "![i](x) <img src=x> www.evil.example `x` _y_"
        (shelf / f"{attack}.py").write_text((HERE / "markdown_injection.py").read_text())
    run = hostile(attack, env={"HOSTILE_TOKEN": token})
    doc = agree(run, 5)
    report = (run.out / "report.md").read_text()
    _inert_markdown(report, len(doc["privacy"]) + len(doc["theorems"]))
    html = (run.out / "index.html").read_text()
    assert "<img src=x" not in html and "<b>bold" not in html and 'href="https://evil' not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # shown, as text
    tree = ET.parse(run.out / "junit.xml")
    assert [e.get("message") for e in tree.iter("error")]
    for stream in (run.stdout, run.stderr):
        assert not any(line.lstrip().startswith(("|", "<!--")) for line in stream.splitlines()), stream[-3000:]


@pytest.mark.slow
def test_markdown_in_a_spec_folder_is_inert(tmp_path, shelf, hostile, agree):
    from dptestbed.spec import spec_file

    folder = shelf / "specs"
    folder.mkdir()
    text = spec_file("laplace_mechanism").read_text()
    ref = 'ref = "Fact A1 (Laplace tail)"'
    assert ref in text
    evil = 'ref = "Fact A1 (![x](https://evil.example/t) <img src=x> [a](https://evil.example) | pass |)"'
    (folder / "laplace_mechanism.toml").write_text(text.replace(ref, evil))
    run = hostile("honest", "--dir", str(folder))
    doc = agree(run, 0)
    report = (run.out / "report.md").read_text()
    assert "evil.example" in report  # the theorem is listed as not yet checked, inert
    _inert_markdown(report, len(doc["privacy"]) + len(doc["theorems"]))
