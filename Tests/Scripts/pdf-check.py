#!/usr/bin/env python3
"""Checks PDFs for the end-to-end suites, with the packages `make pdf-check` installs.

  pdf-check.py validate PROFILE PDF...
      Validates each PDF with page-validation (`ua1`, `2b`, `2u`, `3b`, ...) and prints one
      JSON object: {path: {"compliant": bool, "rules": {rule_id: [count, first message]}}}.
  pdf-check.py text PDF
      Prints pypdf's text of every page, pages joined by a line break.
"""
import json
import sys


def validate(profile, paths):
    import page

    result = {}
    for path in paths:
        report = page.validate_pdf(path, profile=profile)
        rules = {}
        for failure in report.failures:
            entry = rules.setdefault(failure.rule_id, [0, failure.message])
            entry[0] += 1
        result[path] = {"compliant": report.is_compliant, "rules": rules}
    json.dump(result, sys.stdout)


def text(path):
    import pypdf

    reader = pypdf.PdfReader(path)
    sys.stdout.write("\n".join(page.extract_text() for page in reader.pages))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "validate":
        validate(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "text":
        text(sys.argv[2])
    else:
        sys.exit(__doc__)
