"""Renders an HTML file to PDF with WeasyPrint, one CSS px to one PDF pt.

Usage: css-render.py INPUT.html OUTPUT.pdf [INPUT.html OUTPUT.pdf]...

Typeset's CSS export writes the theme's pt as px (a 17 pt size is `17px`, as app design tools
and browsers on screen read the same numbers), so the page is rendered at a zoom of 96/72 (PDF
units per CSS px): each size, line height and letter spacing of the export lands in the PDF
with the number the theme states, to compare with Typeset's own PDF of the same text.
"""

import sys

import weasyprint


def main():
    paths = sys.argv[1:]
    for source, output in zip(paths[0::2], paths[1::2]):
        weasyprint.HTML(filename=source).write_pdf(output, zoom=96 / 72)


if __name__ == "__main__":
    main()
