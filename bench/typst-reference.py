#!/usr/bin/env python3
"""Word-space stretch of justified text, Typeset beside Typst, measured the same way.

Sets Tests/EndToEndTests/Fixtures/composition-prose.md justified at a 90 mm measure in Inter
10.5 pt with Typeset and with Typst (`pip install typst`), then reads both PDFs back with
`pdftotext -bbox-layout`: for every line flush with the right edge, the mean gap between
neighbouring words divided by Inter's word space (2.9505 pt at 10.5 pt). Prints the
95th percentile, the worst line, the lines looser than 1.5x and the hyphenated line ends.

Usage: python3 bench/typst-reference.py [path/to/typeset]   (default .build/release/typeset)
"""
import re, statistics, subprocess, sys, tempfile, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPACE = 2.9505

def lines(pdf):
    xml = subprocess.run(["pdftotext", "-bbox-layout", pdf, "-"], capture_output=True, text=True).stdout
    for body in re.findall(r'<line [^>]*>(.*?)</line>', xml, re.S):
        yield [(float(a), float(b), w) for a, b, w in
               re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', body)]

def figures(pdf):
    multi = [l for l in lines(pdf) if len(l) > 1]
    edge = statistics.median(l[-1][1] for l in multi)
    justified = [l for l in multi if l[-1][1] >= edge - 1]
    ratios = sorted(statistics.mean(b[0] - a[1] for a, b in zip(l, l[1:])) / SPACE for l in justified)
    return dict(lines=len(ratios), p95=round(ratios[int(0.95 * (len(ratios) - 1))], 2), worst=round(ratios[-1], 2),
                loose=sum(r > 1.5 for r in ratios), hyphenated=sum(l[-1][2][-1] in "-\u2010" for l in justified))

def main():
    typeset = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/typeset")
    prose = open(os.path.join(ROOT, "Tests/EndToEndTests/Fixtures/composition-prose.md")).read()
    out = tempfile.mkdtemp()
    md = os.path.join(out, "prose.md")
    open(md, "w").write("---\nmargins: 20mm 60mm\njustify: true\n---\n\n" + prose)
    subprocess.run([typeset, "render", md, "-o", os.path.join(out, "typeset.pdf"), "-q"], check=True)
    def plain(p):
        p = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', p).replace("**", "").replace("*", "")
        for c in '\\#_`$@<>[]~=/"\'':
            p = p.replace(c, "\\" + c)
        return p
    typ = os.path.join(out, "prose.typ")
    open(typ, "w").write('#set page(width: 210mm, height: 297mm, margin: (x: 60mm, y: 20mm))\n'
                         '#set text(font: "Inter", size: 10.5pt, lang: "en")\n#set par(justify: true)\n\n'
                         + "\n\n".join(plain(p) for p in prose.split("\n\n")))
    import typst
    typst.compile(typ, output=os.path.join(out, "typst.pdf"))
    print("typeset", figures(os.path.join(out, "typeset.pdf")))
    print("typst  ", figures(os.path.join(out, "typst.pdf")))

main()
