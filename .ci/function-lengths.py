#!/usr/bin/env python3
"""Lines of each Swift function, initializer, deinitializer and subscript body.

Usage: function-lengths.py [--max N] [--top K] PATH...
Prints the K longest (declaration line to closing brace) as `lines path:line name`; with
--max, exits 1 when one is longer than N lines. String literals and comments are skipped when
matching braces."""
import argparse
import pathlib
import re
import sys

DECLARATION = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*'
    r'(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|nonmutating'
    r'|nonisolated|convenience|required)\s+)*'
    r'(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*\()')


def code_only(line, state):
    """The line without comments and string contents; `state` carries block comments and
    multi-line strings over lines."""
    out = []
    i, n = 0, len(line)
    while i < n:
        if state['comment']:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out)
            state['comment'] = False
            i = end + 2
            continue
        if state['string']:
            end = line.find('"""', i)
            if end < 0:
                return ''.join(out)
            state['string'] = False
            i = end + 3
            continue
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['comment'] = True
            i += 2
            continue
        if line.startswith('"""', i):
            state['string'] = True
            i += 3
            continue
        if line[i] == '"':
            i += 1
            depth = 0  # parentheses of an interpolation \( … )
            while i < n:
                if line[i] == '\\' and i + 1 < n and line[i + 1] == '(':
                    depth += 1
                    i += 2
                    continue
                if line[i] == '\\':
                    i += 2
                    continue
                if depth and line[i] == '(':
                    depth += 1
                elif depth and line[i] == ')':
                    depth -= 1
                elif line[i] == '"' and depth == 0:
                    break
                i += 1
            i += 1
            out.append('""')
            continue
        out.append(line[i])
        i += 1
    return ''.join(out)


def lengths(path):
    state = {'comment': False, 'string': False}
    lines = [code_only(line, state) for line in path.read_text(encoding='utf-8').split('\n')]
    for index, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        start, parentheses, row = None, 0, index
        while row < len(lines) and start is None:
            for character in lines[row]:
                if character in '([':
                    parentheses += 1
                elif character in ')]':
                    parentheses -= 1
                elif character == '{' and parentheses == 0:
                    start = row
                    break
            if start is None:
                if row > index and (DECLARATION.match(lines[row]) or lines[row].strip() == '}'):
                    break  # a requirement without a body
                row += 1
        if start is None:
            continue
        depth = 0
        for row in range(start, len(lines)):
            for character in lines[row]:
                depth += character == '{'
                depth -= character == '}'
                if depth == 0 and character == '}':
                    yield row - index + 1, f'{path}:{index + 1}', match.group(1).rstrip('(< ')
                    break
            else:
                continue
            break


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--max', type=int)
    parser.add_argument('--top', type=int, default=10)
    parser.add_argument('paths', nargs='+')
    arguments = parser.parse_args()
    files = [file for root in arguments.paths for file in sorted(pathlib.Path(root).rglob('*.swift'))
             if '.build' not in file.parts]
    found = sorted((entry for file in files for entry in lengths(file)), reverse=True)
    for count, place, name in found[:arguments.top]:
        print(f'{count:5d} {place} {name}')
    if arguments.max is not None:
        over = [entry for entry in found if entry[0] > arguments.max]
        if over:
            print(f'{len(over)} function(s) over {arguments.max} lines')
            sys.exit(1)
        print(f'functions: ok (at most {arguments.max} lines)')


main()
