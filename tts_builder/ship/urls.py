"""The URLs publish is given: checked before anything is built (``--base-url``,
``--endpoint-url``), judged for other players (:func:`local_only_reason`), and never printed
with their credentials: :func:`mask_credentials` masks ``user:password@`` in any text, and
:func:`credentials_masked` masks whatever error leaves the publish command."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import urllib.parse
from collections.abc import Iterator

from ..errors import BuildError

#: Host names only this computer or its local network can resolve.
LOCAL_HOST_SUFFIXES = (".localhost", ".local", ".lan", ".internal", ".home.arpa")


def local_only_reason(base_url: str) -> str | None:
    """Why other players' TTS could not load assets from ``base_url`` (None if it may)."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.scheme == "file":
        return "it is a file on this computer"
    host = (parts.hostname or "").lower().rstrip(".")
    if host == "localhost" or host.endswith(LOCAL_HOST_SUFFIXES):
        return f"{host} is a name only this computer or network knows"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if ip.is_loopback:
        return f"{host} is this computer (loopback)"
    if ip.is_private or ip.is_link_local or ip.is_unspecified:
        return f"{host} is a private network address"
    return None


#: ``scheme://`` followed by a URL's user information (``user:password@``): everything up to
#: the last ``@`` before the host ends (a password may hold an unescaped ``@``).
_USERINFO_RE = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s]*@")


def mask_credentials(text: str) -> str:
    """``text`` with the user name and password of every URL in it shown as ``***``:
    ``https://ada:secret@host/x`` -> ``https://***@host/x``. Every message of publish that
    can hold a URL passes through it."""
    return _USERINFO_RE.sub(r"\1***@", text)


def shown_url(url: str) -> str:
    """A URL given as an option, quoted for a message with its credentials masked, also when
    it lacks the ``scheme://`` that :func:`mask_credentials` looks for (``ada:pw@host``)."""
    text = mask_credentials(url)
    if "://" not in text:
        head, slash, tail = text.partition("/")
        if "@" in head:
            text = "***@" + head.rpartition("@")[2] + slash + tail
    return repr(text)


@contextlib.contextmanager
def credentials_masked() -> Iterator[None]:
    """What escapes the block, an expected error or not, with every URL's credentials masked
    (the command line prints it next)."""
    try:
        yield
    except BuildError as err:
        raise BuildError(mask_credentials(str(err))) from None
    except Exception as err:  # noqa: BLE001 - an internal error is printed too: masked
        raise scrub_credentials(err) from None


def scrub_credentials(err: BaseException) -> BaseException:
    """``err`` with the credentials of every URL in its text masked (its arguments, and an
    OSError's file names and reason): the last guard before an unexpected error is printed."""
    err.args = tuple(mask_credentials(a) if isinstance(a, str) else a for a in err.args)
    if isinstance(err, OSError):
        for name in ("filename", "filename2", "strerror"):
            value = getattr(err, name, None)
            if isinstance(value, str):
                setattr(err, name, mask_credentials(value))
    return err


def check_base_url(base_url: str) -> str:
    """``base_url`` if it is an absolute http(s) URL with a valid host (and port), no user
    name or password, query or fragment; else a BuildError (the URL masked)."""
    shown = shown_url(base_url)
    if any(ch.isspace() or not ch.isprintable() for ch in base_url):
        raise BuildError(f"--base-url {shown}: must not hold spaces or control characters")
    try:
        parts = urllib.parse.urlsplit(base_url)
        port = parts.port
        host = parts.hostname
    except ValueError as err:  # e.g. an unclosed [IPv6 address or a port out of range
        raise BuildError(f"--base-url {shown}: not a URL ({err})") from None
    if parts.scheme not in ("http", "https") or not host:
        raise BuildError(
            f"--base-url {shown}: expected an http:// or https:// URL such as "
            "https://you.github.io/my-mods"
        )
    if "@" in parts.netloc:
        raise BuildError(
            f"--base-url {shown}: must not hold a user name or password: it is written into "
            "the save every player downloads (host the assets where anyone may read them)"
        )
    try:
        host.encode("idna")
    except UnicodeError:
        raise BuildError(f"--base-url {shown}: {host[:60]!r} is not a valid host name") from None
    if port == 0:
        raise BuildError(f"--base-url {shown}: port 0 is not a port a server listens on")
    if parts.query or parts.fragment:
        raise BuildError(f"--base-url {shown}: must not carry a query or fragment")
    return base_url.rstrip("/")


def check_endpoint_url(endpoint_url: str | None) -> str | None:
    """``--endpoint-url`` if it is an http(s) URL with a host (or not given); else a
    BuildError (masked)."""
    if endpoint_url is None:
        return None
    shown = shown_url(endpoint_url)
    try:
        parts = urllib.parse.urlsplit(endpoint_url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as err:
        raise BuildError(f"--endpoint-url {shown}: not a URL ({err})") from None
    bad = any(ch.isspace() or not ch.isprintable() for ch in endpoint_url)
    if bad or parts.scheme not in ("http", "https") or not parts.hostname:
        raise BuildError(
            f"--endpoint-url {shown}: expected an http:// or https:// URL such as "
            "https://ACCOUNT.r2.cloudflarestorage.com"
        )
    return endpoint_url
