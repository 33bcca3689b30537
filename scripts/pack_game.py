"""Appends a game's build (a folder: dist/) to a score-server binary, which then serves it
with nothing beside it, and the commit it was built from, which `score-server --version`
names: `python3 scripts/pack_game.py DIST BINARY [COMMIT]`.

The layout is the one score-server reads (crates/server/src/files.rs, `Build::appended`):
each file as its path's length (2 bytes), its path (UTF-8, `/` between folders), the SHA-256
of its bytes (32 bytes: the server's `ETag` for it), its length (4 bytes) and its bytes, in
the order of their paths, and the commit as one more under the name `/commit` (no file's
path starts with `/`); then the length of all that (8 bytes) and the mark `SCOREPK1`; every
number little-endian. The same folder always gives the same
bytes. A binary that already carries a game is refused: package.sh appends to a fresh copy.
"""
import hashlib
import os
import re
import struct
import sys

MAGIC = b"SCOREPK1"


def entry(name, data):
    """One file (or the commit) laid out as above; `name` is its path's UTF-8 bytes."""
    return struct.pack("<H", len(name)) + name + hashlib.sha256(data).digest() + struct.pack("<I", len(data)) + data


def packed(folder, commit):
    """The files under `folder` and `commit`, laid out as above (without the closing length
    and mark)."""
    parts = [("/commit", entry(b"/commit", commit.encode("ascii")))] if commit else []
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            # What score-server refuses to read, refused here with why.
            try:
                encoded = rel.encode("utf-8")
            except UnicodeEncodeError:
                sys.exit("pack_game: %r: a path must be UTF-8" % rel)
            if any(part in ("", ".", "..") for part in rel.split("/")) or "\\" in rel or "\0" in rel:
                sys.exit("pack_game: %r: a path with a backslash, a NUL or an empty, . or .. folder" % rel)
            if len(encoded) > 0xFFFF or len(data) > 0xFFFFFFFF:
                sys.exit("pack_game: %s: too long a path or too large a file" % rel)
            parts.append((rel, entry(encoded, data)))
    return b"".join(part for _, part in sorted(parts))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: pack_game.py DIST BINARY [COMMIT]")
    folder, binary = sys.argv[1], sys.argv[2]
    commit = sys.argv[3] if len(sys.argv) == 4 else ""
    if commit and not re.fullmatch(r"[0-9A-Za-z]{1,64}", commit):
        sys.exit("pack_game: %r is not a commit (1 to 64 letters and digits)" % commit)
    if not os.path.isfile(os.path.join(folder, "index.html")):
        sys.exit("pack_game: no game in %s (scripts/build.sh builds it)" % folder)
    with open(binary, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() >= 8:
            f.seek(-8, os.SEEK_END)
            if f.read(8) == MAGIC:
                sys.exit("pack_game: %s already carries a game" % binary)
    body = packed(folder, commit)
    with open(binary, "ab") as f:
        f.write(body + struct.pack("<Q", len(body)) + MAGIC)
    print("pack_game: %s carries %s (%d bytes)" % (binary, folder, len(body)))


if __name__ == "__main__":
    main()
