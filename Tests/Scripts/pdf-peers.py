#!/usr/bin/env python3
"""Validates Typeset's PDF of one document beside Typst's and WeasyPrint's of the same
document, under page-validation's `ua1` and `2b` profiles, and prints a Markdown table.

  pdf-peers.py TYPESET_BINARY IMAGE FOLDER

`make pdf-peers` installs typst, weasyprint and page-validation into .build/pdf-peers and runs
this script. IMAGE is a JPEG the three documents show; the files are written into FOLDER.
"""
import os
import shutil
import subprocess
import sys

WORDS = ("The office sold fifty flow meters to an affluent buyer. "
         "Typesetting keeps the measure, the leading and the baseline grid.")

MARKDOWN = f"""---
title: Peers
lang: en
---

# Overview

{WORDS} A [link to the specification](https://example.com/spec) ends the paragraph.[^1]

![A press photograph](press.jpg)

- one
- two
  - three

| Name | Value |
| --- | --- |
| office | 50 |
| flow | 7 |

## Details

{WORDS}

[^1]: A note about offices.
"""

TYPST = f"""#set document(title: "Peers")
#set text(lang: "en")
#title()
= Overview

{WORDS} A #link("https://example.com/spec")[link to the specification] ends the paragraph.#footnote[A note about offices.]

#figure(image("press.jpg", alt: "A press photograph"), caption: [A press photograph])

- one
- two
  - three

#table(columns: 2, table.header([Name], [Value]), [office], [50], [flow], [7])

== Details

{WORDS}
"""

HTML = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Peers</title></head><body>
<h1>Peers</h1>
<h2>Overview</h2>
<p>{WORDS} A <a href="https://example.com/spec">link to the specification</a> ends the paragraph.<sup>1</sup></p>
<figure><img src="press.jpg" alt="A press photograph" style="width: 60%"><figcaption>A press photograph</figcaption></figure>
<ul><li>one</li><li>two<ul><li>three</li></ul></li></ul>
<table><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
<tbody><tr><td>office</td><td>50</td></tr><tr><td>flow</td><td>7</td></tr></tbody></table>
<h3>Details</h3>
<p>{WORDS}</p>
<aside><p>1. A note about offices.</p></aside>
</body></html>
"""


def make(typeset, folder, standard):
    """The three PDFs for `standard` (`ua-1` or `a-2b`): {tool: path or error}."""
    files = {}
    out = os.path.join(folder, f"typeset-{standard}.pdf")
    run = subprocess.run([typeset, "render", os.path.join(folder, "doc.md"), "-q", "-o", out,
                          "--pdf-standard", standard], capture_output=True, text=True)
    files["Typeset"] = out if run.returncode == 0 else "error: " + run.stderr.strip()[:200]
    try:
        import typst
        out = os.path.join(folder, f"typst-{standard}.pdf")
        typst.compile(os.path.join(folder, "doc.typ"), output=out, pdf_standards=[standard])
        files["Typst " + typst.__version__ if hasattr(typst, "__version__") else "Typst"] = out
    except Exception as error:  # a tool that refuses the document is a row of its own
        files["Typst"] = "error: " + str(error)[:200]
    try:
        import weasyprint
        out = os.path.join(folder, f"weasyprint-{standard}.pdf")
        weasyprint.HTML(os.path.join(folder, "doc.html")).write_pdf(out, pdf_variant="pdf/" + standard)
        files["WeasyPrint " + weasyprint.__version__] = out
    except Exception as error:
        files["WeasyPrint"] = "error: " + str(error)[:200]
    return files


def verdict(path, profile):
    import page
    if path.startswith("error"):
        return path
    report = page.validate_pdf(path, profile=profile)
    rules = {}
    for failure in report.failures:
        rules[failure.rule_id] = rules.get(failure.rule_id, 0) + 1
    if not rules:
        return "passes"
    return ", ".join(f"{rule} ×{count}" for rule, count in sorted(rules.items()))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    typeset, image, folder = sys.argv[1:]
    os.makedirs(folder, exist_ok=True)
    shutil.copy(image, os.path.join(folder, "press.jpg"))
    for name, text in (("doc.md", MARKDOWN), ("doc.typ", TYPST), ("doc.html", HTML)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
            file.write(text)
    rows = {}
    for standard, profile in (("ua-1", "ua1"), ("a-2b", "2b")):
        for tool, path in make(typeset, folder, standard).items():
            rows.setdefault(tool, {})[standard] = verdict(path, profile)
    print("| tool | `ua-1` file under `ua1` | `a-2b` file under `2b` |")
    print("| --- | --- | --- |")
    for tool, results in rows.items():
        print(f"| {tool} | {results.get('ua-1', '')} | {results.get('a-2b', '')} |")


if __name__ == "__main__":
    main()
