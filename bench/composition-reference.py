#!/usr/bin/env python3
"""Composition figures of justified prose, Typeset beside Typst, measured the same way.

Takes the prose paragraphs of documentation that Debian installs (Node.js's contributor guides
under /usr/share/doc/nodejs, Markdown written by other people: headings, lists, tables and code
left out, inline code and links kept as their text), sets them justified in Inter 10.5 pt on A4
at 60, 90 and 120 mm measures with Typeset and with Typst (`pip install typst`), and reads both
PDFs back with `pdftotext -bbox-layout`. For every line flush with the right edge (a
paragraph's last line is not), the mean gap between neighbouring words divided by Inter's word
space (2.9505 pt at 10.5 pt). Prints p50, p95 and the largest of these, the lines looser than
1.5x, the smallest and the lines tighter than 0.8x, the hyphenated line ends, hyphenated lines
that follow a hyphenated line, hyphens on a page's last line, paragraphs whose last line is a
lone hyphen fragment, and lines ending right after a spaced dash; with SHOW=1 in the
environment, also the loosest 5 % of the justified lines, the fragments, the lines after a dash
and the page-end hyphens, with their text. For Korean (Debian's Korean manual pages, at 60 and
90 mm), the word gaps and the space between the syllables of a word, each line's font expansion read from the PDF's
text matrices (`pip install pikepdf`; without it every line is taken as unexpanded).

The composer's constants (hyphen penalty, double-hyphen demerits) were chosen on the Node.js
contributor guides, the default corpus. `--corpus held-out` reads prose the constants were never
tried on: the Markdown of every other Debian package under /usr/share/doc (Git, GLib, libxml2,
systemd, zstd...); `--corpus api` reads Node.js's API reference (/usr/share/doc/nodejs/api).

With --lualatex (and `lualatex` on the PATH, TeX Live with fontspec and microtype), also LuaLaTeX
with microtype's font expansion and protrusion, twice: with TeX's defaults, which leave a line
no break makes good enough overfull (counted in `overfull`), and with \emergencystretch=3em.
TeX's lines are read from TeX (a post_linebreak_filter), not from the PDF.

Usage: python3 bench/composition-reference.py [path/to/typeset] [--measures 60,90,120] [--json]
                                              [--corpus guides|held-out|api] [--lualatex]
       (default .build/release/typeset; Typst from the `typst` module of the running Python)
"""
import glob, json, os, re, shutil, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPACE = 2.9505
SOURCES = sorted(glob.glob("/usr/share/doc/nodejs/contributing/*.md")) + [
    "/usr/share/doc/nodejs/GOVERNANCE.md", "/usr/share/doc/nodejs/onboarding.md"]
CORPORA = {
    "guides": ("Debian's Node.js contributor guides", lambda: SOURCES),
    "held-out": ("the Markdown of Debian's other packages",
                 lambda: sorted(p for p in glob.glob("/usr/share/doc/*/*.md") if "/nodejs/" not in p)),
    "api": ("Debian's Node.js API reference", lambda: sorted(glob.glob("/usr/share/doc/nodejs/api/*.md"))),
}
DASHES = ("\u2013", "\u2014", "-")


def prose_paragraphs(limit=140, sources=SOURCES):
    """Prose paragraphs of at least 30 words of `sources`, in file order, as plain text."""
    paragraphs = []
    for path in sources:
        if not os.path.exists(path):
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        for block in re.split(r"\n\s*\n", text):
            lines = [l.strip() for l in block.strip().splitlines()]
            # A line of `=` or `-` underlines the lines before it as a heading (setext): only
            # the lines after it are a paragraph.
            underlines = [i for i, l in enumerate(lines) if re.match(r"^(=+|-+)$", l)]
            if underlines:
                lines = lines[underlines[-1] + 1:]
            if not lines or any(re.match(r"^([#|>*+<]|-\s|\d+\.\s|\[.*\]:)", l) for l in lines):
                continue
            plain = " ".join(lines)
            plain = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", plain)
            plain = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", plain)
            plain = plain.replace("`", "").replace("**", "").replace("__", "").replace("*", "").replace("_", " ")
            plain = re.sub(r"[<>\[\]\\#$@~=]", "", plain)
            plain = re.sub(r"\s+", " ", plain).strip()
            if len(plain.split()) >= 30:
                paragraphs.append(plain)
            if len(paragraphs) >= limit:
                return paragraphs
    return paragraphs


def korean_paragraphs(limit=60):
    """Prose paragraphs of Debian's Korean manual pages (man-db, psmisc, xz...; roff markup
    dropped) of at least 12 words, in file order, as plain text."""
    import gzip
    paragraphs = []
    for path in sorted(glob.glob("/usr/share/man/ko/man*/*.gz")):
        lines = gzip.open(path, "rt", encoding="utf-8", errors="replace").read().splitlines()
        current = []
        for line in lines + [".PP"]:
            if line.startswith(".") or line.startswith("'") or not line.strip():
                text = " ".join(current)
                text = re.sub(r"\\f[BIRP]|\\f\(..|\\[&|^]|\\\*\(..|\\\*.", "", text)
                text = text.replace("\\-", "-").replace("\\e", "\\").replace("\\ ", " ")
                text = re.sub(r"[\\`*_<>\[\]#$@~=]", "", text)
                text = re.sub(r"\s+", " ", text).strip()
                if len(text.split()) >= 12 and len(re.findall("[\uac00-\ud7a3]", text)) > 20:
                    paragraphs.append(text)
                current = []
                if len(paragraphs) >= limit:
                    return paragraphs
            else:
                current.append(line)
    return paragraphs


def line_scales(pdf):
    """Per page, (baseline from the top, horizontal scale) of each text object: font expansion
    draws a line's glyphs scaled (the text matrix times the CTM, PDF 1.7 §9.4.2), so a syllable
    of an expanded line is that much wider. Read with pikepdf; empty when it is missing."""
    try:
        import pikepdf
    except ImportError:
        return []
    def times(m, n):
        a, b, c, d, e, f = m
        A, B, C, D, E, F = n
        return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
    result = []
    with pikepdf.open(pdf) as document:
        for page in document.pages:
            height = float(page.mediabox[3])
            ctm, stack, tm, found = (1, 0, 0, 1, 0, 0), [], (1, 0, 0, 1, 0, 0), []
            for operands, operator in pikepdf.parse_content_stream(page):
                op = str(operator)
                if op == "q":
                    stack.append(ctm)
                elif op == "Q" and stack:
                    ctm = stack.pop()
                elif op == "cm":
                    ctm = times(tuple(float(v) for v in operands), ctm)
                elif op == "BT":
                    tm = (1, 0, 0, 1, 0, 0)
                elif op == "Tm":
                    tm = tuple(float(v) for v in operands)
                elif op == "Td":
                    tm = times((1, 0, 0, 1, float(operands[0]), float(operands[1])), tm)
                elif op in ("TJ", "Tj"):
                    a, b, c, d, e, f = times(tm, ctm)
                    found.append((height - f, (a * a + b * b) ** 0.5 / max(1e-9, (c * c + d * d) ** 0.5)))
            result.append(found)
    return result


def korean_figures(pdf, size=10.5):
    """Word gaps of justified Korean lines ÷ the natural gap (the median gap of lines that stop
    short of the edge), and the space added between the syllables of pure-Hangul words, em
    (against the median syllable advance of those lines, times the line's font expansion read
    from the PDF: an expanded syllable's own widening is not space between syllables)."""
    pages = pdf_lines(pdf, baselines=True)
    scales = line_scales(pdf)
    def scale(page, extent):
        near = [s for y, s in (scales[page] if page < len(scales) else []) if extent[0] <= y <= extent[1]]
        return max(near, key=lambda s: abs(s - 1)) if near else 1
    pages = [[(scale(n, l[0]), l[1]) for l in p] for n, p in enumerate(pages)]
    everything = [l for p in pages for _, l in p]
    multi = [l for l in everything if len(l) > 1]
    edge = statistics.median(l[-1][1] for l in multi)
    flush = [(s, l) for p in pages for s, l in p if len(l) > 1 and l[-1][1] >= edge - 1.5]
    short = [l for l in multi if l[-1][1] < edge - 3]
    natural = statistics.median(b[0] - a[1] for l in short for a, b in zip(l, l[1:]))
    ratios = sorted(statistics.mean(b[0] - a[1] for a, b in zip(l, l[1:])) / natural for _, l in flush)
    hangul = lambda w: all("\uac00" <= c <= "\ud7a3" for c in w)
    advance = statistics.median((x1 - x0) / len(w) for l in short for x0, x1, w in l if hangul(w))
    syllable = []
    for s, l in flush:
        gaps = [(x1 - x0 - advance * s * len(w)) / (len(w) - 1) / size for x0, x1, w in l
                if len(w) > 1 and hangul(w)]
        syllable.append(max(gaps) if gaps else 0)
    return dict(lines=len(ratios), p50=round(ratios[len(ratios) // 2], 2),
                p95=round(ratios[int(0.95 * (len(ratios) - 1))], 2), max=round(ratios[-1], 2),
                syllable_max_em=round(max(syllable), 3),
                lines_with_syllable_space=sum(s > 0.01 for s in syllable),
                syllable_over_01em=sum(s > 0.1 for s in syllable))


def pdf_lines(pdf, baselines=False):
    """Per page, its lines top to bottom, each a list of (xMin, xMax, text); with `baselines`,
    each line a pair (its first word's top and bottom edges from the page's top, that list)."""
    xml = subprocess.run(["pdftotext", "-bbox-layout", pdf, "-"], capture_output=True, text=True).stdout
    pages = []
    for page in re.findall(r"<page [^>]*>(.*?)</page>", xml, re.S):
        rows = []
        for body in re.findall(r"<line [^>]*>(.*?)</line>", page, re.S):
            words = [(float(a), float(y), float(b), float(z), w) for a, y, b, z, w in re.findall(
                r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', body)]
            if words:
                rows.append(words)
        # pdftotext splits a line at a gap much wider than a space (a very loose justified line
        # becomes two or three "lines" at one height): words at one baseline are one line.
        merged = {}
        for row in rows:
            key = min(merged, key=lambda y: abs(y - row[0][3]), default=None)
            if key is None or abs(key - row[0][3]) > 0.5:
                key = row[0][3]
            merged.setdefault(key, []).extend(row)
        rows = [sorted(r, key=lambda w: w[0]) for r in merged.values()]
        rows.sort(key=lambda r: r[0][1])
        rows = [r for r in rows if not (len(r) == 1 and r[0][4].isdigit())]  # the page number
        pages.append([((r[0][1], r[0][3]), [(a, b, w) for a, _, b, _, w in r]) if baselines else
                      [(a, b, w) for a, _, b, _, w in r] for r in rows])
    return pages


def figures(pdf, korean=False):
    pages = pdf_lines(pdf)
    everything = [l for p in pages for l in p]
    multi = [l for l in everything if len(l) > 1]
    edge = statistics.median(l[-1][1] for l in multi)
    left = statistics.median(l[0][0] for l in multi)
    flush = lambda l: l[-1][1] >= edge - 1.5
    justified = [l for l in multi if flush(l)]
    ratios = sorted(statistics.mean(b[0] - a[1] for a, b in zip(l, l[1:])) / SPACE for l in justified)
    hyphen = lambda l: l[-1][2][-1:] in ("-", "\u2010", "\u00ad") and not l[-1][2].endswith("--")
    consecutive = sum(1 for a, b in zip(everything, everything[1:]) if hyphen(a) and hyphen(b))
    page_end = sum(1 for p in pages if p and hyphen(p[-1]))
    fragments = sum(1 for a, b in zip(everything, everything[1:])
                    if hyphen(a) and len(b) == 1 and not flush(b))
    after_dash = sum(1 for l in everything if flush(l) and l[-1][2] in DASHES)
    if os.environ.get("SHOW"):
        worst = sorted(((statistics.mean(b[0] - a[1] for a, b in zip(l, l[1:])) / SPACE, l) for l in justified),
                       key=lambda pair: -pair[0])
        for ratio, l in worst[:max(1, len(worst) // 20)]:
            print(f"  {ratio:.2f}:", " ".join(w for _, _, w in l))
        for a, b in zip(everything, everything[1:]):
            if hyphen(a) and len(b) == 1 and not flush(b):
                print("  fragment:", " ".join(w for _, _, w in a[-3:]), "|", b[0][2])
        for l in everything:
            if flush(l) and l[-1][2] in DASHES:
                print("  dash end:", " ".join(w for _, _, w in l[-4:]))
        for p in pages:
            if p and hyphen(p[-1]):
                print("  page end:", " ".join(w for _, _, w in p[-1][-3:]))
    return dict(lines=len(ratios), p50=round(ratios[len(ratios) // 2], 2),
                p95=round(ratios[int(0.95 * (len(ratios) - 1))], 2), max=round(ratios[-1], 2),
                loose=sum(r > 1.5 for r in ratios), min=round(ratios[0], 2), tight=sum(r < 0.8 for r in ratios),
                overfull=sum(l[-1][1] > edge + 3 for l in everything),
                hyphens=sum(hyphen(l) for l in everything),
                consecutive=consecutive, page_end=page_end, fragments=fragments, after_dash=after_dash)


def typst_source(paragraphs, measure):
    def escape(p):
        for c in '\\#_`$@<>[]~=/"\'*':
            p = p.replace(c, "\\" + c)
        return p
    side = (210 - measure) / 2
    return (f'#set page(width: 210mm, height: 297mm, margin: (x: {side}mm, y: 20mm))\n'
            '#set text(font: "Inter", size: 10.5pt, lang: "en")\n#set par(justify: true)\n\n'
            + "\n\n".join(escape(p) for p in paragraphs))


# LuaTeX reports each line as it leaves the line breaker (its `post_linebreak_filter`): the set
# width of every word space (`node.effective_glue`, after font expansion), whether it is a
# paragraph's last line, ends in a hyphen, or is overfull, and its text. pdftotext cannot read
# LuaTeX's CFF fonts' widths (every glyph comes out a word of its own), so TeX's lines are taken
# from TeX itself.
LUA_LINES = """\
local out = io.open(tex.jobname .. "-lines.txt", "w")
local GLYPH, GLUE, DISC, HLIST = node.id("glyph"), node.id("glue"), node.id("disc"), node.id("hlist")
luatexbase.add_to_callback("post_linebreak_filter", function(head)
  for line in node.traverse_id(HLIST, head) do
    local gaps, text, last, hyphen, final = {}, {}, false, false, nil
    for n in node.traverse(line.head) do
      if n.id == GLUE and (n.subtype == 0 or n.subtype == 13 or n.subtype == 14) then
        gaps[#gaps + 1] = string.format("%.4f", node.effective_glue(n, line) / 65536)
        text[#text + 1] = " "
      elseif n.id == GLUE and n.subtype == 15 then last = true
      elseif n.id == GLYPH then text[#text + 1] = utf8.char(n.char); final = n
      elseif n.id == DISC then final = n end
    end
    if final and final.id == DISC then hyphen = true; text[#text + 1] = "-"
    elseif final and (final.char == 45 or final.char == 8208) then hyphen = true end
    local w = node.dimensions(line.glue_set, line.glue_sign, line.glue_order, line.head)
    out:write(table.concat(gaps, ","), "\\t", last and 1 or 0, "\\t", hyphen and 1 or 0, "\\t",
      (w > line.width + 65536) and 1 or 0, "\\t", table.concat(text), "\\n")
  end
  return head
end, "composition-reference")
"""


def latex_source(paragraphs, measure, emergency):
    """The paragraphs for LuaLaTeX with microtype (font expansion and protrusion, its defaults),
    Inter 10.5 pt through fontspec, no paragraph indent, one space width (`\frenchspacing`, as
    Typeset and Typst set), TeX's default tolerance; with `emergency`, `\emergencystretch` 3 em,
    the usual remedy for overfull lines (a third pass whose lines may stretch that much more)."""
    special = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
               "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    escape = lambda p: "".join(special.get(c, c) for c in p)
    side = (210 - measure) / 2
    return ("\\documentclass{article}\n"
            f"\\usepackage[paperwidth=210mm,paperheight=297mm,hmargin={side}mm,vmargin=20mm]{{geometry}}\n"
            "\\usepackage{fontspec}\n\\setmainfont{Inter}\n"
            "\\usepackage[expansion=true,protrusion=true]{microtype}\n"
            "\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{6pt}\\pagestyle{empty}\\frenchspacing\n"
            + ("\\setlength{\\emergencystretch}{3em}\n" if emergency else "")
            + "\\directlua{dofile('lines.lua')}\n\\begin{document}\n\\fontsize{10.5pt}{15pt}\\selectfont\n"
            + "\n\n".join(escape(p) for p in paragraphs) + "\n\\end{document}\n")


def lualatex_figures(paragraphs, measure, out, emergency=False):
    """The figures of `figures` for LuaLaTeX's lines of the paragraphs (page-end hyphens not
    counted), `overfull` the lines TeX left wider than the measure; None without `lualatex`."""
    if not shutil.which("lualatex"):
        return None
    name = f"lualatex{'-emergency' if emergency else ''}-{measure}"
    open(os.path.join(out, "lines.lua"), "w").write(LUA_LINES)
    open(os.path.join(out, name + ".tex"), "w").write(latex_source(paragraphs, measure, emergency))
    subprocess.run(["lualatex", "-interaction=batchmode", name + ".tex"], cwd=out, capture_output=True)
    rows = []
    for record in open(os.path.join(out, name + "-lines.txt"), encoding="utf-8"):
        gaps, last, hyphen, overfull, text = record.rstrip("\n").split("\t")
        rows.append(([float(g) for g in gaps.split(",") if g], last == "1", hyphen == "1", overfull == "1", text))
    justified = [r for r in rows if r[0] and not r[1]]
    ratios = sorted(statistics.mean(r[0]) / SPACE for r in justified)
    if os.environ.get("SHOW"):
        for ratio, r in sorted(((statistics.mean(r[0]) / SPACE, r) for r in justified), key=lambda p: -p[0])[
                :max(1, len(justified) // 20)]:
            print(f"  {ratio:.2f}:", r[4])
        for r in rows:
            if r[3]:
                print("  overfull:", r[4])
    return dict(lines=len(ratios), p50=round(ratios[len(ratios) // 2], 2),
                p95=round(ratios[int(0.95 * (len(ratios) - 1))], 2), max=round(ratios[-1], 2),
                loose=sum(r > 1.5 for r in ratios), min=round(ratios[0], 2), tight=sum(r < 0.8 for r in ratios),
                overfull=sum(r[3] for r in rows), hyphens=sum(r[2] for r in rows),
                consecutive=sum(1 for a, b in zip(rows, rows[1:]) if a[2] and b[2]),
                fragments=sum(1 for a, b in zip(rows, rows[1:]) if a[2] and b[1] and not b[0]))


def option(name, default):
    """The value after `--name` on the command line, or `default`."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    measures = [int(m) for m in option("--measures", "60,90,120").split(",")]
    corpus = option("--corpus", "guides")
    if corpus not in CORPORA:
        sys.exit(f"--corpus: one of {', '.join(CORPORA)}, not {corpus}")
    values = {option("--measures", None), option("--corpus", None)}
    args = [a for a in sys.argv[1:] if not a.startswith("--") and a not in values]
    typeset = args[0] if args else os.path.join(ROOT, ".build/release/typeset")
    corpus_name, sources = CORPORA[corpus]
    paragraphs = prose_paragraphs(sources=sources())
    out = tempfile.mkdtemp()
    results = {}
    for measure in measures:
        side = (210 - measure) / 2
        md = os.path.join(out, f"prose-{measure}.md")
        with open(md, "w") as f:
            f.write(f"---\nmargins: 20mm {side}mm\njustify: true\n---\n\n" + "\n\n".join(
                re.sub(r"([\\`*_\[\]<>#!|~])", r"\\\1", p) for p in paragraphs) + "\n")
        typeset_pdf = os.path.join(out, f"typeset-{measure}.pdf")
        subprocess.run([typeset, "render", md, "-o", typeset_pdf, "-q"], check=True)
        row = {"typeset": figures(typeset_pdf)}
        try:
            import typst
            typ = os.path.join(out, f"prose-{measure}.typ")
            open(typ, "w").write(typst_source(paragraphs, measure))
            typst_pdf = os.path.join(out, f"typst-{measure}.pdf")
            typst.compile(typ, output=typst_pdf)
            row["typst"] = figures(typst_pdf)
        except ImportError:
            row["typst"] = None
        if "--lualatex" in sys.argv:
            row["lualatex"] = lualatex_figures(paragraphs, measure, out)
            row["lualatex+es"] = lualatex_figures(paragraphs, measure, out, emergency=True)
        results[measure] = row
    korean = korean_paragraphs()
    for measure in [60, 90] if korean and "--no-korean" not in sys.argv else []:
        side = (210 - measure) / 2
        md = os.path.join(out, f"korean-{measure}.md")
        with open(md, "w") as f:
            f.write(f"---\nmargins: 20mm {side}mm\njustify: true\nlang: ko\n---\n\n" + "\n\n".join(korean) + "\n")
        typeset_pdf = os.path.join(out, f"typeset-korean-{measure}.pdf")
        subprocess.run([typeset, "render", md, "-o", typeset_pdf, "-q"], check=True)
        row = {"typeset": korean_figures(typeset_pdf)}
        try:
            import typst
            typ = os.path.join(out, f"korean-{measure}.typ")
            source = typst_source(korean, measure).replace(
                'font: "Inter", size: 10.5pt, lang: "en"', 'font: ("Inter", "Noto Sans CJK KR"), size: 10.5pt, lang: "ko"')
            open(typ, "w").write(source)
            typst_pdf = os.path.join(out, f"typst-korean-{measure}.pdf")
            typst.compile(typ, output=typst_pdf)
            row["typst"] = korean_figures(typst_pdf)
        except ImportError:
            row["typst"] = None
        results[f"korean {measure}"] = row
    if "--json" in sys.argv:
        print(json.dumps({"paragraphs": len(paragraphs), "korean": len(korean), "folder": out, "measures": results}))
        return
    print(f"{len(paragraphs)} paragraphs of {corpus_name}, {len(korean)} of Debian's Korean manual "
          f"pages; PDFs in {out}")
    for measure, row in results.items():
        for tool, f in row.items():
            print(f"{measure:>4} mm {tool:11}" if isinstance(measure, int) else f"{measure} mm {tool:11}", f)


main()
