"""``mypyc_attr`` without a runtime dependency on mypy_extensions (internal).

mypyc reads ``@mypyc_attr(...)`` on a compiled class from the source (it
recognises the name as ``mypy_extensions.mypyc_attr`` through this module's
re-export) and never calls it; the pure build calls the stand-in below,
which returns the class unchanged. This module itself is never compiled:
mypyc would compile the ``else`` branch, unreachable to mypy, as a trap
that fires at import.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:
        return lambda cls: cls


__all__ = ["mypyc_attr"]
