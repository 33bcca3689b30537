"""Appends a game's build (a folder: dist/) to a score-server binary, which then serves it
with nothing beside it: `python3 scripts/pack_game.py DIST BINARY`.

The layout is the one score-server reads (crates/server/src/files.rs, `Build::appended`):
each file as its path's length (2 bytes), its path (UTF-8, `/` between folders), the SHA-256
of its bytes (32 bytes: the server's `ETag` for it), its length (4 bytes) and its bytes, in
the order of their paths; then the length of all that (8 bytes)
and the mark `SCOREPK1`; every number little-endian. The same folder always gives the same
bytes. A binary that already carries a game is refused: package.sh appends to a fresh copy.
"""
import hashlib
import os
import struct
import sys

MAGIC = b"SCOREPK1"


def packed(folder):
    """The files under `folder`, laid out as above (without the closing length and mark)."""
    parts = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in files:
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            encoded = rel.encode("utf-8")
            sha256 = hashlib.sha256(data).digest()
            parts.append((rel, struct.pack("<H", len(encoded)) + encoded + sha256 + struct.pack("<I", len(data)) + data))
    return b"".join(part for _, part in sorted(parts))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: pack_game.py DIST BINARY")
    folder, binary = sys.argv[1], sys.argv[2]
    if not os.path.isfile(os.path.join(folder, "index.html")):
        sys.exit("pack_game: no game in %s (scripts/build.sh builds it)" % folder)
    with open(binary, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() >= 8:
            f.seek(-8, os.SEEK_END)
            if f.read(8) == MAGIC:
                sys.exit("pack_game: %s already carries a game" % binary)
    body = packed(folder)
    with open(binary, "ab") as f:
        f.write(body + struct.pack("<Q", len(body)) + MAGIC)
    print("pack_game: %s carries %s (%d bytes)" % (binary, folder, len(body)))


if __name__ == "__main__":
    main()
