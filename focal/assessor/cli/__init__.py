"""The `focal` command (`launch`, then `main`) and the assessor's sub-commands, one module per noun.

The top layer: `main` composes the commands of `focal.evaluation.cli`, `focal.pooling.cli.commands`
and the modules
here, importing each only when it is invoked. May import every other part of `assessor`.
`launch`, the console script, sends `focal trec_eval ...` straight to trec_eval's own command
line (`focal.evaluation.cli.trec_eval.command.main`), before click is imported, so that it
starts as a C program does (docs/trec_eval.md); every other command goes through `main`.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys
from collections.abc import Callable


def prepare_process() -> None:
    """What every `focal` process sets before it imports numpy or reads a file."""
    # No command of Focal does linear algebra big enough to share among threads: without this,
    # numpy's OpenBLAS starts a thread per core as it loads, and they spin for a while (a tenth
    # of the CPU time of a 20-run `focal eval` on two cores, taken from the threads that parse
    # and evaluate, and as much of `focal pool build`'s). A value the user set is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # As the process ends, Python collects cycles once more, through every object still alive
    # (the qrels and runs of `focal eval`: 20-30 ms) to free what the process is about to give
    # back anyway; frozen objects are left alone.
    atexit.register(gc.freeze)


def settings_error(warn: Callable[[str], None]) -> str | None:
    """Every `FOCAL_` setting of the environment checked before a command does anything
    (`focal.settings`): each name that is no setting is passed to `warn` (with the closest
    one); the first bad value's message is returned (None: all good)."""
    from focal import settings

    for warning in settings.unknown():
        warn(f"focal: warning: {warning}")
    try:
        settings.check()
    except settings.SettingError as error:
        return str(error)
    return None


def launch() -> None:
    """The `focal` console script."""
    prepare_process()
    if sys.argv[1:2] == ["trec_eval"]:
        # The collector's youngest generation collected every 50,000 allocations instead of
        # 700: a call's imports make about 100,000 objects that live as long as the process
        # (numpy's alone, 8 ms of collections that free nothing); its evaluation makes no cycles
        # worth collecting sooner. The process ends after the call.
        gc.set_threshold(50_000, *gc.get_threshold()[1:])
        error = settings_error(lambda line: print(line, file=sys.stderr))
        if error is not None:
            print(f"focal: {error}", file=sys.stderr)
            sys.exit(2)
        from focal.evaluation.cli.trec_eval.command import run_process

        if hasattr(signal, "SIGPIPE"):  # a reader that stops (`| head`) ends it as it ends C's
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        run_process(sys.argv[2:])
    from focal.assessor.cli.main import main

    main()
