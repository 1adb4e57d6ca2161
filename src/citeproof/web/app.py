"""The web page: upload a draft and its sources, watch the job, read the report.

Routes:

``GET /``
    the upload form; the recent jobs only when the server is single-user
    (``create_app(single_user=True)``, ``citeproof serve --single-user``).
    Otherwise a job is reachable only by its link, which holds its
    unguessable id (128 random bits) and is shown to its creator alone.
``POST /jobs``
    multipart form: ``document`` (Markdown, LaTeX ``.tex``, an arXiv
    ``.tar.gz`` bundle, a PDF, a Word ``.docx``/``.odt``, or a zip holding the document with its .bib
    and sources), ``sources`` (files, repeatable), ``bib`` (files,
    repeatable; optional for LaTeX and PDFs, which bring their own reference
    list), ``document_path`` (which file of the zip is the document; needed
    for a citing PDF, since PDFs in a zip are otherwise sources).
    Answers ``303`` to the job's page, or ``400``/``413``/``415`` with the
    reason. ``Accept: application/json`` gets ``201 {"id", "url"}`` instead.
``GET /jobs/{id}``
    the job's page: live progress while it runs (polls ``status``), then the
    HTML report in a frame with JSON, SARIF and Markdown downloads. The job id
    is in the URL and the state on disk, so a reload (or a restarted browser)
    finds it again.
``GET /jobs/{id}/status``
    the job state as JSON.
``GET /jobs/{id}/report.{html,json,sarif,md}``
    the reports (JSON, SARIF and Markdown as downloads).
``GET /jobs/{id}/review``, ``POST /jobs/{id}/review``
    the triage decisions on the job's report, kept on the server
    (:mod:`citeproof.web.review`): GET gives the review sidecar, POST
    (``application/json``) records or withdraws one decision.
``GET /jobs/{id}/files/{path}``
    the job's uploads (``input/``) and reports (``out/``): the report's
    links to the source PDFs resolve here; nothing else (no state file, no
    log, nothing outside the job folder) is served.

Every request passes :class:`citeproof.web.security.GuardMiddleware`: Host
and Origin checks (DNS rebinding, CSRF), the upload size counted as it
streams, and the security headers. An internal error's traceback goes to the
server's log (logger ``citeproof.web``) and the job folder's ``error.log``,
which is never served.

The page holds no logic of its own: jobs run :func:`citeproof.pipeline.check`
through :class:`citeproof.web.jobs.JobStore`.
"""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from citeproof import __version__
from citeproof.web.jobs import JobStore, Limits, UploadError
from citeproof.web.review import ReviewError, load_job_review, save_job_decision
from citeproof.web.security import LOOPBACK_HOSTS, GuardMiddleware
from citeproof.web.uploads import DOC_SUFFIXES, SOURCE_SUFFIXES, document_kinds, source_kinds

__all__ = ["create_app", "default_jobs_dir"]

_MEDIA = {
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "sarif": "application/sarif+json",
    "md": "text/markdown; charset=utf-8",
}


def default_jobs_dir() -> Path:
    """``$CITEPROOF_JOBS_DIR``, else ``~/.cache/citeproof/jobs``."""
    env = os.environ.get("CITEPROOF_JOBS_DIR")
    return Path(env) if env else Path.home() / ".cache" / "citeproof" / "jobs"


def _templates():
    from jinja2 import Environment, PackageLoader, select_autoescape

    return Environment(loader=PackageLoader("citeproof.web", "templates"), autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)


def create_app(
    jobs_dir: Path | None = None,
    cache_dir: Path | None = None,
    limits: Limits | None = None,
    workers: int = 2,
    single_user: bool = False,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """The FastAPI application.

    Args:
        jobs_dir: folder of job folders (None: :func:`default_jobs_dir`).
        cache_dir: parse cache handed to the pipeline (None: its default).
        limits: upload limits (None: :class:`citeproof.web.jobs.Limits` defaults).
        workers: jobs run at once.
        single_user: list the recent jobs on ``/`` (only for a server one
            person uses; otherwise anyone could open anyone's job).
        allowed_hosts: host names the server answers to (None: the loopback
            names :data:`citeproof.web.security.LOOPBACK_HOSTS`); ``["*"]``
            turns the check off.

    Returns:
        The app; ``app.state.jobs`` is its :class:`JobStore`.
    """
    store = JobStore(Path(jobs_dir) if jobs_dir else default_jobs_dir(), cache_dir=cache_dir, workers=workers, limits=limits)
    env = _templates()
    upload_lists = {  # the upload form's types, from the reader and source registries (issue 29)
        "document_kinds": document_kinds(), "document_accept": ",".join(DOC_SUFFIXES),
        "source_kinds": source_kinds(), "source_accept": ",".join(SOURCE_SUFFIXES),
    }

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        store.shutdown()

    app = FastAPI(title="citeproof", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.jobs = store
    app.add_middleware(GuardMiddleware, allowed_hosts=list(allowed_hosts or LOOPBACK_HOSTS), max_body_bytes=store.limits.max_total_bytes + 1024 * 1024)

    @app.middleware("http")
    async def refuse_oversized(request: Request, call_next):
        """Refuse an upload whose declared size is over the job limit before it is read."""
        if request.method == "POST":
            try:
                size = int(request.headers.get("content-length", "0"))
            except ValueError:
                size = 0
            if size > store.limits.max_total_bytes + 1024 * 1024:
                return JSONResponse({"error": f"the upload is larger than the limit of {store.limits.max_total_bytes // (1024 * 1024)} MiB"}, status_code=413)
        return await call_next(request)

    def page(name: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(version=__version__, limits=store.limits, **ctx), status_code=status_code)

    def job_state(job_id: str) -> dict[str, Any]:
        try:
            return store.state(job_id)
        except KeyError:
            raise HTTPException(404, f"no job {job_id!r}") from None

    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return page("index.html.j2", jobs=store.recent() if single_user else None, **upload_lists)

    @app.post("/jobs")
    async def create_job(
        request: Request,
        document: UploadFile | None = File(None, description="citing document (" + ", ".join(DOC_SUFFIXES) + ") or a .zip holding it"),
        sources: list[UploadFile] = File([], description="source files"),
        bib: list[UploadFile] = File([], description="bibliography files"),
        document_path: str = Form("", max_length=500),
        online: bool = Form(False),
    ) -> Response:
        wants_json = "application/json" in request.headers.get("accept", "")
        try:
            job_id = store.create(
                (document.filename or "", document.file) if document is not None and document.filename else None,
                [(f.filename or "", f.file) for f in sources if f.filename],
                [(f.filename or "", f.file) for f in bib if f.filename],
                document_path.strip(),
                online=online,
            )
        except UploadError as exc:
            if wants_json:
                return JSONResponse({"error": str(exc)}, status_code=exc.status_code)
            return page("index.html.j2", status_code=exc.status_code, jobs=store.recent() if single_user else None, error=str(exc), **upload_lists)
        url = f"/jobs/{job_id}"
        if wants_json:
            return JSONResponse({"id": job_id, "url": url}, status_code=201)
        return RedirectResponse(url, status_code=303)

    @app.get("/jobs/{job_id}", response_class=HTMLResponse)
    def job_page(job_id: str) -> HTMLResponse:
        return page("job.html.j2", job=job_state(job_id))

    @app.get("/jobs/{job_id}/status")
    def job_status(job_id: str) -> JSONResponse:
        return JSONResponse(job_state(job_id), headers={"Cache-Control": "no-store"})

    @app.get("/jobs/{job_id}/report.{fmt}")
    def job_report(job_id: str, fmt: str) -> FileResponse:
        state = job_state(job_id)
        name = state.get("reports", {}).get(fmt)
        if fmt not in _MEDIA or not name:
            raise HTTPException(404, f"job {job_id} has no {fmt} report" + ("" if state["status"] == "done" else " yet"))
        path = store.folder(job_id) / "out" / name
        if fmt == "html":
            return FileResponse(path, media_type=_MEDIA[fmt])
        return FileResponse(path, media_type=_MEDIA[fmt], filename=name)

    @app.get("/jobs/{job_id}/review")
    def job_review(job_id: str) -> JSONResponse:
        try:
            state = job_state(job_id)  # 404 for an unknown job before its folder is looked for
            data = load_job_review(store.folder(job_id), state)
        except ReviewError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status_code)
        return JSONResponse(data, headers={"Cache-Control": "no-store"})

    @app.post("/jobs/{job_id}/review")
    async def job_review_save(job_id: str, request: Request) -> JSONResponse:
        state = job_state(job_id)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return JSONResponse({"error": "send the decision as application/json"}, status_code=415)
        try:
            data = save_job_decision(store.folder(job_id), state, await request.body())
        except ReviewError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status_code)
        return JSONResponse(data, headers={"Cache-Control": "no-store"})

    @app.get("/jobs/{job_id}/files/{rel:path}")
    def job_file(job_id: str, rel: str) -> FileResponse:
        job_state(job_id)
        base = store.folder(job_id).resolve()
        try:
            target = (base / rel).resolve()
            shown = target.is_file() and any(target.is_relative_to(base / sub) for sub in ("input", "out"))
        except (OSError, ValueError):  # a NUL byte, a name too long
            shown = False
        if not shown:
            raise HTTPException(404, "no such file in this job")
        headers = {"X-Content-Type-Options": "nosniff"}
        if target.suffix.lower() in (".html", ".htm", ".svg", ".xhtml") and target.parent != base / "out":
            # an uploaded page is shown as text, never run in the page's origin
            return FileResponse(target, media_type="text/plain; charset=utf-8", headers=headers)
        return FileResponse(target, headers=headers)

    return app
