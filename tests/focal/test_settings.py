"""`focal.settings`, the registry of every `FOCAL_` setting: each parser takes its form and
refuses the rest in one line naming the setting, the value and the form; defaults are read by
the same parsers; a name that is no setting gets the closest one; every setting is documented."""

from __future__ import annotations

import ast
import importlib.util
from datetime import timedelta
from pathlib import Path

import pytest

from focal import settings
from focal.evaluation.measures.trec_eval import kernel

REPOSITORY = Path(__file__).resolve().parents[2]
# Rate limits are read by Flask-Limiter's `limits` package, part of the web app's extra: a core
# install has no reader of them, so it cannot refuse one either.
NEEDS_LIMITS = pytest.mark.skipif(
    importlib.util.find_spec("limits") is None,
    reason="rate limits are checked by the `limits` package (pip install 'focal[assessor]')",
)

GOOD = [
    # (name, text, value; None: the text itself)
    ("FOCAL_LOGIN_LIMIT_PER_NAME", "10 per 15 minutes", None),
    ("FOCAL_LOGIN_LIMIT_PER_ADDRESS", "5/hour", None),
    ("FOCAL_REDIS_URL", "redis://127.0.0.1:6379/0", None),
    ("FOCAL_REDIS_URL", "rediss://:secret@cache.example:6380", None),
    ("FOCAL_REDIS_URL", "unix:///run/redis.sock", None),
    ("FOCAL_DATABASE_URL", "sqlite:////var/lib/focal/focal.sqlite", None),
    ("FOCAL_DATABASE_URL", "postgresql+psycopg:///focal?host=/var/run/postgresql", None),
    ("FOCAL_JOB_THREADS", "16", 16),
    ("FOCAL_TRUSTED_PROXIES", "0", 0),
    ("FOCAL_JOB_TIME_LIMIT", "90.5", 90.5),
    ("FOCAL_SESSION_COOKIE_SECURE", "Yes", True),
    ("FOCAL_SESSION_COOKIE_SECURE", "0", False),
    ("FOCAL_JOB_WORKER", "External", "external"),
    ("FOCAL_KERNEL", " NUMPY ", "numpy"),
    ("FOCAL_START_METHOD", "spawn", "spawn"),
    ("FOCAL_TOKEN_LIFETIME", "Never", "never"),
    ("FOCAL_IMPORT_ROOTS", "/srv/a:/srv/b", ["/srv/a", "/srv/b"]),
]
BAD = [
    pytest.param("FOCAL_LOGIN_LIMIT_PER_NAME", "10", marks=NEEDS_LIMITS),
    pytest.param("FOCAL_LOGIN_LIMIT_PER_NAME", "10 per minute; 100 per day", marks=NEEDS_LIMITS),
    pytest.param("FOCAL_LOGIN_LIMIT_PER_ADDRESS", "0 per minute", marks=NEEDS_LIMITS),
    ("FOCAL_REDIS_URL", "localhost:6379"),
    ("FOCAL_REDIS_URL", "http://127.0.0.1:6379/0"),
    ("FOCAL_REDIS_URL", "redis://127.0.0.1:99999/0"),
    ("FOCAL_REDIS_URL", "redis://127.0.0.1:6379/zero"),
    ("FOCAL_DATABASE_URL", "focal.sqlite"),
    ("FOCAL_DATABASE_URL", "sqlite:focal.sqlite"),
    ("FOCAL_JOB_THREADS", "0"),
    ("FOCAL_JOB_THREADS", "17"),
    ("FOCAL_JOB_THREADS", "1_0"),
    ("FOCAL_TRUSTED_PROXIES", "-1"),
    ("FOCAL_JOB_TIME_LIMIT", "1e3"),
    ("FOCAL_JOB_TIME_LIMIT", "an hour"),
    ("FOCAL_SESSION_COOKIE_SECURE", "maybe"),
    ("FOCAL_JOB_WORKER", "sometimes"),
    ("FOCAL_KERNEL", "fortran"),
    ("FOCAL_START_METHOD", "thread"),
    ("FOCAL_TOKEN_LIFETIME", "30m"),
    ("FOCAL_TOKEN_LIFETIME", "0d"),
    ("FOCAL_IMPORT_ROOTS", "material"),
    ("FOCAL_MAX_CONTENT_LENGTH", "1 GiB"),
    ("FOCAL_FUZZ_EXAMPLES", "0"),
    ("FOCAL_TEST_POSTGRES_URL", "127.0.0.1/x"),
]


@pytest.mark.parametrize(("name", "text", "expected"), GOOD)
def test_each_form_is_read(name: str, text: str, expected: object) -> None:
    assert settings.value(name, {name: text}) == (text if expected is None else expected)


@pytest.mark.parametrize(("name", "text"), BAD)
def test_other_values_are_one_line_naming_setting_value_and_form(name: str, text: str) -> None:
    with pytest.raises(settings.SettingError) as refused:
        settings.value(name, {name: text})
    message = str(refused.value)
    assert message.startswith(f"{name}={text!r}: ")
    assert message.endswith(f"expected {settings.BY_NAME[name].form}")
    assert "\n" not in message
    # The start of every command finds the same value bad.
    with pytest.raises(settings.SettingError, match=name):
        settings.check({"FOCAL_KERNEL": "auto", name: text})


def test_every_default_is_read_by_its_own_parser() -> None:
    for setting in settings.SETTINGS:
        assert setting.name.startswith(settings.PREFIX)
        if setting.default is not None:
            assert settings.value(setting.name, {}) == setting.read(setting.default)
        else:
            assert settings.value(setting.name, {}) is None
    assert len(settings.BY_NAME) == len(settings.SETTINGS)


def test_blank_is_unset() -> None:
    assert settings.value("FOCAL_JOB_THREADS", {"FOCAL_JOB_THREADS": "  "}) == 1
    assert settings.value("FOCAL_REDIS_URL", {"FOCAL_REDIS_URL": ""}) is None
    assert settings.check({"FOCAL_REDIS_URL": "", "FOCAL_KERNEL": "c"}) == {"FOCAL_KERNEL": "c"}


def test_passwords_and_secrets_stay_out_of_messages() -> None:
    with pytest.raises(settings.SettingError) as refused:
        settings.value("FOCAL_REDIS_URL", {"FOCAL_REDIS_URL": "redis://:hunter22@host:x/0"})
    assert "hunter22" not in str(refused.value) and ":***@host" in str(refused.value)
    secret = settings.Setting("FOCAL_X", "", "a number", None, int, secret=True)
    with pytest.raises(settings.SettingError) as hidden:
        secret.read("hunter22")
    assert str(hidden.value) == "FOCAL_X=(hidden): expected a number"


def test_a_file_is_no_instance_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert settings.value("FOCAL_INSTANCE", {"FOCAL_INSTANCE": str(tmp_path)}) == tmp_path
    with pytest.raises(settings.SettingError, match="is not a folder"):
        settings.value("FOCAL_INSTANCE", {"FOCAL_INSTANCE": str(tmp_path / "file")})


def test_names_that_are_no_setting_are_named_with_the_closest() -> None:
    warnings = settings.unknown(
        {
            "FOCAL_JOB_WROKER": "external",
            "FOCAL_RATELIMIT_STORAGE_URI": "redis://127.0.0.1/0",
            "focal_kernel": "c",
            "FOCAL_ZZZ": "1",
            "FOCAL_KERNEL": "c",
            "HOME": "/root",
        }
    )
    assert warnings == [
        "FOCAL_JOB_WROKER is not a setting of Focal and is ignored; did you mean FOCAL_JOB_WORKER?",
        "FOCAL_RATELIMIT_STORAGE_URI is not a setting of Focal and is ignored; did you mean "
        "FOCAL_REDIS_URL?",
        "FOCAL_ZZZ is not a setting of Focal and is ignored (docs/deploy.md lists the settings)",
        "focal_kernel is not a setting of Focal and is ignored; did you mean FOCAL_KERNEL?",
    ]


def test_the_app_configuration_is_the_settings_parsed() -> None:
    config = settings.app_config({"FOCAL_JOB_THREADS": "4", "FOCAL_SESSION_COOKIE_SECURE": "on"})
    assert config["JOB_THREADS"] == 4 and config["SESSION_COOKIE_SECURE"] is True
    assert config["LOGIN_LIMIT_PER_NAME"] == settings.BY_NAME["FOCAL_LOGIN_LIMIT_PER_NAME"].default
    assert config["REDIS_URL"] is None
    keys = [setting.config for setting in settings.SETTINGS if setting.config]
    assert sorted(config) == sorted(keys) and len(set(keys)) == len(keys)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("30d", timedelta(days=30)), ("12H", timedelta(hours=12)), (" never ", None)],
)
def test_token_lifetimes(text: str, expected: timedelta | None) -> None:
    assert settings.token_lifetime(text) == expected


def test_the_kernel_takes_its_choices_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    assert kernel.CHOICES == settings.KERNELS
    monkeypatch.setenv("FOCAL_KERNEL", "Numpy")
    assert kernel.choice() == "numpy"
    monkeypatch.setenv("FOCAL_KERNEL", "fortran")
    with pytest.raises(ValueError, match="expected one of auto, c, numpy"):
        kernel.choice()


def test_every_setting_is_documented() -> None:
    pages = [REPOSITORY / "README.md", *sorted((REPOSITORY / "docs").glob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    missing = [setting.name for setting in settings.SETTINGS if setting.name not in text]
    assert not missing, f"no page of docs/ names {missing}"


def test_the_install_takes_the_build_choices_of_the_registry() -> None:
    """setup.py runs before `focal` can be imported, so it keeps its own copy of the values of
    `FOCAL_BUILD_C`: the same as the registry's."""
    tree = ast.parse((REPOSITORY / "setup.py").read_text(encoding="utf-8"))
    [choices] = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id == "CHOICES" for target in node.targets)
    ]
    assert set(choices.values()) == set(settings.BUILD_C)
    assert settings.BY_NAME["FOCAL_BUILD_C"].default in choices
