"""``junit.xml``: one testcase per item, for CI systems."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from ..base.outfiles import write
from ..base.verdict import ERROR, OUTCOME_NO_POWER, RUN_ERROR, UNEXPECTED
from .model import expected_text, item_rows


def write_junit(document: dict, path: Path, report_errors: list[dict] | None = None) -> None:
    rows = item_rows(document)
    seconds = {r["id"]: r.get("seconds") or 0.0 for r in rows}
    suites = ET.Element("testsuites", name=f"dptestbed {document.get('run', {}).get('command', 'verify')}")
    for kind_name, kinds in (("privacy", ("privacy",)), ("theorems", ("bound", "calibration", "test", "property")),
                             ("report", ())):
        if kind_name == "report":
            group = [{"id": e["item"], "spec": e.get("spec", "report"), "outcome": ERROR, "error": e["error"],
                      "verdict": "error", "class": RUN_ERROR, "expected": None, "claim": "", "measured": "",
                      "item": e["item"]}
                     for e in (report_errors or [])]
            if not group:
                continue
        else:
            group = [r for r in rows if r["kind"] in kinds]
        suite = ET.SubElement(suites, "testsuite", name=f"dptestbed.{kind_name}", tests=str(len(group)),
                              failures=str(sum(r["outcome"] in (UNEXPECTED, OUTCOME_NO_POWER) for r in group)),
                              errors=str(sum(r["outcome"] == ERROR for r in group)),
                              time=f"{sum(seconds.get(r['id'], 0.0) for r in group):.3f}")
        for r in group:
            case = ET.SubElement(suite, "testcase", classname=f"dptestbed.{kind_name}.{r['spec']}", name=r["id"],
                                 time=f"{seconds.get(r['id'], 0.0):.3f}")
            text = f"{r['item']}: {r['claim']}; {r['measured']}; {r['class']}; expected {expected_text(r['expected'])}"
            if r["outcome"] in (UNEXPECTED, OUTCOME_NO_POWER):
                ET.SubElement(case, "failure", message=f"{r['class']}, expected {expected_text(r['expected'])}",
                              type=r["class"]).text = text
            elif r["outcome"] == ERROR:
                ET.SubElement(case, "error", message=str(r.get("error") or r["class"])[:500], type="error").text = text
            ET.SubElement(case, "system-out").text = text
    for key in ("tests", "failures", "errors"):
        suites.set(key, str(sum(int(s.get(key, "0")) for s in suites)))
    tree = ET.ElementTree(suites)
    ET.indent(tree)
    buf = io.BytesIO()
    tree.write(buf, encoding="utf-8", xml_declaration=True)
    write(path, buf.getvalue())
