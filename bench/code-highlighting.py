#!/usr/bin/env python3
"""The cost of syntax highlighting: a document of 500 fenced code blocks in 10 languages
(about 50 pages) rendered with highlighting and with `-V highlight=false`, alternating, RUNS
times each; prints the median wall time of each and the difference.

Usage: bench/code-highlighting.py [--distinct] [--against OTHER_BINARY] [TYPESET_BINARY] [RUNS]

--distinct makes every block's text its own (the block's number in its numbers and names), so
that each is highlighted on its own instead of once per language.

--against OTHER_BINARY renders with a second binary too (a build before a change), all four
renders alternating in each round, and prints each binary's median of its rounds' highlighted ÷
plain time: a pair measured in one run, under the same load.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

SAMPLES = {
    "python": 'def area(radius):\n    """The area of a circle."""\n    # pi times r squared\n'
              '    return 3.14159 * radius ** 2\n\nprint(f"{area(2):.2f}", [1, 2, 3])',
    "swift": '/// A greeting.\nfunc greet(_ name: String, times: Int = 2) -> String {\n'
             '    let count = 42\n    return String(repeating: "Hello, \\(name)! ", count: times + count)\n}',
    "javascript": '// Sum of squares\nconst squares = (xs) => xs.map((x) => x * x);\n'
                  'let total = squares([1, 2, 3]).reduce((a, b) => a + b, 0);\nconsole.log(`total: ${total}`);',
    "json": '{\n  "name": "typeset",\n  "version": 29,\n  "tags": ["pdf", "markdown"],\n  "stable": true,\n'
            '  "parent": null\n}',
    "bash": '#!/bin/bash\n# Count the lines of each file\nfor file in "$@"; do\n'
            '  if [ -f "$file" ]; then\n    echo "$file: $(wc -l < "$file")"\n  fi\ndone',
    "c": '#include <stdio.h>\n/* The entry point. */\nint main(int argc, char **argv) {\n'
         '    for (int i = 0; i < argc; i++) printf("%d: %s\\n", i, argv[i]);\n    return 0;\n}',
    "yaml": '# A workflow\nname: build\non: [push, pull_request]\njobs:\n  test:\n    runs-on: debian-12\n'
            '    timeout: 30\n    steps:\n      - run: "make test"',
    "rust": '// A point\n#[derive(Debug, Clone)]\nstruct Point { x: f64, y: f64 }\n\nfn main() {\n'
            '    let p = Point { x: 1.0, y: 2.5 };\n    println!("{:?}", p);\n}',
    "go": 'package main\n\nimport "fmt"\n\n// main prints a sum.\nfunc main() {\n\tsum := 0\n'
          '\tfor i := 0; i < 10; i++ {\n\t\tsum += i\n\t}\n\tfmt.Println("sum:", sum)\n}',
    "sql": "-- Recent orders\nSELECT o.id, c.name, SUM(l.amount) AS total\nFROM orders o\n"
           "JOIN customers c ON c.id = o.customer_id\nWHERE o.created > '2026-01-01' AND o.status <> 3\n"
           "GROUP BY o.id, c.name;",
}


def document(distinct=False):
    parts = ["# Code samples\n"]
    languages = list(SAMPLES)
    for index in range(500):
        language = languages[index % len(languages)]
        source = SAMPLES[language]
        if distinct:
            source = source.replace("2", str(index)).replace("total", f"total{index}")
        parts.append(f"Sample {index + 1}, in {language}:\n\n```{language}\n{source}\n```\n")
    return "\n".join(parts)


def render(binary, source, folder, mode):
    """Renders `source` with `binary`, highlighted or plain; returns the wall time in seconds."""
    extra = [] if mode == "highlighted" else ["-V", "highlight=false"]
    start = time.perf_counter()
    subprocess.run([binary, "render", source, "-o", os.path.join(folder, mode + ".pdf")] + extra,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    arguments = sys.argv[1:]
    distinct = "--distinct" in arguments
    arguments = [argument for argument in arguments if argument != "--distinct"]
    other = None
    if "--against" in arguments:
        index = arguments.index("--against")
        other = arguments[index + 1]
        del arguments[index:index + 2]
    binary = arguments[0] if arguments else ".build/release/typeset"
    runs = int(arguments[1]) if len(arguments) > 1 else 3
    binaries = [binary] + ([other] if other else [])
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "code.md")
        with open(source, "w") as handle:
            handle.write(document(distinct))
        times = {(path, mode): [] for path in binaries for mode in ("highlighted", "plain")}
        for _ in range(runs):
            for path in binaries:
                for mode in ("highlighted", "plain"):
                    times[(path, mode)].append(render(path, source, folder, mode))
        pages = subprocess.run(["pdfinfo", os.path.join(folder, "highlighted.pdf")], capture_output=True,
                               text=True).stdout
        pages = next((line.split()[-1] for line in pages.splitlines() if line.startswith("Pages:")), "?")
    kind = "distinct " if distinct else ""
    print(f"500 {kind}code blocks, 10 languages, {pages} pages, {runs} runs each, alternating")
    for path in binaries:
        plain = statistics.median(times[(path, "plain")])
        highlighted = statistics.median(times[(path, "highlighted")])
        if other:
            print(f"{path}:")
        for mode in ("plain", "highlighted"):
            print(f"  {mode:12} median {statistics.median(times[(path, mode)]):.3f} s  runs "
                  + " ".join(f"{t:.3f}" for t in times[(path, mode)]))
        print(f"  highlighting costs {highlighted - plain:+.3f} s ({(highlighted / plain - 1) * 100:+.1f} %)")
        if other:
            ratios = [h / p for h, p in zip(times[(path, "highlighted")], times[(path, "plain")])]
            print(f"  median of the rounds' highlighted / plain: {(statistics.median(ratios) - 1) * 100:+.1f} %")


if __name__ == "__main__":
    main()
