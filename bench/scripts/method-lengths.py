#!/usr/bin/env python3
"""The length of every method (and constructor) in some Java files, longest first.

A method's length is the lines from its opening brace to its matching closing brace, both included (a one-line
method is 1). Comments, string and char literals and text blocks are blanked first, so braces in them do not count.
Braces are followed with a stack that knows class bodies from code: a method is a brace opened directly in a class
body (named, anonymous, local or an enum constant's) after a parameter list, or a record's compact constructor;
lambdas, initializers, control blocks and array initializers are not methods (their lines count in the method around
them). Methods of nested and anonymous classes are measured on their own too.

Usage: method-lengths.py [--top N] FILE_OR_DIR...   prints "LINES FILE:Class.method (line N)" for each, longest first.
"""
import os
import re
import sys

KEYWORDS = {"if", "for", "while", "switch", "catch", "synchronized", "try", "return", "new", "throw", "else", "do",
            "super", "this", "assert", "yield", "case"}
CLASS_DECL = re.compile(r"\b(class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
IDENT_END = re.compile(r"([A-Za-z_$][\w$.]*)\s*(<[^<>]*(?:<[^<>]*>[^<>]*)*>)?\s*$")
THROWS = re.compile(r"\)\s*throws\s+[\w$.<>?,\s]+$")


def blank(src):
    """src with comments, strings, chars and text blocks turned to spaces (newlines kept, so lines still count)."""
    out, i, n = [], 0, len(src)
    keep_newlines = lambda s: "".join(c if c == "\n" else " " for c in s)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith('"""', i):
            j = i + 3
            while j < n and not src.startswith('"""', j):
                j += 2 if src[j] == "\\" else 1
            j = min(n, j + 3)
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(n, j + 1)
        else:
            out.append(c)
            i += 1
            continue
        out.append(keep_newlines(src[i:j]))
        i = j
    return "".join(out)


def matching_open(text, close):
    """The index of the '(' that the ')' at close closes, or -1."""
    depth = 0
    for k in range(close, -1, -1):
        if text[k] == ")":
            depth += 1
        elif text[k] == "(":
            depth -= 1
            if depth == 0:
                return k
    return -1


def called(header):
    """For a header ending in a parameter list (and maybe a throws clause): (name, text before it), else None."""
    h = header.rstrip()
    m = THROWS.search(h)
    if m:
        h = h[:m.start() + 1]
    if not h.endswith(")"):
        return None
    start = matching_open(h, len(h) - 1)
    if start < 0:
        return None
    m = IDENT_END.search(h[:start])
    if not m:
        return None
    return m.group(1), h[:m.start()]


def methods(path):
    with open(path, encoding="utf-8") as f:
        text = blank(f.read())
    line_at = [0] * (len(text) + 1)
    line = 1
    for k, c in enumerate(text):
        line_at[k] = line
        if c == "\n":
            line += 1
    found = []
    # each frame: [kind, name, start index, in-enum-constants]; kind: class, method, block
    stack = [["file", "", 0, False]]
    last = 0  # where the current header starts: after the last ; { or }
    for k, c in enumerate(text):
        if c == ";":
            if stack[-1][0] == "class":
                stack[-1][3] = False  # an enum's constants end at its first ';'
            last = k + 1
        elif c == "{":
            header = " ".join(text[last:k].split())
            top = stack[-1]
            decl = CLASS_DECL.search(header)
            call = called(header)
            if decl:
                stack.append(["class", decl.group(2), k, decl.group(1) == "enum"])
            elif call and re.search(r"\bnew\s*$", call[1]):
                stack.append(["class", call[0] + "$anon", k, False])  # an anonymous class
            elif top[0] == "class" and top[3]:
                stack.append(["class", top[1] + "$const", k, False])  # an enum constant's body
            elif top[0] == "class" and call and call[0] not in KEYWORDS and "." not in call[0]:
                stack.append(["method", call[0], k, False])
            elif top[0] == "class" and re.fullmatch(r"(?:@[\w.]+\s*)*(?:(?:public|protected|private)\s+)?"
                                                   + re.escape(top[1]), header):
                stack.append(["method", top[1], k, False])  # a record's compact constructor
            else:
                stack.append(["block", "", k, False])
            last = k + 1
        elif c == "}":
            if len(stack) > 1:
                kind, name, start, _ = stack.pop()
                if kind == "method":
                    owner = ".".join(f[1] for f in stack if f[0] == "class")
                    found.append((line_at[k] - line_at[start] + 1, f"{owner}.{name}", line_at[start]))
            last = k + 1
    return found


def main(argv):
    top = None
    if len(argv) > 1 and argv[0] == "--top":
        top, argv = int(argv[1]), argv[2:]
    files = []
    for a in argv:
        if os.path.isdir(a):
            for d, _, names in os.walk(a):
                files += [os.path.join(d, n) for n in names if n.endswith(".java")]
        else:
            files.append(a)
    rows = []
    for path in sorted(files):
        rows += [(n, path, name, at) for n, name, at in methods(path)]
    rows.sort(key=lambda r: (-r[0], r[1], r[3]))
    for n, path, name, at in rows[:top] if top else rows:
        print(f"{n:5} {os.path.basename(path)}:{name} (line {at})")


if __name__ == "__main__":
    main(sys.argv[1:])
