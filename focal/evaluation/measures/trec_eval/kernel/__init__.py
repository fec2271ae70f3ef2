"""The article engine's optional C part, and which implementation answers.

The compiled module `_article_kernel` reads plain TREC files and looks up (topic, document)
pairs outside the interpreter lock; it is a speed-up only. An install without a C compiler has
no such module, and the engine then reads files with pyarrow and looks pairs up with numpy,
giving the same bytes (docs/trec_eval.md, "The C part"). `FOCAL_KERNEL` chooses: `auto` (the
default) takes the compiled module when the install built it; `c` requires it (an error names
what is missing); `numpy` never loads it, to compare the two or to rule the C part out.
"""

from __future__ import annotations

from types import ModuleType

from focal import settings

CHOICES = settings.KERNELS
_loaded: dict[str, ModuleType | None] = {}


class KernelUnavailable(RuntimeError):
    """`FOCAL_KERNEL=c` asked for the compiled module, and this install has none."""


def choice() -> str:
    """`FOCAL_KERNEL`, lower-cased (`focal.settings`); an unknown value is a ValueError naming
    the choices."""
    return str(settings.value("FOCAL_KERNEL"))


def compiled() -> ModuleType | None:
    """The compiled module when it is to be used (see the module's docstring), else None."""
    wanted = choice()
    if wanted not in _loaded:
        module: ModuleType | None = None
        if wanted != "numpy":
            try:
                from focal.evaluation.measures.trec_eval.kernel import _article_kernel as module
            except ImportError as error:
                if wanted == "c":
                    raise KernelUnavailable(
                        "FOCAL_KERNEL=c, but this install has no compiled module (install a C "
                        "compiler and the Python headers, then reinstall Focal)"
                    ) from error
        _loaded[wanted] = module
    return _loaded[wanted]


def status() -> str:
    """One line for `focal --version`: which implementation answers, and why."""
    try:
        module = compiled()
    except (ValueError, KernelUnavailable) as error:
        return f"C part: unavailable ({error})"
    if module is not None:
        return "C part: active (compiled module)"
    if choice() == "numpy":
        return "C part: off (FOCAL_KERNEL=numpy); numpy path"
    return "C part: not built (no C compiler at install); numpy path"
