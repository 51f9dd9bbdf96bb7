"""Which team database, which machine, and what a failure may show: no password, ever."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from session_kit.errors import EXIT_USAGE, KitError
from session_kit.team.connection import check_url, machine_name, team_url, where, without_password


@pytest.mark.parametrize(
    ("url", "password"),
    [
        ("postgresql://kit:s3cret-Pw@db.example/team", "s3cret-Pw"),
        ("postgresql://kit:p%40ss%2Fw0rd@db.example:5433/team", "p@ss/w0rd"),
        ("postgres://kit:plain@[::1]/team?sslmode=require", "plain"),
        ("postgresql://kit:pa/ss-Zq9w@db.example/team", "pa/ss-Zq9w"),  # generated: `/` unencoded
        ("postgresql://kit:pa@ss-Zq9w@db.example/team", "pa@ss-Zq9w"),
        ("postgresql://kit:a/b@c:d?e@db.example:5432/team", "a/b@c:d?e"),
    ],
)
def test_an_address_is_named_without_its_password(url: str, password: str):
    named = where(url)
    assert "***" in named and password not in named and named.startswith(url.split(":")[0] + "://kit:***@")
    error = f'connection to server at "db.example" failed for {url} (password {password})'
    assert password not in without_password(error, url)


def test_a_conninfo_password_and_pgpassword_are_taken_out(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PGPASSWORD", "from-the-environment-77")
    conninfo = "host=db.example user=kit password='two words' dbname=team"
    said = without_password(f"failed: {conninfo}; tried from-the-environment-77", conninfo)
    assert "two words" not in said and "from-the-environment-77" not in said and "host=db.example" in said


def test_the_address_comes_from_the_option_then_the_environment_then_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    (tmp_path / "config.json").write_text(json.dumps({"team": {"url": "postgresql://from-config/db"}}))
    monkeypatch.setenv("SESSION_KIT_TEAM_URL", "postgresql://from-env/db")
    assert team_url("postgresql://given/db", str(tmp_path)) == "postgresql://given/db"
    assert team_url(None, str(tmp_path)) == "postgresql://from-env/db"
    monkeypatch.delenv("SESSION_KIT_TEAM_URL")
    assert team_url(None, str(tmp_path)) == "postgresql://from-config/db"
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(KitError) as raised:
        team_url(None, str(tmp_path))
    assert raised.value.exit_code == EXIT_USAGE


def test_the_machine_is_the_option_then_the_config_then_the_host_name(tmp_path: Path):
    assert machine_name(None, str(tmp_path)) == socket.gethostname()
    (tmp_path / "config.json").write_text(json.dumps({"team": {"machine": "cfgbox"}}))
    assert machine_name(None, str(tmp_path)) == "cfgbox"
    assert machine_name("given", str(tmp_path)) == "given"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://kit:pa/ss-Zq9w@db.example/team", "pa/ss-Zq9w"),
        ("postgresql://kit:pa@ss-Zq9w@db.example/team", "pa@ss-Zq9w"),
        ("postgresql://me@corp@db.example/team", None),
        ("mysql://kit:pw-Zq9w@db.example/team", "pw-Zq9w"),
        ("host=db.example user=kit password=pw-Zq9w dbname=team", "pw-Zq9w"),
        ("db.example/team", None),
        ("postgresql://kit:pw-Zq9w@db.example:port/team", "pw-Zq9w"),
    ],
)
def test_an_address_that_is_no_postgresql_url_is_a_usage_error_naming_the_form(url: str, shown: str | None):
    with pytest.raises(KitError) as raised:
        check_url(url)
    assert raised.value.exit_code == EXIT_USAGE
    assert "postgresql://USER:PASSWORD@HOST[:PORT]/DATABASE" in raised.value.message
    assert shown is None or shown not in raised.value.message


def test_a_url_libpq_reads_as_written_is_taken():
    for url in ("postgresql://kit:p%40ss%2Fw0rd@db.example:5433/team", "postgres://[::1]/team", "postgresql:///team"):
        assert check_url(url) == url
