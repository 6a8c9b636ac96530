"""`publish`: content-hashed assets, uploads (folder, S3 on loopback), link check, Workshop package.

Every network test talks to a real server on 127.0.0.1: http.server for hosting, moto's S3
server (optionally behind a fault-injecting proxy) for S3-compatible storage.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import json
import os
import re
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import SESSION_CACHE

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.errors import BuildError
from tts_builder.ship.publish import (
    FolderUploader,
    PublishPlan,
    asset_files,
    check_base_url,
    content_name,
    plan_publish,
    png_optimizer,
    publish,
    rewrite_strings,
    upload_all,
    url_fields,
)

GAME = "arche-noah"
BUCKET = "tts-mods"


@pytest.fixture(scope="module")
def options(tmp_path_factory: pytest.TempPathFactory) -> BuildOptions:
    return BuildOptions(out_dir=tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def built(options: BuildOptions) -> GameBuild:
    return build_game(GAME, options, SESSION_CACHE)


# --- servers on loopback ----------------------------------------------------------------------


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _serve(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder (think: a GitHub Pages checkout) served over HTTP: (folder, its base URL)."""
    folder = tmp_path / "site"
    folder.mkdir()
    handler = functools.partial(_Quiet, directory=str(folder))
    for server in _serve(handler):
        yield folder, f"http://127.0.0.1:{server.server_address[1]}/"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- naming and the plan (pure) ---------------------------------------------------------------


def test_content_names_change_exactly_when_the_bytes_do() -> None:
    a = content_name("images/cards-1.png", b"one")
    assert (
        a.startswith("images/cards-1-")
        and a.endswith(".png")
        and len(a) == len("images/cards-1-") + 16 + 4
    )
    assert content_name("images/cards-1.png", b"one") == a
    assert content_name("images/cards-1.png", b"two") != a


def test_rewrite_reaches_every_string() -> None:
    save = {
        "A": "file:///x/a.png",
        "B": [{"FaceURL": "file:///x/a.png"}],
        "LuaScript": 'spawn("file:///x/a.png")',
        "N": 1,
    }
    out = rewrite_strings(save, {"file:///x/a.png": "https://h/a-1.png"})
    assert out == {
        "A": "https://h/a-1.png",
        "B": [{"FaceURL": "https://h/a-1.png"}],
        "LuaScript": 'spawn("https://h/a-1.png")',
        "N": 1,
    }


def test_plan_hosts_every_asset_under_the_base_url(built: GameBuild, options) -> None:
    plan = plan_publish(built, options, "https://ada.github.io/mods/")
    assert plan.base_url == "https://ada.github.io/mods"
    urls = {url for _, url in url_fields(plan.save)}
    assert urls == set(plan.urls.values())
    assert all(url.startswith("https://ada.github.io/mods/arche-noah/images/") for url in urls)
    images = sorted(d for rel, d in built.files.items() if rel.startswith("images/"))
    assert sorted(plan.assets.values()) == images
    assert b"file:" not in plan.save_bytes and str(options.out_dir).encode() not in plan.save_bytes
    meta = plan.workshop
    data = built.definition.data
    assert meta["title"] == data["name"] and meta["description"] == data["description"]
    assert meta["tags"] == data["tags"] and meta["players"] == {"min": 2, "max": 5}
    assert meta["playing_time"] == data["playing_time"]
    assert set(meta["assets"]) == {rel for rel in built.files if rel.startswith("images/")}


def test_workshop_metadata_of_a_variant() -> None:
    from tts_builder.ship.publish import workshop_metadata

    data = {
        "name": "Ark",
        "description": "Full game.",
        "players": {"min": 2, "max": 4},
        "tags": ["Family"],
        "variants": {"family": {"name": "Family", "description": "The quick game."}},
    }
    meta = workshop_metadata(data, "ark", "family")
    assert (meta["title"], meta["description"]) == ("Ark (Family)", "The quick game.")
    assert meta["players"] == {"min": 2, "max": 4} and meta["variant"] == "family"
    plain = workshop_metadata({**data, "variants": ["solo"]}, "ark", "solo")
    assert (plain["title"], plain["description"]) == ("Ark (solo)", "Full game.")


@pytest.mark.parametrize(
    "bad", ["ftp://host/x", "ada.github.io/mods", "https://", "https://h/x?y=1"]
)
def test_base_url_must_be_http(bad: str) -> None:
    with pytest.raises(BuildError, match="--base-url"):
        check_base_url(bad)


# --- folder upload + link check over HTTP -----------------------------------------------------


def _plan(built: GameBuild, options, base_url: str) -> PublishPlan:
    return plan_publish(built, options, base_url)


def test_publish_to_a_folder_served_over_http(built, options, site, tmp_path: Path) -> None:
    folder, base = site
    plan = _plan(built, options, base + "mods")
    package = tmp_path / "package"
    log: list[str] = []
    (folder / "mods").mkdir()
    result = publish(plan, package, FolderUploader(folder / "mods"), timeout=5, report=log.append)
    assert result.uploaded == len(plan.assets) == result.checked
    for key, data in plan.assets.items():
        assert (folder / "mods" / key).read_bytes() == data
    files = {p.name: p.read_bytes() for p in package.iterdir()}
    assert set(files) == {"arche-noah.json", "arche-noah.png", "workshop.json", "UPLOAD.md"}
    assert files["arche-noah.json"] == plan.save_bytes
    assert files["arche-noah.png"] == built.files["arche-noah.png"]
    assert json.loads(files["workshop.json"])["title"] == "Arche Noah"
    steps = files["UPLOAD.md"].decode()
    assert "Workshop Upload" in steps and "Cloud Manager" in steps and "Upload All" in steps
    assert "players: 2-5" in steps and str(package / "arche-noah.png") in steps
    assert any("link check: all 5 asset URLs" in line for line in log)
    # Publishing again uploads nothing new: the names are content hashes.
    again = publish(plan, package, FolderUploader(folder / "mods"), timeout=5)
    assert again.uploaded == 0


def test_stale_bytes_at_a_url_fail_the_link_check(built, options, site, tmp_path: Path) -> None:
    folder, base = site
    plan = _plan(built, options, base)
    for key, data in plan.assets.items():
        (folder / key).parent.mkdir(parents=True, exist_ok=True)
        (folder / key).write_bytes(data)
    victim = sorted(plan.assets)[0]
    (folder / victim).write_bytes(b"an old image")
    with pytest.raises(BuildError, match=r"1 of 5 URLs failed: .*different bytes"):
        publish(plan, tmp_path / "package", None, timeout=5)
    assert not (tmp_path / "package").exists()


def test_missing_assets_fail_with_a_hint(built, options, site, tmp_path: Path) -> None:
    folder, base = site
    plan = _plan(built, options, base + "not-pushed-yet")
    with pytest.raises(BuildError, match=r"5 of 5 URLs failed: .*HTTP 404.*push it"):
        publish(plan, tmp_path / "package", FolderUploader(folder), timeout=5)
    assert not (tmp_path / "package").exists()


def test_unreachable_base_url_publishes_nothing(built, options, tmp_path: Path) -> None:
    plan = _plan(built, options, f"http://127.0.0.1:{_closed_port()}/mods")
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(BuildError, match=r"base URL .* is unreachable .*nothing was published"):
        publish(plan, tmp_path / "package", FolderUploader(dest), timeout=2)
    assert list(dest.iterdir()) == [] and not (tmp_path / "package").exists()


def test_an_upload_failing_half_way_is_retried_then_reported(
    built, options, site, tmp_path: Path
) -> None:
    folder, base = site
    plan = _plan(built, options, base)
    third = sorted(plan.assets)[2]
    (folder / third).mkdir(parents=True)  # a folder where the third file must go: writes fail
    package = tmp_path / "package"
    package.mkdir()
    (package / "arche-noah.json").write_bytes(b"the previous release")
    log: list[str] = []
    with pytest.raises(BuildError) as err:
        publish(
            plan,
            package,
            FolderUploader(folder),
            timeout=5,
            attempts=3,
            backoff=0.0,
            report=log.append,
        )
    message = str(err.value)
    assert "failed after 3 attempts" in message and third.rsplit("/", 1)[1] in message
    assert "nothing was published" in message and "\n" not in message
    assert sum("retrying" in line for line in log) == 2
    assert (package / "arche-noah.json").read_bytes() == b"the previous release"
    assert sorted(p.name for p in package.iterdir()) == ["arche-noah.json"]


def test_a_transient_folder_failure_is_retried(built, options, tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    plan = _plan(built, options, "https://example.invalid/")
    key = sorted(plan.assets)[0]
    (dest / key).mkdir(parents=True)
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:  # the blocking folder is cleared while we back off
        sleeps.append(seconds)
        (dest / key).rmdir()

    assert upload_all(
        FolderUploader(dest), plan.assets, attempts=3, backoff=0.25, sleep=sleep
    ) == len(plan.assets)
    assert sleeps == [0.25] and (dest / key).read_bytes() == plan.assets[key]


# --- S3-compatible storage (moto's server on loopback) ----------------------------------------


@pytest.fixture(scope="module")
def s3_server() -> Iterator[str]:
    pytest.importorskip("boto3")
    server_mod = pytest.importorskip("moto.server")
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def s3(s3_server: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """A fresh public-read bucket on the moto server; yields a boto3 client."""
    import boto3

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    client = boto3.client("s3", endpoint_url=s3_server)
    bucket = f"{BUCKET}-{len(list(client.list_buckets()['Buckets']))}"
    client.create_bucket(Bucket=bucket)
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": "*",
                "Action": "s3:GetObject",
                "Resource": f"arn:aws:s3:::{bucket}/*",
            }
        ],
    }
    client.put_bucket_policy(Bucket=bucket, Policy=json.dumps(policy))
    client.bucket = bucket  # type: ignore[attr-defined]
    return client


class _FlakyProxy(BaseHTTPRequestHandler):
    """Forwards to the S3 server, but answers 503 SlowDown to PUTs the server says to fail."""

    protocol_version = "HTTP/1.1"  # so boto3's "Expect: 100-continue" is answered at once

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.command == "PUT" and self.server.should_fail(self.path):  # type: ignore[attr-defined]
            error = b"<Error><Code>SlowDown</Code><Message>injected failure</Message></Error>"
            self.send_response(503)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(error)))
            self.end_headers()
            self.wfile.write(error)
            return
        host, port = self.server.upstream  # type: ignore[attr-defined]
        conn = http.client.HTTPConnection(host, port, timeout=10)
        headers = {
            k: v
            for k, v in self.headers.items()
            if k.lower() not in ("expect", "connection", "content-length")
        }
        conn.request(self.command, self.path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        self.send_response(response.status, response.reason)
        for key, value in response.getheaders():
            if key.lower() not in (
                "transfer-encoding",
                "connection",
                "content-length",
                "server",
                "date",
            ):
                self.send_header(key, value)
        length = response.getheader("Content-Length") if self.command == "HEAD" else None
        self.send_header("Content-Length", length or str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_PUT = do_HEAD = do_POST = do_DELETE = _forward


@pytest.fixture
def flaky(s3_server: str) -> Iterator[ThreadingHTTPServer]:
    """The proxy; set ``.should_fail(path) -> bool`` to inject failures."""
    host, port = s3_server.removeprefix("http://").split(":")
    for server in _serve(_FlakyProxy):
        server.upstream = (host, int(port))  # type: ignore[attr-defined]
        server.should_fail = lambda path: False  # type: ignore[attr-defined]
        server.puts = []  # type: ignore[attr-defined]
        yield server


def _s3_uploader(bucket: str, endpoint: str):
    from tts_builder.ship.publish import make_uploader

    return make_uploader(f"s3://{bucket}/mods", endpoint)


def test_publish_to_s3(built, options, s3, s3_server: str, tmp_path: Path) -> None:
    plan = _plan(built, options, f"{s3_server}/{s3.bucket}/mods")
    package = tmp_path / "package"
    result = publish(plan, package, _s3_uploader(s3.bucket, s3_server), timeout=5)
    assert result.uploaded == len(plan.assets) and (package / "arche-noah.json").is_file()
    key = sorted(plan.assets)[0]
    head = s3.head_object(Bucket=s3.bucket, Key=f"mods/{key}")
    assert head["ContentType"] == "image/png" and "immutable" in head["CacheControl"]
    again = publish(plan, package, _s3_uploader(s3.bucket, s3_server), timeout=5)
    assert again.uploaded == 0


def test_s3_upload_failing_half_way_publishes_nothing(
    built, options, s3, s3_server: str, flaky, tmp_path: Path
) -> None:
    done: list[str] = []

    def fail_after_two(path: str) -> bool:
        if len(done) >= 2:
            return True
        done.append(path)
        return False

    flaky.should_fail = fail_after_two
    proxy = f"http://127.0.0.1:{flaky.server_address[1]}"
    plan = _plan(built, options, f"{s3_server}/{s3.bucket}/mods")
    package = tmp_path / "package"
    with pytest.raises(
        BuildError,
        match=r"failed after 3 attempts: .*SlowDown.*nothing was "
        r"published",
    ):
        publish(plan, package, _s3_uploader(s3.bucket, proxy), timeout=5, attempts=3, backoff=0.0)
    assert not package.exists()
    stored = s3.list_objects_v2(Bucket=s3.bucket).get("Contents", [])
    assert len(stored) == 2  # content-hashed leftovers: no published save points at them


def test_s3_transient_failures_are_retried(
    built, options, s3, s3_server: str, flaky, tmp_path: Path
) -> None:
    seen: set[str] = set()

    def fail_first_try(path: str) -> bool:
        first = path not in seen
        seen.add(path)
        return first

    flaky.should_fail = fail_first_try
    proxy = f"http://127.0.0.1:{flaky.server_address[1]}"
    plan = _plan(built, options, f"{s3_server}/{s3.bucket}/mods")
    log: list[str] = []
    result = publish(
        plan,
        tmp_path / "package",
        _s3_uploader(s3.bucket, proxy),
        timeout=5,
        attempts=2,
        backoff=0.0,
        report=log.append,
    )
    assert result.uploaded == len(plan.assets)
    assert sum("retrying" in line for line in log) == len(plan.assets)


def test_s3_without_such_a_bucket_is_not_retried(
    built, options, s3, s3_server: str, tmp_path: Path
) -> None:
    plan = _plan(built, options, f"{s3_server}/nope/mods")
    with pytest.raises(BuildError, match=r"\(not retried\): .*NoSuchBucket"):
        publish(
            plan,
            tmp_path / "package",
            _s3_uploader("no-such-bucket", s3_server),
            timeout=5,
            attempts=3,
            backoff=0.0,
        )


# --- the command ------------------------------------------------------------------------------


def test_publish_command(capsys, cli_out: Path, site, tmp_path: Path, monkeypatch) -> None:
    from tts_builder.ship import publish as pub

    monkeypatch.setitem(pub.OXIPNG_OPTIONS, "level", 0)  # the quickest lossless pass
    monkeypatch.setattr(pub, "OXIPNG_DEFLATE_LEVEL", 1)
    folder, base = site
    saves = tmp_path / "TTS" / "Saves"
    saves.mkdir(parents=True)
    args = [
        "publish",
        GAME,
        "--base-url",
        base,
        "--upload",
        str(folder),
        "--out",
        str(cli_out),
        "--install",
        "--saves-dir",
        str(saves),
    ]
    code = run(args)
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert out.startswith("published Arche Noah: 5 assets under")
    assert "## In-game Workshop Upload" in out and "installed as `TS_Save_1.json`" in out
    package = cli_out / "workshop" / GAME
    assert (package / "UPLOAD.md").read_text() in out
    assert "warning: --base-url http://127.0.0.1:" in err and "(loopback)" in err
    installed = (saves / "TS_Save_1.json").read_bytes()
    assert installed == (package / "arche-noah.json").read_bytes()
    assert re.search(r"assets: \d+ bytes, [01]\.\d{3} of the \d+ built", err)
    for path in (folder / GAME / "images").iterdir():  # named by the bytes uploaded
        assert path.name == Path(content_name(path.name.rsplit("-", 1)[0] + ".png",
                                              path.read_bytes())).name  # fmt: skip


def test_publish_without_pyoxipng_uploads_the_built_bytes(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "oxipng", None)  # as if it were not installed
    assert png_optimizer() is None


# --- lossless recompression -------------------------------------------------------------------

SMALL = 100_000  # bytes: the tests recompress the small images (a card sheet takes seconds)


def _small_pngs(build: GameBuild) -> dict[str, bytes]:
    return {rel: data for rel, data in build.files.items()
            if rel.endswith(".png") and len(data) < SMALL}  # fmt: skip


def test_optimised_pngs_have_the_same_pixels_fewer_bytes_and_are_deterministic(built) -> None:
    from io import BytesIO

    from PIL import Image

    originals = _small_pngs(built)
    assert len(originals) >= 5
    first = {rel: png_optimizer()(data) for rel, data in originals.items()}
    second = {rel: png_optimizer()(data) for rel, data in originals.items()}
    assert first == second  # the same bytes twice
    for rel, data in originals.items():
        with Image.open(BytesIO(data)) as before, Image.open(BytesIO(first[rel])) as after:
            assert (after.mode, after.size) == (before.mode, before.size), rel
            assert after.tobytes() == before.tobytes(), rel
        assert len(first[rel]) <= 0.88 * len(data), rel  # each one, not only in sum
    assert sum(map(len, first.values())) <= 0.88 * sum(map(len, originals.values()))


def test_optimised_results_are_cached_by_content(built) -> None:
    cache: dict[str, bytes] = {}
    data = next(iter(_small_pngs(built).values()))
    smaller = png_optimizer(cache)(data)
    assert list(cache.values()) == [smaller]
    key = next(iter(cache))
    cache[key] = b"cached"
    assert png_optimizer(cache)(data) == b"cached"  # read back, not recompressed


def test_plan_names_and_hosts_the_optimised_bytes(built, options) -> None:
    optimize = png_optimizer({})  # each image recompressed once (the same bytes again: above)
    assert optimize is not None

    def small_only(data: bytes) -> bytes:
        return optimize(data) if len(data) < SMALL else data

    plain = plan_publish(built, options, "https://ada.github.io/mods/")
    plan = plan_publish(built, options, "https://ada.github.io/mods/", optimize=small_only)
    assert len(plan.assets) == len(asset_files(built.files))
    assert sum(map(len, plan.assets.values())) < sum(map(len, plain.assets.values()))
    for key, data in plan.assets.items():
        rel = key.split("/", 1)[1]
        stem = rel.rsplit("-", 1)[0] + ".png"
        assert rel == content_name(stem, data)
        assert data == small_only(built.files[stem])
        assert plan.urls[key].encode() in plan.save_bytes
    assert plan.thumbnail == small_only(built.files["arche-noah.png"]) != plain.thumbnail


def test_publish_command_fails_on_one_line(capsys, cli_out: Path, tmp_path: Path) -> None:
    code = run(
        [
            "-q",
            "publish",
            GAME,
            "--base-url",
            f"http://127.0.0.1:{_closed_port()}/",
            "--out",
            str(cli_out),
            "--package",
            str(tmp_path / "pkg"),
        ]
    )
    _, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1 and "unreachable" in err
    assert not (tmp_path / "pkg").exists()


def test_ark_and_noah_publishes_one_game_for_two_to_four_players(tmp_path: Path) -> None:
    """The Workshop package carries the one save Setup builds for 2-4 seated players, with
    every image (both sides of each animal tile, the bonus tokens) hosted."""
    options = BuildOptions(out_dir=tmp_path / "dist")
    ark = build_game("ark-and-noah", options, dict(SESSION_CACHE))
    plan = plan_publish(ark, options, "https://ada.github.io/mods/")
    assert plan.save["PlayerCounts"] == [2, 4] and plan.workshop["players"] == {"min": 2, "max": 4}
    assert plan.save_name == "ark-and-noah.json" and plan.thumbnail == ark.files["ark-and-noah.png"]
    hosted = {url for _, url in url_fields(plan.save)}
    assert hosted == set(plan.urls.values())
    assert sum("/animal-" in url for url in hosted) == 2 * 52
    assert b"file:" not in plan.save_bytes


# --- the user's permissions, never the credentials (#24) --------------------------------------


@pytest.fixture
def umask_022() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_uploaded_files_get_the_users_permissions(
    built, options, site, tmp_path: Path, umask_022
) -> None:
    """A web server running as another account reads what --upload wrote (files were 0600)."""
    folder, base = site
    plan = _plan(built, options, base)
    stale = sorted(plan.assets)[0]  # left by an earlier publish, private
    (folder / stale).parent.mkdir(parents=True)
    (folder / stale).write_bytes(plan.assets[stale])
    os.chmod(folder / stale, 0o600)
    os.chmod((folder / stale).parent, 0o755)
    result = publish(plan, tmp_path / "package", FolderUploader(folder), timeout=5)
    assert result.uploaded == len(plan.assets) - 1
    for key in plan.assets:
        assert _mode(folder / key) == 0o644, key
    assert _mode(folder / GAME) == 0o755
    assert not [p for p in folder.rglob("*.tmp")]
    assert _mode(tmp_path / "package") == 0o755
    assert {_mode(p) for p in (tmp_path / "package").iterdir()} == {0o644}


def test_a_narrow_umask_is_respected(built, options, tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    plan = _plan(built, options, "https://example.invalid/")
    before = os.umask(0o027)
    try:
        upload_all(FolderUploader(dest), plan.assets)
    finally:
        os.umask(before)
    assert {_mode(dest / key) for key in plan.assets} == {0o640}
    assert _mode(dest / GAME / "images") == 0o750


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("https://ada:secret@host/x", "https://***@host/x"),
        ("see http://ada@host:8080/ and s3+http://k:p@a@h/p?q=a@b", "see http://***@host:8080/"
         " and s3+http://***@h/p?q=a@b"),
        ("'HTTPS://u:p%40w@[::1]:9/'", "'HTTPS://***@[::1]:9/'"),
        ("mail a@b.c at https://host/x?to=a@b", "mail a@b.c at https://host/x?to=a@b"),
    ],
)  # fmt: skip
def test_credentials_are_masked_in_any_text(text: str, masked: str) -> None:
    from tts_builder.ship.urls import mask_credentials

    assert mask_credentials(text) == masked == mask_credentials(masked)


@pytest.mark.parametrize(
    "bad",
    [
        "https://ada:secret@example.com/mods",
        "http://127.0.0.1:99999/",
        "http://[::1/",
        "https://" + "a" * 300 + ".com/",
        "https://exa mple.com/",
        "https://example.com/\x1b[31mred",
        "http://example.com:0/",
    ],
)
def test_base_url_is_refused_cleanly(bad: str) -> None:
    with pytest.raises(BuildError, match="--base-url") as err:
        check_base_url(bad)
    assert "secret" not in str(err.value) and "\x1b" not in str(err.value)


def test_publish_never_prints_credentials(
    capsys, cli_out: Path, site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In --base-url (refused: a published save would carry them to every player) and in
    --endpoint-url (checked; botocore's messages name the endpoint)."""
    pytest.importorskip("boto3")
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
    }.items():
        monkeypatch.setenv(name, value)
    folder, base = site
    port = _closed_port()
    runs = {
        "base": ["--base-url", f"http://ada:secret@127.0.0.1:{port}/"],
        "endpoint": ["--base-url", base, "--upload", "s3://b", "--endpoint-url", "k:secret@h"],
        "unreachable endpoint": [
            "--base-url",
            base,
            "--upload",
            "s3://bucket/mods",
            "--endpoint-url",
            f"http://key:secret@127.0.0.1:{port}",
            "--retries",
            "0",
            "--no-optimize",
        ],
    }
    for name, args in runs.items():
        code = run(["publish", GAME, "--out", str(cli_out), *args])
        out, err = capsys.readouterr()
        assert code == EXIT_BAD_INPUT, (name, err)
        assert "secret" not in out + err and "***@" in err, (name, err)
        assert "Traceback" not in err and err.count("\n") >= 1, name


class _Hostile(BaseHTTPRequestHandler):
    """A server answering the link check with what no client should have to swallow."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        mode = self.path.rsplit("/", 1)[-1]
        if mode == "status":
            self.wfile.write(b"HTTP/1.1 abc nonsense\r\n\r\n")
        elif mode == "headers":
            self.send_response(200)
            for i in range(1000):
                self.send_header(f"X-{i}", "y")
            self.end_headers()
        elif mode == "long-header":
            self.send_response(200)
            self.send_header("X-Long", "y" * 100_000)
            self.end_headers()
        elif mode == "escapes":
            self.wfile.write(b"HTTP/1.1 404 \x1b[31mRED\x07\r\nContent-Length: 0\r\n\r\n")
        elif mode == "drip":
            self.send_response(200)
            self.end_headers()
            with contextlib.suppress(OSError):
                for _ in range(40):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.1)


@pytest.mark.parametrize(
    ("mode", "problem"),
    [
        ("status", "a broken HTTP answer (BadStatusLine)"),
        ("headers", "a broken HTTP answer (HTTPException)"),
        ("long-header", "a broken HTTP answer (LineTooLong)"),
        ("escapes", r"HTTP 404 \x1b[31mRED\x07"),
        ("drip", "no whole answer within 1 s"),
    ],
)
def test_the_link_check_survives_any_answer(mode: str, problem: str) -> None:
    """Each was exit 3 (http.client's exceptions are no OSError), or, dripped a byte at a time,
    held publish for minutes (the timeout is the socket's, per read)."""
    from tts_builder.ship.publish import LinkError, fetch_url

    for server in _serve(_Hostile):
        started = time.monotonic()
        with pytest.raises(LinkError) as err:
            fetch_url(f"http://127.0.0.1:{server.server_address[1]}/{mode}", 0.75, 64 * 1024)
        assert str(err.value) == problem and "\x1b" not in str(err.value)
        assert time.monotonic() - started < 3


def test_the_package_folder_is_checked_before_anything_is_published(tmp_path: Path) -> None:
    from tts_builder.ship.publish import check_package_dir

    (tmp_path / "file").write_bytes(b"mine")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for bad in ("file", "file/pkg", "fifo", "loop/pkg"):
        with pytest.raises(BuildError, match=r"--package .* is not a folder"):
            check_package_dir(tmp_path / bad)
    assert check_package_dir(tmp_path / "new" / "pkg") == tmp_path / "new" / "pkg"
    assert (tmp_path / "file").read_bytes() == b"mine"
