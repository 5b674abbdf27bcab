#!/usr/bin/env python3
"""Replays the shell transcripts of the docs and checks what they show.

usage: doc_sessions.py ATTU WORKDIR DOC.md [DOC.md ...]

A transcript is an indented code block whose first line starts with
"attu=> ". Its lines starting with a prompt ("attu=> ", "attu-> ") are typed
into a real attu session in a pseudo-terminal (tmux), in order, one session
per document; everything else in the block is what the screen must show
after them. The server comes from PGHOST/PGPORT/PGUSER; WORKDIR holds the
files the transcripts name (items.csv) and is the shell's working directory.

Compared after normalizing what varies from run to run: times ("1.234 ms",
"in 0.1s", "1.06M rows/s"), thread counts, the database name in the prompt,
runs of blanks (column widths follow the times) and blank lines.
"""
import os
import re
import subprocess
import sys
import time

PROMPT = re.compile(r"^\S*?([=\-'\"*$])> ")


def transcripts(path):
    """Yields (first line number, [lines]) of each transcript block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("    attu=> ") and (i == 0 or not lines[i - 1].startswith("    ")):
            start, block = i + 1, []
            while i < len(lines) and (lines[i].startswith("    ") or
                                      (lines[i] == "" and i + 1 < len(lines) and lines[i + 1].startswith("    "))):
                block.append(lines[i][4:])
                i += 1
            yield start, block
        else:
            i += 1


def normalize(lines):
    out = []
    for l in lines:
        l = PROMPT.sub(lambda m: "attu" + m.group(1) + "> ", l)
        l = re.sub(r"\d+(\.\d+)? ms\b", "T ms", l)
        l = re.sub(r"\b[\d.]+[kMG]? rows/s", "R rows/s", l)
        l = re.sub(r"\bin [\d.]+s\b", "in Ts", l)
        l = re.sub(r"\(\d+ threads?\)", "(N threads)", l)
        l = re.sub(r"\s+", " ", l).strip()
        if l:
            out.append(l)
    return out


class Session:
    def __init__(self, attu, workdir):
        self.sock = os.path.join(workdir, "tmux.sock")
        self.tmux("new-session", "-d", "-s", "doc", "-x", "200", "-y", "50", "-c", workdir,
                  "env ATTU_HISTORY= NO_COLOR=1 %s; echo EXIT=$?; sleep 60" % attu)
        self.wait_prompt()

    def tmux(self, *args):
        return subprocess.run(["tmux", "-S", self.sock] + list(args), check=True,
                              capture_output=True, text=True).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "doc", "-S", "-", "-E", "-").rstrip("\n").split("\n")

    def wait_prompt(self, timeout=20, prompt=r"^\S*=> ?$"):
        """Waits until the screen ends with a fresh prompt and is still."""
        deadline, last = time.time() + timeout, None
        while time.time() < deadline:
            s = self.screen()
            tail = [l for l in s if l.strip()]
            if tail and re.match(prompt, tail[-1]) and s == last:
                return s
            last = s
            time.sleep(0.15)
        raise SystemExit("timed out waiting for the prompt; screen:\n" + "\n".join(self.screen()))

    def type(self, line):
        # tmux reads a trailing ';' as a command separator: send it by code.
        if line.endswith(";"):
            self.tmux("send-keys", "-t", "doc", "-l", line[:-1])
            self.tmux("send-keys", "-t", "doc", "-H", "3b")
        else:
            self.tmux("send-keys", "-t", "doc", "-l", line)
        self.tmux("send-keys", "-t", "doc", "Enter")

    def close(self):
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True)


def main():
    attu, workdir, docs = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    failures = checked = 0
    for doc in docs:
        setup = os.environ.get("DOC_SETUP_" + re.sub(r"\W", "_", os.path.basename(doc)))
        if setup:
            subprocess.run([attu, "-c", setup], check=True, capture_output=True)
        s = Session(attu, workdir)
        try:
            for lineno, block in transcripts(doc):
                before = len([l for l in s.screen()])
                # The prompt line the block starts on is the last line now.
                typed = [l for l in block if PROMPT.match(l)]
                for k, l in enumerate(typed):
                    s.type(PROMPT.sub("", l, count=1))
                    # Each line's output (or the continuation prompt) before
                    # the next line: typed ahead, the terminal echoes the
                    # next line into the previous one's output on a slow
                    # machine (a CI run under load, session 10).
                    if k + 1 < len(typed):
                        s.wait_prompt(prompt=r"^\S*?[=\-'\"*$]> ?$")
                screen = s.wait_prompt()
                got = screen[before - 1:]
                # Drop the fresh prompt the block ends on.
                while got and (not got[-1].strip() or re.match(r"^\S*=> ?$", got[-1])):
                    got.pop()
                want, have = normalize(block), normalize(got)
                checked += 1
                if want != have:
                    failures += 1
                    print("FAIL %s:%d\n--- documented\n%s\n--- shown\n%s\n" %
                          (doc, lineno, "\n".join(block), "\n".join(got)))
        finally:
            s.close()
    print("%d transcripts checked, %d differ" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
