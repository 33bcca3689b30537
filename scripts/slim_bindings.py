"""What wasm-bindgen writes that no page runs, taken out of a module's pair of files (its JS
glue and its wasm), for scripts/postbuild.py:

1. Each function the wasm imports from its glue is named `__wbg_<name>_<16 hex digits>`, in
   both files: 194 of them in the app, whose hex digits no compressor can shrink (5.6 KB of
   the first load's gzip). They get short names (`_a`, `_b`, …), in both files alike.
2. wasm-streams, which Leptos links through server_fn (its `browser` feature, always on),
   exports three classes for turning Rust streams into JS ones. Nothing here makes one (the
   wasm imports no constructor of them), but wasm-bindgen keeps every export, and what it
   reaches: their exports, classes and finalizers are taken out.

A release build's wasm is then optimised for size (`wasm-opt -Oz`: Trunk leaves it as
wasm-bindgen wrote it, `data-wasm-opt="0"` in index.html, so each module is optimised once,
after the change), which drops the code that only those exports reached, and the custom
sections no browser reads (producers, target features). Every layer of tests runs on these files: a name changed
in one file and not the other, or a class still used, fails the page's start.
"""
import re
import subprocess

# The features Rust's wasm32 target uses (rustc's defaults since 1.82): wasm-opt may keep
# using them, and uses no other.
FEATURES = [
    "--enable-bulk-memory",
    "--enable-multivalue",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-sign-ext",
]

IMPORTED = re.compile(r"__wbg_|__wbindgen_")
UNUSED_EXPORT = re.compile(r"(__wbg_)?intounderlying(source|sink|bytesource)(_|$)")
UNUSED_CLASSES = ("IntoUnderlyingByteSource", "IntoUnderlyingSink", "IntoUnderlyingSource")


def leb(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def read_leb(buf, i):
    n = shift = 0
    while True:
        byte = buf[i]
        i += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return n, i


def read_name(buf, i):
    n, i = read_leb(buf, i)
    return buf[i : i + n].decode("utf-8"), i + n


def name(text):
    data = text.encode("utf-8")
    return leb(len(data)) + data


def skip_limits(buf, i):
    flags = buf[i]
    i += 1
    _, i = read_leb(buf, i)
    if flags & 1:
        _, i = read_leb(buf, i)
    return i


def skip_import(buf, i):
    """The end of an import's description that starts at `i` (after its kind byte)."""
    kind = buf[i - 1]
    if kind == 0:  # a function: its type
        _, i = read_leb(buf, i)
    elif kind == 1:  # a table: its element type, then limits
        i = skip_limits(buf, i + 1)
    elif kind == 2:  # a memory
        i = skip_limits(buf, i)
    elif kind == 3:  # a global: its type and mutability
        i += 2
    elif kind == 4:  # a tag
        _, i = read_leb(buf, i + 1)
    else:
        raise ValueError("an import of unknown kind %d" % kind)
    return i


def short(n):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    while True:
        out = letters[n % 52] + out
        n //= 52
        if n == 0:
            return "_" + out


def rewrite_wasm(data):
    """`data` with its glue's imports renamed and the unused exports dropped: the new wasm,
    {old import name: new}, and the exports dropped."""
    if data[:8] != b"\0asm\1\0\0\0":
        raise ValueError("not a wasm module (version 1)")
    out = bytearray(data[:8])
    renamed, dropped = {}, []
    i = 8
    while i < len(data):
        sid = data[i]
        size, body = read_leb(data, i + 1)
        end = body + size
        section = data[body:end]
        if sid == 2:
            section = rename_imports(section, renamed)
        elif sid == 7:
            section = drop_exports(section, dropped)
        out += bytes([sid]) + leb(len(section)) + section
        i = end
    return bytes(out), renamed, dropped


def read_to_end(section, i, what):
    if i != len(section):
        raise ValueError("the %s section has %d bytes after its last entry" % (what, len(section) - i))


def rename_imports(section, renamed):
    count, i = read_leb(section, 0)
    out = bytearray(leb(count))
    for _ in range(count):
        module, i = read_name(section, i)
        field, i = read_name(section, i)
        kind_at = i
        i = skip_import(section, i + 1)
        if IMPORTED.match(field):
            field = renamed.setdefault(field, short(len(renamed)))
        out += name(module) + name(field) + section[kind_at:i]
    read_to_end(section, i, "import")
    return bytes(out)


def drop_exports(section, dropped):
    count, i = read_leb(section, 0)
    kept = bytearray()
    left = 0
    for _ in range(count):
        field, j = read_name(section, i)
        _, j = read_leb(section, j + 1)
        if UNUSED_EXPORT.match(field):
            dropped.append(field)
        else:
            kept += section[i:j]
            left += 1
        i = j
    read_to_end(section, i, "export")
    return leb(left) + bytes(kept)


def block_end(text, at):
    """The index after the brace that closes the one at or after `at`."""
    depth = 0
    for k in range(text.index("{", at), len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    raise ValueError("an unclosed block")


def rewrite_js(text, renamed, dropped, where):
    """The glue `text` with the imports renamed as in the wasm, and the classes of the
    dropped exports taken out. Fails (ValueError) on anything it does not find as expected."""
    for old, new in renamed.items():
        text, n = re.subn(r"(?<![\w$])%s(?=:)" % re.escape(old), new, text)
        if n != 1:
            raise ValueError("%s: the import %s is named %d times as a key, not once" % (where, old, n))
    if not dropped:
        return text
    for cls in UNUSED_CLASSES:
        found = re.search(r"^[ \t]*(export )?class %s \{" % cls, text, re.M)
        if not found:
            raise ValueError("%s: no class %s for the exports it had" % (where, cls))
        end = block_end(text, found.start())
        tail = re.compile(r"\s*if \(Symbol\.dispose\) %s\.prototype\[Symbol\.dispose\] = %s\.prototype\.free;" % (cls, cls))
        more = tail.match(text, end)
        end = more.end() if more else end
        more = re.compile(r"\s*exports\.%s = %s;" % (cls, cls)).match(text, end)
        end = more.end() if more else end
        text = text[: found.start()] + text[end:]
        final = re.compile(
            r"^[ \t]*const %sFinalization = \(typeof FinalizationRegistry === 'undefined'\)\s*\?[^\n]*\n[^\n]*\);\n" % cls,
            re.M,
        )
        text, n = final.subn("", text)
        if n != 1:
            raise ValueError("%s: no finalizer of %s" % (where, cls))
        if re.search(r"(?<![\w$])%s(?![\w$])" % cls, text):
            raise ValueError("%s: %s is still used" % (where, cls))
    for export in dropped:
        if re.search(r"(?<![\w$])%s(?![\w$])" % re.escape(export), text):
            raise ValueError("%s: the dropped export %s is still called" % (where, export))
    return text


def slim(js_path, wasm_path, wasm_opt):
    """Rewrites the pair in place, and optimises the wasm with `wasm_opt` (the path of
    binaryen's wasm-opt; None: not at all, as for a debug build). Returns (imports renamed,
    exports dropped). Raises ValueError on anything it does not read as expected."""
    data = open(wasm_path, "rb").read()
    try:
        wasm, renamed, dropped = rewrite_wasm(data)
    except (IndexError, UnicodeDecodeError) as e:
        raise ValueError("%s: unreadable (%s)" % (wasm_path, e)) from e
    js = rewrite_js(open(js_path, encoding="utf-8").read(), renamed, dropped, js_path)
    with open(wasm_path, "wb") as f:
        f.write(wasm)
    if wasm_opt:
        subprocess.run(
            [wasm_opt, "-Oz", *FEATURES, "--strip-producers", "--strip-target-features", wasm_path, "-o", wasm_path],
            check=True,
        )
    with open(js_path, "w", encoding="utf-8") as f:
        f.write(js)
    return len(renamed), len(dropped)
