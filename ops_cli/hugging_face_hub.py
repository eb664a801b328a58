"""The Hugging Face Hub, as ``llmops weights mirror`` asks it (ops_cli/weights.py): which commit a branch, tag or
commit id points at now, so that the mirror copies, and the environment file pins, one commit."""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Callable, Mapping
from contextlib import nullcontext

from endpoint_probe.deadline import Deadline
from endpoint_probe.errors import BadResponse, DeadlineExceeded, Unreachable
from endpoint_probe.http import exchange
from endpoint_probe.redaction import redact_secrets
from endpoint_probe.url import check_url
from ops_cli.errors import ExitCode, OpsError, shown

#: The Hub's API: ``GET {endpoint}/api/models/{repo_id}/revision/{revision}`` answers the model's info at that
#: revision, whose ``sha`` is the commit (huggingface/huggingface_hub@ee0a4510 src/huggingface_hub/hf_api.py
#: ``HfApi.model_info``; the endpoint is ``HF_ENDPOINT`` or https://huggingface.co, constants.py).
HUB_ENDPOINT = "https://huggingface.co"
COMMIT = re.compile(r"[0-9a-f]{40}")
#: A branch or tag name as a revision argument: no spaces, no control characters, no '..' (git check-ref-format).
_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,254}")
#: The longest the Hub's answer may take, a command's --timeout can only shorten it.
HUB_CAP_S = 30
#: The most read of the Hub's answer (a model's info with its file list).
MAX_HUB_ANSWER = 4 * 1024 * 1024


def hub_endpoint(environ: Mapping[str, str]) -> str:
    """The Hub to ask: ``HF_ENDPOINT`` as huggingface_hub reads it (a private mirror of the Hub), else
    :data:`HUB_ENDPOINT`. The copy Job asks huggingface.co itself; a mirror must serve the same commits."""
    return (environ.get("HF_ENDPOINT") or "").strip() or HUB_ENDPOINT


def hub_get(url: str, token: str | None, *, deadline: Deadline | None = None) -> dict:
    """:func:`_hub_get`, with the token out of any message (a Hub, or a proxy, may echo the request)."""
    try:
        return _hub_get(url, token, deadline=deadline)
    except OpsError as error:
        error.message, error.fix = (
            redact_secrets(error.message, (token or "",)),
            redact_secrets(error.fix, (token or "",)),
        )
        raise


def _hub_get(url: str, token: str | None, *, deadline: Deadline | None = None) -> dict:
    """GET a Hub API URL and decode its JSON object (replaced in tests that do not test the Hub's answers).

    Not ``urllib.request``, whose timeout bounds each socket read only, so that a Hub that sends a byte every few
    seconds kept llmops waiting for ever: endpoint_probe/http.py bounds the request as a whole, by :data:`HUB_CAP_S`
    and by what is left of the command's ``deadline``. Redirects are not followed."""
    base, _, path = url.partition("/api/")
    endpoint = check_url(base, option="the Hugging Face Hub address (HF_ENDPOINT)")
    headers = {
        "Accept": "application/json",
        **({"Authorization": f"Bearer {token}"} if token else {}),
    }
    where = f"{endpoint.url}/api/{path}"
    try:
        with exchange(
            endpoint,
            "GET",
            f"/api/{path}",
            what="GET the model's info from the Hugging Face Hub",
            timeout=HUB_CAP_S,
            headers=headers,
            deadline=deadline,
        ) as response:
            status = response.status
            if status in (401, 403):
                raise OpsError(
                    f"the Hugging Face Hub refused {where} ({status})",
                    "set model.hugging_face_token_secret to a secret holding a token that may read the model "
                    "(a gated model needs its licence accepted)",
                    ExitCode.ACCESS_DENIED,
                )
            if status == 404:
                raise OpsError(
                    f"the Hugging Face Hub has no such model or revision: {where}",
                    "check model.hugging_face_id and --revision",
                    ExitCode.NOT_FOUND,
                )
            if not 200 <= status < 300:
                raise OpsError(
                    f"the Hugging Face Hub answered {response.summary()} for {where}",
                    "try again later; a redirect means the model was renamed: set model.hugging_face_id to "
                    "its new name",
                    ExitCode.AWS_ERROR,
                )
            raw = response.read(MAX_HUB_ANSWER)
    except DeadlineExceeded as error:
        if deadline is not None and deadline.passed():
            raise
        raise OpsError(
            error.message,
            f"the Hub is slow or unreachable from here: try again later ({where})",
            ExitCode.TIMEOUT,
        ) from None
    except (Unreachable, BadResponse) as error:
        raise OpsError(
            f"could not ask the Hugging Face Hub ({where}): {error}",
            "check the network (and HF_ENDPOINT, if set)",
            ExitCode.AWS_ERROR,
        ) from None
    try:
        info = json.loads(raw)
    except (ValueError, RecursionError):
        info = None
    if not isinstance(info, dict):
        raise OpsError(
            f"the Hugging Face Hub's answer for {where} is not a JSON object",
            f"look at it by hand: curl -sS {where}",
            ExitCode.AWS_ERROR,
        )
    return info


def resolve_revision(
    repo_id: str,
    ref: str,
    *,
    token: str | None = None,
    get: Callable[..., dict] | None = None,
    hub: str = HUB_ENDPOINT,
    deadline: Deadline | None = None,
) -> str:
    """The commit id ``ref`` (a branch, tag or commit) points at now, from the Hub at ``hub``."""
    if not _REF.fullmatch(ref) or ".." in ref:
        raise OpsError(
            f"--revision {shown(ref)} is not a branch, tag or commit id",
            "for example main, or a commit id",
            ExitCode.USAGE,
        )
    url = f"{hub.rstrip('/')}/api/models/{repo_id}/revision/{urllib.parse.quote(ref, safe='')}"
    with (
        deadline.during(f"asking the Hugging Face Hub for {repo_id}@{ref}")
        if deadline
        else nullcontext()
    ):
        info = (get or hub_get)(url, token, deadline=deadline)
    sha = info.get("sha") if isinstance(info, dict) else None
    if not isinstance(sha, str) or not COMMIT.fullmatch(sha):
        raise OpsError(
            f"the Hub's answer for {repo_id}@{ref} carries no commit id",
            "try again, or pass the commit id",
            ExitCode.AWS_ERROR,
        )
    return sha
