"""Run inside Pyodide by build.py: compile zips of Python sources to bytecode of Pyodide's own Python.

Reads /mnt/jobs.json, a list of ``{"in", "out", "kind"}`` (paths under /mnt):

- ``"stdlib"``: the standard-library zip; every ``X.py`` is replaced by ``X.pyc`` (zipimport's
  layout), so Python does not compile the standard library on every start of the page.
- ``"wheel"``: a wheel; every ``X.py`` is replaced by ``X.pyc`` (sourceless bytecode, which Python imports
  from where the source was) and so is its line in the wheel's RECORD, so the unpacked package imports
  without compiling, and the page does not download the sources too (a third of the wheels' bytes).

Docstrings are left out of the bytecode (as ``python -OO`` does, but asserts stay): heartslib and the
game never read them, and they are a quarter of the download. The bytecode is "unchecked hash-based"
(PEP 552): Python uses it without comparing it with the source
file's date, which the unpacking does not keep. Entries are stored uncompressed (the server
compresses the whole file).
"""

import ast
import base64
import hashlib
import importlib.util
import json
import sys
import zipfile

TAG = sys.implementation.cache_tag


def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass(lineno=body[0].lineno, col_offset=body[0].col_offset)]
    return tree


def pyc(source, name):
    code = compile(without_docstrings(ast.parse(source, name)), name, "exec", dont_inherit=True)
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
                    out.writestr(entry(info.filename + "c", info), pyc(data, info.filename))
                else:
                    out.writestr(entry(info.filename, info), data)
            continue
        compiled = {}
        record = next(i for i in infos if i.filename.endswith(".dist-info/RECORD"))
        for info in infos:
            if info is record:
                continue
            data = src.read(info)
            if info.filename.endswith(".py"):
                code = pyc(data, info.filename)
                out.writestr(entry(info.filename + "c", info), code)
                compiled[info.filename] = record_line(info.filename + "c", code)
            else:
                out.writestr(entry(info.filename, info), data)
        lines = src.read(record).decode().rstrip("\n").split("\n")
        lines = [compiled.get(line.split(",")[0], line) for line in lines]
        out.writestr(entry(record.filename, record), "\n".join(lines) + "\n")
print(json.dumps({"tag": TAG}))
