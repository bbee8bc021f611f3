#!/usr/bin/env python3
"""Renders every Markdown file under the given folders and checks that no word is lost: each word
of cmark-gfm's own plain-text rendering (`cmark-gfm -t plaintext`, with GFM's table,
strikethrough and autolink extensions) must appear in the PDF's text (`pdftotext`), in order, or
failing that in its structure tree's text (`pdfinfo -struct-text`), the order a tagged PDF is read
in, which pdftotext only guesses for right-to-left text.

Usage: nothing-lost-corpus.py TYPESET_BIN FOLDER... ; prints one line per file that loses words
and a closing line 'N passed, N failed'. Words are compared with spaces and hyphens removed, so
line breaks, hyphenation and justification do not count; HTML tags, which cmark passes through as
text, are dropped from the expected words."""
import os, re, subprocess, sys, tempfile, unicodedata

def normalize(text):
    # Smart punctuation (CommonMark's, on by default) curls quotes and sets primes: compare them
    # as straight ones (before NFKC, which makes a double prime two single ones).
    text = re.sub(r"[\u2018\u2019\u201a\u201b\u2032]", "'", text)
    text = re.sub(r"[\u201c\u201d\u201e\u201f\u2033]", '"', text)
    text = unicodedata.normalize("NFKC", text)
    # Invisible format characters, and the embedding marks pdftotext puts around right-to-left text.
    return re.sub(r"[\u00ad\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]", "", text)

def words(text):
    text = re.sub(r"<[^>\n]*>", " ", text)  # raw HTML cmark passes through
    # cmark-gfm's plain text keeps footnote references ([^1]) and GitHub's alert markers
    # ([!NOTE]) as text: on paper they are a superscript number and the alert's label.
    text = re.sub(r"\[\^[^\]\s]+\]:?", " ", text)
    text = re.sub(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]", " ", text, flags=re.I)
    # LaTeX's font commands in running text (`\emph{and}`) are set as the style they name.
    text = re.sub(r"\\(emph|textit|textsl|textbf|texttt|underline|uline|textsc)\{([^{}]*)\}", r"\2", text)
    return [w for w in re.split(r"\s+", normalize(text)) if w]

def squeeze(word):
    # Tildes and carets are compared on neither side: cmark-gfm keeps the marks of
    # strikethrough (~~a~~), subscript (~a~) and superscript (^a^) as text, and on paper
    # they are a line through the words or a lowered or raised run. Dollars neither: a
    # formula ($Id$, as GitHub and Pandoc read it) is set as math, its TeX source its text.
    return re.sub(r"[\s\-\u2010\u2011\u2012\u2013\u2014~^$]", "", word)

def plaintext(markdown):
    """cmark-gfm's plain text of `markdown` (bytes), with GFM's table, strikethrough and autolink."""
    plain = subprocess.run(["cmark-gfm", "-t", "plaintext", "--width", "0", "-e", "table", "-e",
                            "strikethrough", "-e", "autolink"], input=markdown, capture_output=True)
    return plain.stdout.decode("utf-8", "replace")

def note_body(definition):
    """A footnote definition's Markdown without its `[^label]:` and its continuation indent."""
    body = re.sub(rb"^ {0,3}\[\^[^\]\s]+\]:", b"", definition)
    return re.sub(rb"\n(?:    |\t)", b"\n", body)

def lost_words(text, expected, note_words):
    """The words of `expected` not found in order in `text`, and of `note_words` not found at all."""
    haystack = squeeze("".join(normalize(text).split()))
    position, lost = 0, []
    for word in expected:
        # A word is looked for near where the last one was found (a footnote's text moves
        # to its page's foot), so one lost word cannot match far ahead and hide the rest.
        found = haystack.find(word, position, position + 4000 + 4 * len(word))
        if found < 0:
            lost.append(word)
        else:
            position = found + len(word)
    return lost + [w for w in note_words if re.search(r"\w", w) and w not in haystack]

def structure_text(pdf):
    """The text of the PDF's structure tree (`pdfinfo -struct-text`), in the tree's order."""
    tree = subprocess.run(["pdfinfo", "-struct-text", pdf], capture_output=True).stdout.decode("utf-8", "replace")
    return "\n".join(m.group(1) for m in re.finditer(r'^\s*"(.*)"\s*$', tree, re.M))

def main():
    typeset, folders = sys.argv[1], sys.argv[2:]
    files = sorted(os.path.join(root, name) for folder in folders for root, _, names in os.walk(folder)
                   for name in names if name.endswith(".md") and os.path.isfile(os.path.join(root, name)))
    passed = failed = compared = 0
    with tempfile.TemporaryDirectory() as scratch:
        for path in files:
            pdf = os.path.join(scratch, "out.pdf")
            source = open(path, "rb").read()
            # YAML front matter is metadata, not text: cmark-gfm knows none, so it is not compared.
            matter = re.match(rb"---[ \t]*\r?\n(.*?\r?\n)?(---|\.\.\.)[ \t]*(\r?\n|$)", source, re.S)
            if matter:
                source = source[matter.end():]
            # A footnote's text is set at the foot of the page that cites it, not where it is
            # defined: its words are looked for anywhere in the PDF, the rest in order.
            notes = re.compile(rb"^ {0,3}\[\^[^\]\s]+\]:[^\n]*(\n(?:    |\t)[^\n]*|\n[ \t]*(?=\n(?:    |\t)))*", re.M)
            # A note is read on its own with the document's link reference definitions after it.
            references = b"\n\n" + b"\n".join(re.findall(rb"^ {0,3}\[[^\]^][^\]]*\]:[ \t]+\S[^\n]*$", source, re.M))
            note_words = [squeeze(w) for m in notes.finditer(source)
                          for w in words(plaintext(note_body(m.group(0)) + references))]
            source = notes.sub(b"", source)
            expected = [squeeze(w) for w in words(plaintext(source))]
            # A table's pipes are its rules on paper: words of punctuation alone are not compared.
            expected = [w for w in expected if re.search(r"\w", w)]
            # No page numbers: one between the halves of a word broken over a page would part them.
            run = subprocess.run([typeset, "render", "-q", path, "-o", pdf, "--footer", ""],
                                 capture_output=True, timeout=120)
            if run.returncode != 0:
                failed += 1
                print(f"{path}: typeset failed ({run.returncode}): {run.stderr.decode()[:200]}")
                continue
            text = subprocess.run(["pdftotext", "-raw", pdf, "-"], capture_output=True).stdout.decode("utf-8", "replace")
            lost = lost_words(text, expected, note_words)
            if lost:
                # pdftotext orders right-to-left text by guessing from the glyphs' places; the
                # structure tree gives the order the text is read in (ISO 32000-1 §14.8.2.3).
                lost = min(lost, lost_words(structure_text(pdf), expected, note_words), key=len)
            compared += len(expected) + len(note_words)
            if lost:
                failed += 1
                print(f"{path}: {len(lost)} of {len(expected)} words not found in order, first: {lost[:5]}")
            else:
                passed += 1
    print(f"{len(files)} files, {compared} words compared")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

main()
