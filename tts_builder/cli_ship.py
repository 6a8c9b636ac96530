"""The shipping commands: ``install``, ``publish``, ``push`` and ``watch`` (see docs/shipping.md).

``register(cli)`` adds them to the main click group. Every command builds the game first (with
the render cache in ``<out>/.cache``, so an unchanged game builds in a fraction of a second),
lints its Lua and checks its save, then ships it. Exit codes as for ``build``; ``push`` exits 1
when TTS reported Lua errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .errors import BuildError

if TYPE_CHECKING:
    from .cli import Reporter

_VARIANT = click.option("--variant", help="Ship this variant of the game.")
_OUT = click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Build folder holding the render cache (default: dist/ in the current folder).",
)
_SAVES = click.option(
    "--saves-dir",
    type=click.Path(path_type=Path),  # find_saves_dir says what is wrong with it, on one line
    default=None,
    help="TTS Saves folder (default: $TTS_SAVES_DIR, else the usual folder for this OS).",
)
_TTS_PORT = click.option(
    "--tts-port",
    type=click.IntRange(1, 65535),
    default=39999,
    show_default=True,
    help="Port TTS listens on.",
)
_EDITOR_PORT = click.option(
    "--editor-port",
    type=click.IntRange(1, 65535),
    default=39998,
    show_default=True,
    help="Port to listen on for TTS's messages.",
)
_TIMEOUT = click.option(
    "--timeout",
    type=click.FloatRange(0.1),
    default=30.0,
    show_default=True,
    help="Seconds to wait for TTS to answer.",
)


def _title(plan: Any) -> str:
    """The name TTS lists an installed save under (its SaveName)."""
    return str(json.loads(plan.save_bytes).get("SaveName") or plan.key)


def _real(path: Path) -> Path:
    """``path`` absolute, links resolved; a loop is left for the write that meets it to say."""
    return Path(os.path.realpath(path))


def _out(out_dir: Path | None) -> Path:
    from .build import DEFAULT_OUT

    return _real(out_dir or DEFAULT_OUT)


def _build(report: Reporter, game: str, variant: str | None, out: Path) -> tuple[Any, Any]:
    """Build, lint and check one game (cached renders); the build and its options."""
    from .build import BuildOptions, build_game, lint_build
    from .cache import Store
    from .cli_build import refuse_failing
    from .definition import find_game

    find_game(game, report.assets)  # a one-line error for an unknown game, before anything else
    options = BuildOptions(out_dir=out, variant=variant)
    cache = Store(out / ".cache")
    build = build_game(game, options, cache, report.assets)
    lint_build(build, cache)
    refuse_failing(build)  # what `build` refuses is not installed or published either
    report(f"built {game}: {build.rendered} images rendered")
    return build, options


@click.command()
@click.argument("game")
@_VARIANT
@_SAVES
@_OUT
@click.pass_obj
def install(
    report: Reporter,
    game: str,
    variant: str | None,
    saves_dir: Path | None,
    out_dir: Path | None,
) -> None:
    """Install GAME into TTS's Saves folder as TS_Save_<N>.json, with local images.

    Re-installing the same game replaces its own earlier save; any other save is left alone.
    """
    from .ship.install import describe_install, install_build
    from .ship.tts_paths import find_saves_dir, install_key

    saves = find_saves_dir(saves_dir)
    build, options = _build(report, game, variant, _out(out_dir))
    for plan in install_build(build, options, saves, install_key(game, variant)):
        click.echo(describe_install(plan, _title(plan)))
    report(
        f"in TTS: Create → Singleplayer, then Games → Save & Load → "
        f"{build.save.get('SaveName', build.definition.name)}"
    )


def _optimizer(report: Callable[[str], None], optimize: bool, out: Path) -> Any:
    """The lossless PNG optimiser publish uses (its results cached in ``<out>/.cache``)."""
    from .cache import Store
    from .ship import publish as pub

    if not optimize:
        return None
    found = pub.png_optimizer(Store(out / ".cache"))
    if found is None:
        report(
            "pyoxipng is not installed: the images are uploaded as built (pip install "
            "pyoxipng for smaller ones)"
        )
    return found


@click.command()
@click.argument("game")
@click.option(
    "--base-url",
    required=True,
    help="Public URL the assets are served from, e.g. https://you.github.io/mods.",
)
@click.option(
    "--upload",
    "dest",
    default=None,
    help="Put the assets here first: a folder (e.g. a GitHub Pages checkout) or "
    "s3://BUCKET[/PREFIX].",
)
@click.option(
    "--endpoint-url",
    default=None,
    help="S3-compatible endpoint (MinIO, Cloudflare R2, ...); default: AWS.",
)
@click.option(
    "--s3-acl",
    default=None,
    help="Canned ACL for uploaded objects, e.g. public-read (if your bucket uses "
    "ACLs rather than a public-read bucket policy).",
)
@click.option(
    "--package",
    "package_dir",
    type=click.Path(path_type=Path),  # check_package_dir says what is wrong with it
    default=None,
    help="Workshop package folder (default: <out>/workshop/<game>).",
)
@click.option(
    "--install",
    "do_install",
    is_flag=True,
    help="Also install the published save into TTS, ready for Workshop Upload.",
)
@click.option(
    "--retries",
    type=click.IntRange(0, 10),
    default=2,
    show_default=True,
    help="Retries per asset upload.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1),
    default=10.0,
    show_default=True,
    help="Seconds to wait for each URL in the link check.",
)
@click.option(
    "--optimize/--no-optimize",
    default=True,
    show_default=True,
    help="Recompress every PNG losslessly (oxipng) before upload: same pixels, "
    "fewer bytes for every player to download.",
)
@_VARIANT
@_SAVES
@_OUT
@click.pass_obj
def publish(
    report: Reporter,
    game: str,
    base_url: str,
    dest: str | None,
    endpoint_url: str | None,
    s3_acl: str | None,
    package_dir: Path | None,
    do_install: bool,
    retries: int,
    timeout: float,
    optimize: bool,
    variant: str | None,
    saves_dir: Path | None,
    out_dir: Path | None,
) -> None:
    """Publish GAME: hosted, content-hashed images, checked links, a Workshop package.

    The save is written only after every asset is uploaded and answers with the built bytes.
    """
    from .ship import publish as pub
    from .ship import urls
    from .ship.install import install_files
    from .ship.tts_paths import find_saves_dir, install_key

    def say(message: str) -> None:
        report(urls.mask_credentials(message))

    def echo(message: str, err: bool = False) -> None:
        click.echo(urls.mask_credentials(message), err=err)

    with urls.credentials_masked():
        base = urls.check_base_url(base_url)
        urls.check_endpoint_url(endpoint_url)
        saves = find_saves_dir(saves_dir) if do_install else None
        uploader = pub.make_uploader(dest, endpoint_url, s3_acl) if dest else None
        pub.probe_base_url(base, timeout)  # fail fast, before building and recompressing
        out = _out(out_dir)
        package = _real(package_dir or out / "workshop" / install_key(game, variant))
        pub.check_package_dir(package)  # before anything is built or uploaded
        build, options = _build(report, game, variant, out)
        plan = pub.plan_publish(build, options, base, variant, _optimizer(say, optimize, out))
        before = sum(len(data) for data in pub.asset_files(build.files).values())
        after = sum(len(data) for data in plan.assets.values())
        say(f"assets: {after} bytes, {after / max(before, 1):.3f} of the {before} built")

        def put_in_tts(plan: pub.PublishPlan) -> str:
            assert saves is not None
            done = install_files(saves, install_key(game, variant), plan.save_bytes, plan.thumbnail)
            say(f"installed the published save as {done.save_path}")
            if done.index_note:
                say(f"note: {done.index_note}")
            return done.save_path.name

        result = pub.publish(
            plan,
            package,
            uploader,
            timeout=timeout,
            attempts=retries + 1,
            install=put_in_tts if do_install else None,
            report=say,
        )
        echo(
            f"published {plan.workshop['title']}: {len(plan.assets)} assets under {base} "
            f"({result.uploaded} uploaded now); Workshop package: {package}"
        )
        echo("")
        echo(result.steps)
        local = urls.local_only_reason(base)
        if local:  # it worked here, but not for anyone else
            echo(
                f"warning: --base-url {base}: other players' TTS cannot load images from "
                f"there ({local}); publish to a public address for the Workshop",
                err=True,
            )


@click.command()
@click.argument("game")
@click.option(
    "--exec",
    "code",
    default=None,
    help="Lua to run in TTS after the reload; its return value is printed.",
)
@click.option(
    "--guid",
    default="-1",
    show_default=True,
    help="Object to run --exec on (-1 is Global; the object needs a script).",
)
@click.option("--no-reload", is_flag=True, help="Only run --exec; do not Save & Play.")
@click.option(
    "--force",
    is_flag=True,
    help="Save & Play even if the game loaded in TTS does not look like GAME.",
)
@click.option(
    "--listen",
    type=click.FloatRange(0),
    default=3.0,
    show_default=True,
    help="Seconds to keep showing TTS's messages afterwards.",
)
@click.option("--follow", is_flag=True, help="Keep showing TTS's messages until Ctrl-C.")
@_VARIANT
@_OUT
@_TIMEOUT
@_TTS_PORT
@_EDITOR_PORT
@click.pass_obj
def push(
    report: Reporter,
    game: str,
    code: str | None,
    guid: str,
    no_reload: bool,
    force: bool,
    listen: float,
    follow: bool,
    variant: str | None,
    out_dir: Path | None,
    timeout: float,
    tts_port: int,
    editor_port: int,
) -> None:
    """Push GAME's scripts and UI into the running TTS (Save & Play) and show its messages.

    Lua errors are shown at their template file and line. Only scripts and UI change: for
    changed components or table layout, run install and load the save again. Save & Play is
    refused if none of GAME's objects is on the table in TTS (another game is loaded).
    """
    from .ship.editor_api import push as push_build

    if no_reload and not code:
        raise BuildError("--no-reload without --exec: nothing to send to TTS")
    build, _ = _build(report, game, variant, _out(out_dir))
    outcome = push_build(
        build,
        reload=not no_reload,
        code=code,
        guid=guid,
        force=force,
        listen=None if follow else listen,
        timeout=timeout,
        tts_port=tts_port,
        editor_port=editor_port,
        echo=click.echo,
    )
    if outcome.reloaded:
        report(f"pushed {game}: TTS reloaded the game with the new scripts and UI")
    if outcome.errors:
        click.echo(f"TTS reported {outcome.errors} Lua error(s)", err=True)
        sys.exit(1)


@click.command()
@click.argument("game")
@click.option(
    "--push",
    "do_push",
    is_flag=True,
    help="Push scripts and UI to the running TTS after every good rebuild.",
)
@click.option(
    "--install",
    "do_install",
    is_flag=True,
    help="Re-install the save into TTS after every good rebuild.",
)
@click.option(
    "--force",
    is_flag=True,
    help="With --push: push even if the game loaded in TTS does not look like GAME.",
)
@click.option(
    "--interval",
    type=click.FloatRange(0.05),
    default=0.5,
    show_default=True,
    help="Seconds between polls for changes.",
)
@click.option(
    "--examples",
    type=click.IntRange(0),
    default=100,
    show_default=True,
    help="Verify examples per rule function when the script changed (0: skip).",
)
@click.option(
    "--rounds",
    type=click.IntRange(0),
    default=None,
    hidden=True,
    help="Stop after this many polls (for tests).",
)
@click.option(
    "--debug",
    is_flag=True,
    help="Show the traceback of an internal error (a bug in tts-builder) a rebuild hits.",
)
@_VARIANT
@_SAVES
@_OUT
@_TIMEOUT
@_TTS_PORT
@_EDITOR_PORT
@click.pass_obj
def watch(
    report: Reporter,
    game: str,
    do_push: bool,
    do_install: bool,
    force: bool,
    interval: float,
    examples: int,
    rounds: int | None,
    debug: bool,
    variant: str | None,
    saves_dir: Path | None,
    out_dir: Path | None,
    timeout: float,
    tts_port: int,
    editor_port: int,
) -> None:
    """Rebuild GAME whenever its definition, art or Lua templates change (Ctrl-C stops).

    Each good rebuild is written to <out>/<game>/, re-verified if its script changed, and
    optionally installed (--install) and pushed to the running TTS (--push). A failed rebuild
    is reported on one line (as build would) and the watch goes on.
    """
    import time

    from .build import BuildOptions
    from .cache import Store, locked
    from .definition import find_game
    from .ship.editor_api import Listener, Session, SourceMap, script_states
    from .ship.install import describe_install, install_build
    from .ship.tts_paths import find_saves_dir, install_key
    from .ship.watch import Watcher
    from .writer import tree_matches, write_tree

    find_game(game, report.assets)
    out = _out(out_dir)
    saves = find_saves_dir(saves_dir) if do_install else None
    options = BuildOptions(out_dir=out, variant=variant)

    with contextlib.ExitStack() as stack:
        session: Session | None = None
        if do_push:
            listener = stack.enter_context(Listener(port=editor_port))
            session = Session(listener, SourceMap(game, {}), click.echo, tts_port=tts_port)

        def on_build(build: Any) -> None:
            dest = out / build.folder
            with locked(out):  # not while a build writes the folder
                if not tree_matches(dest, build.files):
                    write_tree(dest, build.files)
                    report(f"wrote {dest}")
            if saves is not None:
                for plan in install_build(build, options, saves, install_key(game, variant)):
                    report(describe_install(plan, _title(plan)))
            if session is not None:
                session.source = SourceMap.from_build(build)
                if not force:
                    session.check_loaded(build.save, game, timeout)
                session.save_and_play(script_states(build.save), timeout)
                report("pushed: TTS reloaded the game with the new scripts and UI")

        watcher = Watcher(
            game,
            options,
            Store(out / ".cache"),
            assets_root=report.assets,
            examples=examples,
            on_build=on_build,
            report=report,
            debug=debug,
            show_error=lambda line: click.echo(line, err=True),  # shown with -q too
        )
        report(f"watching {', '.join(str(r) for r in watcher.roots if r.is_dir())} (Ctrl-C stops)")

        def wait(seconds: float) -> None:
            if session is None:
                time.sleep(seconds)
            else:  # show TTS's messages between polls
                session.listen(seconds, swallow_interrupt=False)

        watcher.run(interval, rounds, wait=wait)


def register(group: click.Group) -> None:
    """Add the shipping commands to ``group`` (idempotent)."""
    for command in (install, publish, push, watch):
        group.add_command(command)
