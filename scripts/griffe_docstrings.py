"""A griffe extension (used by mkdocstrings, see mkdocs.yml) that turns heartslib's docstrings into Markdown.

heartslib's docstrings are plain prose written for ``help()`` and doctest:
``>>>`` examples, a few Sphinx roles (``:class:`~heartslib.Variant```), one
reStructuredText table and section heading. Rendered as Markdown, ``>>>``
lines would become nested block quotes and the roles would show as text, so
before the API pages are built this extension:

* wraps each doctest example in a ``pycon`` code block;
* turns a role into a cross-reference when its target is documented on one
  of the API pages (``docs/api/*.md``), and into inline code otherwise, so
  that ``mkdocs build --strict`` never meets a dangling reference;
* turns reStructuredText simple tables into Markdown tables, definition
  lists into Markdown definition lists, ```text <url>`_`` links into Markdown
  links and underlined section titles into bold lines;
* points each variant section class (``DeckRules``, ...) at its page of the
  rules reference, where its fields are documented from their metadata.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

_API_DIR = Path(__file__).resolve().parent.parent / "docs" / "api"
_ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc|obj):`(~?)([\w.]+)`")
_RST_RULE = re.compile(r"^=+( +=+)+$")
_UNDERLINE = re.compile(r"^(-{3,}|={3,}|~{3,})$")
_RST_LINK = re.compile(r"`([^`<]+?)\s*<([^>`]+)>`__?")


def documented_modules(api_dir: Path = _API_DIR) -> set[str]:
    """Modules rendered with their members on the API pages (``::: heartslib.cards`` and so on)."""
    out: set[str] = set()
    for page in api_dir.glob("*.md"):
        for match in re.finditer(r"^::: ([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.MULTILINE):
            out.add(match.group(1))
    return out


def _rules_pages() -> dict[str, str]:
    """Variant section classes -> their rules reference page, relative to docs/api/."""
    from heartslib.variant import SECTIONS

    pages = {f"heartslib.variant.{cls.__name__}": f"../rules/{name}.md" for name, cls in SECTIONS.items()}
    pages["heartslib.variant.Variant"] = "../rules/index.md"
    return pages


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    out = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            out += _walk(member)  # type: ignore[arg-type]
    return out


class HeartslibDocstrings(griffe.Extension):
    """Rewrite every docstring of the package once it is loaded (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.rendered = documented_modules()

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """griffe >= 1.14 name of the hook."""
        self._rewrite_package(pkg)

    def on_package_loaded(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Older griffe name of the hook."""
        self._rewrite_package(pkg)

    def _rewrite_package(self, pkg: griffe.Module) -> None:
        if pkg.name != "heartslib" or getattr(pkg, "_heartslib_rewritten", False):
            return
        pkg._heartslib_rewritten = True  # type: ignore[attr-defined]
        rules_pages = _rules_pages()
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = self.rewrite(obj.docstring.value, obj, pkg)
                page = rules_pages.get(str(obj.path))
                if page:
                    obj.docstring.value += (
                        f"\n\nEvery field, with its values, default and source: [rules reference]({page})."
                    )

    # ------------------------------------------------------------------ text

    def rewrite(self, text: str, obj: griffe.Object, pkg: griffe.Module) -> str:
        """The docstring ``text`` of ``obj`` as Markdown."""
        text = _ROLE.sub(lambda m: self._role(m.group(1) == "~", m.group(2), obj, pkg), text)
        text = _RST_LINK.sub(r"[\1](\2)", text)
        return _blocks(text.splitlines())

    def _role(self, short: bool, target: str, obj: griffe.Object, pkg: griffe.Module) -> str:
        shown = target.rsplit(".", 1)[-1] if short else target
        path = self._resolve(target, obj, pkg)
        return f"[`{shown}`][{path}]" if path else f"`{shown}`"

    def _resolve(self, target: str, obj: griffe.Object, pkg: griffe.Module) -> str | None:
        """The canonical path of a documented object ``target`` names, seen from ``obj``; else None."""
        scopes = [obj.path]
        parent = obj.parent
        while parent is not None:
            scopes.append(parent.path)
            parent = parent.parent
        candidates = [target] + [f"{scope}.{target}" for scope in scopes] + [f"heartslib.{target}"]
        for candidate in candidates:
            if candidate != "heartslib" and not candidate.startswith("heartslib."):
                continue
            try:
                found: Any = pkg[candidate[len("heartslib.") :]] if candidate != "heartslib" else pkg
                if found.is_alias:
                    found = found.final_target
            except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            if self._rendered(found):
                return str(found.path)
            return None
        return None

    def _rendered(self, obj: Any) -> bool:
        """Whether mkdocstrings renders ``obj`` (so a cross-reference to it resolves)."""
        if obj.is_module:
            return str(obj.path) in self.rendered
        module = obj.module
        if str(module.path) not in self.rendered:
            return False
        chain = []
        node = obj
        while node is not module:
            chain.append(node)
            node = node.parent
        top = chain[-1]
        exported = module.exports
        if exported is not None and top.name not in {str(e) if isinstance(e, str) else e.name for e in exported}:
            return False
        return all(not n.name.startswith("_") and (n.docstring is not None or n.is_class) for n in chain)


def _blocks(lines: list[str]) -> str:
    """Doctest examples fenced, reST tables converted, underlined titles bolded."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].strip())
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if _RST_RULE.match(stripped):
            i = _table(lines, i, out)
            continue
        if i + 1 < len(lines) and stripped and _UNDERLINE.match(lines[i + 1].strip()) and not _RST_RULE.match(
            lines[i + 1].strip()
        ):
            out += [f"**{stripped}**", ""]
            i += 2
            while i < len(lines) and not lines[i].strip():
                i += 1
            continue
        if (
            stripped
            and not line.startswith(" ")
            and (not out or not out[-1].strip())
            and i + 1 < len(lines)
            and lines[i + 1].startswith("    ")
            and lines[i + 1].strip()
        ):
            i = _definition(lines, i, out)
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _definition(lines: list[str], i: int, out: list[str]) -> int:
    """Convert the reST definition list item at ``lines[i]`` (a term, then indented lines)."""
    out.append(lines[i].strip())
    i += 1
    first = True
    while i < len(lines) and lines[i].startswith("    ") and lines[i].strip():
        out.append((":   " if first else "    ") + lines[i].strip())
        first = False
        i += 1
    out.append("")
    return i


def _table(lines: list[str], i: int, out: list[str]) -> int:
    """Convert the reST simple table starting at ``lines[i]``; return the index after it."""
    rule = lines[i].strip()
    starts = [m.start() for m in re.finditer(r"=+", rule)]
    rows: list[list[str]] = []
    rules_seen = 0
    while i < len(lines) and lines[i].strip():
        text = lines[i].strip()
        i += 1
        if _RST_RULE.match(text):
            rules_seen += 1
            if rules_seen == 3:
                break
            continue
        cells = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        rows.append(cells)
    if not rows:
        return i
    header, body = rows[0], rows[1:]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
    return i
