"""The `focal` command: one click group that composes the CLIs of every package.

Sub-commands are imported only when they are invoked, so that `focal eval` or `focal doc`
never pay for importing Flask and SQLAlchemy (and the pure packages stay pure).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from typing import Any

import click

from focal.assessor.cli import prepare_process, settings_error

prepare_process()  # (`focal.assessor.cli.launch` did it already; a caller of `main` may not)

# name -> "module:attribute" of a click command or group. Each package owns its entries.
COMMANDS: dict[str, str] = {
    # evaluation (pure)
    "doc": "focal.evaluation.cli.doc:doc",
    "convert": "focal.evaluation.cli.convert:convert",
    "eval": "focal.evaluation.cli.eval.command:eval_command",
    "trec_eval": "focal.evaluation.cli.trec_eval.click_command:trec_eval_command",
    "measures": "focal.evaluation.cli.measures:measures_command",
    "baseline": "focal.evaluation.cli.baseline:baseline",
    "compare": "focal.evaluation.cli.compare:compare_command",
    "support": "focal.evaluation.cli.support:support_command",
    # reliability studies (pure, above pooling and evaluation)
    "reliability": "focal.reliability.cli.commands:reliability",
    # pooling (pure), composed with the database's pools
    "pool": "focal.assessor.cli.pools:pool",
    "pool-build": "focal.assessor.cli.pools:pool_build",
    "pool-stats": "focal.assessor.cli.pools:pool_stats",
    # assessor (web app and database)
    "init-db": "focal.assessor.cli.database:init_db",
    "import": "focal.assessor.cli.imports:import_group",
    "collection": "focal.assessor.cli.collections:collection",
    "users": "focal.assessor.cli.users:users",
    "assign": "focal.assessor.cli.users:assign",
    "serve": "focal.assessor.cli.serve:serve",
    "demo": "focal.assessor.cli.serve:demo",
    "worker": "focal.assessor.cli.serve:worker",
    "export": "focal.assessor.cli.exports:export_group",
    "export-qrels": "focal.assessor.cli.exports:export_qrels_alias",
    "agreement": "focal.assessor.cli.agreement:agreement",
    "report": "focal.assessor.cli.report:report",
    "backup": "focal.assessor.cli.database:backup_command",
    "restore": "focal.assessor.cli.database:restore_command",
}


# The section of `focal --help` each command is listed in, in the order printed: placing a new
# command is one line here (tests/test_cli_help.py fails on a listed command in no section).
# Hidden aliases (`export-qrels`, `pool-build`, `pool-stats`) are in none.
HELP_SECTIONS: dict[str, str] = {
    "eval": "Evaluate runs",
    "compare": "Evaluate runs",
    "measures": "Evaluate runs",
    "trec_eval": "Evaluate runs",
    "convert": "Evaluate runs",
    "doc": "Evaluate runs",
    "baseline": "Evaluate runs",
    "support": "Evaluate runs",
    "pool": "Pool runs",
    "reliability": "Study a test collection",
    "agreement": "Study a test collection",
    "init-db": "Run a campaign",
    "import": "Run a campaign",
    "export": "Run a campaign",
    "collection": "Run a campaign",
    "users": "Run a campaign",
    "assign": "Run a campaign",
    "report": "Run a campaign",
    "backup": "Run a campaign",
    "restore": "Run a campaign",
    "serve": "Serve the assessor web app",
    "demo": "Serve the assessor web app",
    "worker": "Serve the assessor web app",
}
UNPLACED = "Other commands"  # a command missing from HELP_SECTIONS still shows, last

# The extra of `pip install 'focal[EXTRA]'` that brings each optional top-level module
# (pyproject.toml's optional dependencies): a command that needs one says so in one line.
EXTRAS: dict[str, str] = {
    "flask": "assessor",
    "flask_limiter": "assessor",
    "werkzeug": "assessor",
    "jinja2": "assessor",
    "sqlalchemy": "assessor",
    "alembic": "assessor",
    "gunicorn": "assessor",
    "huey": "assessor",
    "platformdirs": "assessor",
    "psycopg": "postgres",
    "redis": "redis",
    "matplotlib": "plots",
}


class MissingExtra(click.ClickException):
    """A command needs a module of an extra that is not installed: one line, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"focal: {self.format_message()}", err=True)


def missing_extra(error: ModuleNotFoundError) -> MissingExtra | None:
    """The one-line refusal for a missing optional module (None: not one of an extra's)."""
    top = (error.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return MissingExtra(
        f"this command needs {top}, which is not installed: pip install 'focal[{extra}]'"
    )


def summary(target: str) -> tuple[str, bool]:
    """A command's help (its first paragraph) and whether it is hidden, read from its source
    without importing it.

    `focal --help` lists every command that is not hidden with this help: importing the
    modules to ask click would load Flask, SQLAlchemy and scipy just to print help.
    """
    module_name, attribute = target.split(":")
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        return "", False
    with open(spec.origin, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attribute:
            given = {
                keyword.arg: keyword.value.value
                for decorator in node.decorator_list
                if isinstance(decorator, ast.Call) and _declares_command(decorator)
                for keyword in decorator.keywords
                if isinstance(keyword.value, ast.Constant)
            }
            text = given.get("short_help") or given.get("help") or ast.get_docstring(node)
            return _first_paragraph(str(text or "")), given.get("hidden") is True
        if _assigns(node, attribute):  # `NAME = Group(..., help=OTHER.help)`: OTHER's help
            return _borrowed_help(tree, node, module_name)
    return "", False


def _assigns(node: ast.stmt, name: str) -> bool:
    return isinstance(node, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id == name for target in node.targets
    )


def _borrowed_help(tree: ast.Module, node: ast.stmt, module_name: str) -> tuple[str, bool]:
    """The help of a command built by a call, `help=` a string or another command's `.help`
    (imported, or defined in the same module), and whether the call makes it `hidden=True`."""
    assert isinstance(node, ast.Assign)
    call = node.value
    keywords = {k.arg: k.value for k in call.keywords} if isinstance(call, ast.Call) else {}
    flag = keywords.get("hidden")
    hidden = isinstance(flag, ast.Constant) and flag.value is True
    given = keywords.get("help")
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return _first_paragraph(given.value), hidden
    if isinstance(given, ast.Attribute) and isinstance(given.value, ast.Name):
        name = given.value.id
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef) and statement.name == name:
                return summary(f"{module_name}:{name}")[0], hidden
            if isinstance(statement, ast.ImportFrom) and statement.module:
                for alias in statement.names:
                    if (alias.asname or alias.name) == name:
                        return summary(f"{statement.module}:{alias.name}")[0], hidden
    return "", hidden


def _first_paragraph(text: str) -> str:
    return " ".join(text.split("\n\n")[0].split())


def _declares_command(decorator: ast.Call) -> bool:
    """Whether a decorator is `click.command(...)`, `click.group(...)` or `GROUP.command(...)`."""
    called = decorator.func
    name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
    return name in ("command", "group")


class LazyGroup(click.Group):
    """A group whose commands are resolved from `COMMANDS` on first use."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands in the sections of `HELP_SECTIONS`, each with its whole summary (never
        cut: tests/test_cli_help.py keeps every summary within 100 columns), without importing
        any command's module."""
        sections: dict[str, list[tuple[str, str]]] = {name: [] for name in HELP_SECTIONS.values()}
        for name in self.list_commands(ctx):
            command = super().get_command(ctx, name)
            if command is None:  # a stand-in that only carries the summary
                text, hidden = summary(COMMANDS[name])
                command = click.Command(name, help=text, hidden=hidden)
            if not command.hidden:
                row = (name, command.short_help or _first_paragraph(command.help or ""))
                sections.setdefault(HELP_SECTIONS.get(name, UNPLACED), []).append(row)
        order = list(HELP_SECTIONS)
        width = max((len(name) for rows in sections.values() for name, _ in rows), default=0)
        for title, rows in sections.items():
            rows.sort(key=lambda row: order.index(row[0]) if row[0] in order else len(order))
            if rows:  # names padded alike: one column of summaries through every section
                with formatter.section(title):
                    formatter.write_dl([(name.ljust(width), text) for name, text in rows])

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as error:
            refusal = missing_extra(error)
            if refusal is None:
                raise
            raise refusal from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(module_name)
        loaded = getattr(module, attribute)
        if not isinstance(loaded, click.Command):
            raise TypeError(f"{target} is not a click command")
        return loaded


def version_text() -> str:
    """What `focal --version` prints: Focal's version, the Python and platform it runs on, and
    whether the article engine's C part answers (docs/packaging.md). The imports wait until asked,
    so that `focal --help` stays light."""
    import platform

    from focal._version import __version__
    from focal.evaluation.measures.trec_eval.kernel import status

    python = f"Python {platform.python_version()} ({platform.python_implementation()})"
    return f"focal {__version__}\n{python} on {platform.platform()}\n{status()}"


def _print_version(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version, the Python, the platform and the C part's status, and exit.",
)
def main() -> None:
    """Focal: assessment and evaluation for focused (XML element and passage) retrieval."""
    check_settings()


def check_settings() -> None:
    """Every `FOCAL_` setting of the environment checked before a command does anything
    (`focal.assessor.cli.settings_error`): a bad value is one line and exit code 2, a name that
    is no setting a warning naming the closest one."""
    from focal.assessor.cli.support import CommandError

    error = settings_error(lambda line: click.echo(line, err=True))
    if error is not None:
        raise CommandError(error)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
