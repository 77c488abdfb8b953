#!/usr/bin/python3
"""Builds the benchmark's articles from Debian's manual pages and loads them into the apps.

  corpus.py corpus PACKAGE SECTIONS SKIP COUNT OUT.json
      renders COUNT manual pages after the first SKIP (sorted by file name; links and .so stubs
      skipped) of
      the given sections (e.g. 3, or 4,5,7) installed by PACKAGE to text, and writes them as
      articles: name, title, sections of text, the other articles named under SEE ALSO, a
      revision count (2 to 4) and a date. Everything is derived from the pages, so the output
      is the same on every machine with the same package version.
  corpus.py fossil REPO CORPUS.json    wiki pages (one revision each), tickets, check-ins
  corpus.py git DIR CORPUS.json        a git repository of the articles' revisions

Revision r of an article holds its first ceil(r*S/R) sections of S; the last revision is the
whole page.
"""
import gzip
import hashlib
import json
import math
import os
import re
import subprocess
import sys


def h(s):
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16)


def render(path):
    env = dict(os.environ, MANWIDTH="78", LC_ALL="C.UTF-8")
    out = subprocess.run(["man", "--nh", "--nj", "-l", path], env=env,
                         capture_output=True, check=True).stdout
    out = subprocess.run(["col", "-bx"], input=out, capture_output=True, check=True).stdout
    return out.decode("utf-8", "replace")


HEADING = re.compile(r"^[A-Z][A-Z0-9 ,/()-]*$")
REF = re.compile(r"\b([A-Za-z_][A-Za-z0-9_.:+-]*)\((\d[a-z]*)\)")


def split_sections(text):
    lines = text.splitlines()
    # Drop the header and footer lines (NAME(3) ... NAME(3), and the version line).
    if lines and "(" in lines[0]:
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and "(" in lines[-1]:
        lines = lines[:-1]
    sections, cur = [], None
    for ln in lines:
        if HEADING.match(ln) and not ln.startswith(" "):
            cur = [ln.strip().title(), []]
            sections.append(cur)
        elif cur is not None:
            cur[1].append(ln[7:] if ln.startswith("       ") else ln.strip())
    out = []
    for head, body in sections:
        paras, para = [], []
        for ln in body + [""]:
            if ln.strip():
                para.append(ln.rstrip())
            elif para:
                paras.append("\n".join(para))
                para = []
        if paras:
            out.append({"heading": head, "paragraphs": paras})
    return out


def cmd_corpus(package, sections, skip, count, out):
    secs = sections.split(",")
    seen = 0
    files = subprocess.run(["dpkg", "-L", package], capture_output=True, check=True,
                           text=True).stdout.split()
    pages = []
    for f in sorted(files, key=os.path.basename):
        m = re.match(r"/usr/share/man/man(\d)/([^/]+)\.\d[a-z]*\.gz$", f)
        if not m or m.group(1) not in secs or os.path.islink(f):
            continue
        with gzip.open(f, "rb") as g:
            if g.read(4) == b".so ":
                continue
        seen += 1
        if seen <= skip:
            continue
        pages.append((m.group(2), m.group(1), f))
        if len(pages) == count:
            break
    names = {p[0] for p in pages}
    articles = []
    for i, (name, sec, f) in enumerate(pages):
        sections = split_sections(render(f))
        if not sections:
            continue
        title = name
        for s in sections:
            if s["heading"] == "Name":
                title = " ".join(s["paragraphs"][0].split())
        see = []
        for s in sections:
            if s["heading"] == "See Also":
                for m in REF.finditer(" ".join(s["paragraphs"])):
                    if m.group(1) in names and m.group(1) != name and m.group(1) not in see:
                        see.append(m.group(1))
        articles.append({
            "name": name, "section": sec, "title": title, "sections": sections, "see": see,
            "revisions": 2 + h(name) % 3,
            # Spread over 2019-2022, in the order of the names.
            "date": "%04d-%02d-%02d %02d:%02d:00" % (2019 + i * 4 // len(pages),
                                                      1 + h(name + "m") % 12,
                                                      1 + h(name + "d") % 28,
                                                      8 + h(name + "h") % 10,
                                                      h(name + "n") % 60),
        })
    with open(out, "w") as w:
        json.dump(articles, w, indent=1)
    print("corpus.py: %d articles from %s man%s in %s" % (len(articles), package, ",".join(secs), out))


def revision_sections(a, r):
    s = a["sections"]
    return s[:math.ceil(r * len(s) / a["revisions"])]


def load(path):
    with open(path) as f:
        return json.load(f)


AUTHORS = ["ada", "brian", "grace", "ken", "linus", "margaret"]


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def wiki_title(a):
    return "%s(%s)" % (a["name"], a["section"])


def fossil_wiki(a, r, by_name):
    out = []
    for s in revision_sections(a, r):
        out.append("<h2>%s</h2>" % s["heading"])
        for p in s["paragraphs"]:
            p = p.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            p = p.replace("[", "&#91;").replace("]", "&#93;")
            out.append("<pre>\n%s\n</pre>" % p if p.startswith(" ") or "\n " in p else p)
            out.append("")
    if r == a["revisions"] and a["see"]:
        out.append("<h2>Related pages</h2>")
        out.append(", ".join("[%s]" % wiki_title(by_name[n]) for n in a["see"]))
    return "\n".join(out) + "\n"


def cmd_fossil(repo, corpus):
    arts = load(corpus)
    by_name = {a["name"]: a for a in arts}
    env = dict(os.environ, USER="admin")
    fossil = lambda *a, **kw: run(["fossil", *a, "-R", repo], env=env, **kw)
    for u in AUTHORS:
        fossil("user", "new", u, u + "@example.org", "pw-" + u)
        fossil("user", "capabilities", u, "ei")
    # Wiki: each revision of each article, oldest first, by date.
    maxrev = max(a["revisions"] for a in arts)
    for r in range(1, maxrev + 1):
        for i, a in enumerate(arts):
            if r > a["revisions"]:
                continue
            date = a["date"].replace(" ", "T")
            year = int(date[:4]) + r - 1
            date = "%d%s" % (year, date[4:])
            verb = "create" if r == 1 else "commit"
            # fossil wiki takes no date: faketime gives it the revision's, so that the
            # pages' ages are years and do not change between two fetches.
            run(["faketime", date.replace("T", " "), "fossil", "wiki", verb, wiki_title(a),
                 "--mimetype", "text/x-fossil-wiki", "-R", repo], input=fossil_wiki(a, r, by_name),
                env=dict(env, USER=AUTHORS[h(a["name"]) % len(AUTHORS)]))
    # The home page (the wiki page named after the project): an index of the pages.
    index = "<h1>Library notes</h1>\n<p>Notes on the C library, from its manual pages.</p>\n"
    index += "\n".join("[%s] - %s<br>" % (wiki_title(a), a["title"].replace("[", "&#91;")) for a in arts)
    run(["faketime", "2019-01-01 09:00:00", "fossil", "wiki", "create", "Library notes",
         "--mimetype", "text/x-fossil-wiki", "-R", repo], input=index + "\n", env=env)
    # Tickets: one per tenth article, with a comment.
    for i, a in enumerate(arts[::10]):
        desc = a["sections"][-1]["paragraphs"][0]
        run(["faketime", "%d-06-01 10:00:00" % (2019 + i % 4), "fossil", "ticket", "add", "-R", repo, "title", "Review %s" % wiki_title(a), "type", "Documentation",
               "status", "Open", "severity", "Minor", "comment", desc], env=env)
    # Check-ins: the articles as text files, a few per check-in, every revision.
    co = repo + ".checkout"
    os.makedirs(co, exist_ok=True)
    run(["fossil", "open", "--force", repo], cwd=co, env=env)
    commits = 0
    for r in range(1, maxrev + 1):
        batch = []
        for i, a in enumerate(arts):
            if r > a["revisions"]:
                continue
            path = os.path.join(co, "man%s" % a["section"], a["name"] + ".txt")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text_of(a, r))
            batch.append(a)
            if len(batch) == 10 or i == len(arts) - 1:
                run(["fossil", "addremove"], cwd=co, env=env)
                # One check-in a day from 2019 on: Fossil wants each newer than its parent.
                commits += 1
                d = "%04d-%02d-%02dT12:00:00" % (2019 + commits // 336, 1 + commits // 28 % 12, 1 + commits % 28)
                run(["fossil", "commit", "--no-warnings", "--date-override", d,
                     "--user-override", AUTHORS[i % len(AUTHORS)],
                     "-m", "Revision %d of %s" % (r, ", ".join(b["name"] for b in batch))],
                    cwd=co, env=env)
                batch = []
    run(["fossil", "close", "--force"], cwd=co, env=env)
    print("corpus.py: fossil: %d wiki pages, %d tickets" % (len(arts), len(arts[::10])))


def text_of(a, r):
    out = [a["title"], ""]
    for s in revision_sections(a, r):
        out.append(s["heading"].upper())
        for p in s["paragraphs"]:
            out.append(p)
            out.append("")
    return "\n".join(out)


def cmd_git(d, corpus):
    arts = load(corpus)
    os.makedirs(d, exist_ok=True)
    run(["git", "init", "-q", "-b", "main", d])
    maxrev = max(a["revisions"] for a in arts)
    n = 0
    for r in range(1, maxrev + 1):
        batch = []
        for i, a in enumerate(arts):
            if r > a["revisions"]:
                continue
            path = os.path.join(d, "man%s" % a["section"], a["name"] + ".txt")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text_of(a, r))
            batch.append(a)
            if len(batch) == 3 or i == len(arts) - 1:
                who = AUTHORS[h(batch[0]["name"]) % len(AUTHORS)]
                date = "%d%s +0000" % (int(batch[0]["date"][:4]) + r - 1, batch[0]["date"][4:])
                env = dict(os.environ, GIT_AUTHOR_NAME=who, GIT_AUTHOR_EMAIL=who + "@example.org",
                           GIT_COMMITTER_NAME=who, GIT_COMMITTER_EMAIL=who + "@example.org",
                           GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
                run(["git", "-C", d, "add", "-A"], env=env)
                run(["git", "-C", d, "commit", "-q", "-m",
                     "%s %s" % ("Add" if r == 1 else "Revise", ", ".join(b["name"] for b in batch))], env=env)
                n += 1
                batch = []
    print("corpus.py: git: %d commits" % n)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "corpus":
        cmd_corpus(args[0], args[1], int(args[2]), int(args[3]), args[4])
    elif cmd == "fossil":
        cmd_fossil(*args)
    elif cmd == "git":
        cmd_git(*args)
    else:
        sys.exit("corpus.py: unknown command %r" % cmd)
