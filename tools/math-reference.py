#!/usr/bin/env python3
"""Measures formulas with LuaLaTeX and unicode-math and writes their boxes as Swift test data.

Each formula is set in a box at 10 pt with the same OpenType MATH font Typeset uses by default
(DejaVu Math TeX Gyre), in display or text style, and the box's width, height and depth are read
from TeX's log (\\wd, \\ht, \\dp). The figures, in em, go to
Tests/PangoCairoBackendTests/LuaLaTeXMathFigures.swift, which the tests compare Typeset's
layout against (within 5 %), so that `make test` needs no TeX installation.

Needs Debian's texlive-luatex, texlive-latex-extra (unicode-math) and fonts-dejavu-extra:
`make math-reference` installs them and runs this script.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

# (style, TeX source): formulas of the kinds real documents use.
FORMULAS = [
    ("text", r"x^2 + y^2 = z^2"),
    ("text", r"a_i^2"),
    ("text", r"\frac{a}{b}"),
    ("display", r"\frac{n(n+1)}{2}"),
    ("display", r"\sum_{i=1}^{n} i"),
    ("text", r"\sum_{i=1}^{n} i"),
    ("display", r"\int_0^\infty e^{-x^2}\,dx"),
    ("display", r"\sqrt{x^2+1}"),
    ("text", r"\sqrt[3]{x}"),
    ("display", r"\left( \frac{1}{2} \right)"),
    ("display", r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}"),
    ("display", r"f(x) = \begin{cases} 0 & x < 0 \\ 1 & x \ge 0 \end{cases}"),
    ("text", r"\hat{x} + \bar{y} + \vec{v}"),
    ("text", r"\mathbb{R}^n \to \mathbf{F}"),
    ("text", r"\alpha\beta\gamma + \Gamma\Delta"),
    ("display", r"\lim_{x \to 0} \frac{\sin x}{x} = 1"),
    ("text", r"\binom{n}{k}"),
    ("display", r"\prod_{k=1}^{n} (1 + x_k)"),
    ("text", r"a \le b \ne c \in S"),
    ("display", r"e^{i\pi} + 1 = 0"),
    ("text", r"\bigl( x \bigr) \Bigl[ y \Bigr]"),
    ("display", r"\overline{AB} + \underline{cd}"),
    # Matrices and cases.
    ("display", r"\begin{bmatrix} 1 & 0 & 0 \\ 0 & 1 & 0 \\ 0 & 0 & 1 \end{bmatrix}"),
    ("text", r"\begin{matrix} a & b \\ c & d \end{matrix}"),
    ("display", r"\begin{vmatrix} x & y \\ z & w \end{vmatrix}"),
    ("display", r"|x| = \begin{cases} x & \text{if } x \ge 0 \\ -x & \text{otherwise} \end{cases}"),
    # Nested fractions.
    ("display", r"\frac{1}{1 + \frac{1}{1 + \frac{1}{x}}}"),
    ("text", r"\frac{\frac{a}{b}}{\frac{c}{d}}"),
    ("display", r"\dfrac{x^2 - 1}{x + 1}"),
    # Big operators with limits in text style (beside) and display style (above and below).
    ("text", r"\prod_{k=1}^{n} a_k"),
    ("text", r"\int_a^b f(x)\,dx"),
    ("text", r"\lim_{n \to \infty} x_n"),
    ("display", r"\bigcup_{i \in I} A_i"),
    # Radicals with a degree.
    ("display", r"\sqrt[3]{x^3 + y^3}"),
    ("text", r"\sqrt[n]{a}"),
    ("display", r"\sqrt{\frac{a}{b}}"),
    # Accents on wide bases.
    ("text", r"\widehat{xyz} + \widetilde{abc}"),
    ("text", r"\overrightarrow{AB}"),
    ("display", r"\underbrace{a + \cdots + a}_{n}"),
    # Horizontal braces: over and under, with and without a limit, in text style and in a script.
    ("display", r"\overbrace{a + \cdots + a}^{n}"),
    ("display", r"\overbrace{x + y + z}"),
    ("text", r"\underbrace{x + y}"),
    ("text", r"\underbrace{a + b}_{k} + c"),
    ("text", r"\overbrace{a + b}^{k} + c"),
    ("text", r"e^{\underbrace{a + b}_{k}}"),
    ("display", r"\underbrace{\overbrace{a + b}^{m} + c}_{n}"),
    # \left … \middle … \right.
    ("display", r"\left( \frac{a}{b} \middle| \frac{c}{d} \right)"),
    ("display", r"\left\{ x \in \mathbb{R} \middle| x^2 < 2 \right\}"),
    ("display", r"\left[ \sum_{i=1}^{n} x_i \right]"),
    ("text", r"\left\langle u, v \right\rangle"),
]

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage{amsmath}
\usepackage{unicode-math}
\setmathfont{DejaVu Math TeX Gyre}
% Typeset sets \text and operator names in the math font's upright letters: so does this.
\setmainfont{DejaVu Math TeX Gyre}
\newsavebox\measured
\begin{document}
"""


def main():
    body = []
    for index, (style, source) in enumerate(FORMULAS):
        switch = r"\displaystyle" if style == "display" else r"\textstyle"
        body.append(
            rf"\sbox\measured{{${switch} {source}$}}"
            rf"\typeout{{FORMULA {index}: \the\wd\measured, \the\ht\measured, \the\dp\measured}}")
    document = PREAMBLE + "\n".join(body) + "\n\\end{document}\n"
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "formulas.tex"
        path.write_text(document)
        run = subprocess.run(
            ["lualatex", "-interaction=nonstopmode", "formulas.tex"], cwd=folder, capture_output=True, text=True)
        log = run.stdout
    figures = {}
    for match in re.finditer(r"FORMULA (\d+): ([-\d.]+)pt, ([-\d.]+)pt, ([-\d.]+)pt", log):
        figures[int(match.group(1))] = tuple(float(match.group(n)) / 10 for n in (2, 3, 4))
    if len(figures) != len(FORMULAS):
        sys.exit(f"LuaLaTeX measured {len(figures)} of {len(FORMULAS)} formulas:\n{log[-3000:]}")
    lines = []
    for index, (style, source) in enumerate(FORMULAS):
        width, height, depth = figures[index]
        tex = source.replace("\\", "\\\\")
        lines.append(
            f'    .init(display: {str(style == "display").lower()}, source: "{tex}", '
            f"width: {width:.4f}, height: {height:.4f}, depth: {depth:.4f}),")
    target = pathlib.Path(__file__).resolve().parent.parent / "Tests/PangoCairoBackendTests/LuaLaTeXMathFigures.swift"
    target.write_text(
        "// Generated by tools/math-reference.py (`make math-reference`): LuaLaTeX with unicode-math and\n"
        "// DejaVu Math TeX Gyre at 10 pt; width, height and depth of each formula's box, em.\n\n"
        "/// A formula and its box as LuaLaTeX sets it, em.\n"
        "struct LuaLaTeXFigure {\n"
        "    let display: Bool\n    let source: String\n    let width: Double\n"
        "    let height: Double\n    let depth: Double\n}\n\n"
        "/// The formulas measured, in the script's order.\n"
        "let luaLaTeXFigures: [LuaLaTeXFigure] = [\n" + "\n".join(lines) + "\n]\n")
    # Formatted as the repository's Swift is (`make lint`).
    root = target.parent.parent.parent
    subprocess.run(["swift", "format", "--in-place", "--configuration", str(root / ".swift-format"), str(target)])
    print(f"{len(lines)} formulas written to {target}")


if __name__ == "__main__":
    main()
