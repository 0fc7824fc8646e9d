"""Run inside Pyodide by build.py: compile zips of Python sources to bytecode of Pyodide's own Python.

Reads /mnt/jobs.json, a list of ``{"in", "out", "kind"}`` (paths under /mnt):

- ``"stdlib"``: the standard-library zip; every ``X.py`` is replaced by ``X.pyc`` (zipimport's
  layout), so Python does not compile the standard library on every start of the page. Its code has no
  line-number table at all (a traceback through the standard library names the file and the function,
  with no line): that table was 110 kB of the 660 kB the zip sends, and the page never shows a traceback.
- ``"wheel"``: a wheel; every ``X.py`` is replaced by ``X.pyc`` (sourceless bytecode, which Python imports
  from where the source was) and so is its line in the wheel's RECORD, so the unpacked package imports
  without compiling, and the page does not download the sources too (a third of the wheels' bytes).
  METADATA keeps its headers (name, version, requirements) without the long description after them,
  and RECORD lists only the files the wheel holds (build.py leaves some out).

Docstrings are left out of the bytecode (as ``python -OO`` does, but asserts stay): heartslib and the
game never read them, and they are a quarter of the download. It must run with PYTHONNODEBUGRANGES=1
(``-X no_debug_ranges``): the code keeps its line numbers, for tracebacks, without each instruction's
column range (the ``^^^^`` under a failing expression), which was another quarter of the bytes. The
bytecode is "unchecked hash-based" (PEP 552): Python uses it without comparing it with the source file's
date, which the unpacking does not keep. Entries are stored uncompressed (the server
compresses the whole file).
"""

import ast
import base64
import hashlib
import importlib.util
import json
import sys
import types
import zipfile

TAG = sys.implementation.cache_tag
if next(compile("x", "<check>", "eval").co_positions())[2] is not None:
    sys.exit("compile_pyc.py: run it with PYTHONNODEBUGRANGES=1: the bytecode would carry column ranges")


def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass(lineno=body[0].lineno, col_offset=body[0].col_offset)]
    return tree


def without_lines(code):
    """``code`` and the code nested in it with "no location" for every instruction (line ``None``).

    The location table (Objects/locations.md in CPython) gets one entry of kind 15, "no location", per
    eight code units; an empty table would not do: ``traceback`` expects a position for each instruction.
    """
    consts = tuple(without_lines(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    units = len(code.co_code) // 2
    table = bytes(0x80 | 15 << 3 | (min(8, units - at) - 1) for at in range(0, units, 8))
    return code.replace(co_linetable=table, co_consts=consts)


def pyc(source, name, lines=True):
    code = compile(without_docstrings(ast.parse(source, name)), name, "exec", dont_inherit=True)
    if not lines:
        code = without_lines(code)
    return bytes(importlib._bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source), False))


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def entry(name, like):
    info = zipfile.ZipInfo(name, like.date_time)
    info.external_attr = like.external_attr
    return info


with open("/mnt/jobs.json") as f:
    jobs = json.load(f)
for job in jobs:
    with zipfile.ZipFile("/mnt/" + job["in"]) as src, \
            zipfile.ZipFile("/mnt/" + job["out"], "w", zipfile.ZIP_STORED) as out:
        infos = src.infolist()
        if job["kind"] == "stdlib":
            for info in infos:
                data = src.read(info)
                if info.filename.endswith(".py"):
                    out.writestr(entry(info.filename + "c", info), pyc(data, info.filename, lines=False))
                else:
                    out.writestr(entry(info.filename, info), data)
            continue
        changed = {}
        record = next(i for i in infos if i.filename.endswith(".dist-info/RECORD"))
        for info in infos:
            if info is record:
                continue
            data = src.read(info)
            if info.filename.endswith(".py"):
                code = pyc(data, info.filename)
                out.writestr(entry(info.filename + "c", info), code)
                changed[info.filename] = record_line(info.filename + "c", code)
            elif info.filename.endswith(".dist-info/METADATA"):
                # The headers end at the first empty line; the long description (the README) follows.
                data = data.split(b"\n\n", 1)[0] + b"\n"
                out.writestr(entry(info.filename, info), data)
                changed[info.filename] = record_line(info.filename, data)
            else:
                out.writestr(entry(info.filename, info), data)
                changed[info.filename] = None
        lines = src.read(record).decode().rstrip("\n").split("\n")
        lines = [changed.get(path) or line for line in lines
                 if (path := line.split(",")[0]) in changed or path == record.filename]
        out.writestr(entry(record.filename, record), "\n".join(lines) + "\n")
print(json.dumps({"tag": TAG}))
