"""Publishing a build: hosted, content-hashed assets, a link check and a Workshop package.

Every asset is renamed ``<stem>-<sha256 prefix><suffix>``, so a changed image gets a new URL and
no player's TTS cache (keyed by URL, FORMAT.md §1.3) can show the old one. The save's URLs are
rewritten to ``<base-url>/<game>/images/<hashed name>``. Publishing runs in this order, and any
failure stops it before the next step: probe the base URL, upload every asset (with retries),
check that every URL answers with exactly the built bytes, and only then write the Workshop
package (the save, its thumbnail, ``workshop.json`` and ``UPLOAD.md``).

PNGs are first recompressed losslessly (oxipng, when pyoxipng is installed): the same pixels,
mode and size, fewer bytes; content-hashed names are those of the bytes uploaded. A quick pass
does most files; a file it leaves above :data:`TARGET_RATIO` of its built bytes gets a second
pass with oxipng's brute-force row filter.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import mimetypes
import os
import re
import socket
import stat
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from ..errors import BuildError
from .urls import check_base_url, check_endpoint_url, mask_credentials, shown_url
from .urls import local_only_reason as local_only_reason  # its home is urls; kept importable

HASH_CHARS = 16
IMAGES_PREFIX = "images/"
TTS_APP_ID = 286160
CACHE_CONTROL = "public, max-age=31536000, immutable"
THUMBNAIL_LIMIT = 1_000_000  # Steam refuses Workshop preview images above about 1 MB
_URL_KEY_RE = re.compile(r"(?i).*url$")
_CURLY_RE = re.compile(r"\{[^}]*\}")


# --- lossless PNG recompression (pure) ---------------------------------------------------------

#: oxipng's effort (0-6): level 2 gives most of the gain at a fraction of the time of higher levels.
OXIPNG_LEVEL = 2
#: libdeflate's effort (1-12): 12 takes a big RGB card sheet from 0.91 to 0.89 of its bytes, at
#: about twice the time of level 2's default (a few CPU seconds per sheet, cached).
OXIPNG_DEFLATE_LEVEL = 12
#: Only recompression: no colour-type, bit-depth, palette or grey reductions (a decoder sees the
#: build's mode, e.g. RGBA, whatever the loader TTS uses), no alpha tricks, no chunk stripping.
OXIPNG_OPTIONS: dict[str, Any] = {
    "level": OXIPNG_LEVEL,
    "bit_depth_reduction": False,
    "color_type_reduction": False,
    "palette_reduction": False,
    "grayscale_reduction": False,
}

#: What publish aims for: each PNG at most this share of its built bytes (issue 12).
TARGET_RATIO = 0.88
#: The second pass for a file the quick one leaves above the target (in practice a small,
#: many-coloured thumbnail): oxipng's brute-force row filter (each row the filter that deflates
#: best after the previous one), libdeflate as before; about 0.1 CPU s for a 256 x 256
#: thumbnail. Zopfli instead would take 2-4 s a thumbnail (a third more CPU for all of publish)
#: for another 0.4 % of its bytes, and still not reach the target for the flood race's.
STRONG_FILTER = "Brute"

Optimizer = Callable[[bytes], bytes]


def png_optimizer(cache: MutableMapping[str, bytes] | None = None) -> Optimizer | None:
    """A lossless PNG recompressor (oxipng), its results kept in ``cache`` by input digest; None
    when pyoxipng is not installed (publish then uploads the build's bytes as they are)."""
    try:
        import oxipng
    except ImportError:
        return None
    from importlib.metadata import version

    options = {
        **OXIPNG_OPTIONS,
        "libdeflater": OXIPNG_DEFLATE_LEVEL,
        "target": TARGET_RATIO,
        "strong": {"filter": STRONG_FILTER},
    }
    tag = f"oxipng:{version('pyoxipng')}:{json.dumps(options, sort_keys=True)}"
    quick = {"deflate": oxipng.Deflaters.libdeflater(OXIPNG_DEFLATE_LEVEL), **OXIPNG_OPTIONS}
    strong = {**quick, "filter": [getattr(oxipng.RowFilter, STRONG_FILTER)]}

    def optimize(data: bytes) -> bytes:
        key = f"{tag}:{hashlib.sha256(data).hexdigest()}"
        cached = cache.get(key) if cache is not None else None
        if cached is not None:
            return cached
        smaller = smallest_same(data, [oxipng.optimize_from_memory(data, **quick)])
        if len(smaller) > TARGET_RATIO * len(data):
            smaller = smallest_same(data, [smaller, oxipng.optimize_from_memory(data, **strong)])
        if cache is not None:
            cache[key] = smaller
        return smaller

    return optimize


def smallest_same(data: bytes, candidates: list[bytes]) -> bytes:
    """The smallest of ``candidates`` that decodes to ``data``'s pixels (the earliest of equal
    sizes); ``data`` itself if none is smaller: never bigger, never a different picture."""
    best = data
    for candidate in candidates:
        if len(candidate) < len(best) and same_pixels(data, candidate):
            best = candidate
    return best


def same_pixels(a: bytes, b: bytes) -> bool:
    """Whether two PNGs decode to the same size, mode and pixels."""
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(a)) as first, Image.open(BytesIO(b)) as second:
        return (first.size, first.mode) == (second.size, second.mode) and (
            first.tobytes() == second.tobytes()
        )


def optimized(rel: str, data: bytes, optimize: Optimizer | None) -> bytes:
    """``data`` recompressed by ``optimize`` if it is a PNG (and an optimiser is given)."""
    return optimize(data) if optimize is not None and rel.endswith(".png") else data


# --- naming and rewriting (pure) ----------------------------------------------------------------


def content_name(rel: str, data: bytes) -> str:
    """``images/cards-1.png`` -> ``images/cards-1-<16 hex of sha256>.png``."""
    path = PurePosixPath(rel)
    digest = hashlib.sha256(data).hexdigest()[:HASH_CHARS]
    return str(path.with_name(f"{path.stem}-{digest}{path.suffix}"))


def asset_files(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """The files of a build that the save loads by URL (everything under ``images/``)."""
    return {rel: data for rel, data in files.items() if rel.startswith(IMAGES_PREFIX)}


def built_urls(build: Any, options: Any) -> dict[str, str]:
    """URL each asset has in ``build`` (made with ``options``) -> its path in the build."""
    from ..build import ImageSet

    images = ImageSet(build.game_id, options, {})
    return {images.url(rel): rel for rel in asset_files(build.files)}


def rewrite_strings(value: Any, mapping: Mapping[str, str]) -> Any:
    """A copy of a JSON value with every occurrence of each key of ``mapping`` replaced."""
    if isinstance(value, str):
        for old in sorted(mapping, key=len, reverse=True):
            if old in value:
                value = value.replace(old, mapping[old])
        return value
    if isinstance(value, dict):
        return {k: rewrite_strings(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite_strings(v, mapping) for v in value]
    return value


def url_fields(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every (field path, URL) in a save: non-empty strings under keys ending in ``URL``."""
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(item, str) and _URL_KEY_RE.fullmatch(str(key)):
                found += [(where, part) for part in _CURLY_RE.split(item) if part.strip()]
            else:
                found += url_fields(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += url_fields(item, f"{path}[{index}]")
    return found


def asset_url(base_url: str, key: str) -> str:
    """The public URL of remote ``key`` under ``base_url``."""
    return f"{base_url.rstrip('/')}/{urllib.parse.quote(key)}"


def check_package_dir(path: Path) -> Path:
    """``--package``: a folder, or a path whose nearest existing ancestor is a folder (the
    package replaces that folder whole; never a file, a FIFO or a link to one)."""
    for place in (path, *path.parents):
        if place.is_dir():
            return path
        if place.exists() or place.is_symlink():
            raise BuildError(f"--package {path}: {place} is not a folder")
    return path


@dataclass(frozen=True)
class PublishPlan:
    """Everything one publish uploads and writes, as data."""

    game_id: str
    variant: str | None
    base_url: str
    assets: dict[str, bytes]  # remote key (relative to the base URL) -> bytes
    urls: dict[str, str]  # remote key -> public URL
    save: dict[str, Any]
    save_bytes: bytes
    thumbnail: bytes
    workshop: dict[str, Any]

    @property
    def save_name(self) -> str:
        return f"{self.game_id}.json"

    @property
    def thumbnail_name(self) -> str:
        return f"{self.game_id}.png"


def workshop_metadata(
    definition_data: Mapping[str, Any], game_id: str, variant: str | None
) -> dict[str, Any]:
    """Title, description, tags, player counts (and more) for the Workshop upload dialog.

    A variant adds its name to the title; its own ``description`` (if any) replaces the game's.
    """
    variants = definition_data.get("variants")
    spec = variants.get(variant) if isinstance(variants, dict) and variant else None
    spec = spec if isinstance(spec, dict) else {}
    title = definition_data["name"] + (f" ({spec.get('name') or variant})" if variant else "")
    meta: dict[str, Any] = {
        "title": title,
        "description": spec.get("description") or definition_data["description"],
        "tags": list(definition_data.get("tags", [])),
        "players": dict(definition_data["players"]),
    }
    for key in ("playing_time", "complexity"):
        if key in definition_data:
            meta[key] = definition_data[key]
    meta.update({"game": game_id, "variant": variant, "steam_app_id": TTS_APP_ID})
    return meta


def plan_publish(
    build: Any,
    options: Any,
    base_url: str,
    variant: str | None = None,
    optimize: Optimizer | None = None,
) -> PublishPlan:
    """The hosted version of ``build``: hashed asset keys, their URLs and the rewritten save.

    With ``optimize`` (see :func:`png_optimizer`) every PNG, the thumbnail too, is recompressed
    first, and named by the hash of the recompressed bytes."""
    from ..save import dumps

    base_url = check_base_url(base_url)
    sources = built_urls(build, options)
    assets: dict[str, bytes] = {}
    urls: dict[str, str] = {}
    mapping: dict[str, str] = {}
    for old_url, rel in sources.items():
        data = optimized(rel, build.files[rel], optimize)
        key = f"{build.game_id}/{content_name(rel, data)}"
        assets[key] = data
        urls[key] = asset_url(base_url, key)
        mapping[old_url] = urls[key]
    save = rewrite_strings(build.save, mapping)
    save_bytes = dumps(save)
    for old_url in sources:
        if old_url.encode() in save_bytes:
            raise BuildError(f"{build.game_id}: could not rewrite {old_url} in the save")
    local = [(where, url) for where, url in url_fields(save) if url.startswith("file:")]
    if local:
        where, url = local[0]
        raise BuildError(
            f"{build.game_id}: {where} points at a local file ({url}); "
            "a published save must load everything from the web"
        )
    workshop = workshop_metadata(build.definition.data, build.game_id, variant)
    workshop.update(
        {
            "save": f"{build.game_id}.json",
            "thumbnail": f"{build.game_id}.png",
            "base_url": base_url,
            "assets": {sources[old]: new for old, new in sorted(mapping.items())},
        }
    )
    thumbnail = f"{build.main_stem}.png"
    return PublishPlan(
        build.game_id,
        variant,
        base_url,
        assets,
        urls,
        save,
        save_bytes,
        optimized(thumbnail, build.files[thumbnail], optimize),
        workshop,
    )


def upload_steps(plan: PublishPlan, package_dir: Path, installed_as: str | None = None) -> str:
    """What to do in TTS next, as Markdown: in-game Workshop Upload, or the Cloud Manager route."""
    meta = plan.workshop
    players = f"{meta['players']['min']}-{meta['players']['max']}"
    tags = ", ".join(meta["tags"]) or "(none in the definition)"
    variant = f" --variant {plan.variant}" if plan.variant else ""
    load = (
        f"It is installed as `{installed_as}`: in TTS choose *Create → Singleplayer*, then "
        f"*Games → Save & Load* and load **{plan.save.get('SaveName', meta['title'])}**."
        if installed_as
        else f"Copy `{plan.save_name}` into your TTS `Saves` folder as `TS_Save_<a free "
        f"number>.json` (or run `tts-builder publish {plan.game_id}{variant} --base-url "
        f"{plan.base_url} --install`), then in TTS load it via *Games → Save & Load*."
    )
    lines = [
        f"# Publishing {meta['title']} to the Steam Workshop",
        "",
        f"Package folder: `{package_dir}`. Every image is hosted under {plan.base_url} and "
        "was checked to answer with exactly the built bytes.",
        "",
        "## In-game Workshop Upload",
        "",
        f"1. {load}",
        "2. Open *Modding → Workshop Upload* (older versions: *Upload → Workshop Upload*).",
        f"3. Title: **{meta['title']}**",
        f'4. Description: copy it from `workshop.json` ("{_shorten(meta["description"])}").',
        f"5. Thumbnail: choose `{package_dir / plan.thumbnail_name}`. TTS will not upload "
        "without one.",
        f"6. Tags: pick the closest to {tags}; players: {players}.",
        "7. Press *Upload*. The mod starts out hidden: open it on Steam (TTS shows its ID), "
        "check it and set it to public.",
        "8. To update it later, load the new save and use the *Update Workshop* tab; you must "
        "be subscribed to the item.",
        "",
        "## If you host on Steam Cloud instead (Cloud Manager)",
        "",
        f"1. Run `tts-builder install {plan.game_id}{variant}` (local files) and load the save "
        "in TTS.",
        "2. Open *Modding → Cloud Manager* and press *Upload All*: TTS copies every local "
        "image to your Steam Cloud and points the objects at it.",
        "3. Save the game (*Games → Save & Load → Save*), reload it once to check, then follow "
        "steps 2-7 above.",
        "",
    ]
    return "\n".join(lines)


def _shorten(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def package_files(plan: PublishPlan, steps: str) -> dict[str, bytes]:
    """The Workshop package folder's files."""
    workshop = json.dumps(plan.workshop, indent=2, ensure_ascii=False) + "\n"
    return {
        plan.save_name: plan.save_bytes,
        plan.thumbnail_name: plan.thumbnail,
        "workshop.json": workshop.encode("utf-8"),
        "UPLOAD.md": steps.encode("utf-8"),
    }


# --- uploaders (I/O) ----------------------------------------------------------------------------


class UploadError(Exception):
    """An upload attempt failed; it may work when retried."""


class FatalUploadError(UploadError):
    """An upload failure that a retry cannot fix (no credentials, no such bucket...)."""


class Uploader(Protocol):
    """Somewhere assets can be put, addressed by remote key."""

    def describe(self) -> str: ...

    def put(self, key: str, data: bytes, content_type: str) -> bool:
        """Store ``data`` at ``key``; False if exactly these bytes were already there."""
        ...


def current_umask() -> int:
    """The process's umask (read from /proc where there is one: setting it to read it back is
    visible to other threads for a moment)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Names the temporary files of this process's folder uploads (with the pid: unique).
_UPLOAD_SERIAL = itertools.count()


def write_shared(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file beside it, flushed, then renamed)
    with the permissions the user's umask gives a new file (0o666 & ~umask: 0644 for the usual
    022), so a web server running as another account can read it; folders it makes get
    0o777 & ~umask."""
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.parent / f".{path.name}.{os.getpid()}-{next(_UPLOAD_SERIAL)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)  # the kernel applies the umask
            break
        except FileExistsError:  # left by a dead process of the same pid: take the next
            continue
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class FolderUploader:
    """A plain folder, e.g. a GitHub Pages checkout: files are written atomically, readable as
    the user's umask allows (a file an earlier publish left narrower is widened to that)."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise BuildError(f"--upload {root}: no such folder (create it, or check the path)")
        self.root = root
        self.mode = 0o666 & ~current_umask()

    def describe(self) -> str:
        return str(self.root)

    def put(self, key: str, data: bytes, content_type: str) -> bool:
        target = self.root / key
        try:
            if self._holds(target, data):
                return False
            write_shared(target, data)
        except OSError as err:
            raise UploadError(f"{target}: {err.strerror or err}") from None
        return True

    def _holds(self, target: Path, data: bytes) -> bool:
        """Whether ``target`` is a plain file (not a link) of exactly ``data``; its mode then
        widened to the umask's if narrower."""
        try:
            info = target.lstat()
        except FileNotFoundError:
            return False
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        if target.read_bytes() != data:
            return False
        if info.st_mode & self.mode != self.mode:
            os.chmod(target, (info.st_mode & 0o777) | self.mode)
        return True


_FATAL_S3 = {
    "NoSuchBucket",
    "AccessDenied",
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "AllAccessDisabled",
    "InvalidBucketName",
}


class S3Uploader:
    """An S3-compatible bucket (AWS, MinIO, R2, ...) through boto3; objects get long caching."""

    def __init__(
        self, bucket: str, prefix: str, endpoint_url: str | None = None, acl: str | None = None
    ) -> None:
        try:
            import boto3
            from botocore.config import Config
        except ImportError:
            raise BuildError(
                "uploading to s3:// needs boto3: pip install 'tts-builder[publish]'"
            ) from None
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.acl = acl
        config = Config(
            retries={"total_max_attempts": 1}, connect_timeout=5, read_timeout=30
        )  # retries are ours (upload_all), so a failing store fails in bounded time
        if endpoint_url is not None:
            check_endpoint_url(endpoint_url)
        try:
            self.client = boto3.client("s3", endpoint_url=endpoint_url, config=config)
        except ValueError as err:  # what botocore refuses beyond our own check
            shown = shown_url(endpoint_url or "")
            reason = mask_credentials(str(err).replace(endpoint_url or "", shown))
            raise BuildError(f"--endpoint-url {shown}: {reason}") from None

    def describe(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}".rstrip("/")

    def _key(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    def put(self, key: str, data: bytes, content_type: str) -> bool:
        from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

        full = self._key(key)
        try:
            try:
                head = self.client.head_object(Bucket=self.bucket, Key=full)
                same = (
                    head.get("ContentLength") == len(data)
                    and head.get("ETag", "").strip('"')
                    == hashlib.md5(data, usedforsecurity=False).hexdigest()
                )
                if same:
                    return False
            except ClientError as err:
                status = err.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
                if status != 404:
                    raise
            extra = {"ACL": self.acl} if self.acl else {}
            self.client.put_object(
                Bucket=self.bucket,
                Key=full,
                Body=data,
                ContentType=content_type,
                CacheControl=CACHE_CONTROL,
                **extra,
            )
        except NoCredentialsError:
            raise FatalUploadError(
                "no S3 credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
                "AWS_PROFILE)"
            ) from None
        except ClientError as err:
            code = err.response.get("Error", {}).get("Code", "")
            message = err.response.get("Error", {}).get("Message", "") or str(err)
            cls = FatalUploadError if code in _FATAL_S3 else UploadError
            text = f"{self.describe()}/{key}: {code or 'error'}: {message}"
            raise cls(mask_credentials(text)) from None
        except BotoCoreError as err:  # its text may name the endpoint URL
            raise UploadError(mask_credentials(f"{self.describe()}/{key}: {err}")) from None
        return True


def make_uploader(dest: str, endpoint_url: str | None = None, acl: str | None = None) -> Uploader:
    """``s3://bucket/prefix`` -> :class:`S3Uploader`; anything else is a folder."""
    if dest.startswith("s3://"):
        bucket, _, prefix = dest.removeprefix("s3://").partition("/")
        if not bucket:
            raise BuildError(f"--upload {dest}: expected s3://BUCKET[/PREFIX]")
        return S3Uploader(bucket, prefix, endpoint_url, acl)
    if re.match(r"^[a-z][a-z0-9+.-]*://", dest):
        raise BuildError(f"--upload {dest}: expected a folder or s3://BUCKET[/PREFIX]")
    return FolderUploader(Path(dest).expanduser())


def upload_all(
    uploader: Uploader,
    assets: Mapping[str, bytes],
    attempts: int = 3,
    backoff: float = 0.5,
    report: Callable[[str], None] = lambda message: None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Put every asset, retrying each ``attempts`` times; the number actually uploaded."""
    uploaded = 0
    for key in sorted(assets):
        content_type = mimetypes.guess_type(key)[0] or "application/octet-stream"
        for attempt in range(1, attempts + 1):
            try:
                uploaded += uploader.put(key, assets[key], content_type)
                break
            except UploadError as err:
                if attempt == attempts or isinstance(err, FatalUploadError):
                    tries = f"after {attempt} attempts" if attempt > 1 else "(not retried)"
                    raise BuildError(
                        f"upload to {uploader.describe()} failed {tries}: {err}; nothing was "
                        "published (no save or Workshop package written)"
                    ) from None
                report(f"upload of {key} failed ({err}); retrying ({attempt}/{attempts})")
                sleep(backoff * 2 ** (attempt - 1))
    return uploaded


# --- link check (I/O) ---------------------------------------------------------------------------


class LinkError(Exception):
    """A URL did not answer with a body."""


def probe_base_url(base_url: str, timeout: float) -> None:
    """Fail fast if nothing accepts connections at the base URL's host and port."""
    parts = urllib.parse.urlsplit(base_url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except (OSError, UnicodeError) as err:
        reason = getattr(err, "strerror", None) or type(err).__name__
        raise BuildError(
            mask_credentials(
                f"base URL {base_url} is unreachable ({parts.hostname}:{port}: {reason}); "
                "nothing was published"
            )
        ) from None


#: The slowest answer the link check waits for: the whole body within ``--timeout`` plus one
#: second per this many bytes (a server dripping a byte at a time held publish for minutes;
#: a 20 MB card sheet on a slow line still gets 80 s more).
MIN_RATE = 256 * 2**10


def fetch_url(url: str, timeout: float, limit: int) -> bytes:
    """GET ``url`` (at most ``limit`` bytes of body, all of it within ``timeout`` s plus one per
    :data:`MIN_RATE` bytes); LinkError on any failure, a broken HTTP answer too."""
    import http.client

    request = urllib.request.Request(url, headers={"User-Agent": "tts-builder link check"})
    allowed = timeout + limit / MIN_RATE
    deadline = time.monotonic() + allowed
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            body = bytearray()
            while len(body) < limit:
                chunk = response.read1(min(limit - len(body), 2**16))
                if not chunk:
                    break
                body += chunk
                if time.monotonic() > deadline:
                    raise LinkError(f"no whole answer within {allowed:.3g} s")
            return bytes(body)
    except urllib.error.HTTPError as err:
        raise LinkError(f"HTTP {err.code} {printable(str(err.reason))}") from None
    except urllib.error.URLError as err:
        reason = err.reason
        if isinstance(reason, TimeoutError):
            raise LinkError(f"no answer within {timeout:g} s") from None
        text = getattr(reason, "strerror", None) or str(reason)
        raise LinkError(f"unreachable ({printable(text)})") from None
    except TimeoutError:
        raise LinkError(f"no answer within {timeout:g} s") from None
    except OSError as err:
        raise LinkError(f"failed ({printable(str(err))})") from None
    except http.client.HTTPException as err:  # a bad status line, too many or too long headers
        raise LinkError(f"a broken HTTP answer ({type(err).__name__})") from None
    except ValueError as err:  # http.client.InvalidURL and the like: a URL it cannot ask
        raise LinkError(f"not a URL it can fetch ({printable(str(err))})") from None


def printable(text: str, limit: int = 200) -> str:
    """A server's text for one line of ours: control characters escaped, at most ``limit``."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def check_links(
    expected: Mapping[str, bytes],
    timeout: float = 10.0,
    fetch: Callable[[str, float, int], bytes] = fetch_url,
) -> list[str]:
    """Problems found fetching each URL and comparing its body to the built bytes."""
    problems = []
    for url, data in sorted(expected.items()):
        try:
            body = fetch(url, timeout, len(data) + 1)
        except LinkError as err:
            problems.append(f"{url}: {err}")
            continue
        if body != data:
            problems.append(
                f"{url}: answered with different bytes ({len(body)}"
                f"{'+' if len(body) > len(data) else ''} bytes, built {len(data)})"
            )
    return problems


def link_failure(problems: list[str], total: int, uploaded_to: str | None) -> BuildError:
    """One BuildError for failed link checks, with a hint at the usual cause."""
    hint = (
        f"if {uploaded_to} goes live only after a push (e.g. GitHub Pages), push it and run "
        "publish again"
        if uploaded_to
        else "upload the assets first (--upload DEST), or check --base-url"
    )
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return BuildError(
        mask_credentials(
            f"link check: {len(problems)} of {total} URLs failed: {problems[0]}{more}; {hint}; "
            "nothing was published (no save or Workshop package written)"
        )
    )


@dataclass
class PublishResult:
    """What a publish did."""

    uploaded: int
    checked: int
    package_dir: Path
    steps: str


def publish(
    plan: PublishPlan,
    package_dir: Path,
    uploader: Uploader | None = None,
    *,
    timeout: float = 10.0,
    attempts: int = 3,
    backoff: float = 0.5,
    install: Callable[[PublishPlan], str] | None = None,
    report: Callable[[str], None] = lambda message: None,
) -> PublishResult:
    """Probe, upload, check every link, then (only then) install and write the Workshop package.

    ``install``, if given, puts the hosted save into TTS and returns what it was installed as.
    """
    from ..writer import write_tree

    probe_base_url(plan.base_url, timeout)
    uploaded = 0
    if uploader is not None:
        uploaded = upload_all(uploader, plan.assets, attempts, backoff, report)
        report(
            f"uploaded {uploaded} of {len(plan.assets)} assets to {uploader.describe()} "
            f"({len(plan.assets) - uploaded} already there)"
        )
    expected = {plan.urls[key]: data for key, data in plan.assets.items()}
    problems = check_links(expected, timeout)
    foreign = sorted(
        {url for _, url in url_fields(plan.save)} - set(expected)
    )  # e.g. a TableURL the definition names: it must at least answer
    for url in foreign:
        try:
            fetch_url(url, timeout, 1)
        except LinkError as err:
            problems.append(f"{url}: {err}")
    if problems:
        raise link_failure(
            problems, len(expected) + len(foreign), uploader.describe() if uploader else None
        )
    others = f"; {len(foreign)} other URLs answer" if foreign else ""
    report(f"link check: all {len(expected)} asset URLs answer with the built bytes{others}")
    if len(plan.thumbnail) > THUMBNAIL_LIMIT:
        report(
            f"warning: the thumbnail is {len(plan.thumbnail)} bytes; Steam may refuse "
            "Workshop previews above 1 MB"
        )
    installed_as = install(plan) if install is not None else None
    steps = upload_steps(plan, package_dir, installed_as)
    write_tree(package_dir, package_files(plan, steps))
    os.chmod(package_dir, 0o777 & ~current_umask())  # staged as a private temporary folder
    return PublishResult(uploaded, len(expected) + len(foreign), package_dir, steps)
