"""The HTML report and the web page in a real browser (issue 6): Playwright driving Debian's Chromium.

Skipped, with the reason, when Playwright or Chromium is missing, unless
``CITEPROOF_REQUIRE_BROWSER=1`` (CI) makes that a failure. Chromium is
Debian's (``apt-get install chromium``), never a browser download; set
``CITEPROOF_CHROMIUM`` to use another binary. Screenshots go to
``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from report_samples import DEMO_BIB, DEMO_DOC, ROOT, demo_zip_bytes, shared_cache

CHROMIUM = os.environ.get("CITEPROOF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts"

REQUIRED = os.environ.get("CITEPROOF_REQUIRE_BROWSER") == "1"  # CI sets it: a missing browser fails, not skips


def _missing(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"CITEPROOF_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


try:
    from playwright import sync_api
except ImportError:
    _missing("Playwright is not installed (pip install playwright; never `playwright install`)")
if not Path(CHROMIUM).is_file():
    _missing(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    ctx.close()


def _shot(pg, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    pg.screenshot(path=str(path))
    return path


def _axe_violations(pg) -> list[str]:
    """axe-core's WCAG violations on the page (axe-playwright-python bundles axe-core); [] when it is not installed."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return []
    res = Axe().run(pg)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in res.response["violations"]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory):
    """The demo's HTML and JSON reports, written by the CLI into a temporary folder."""
    tmp = tmp_path_factory.mktemp("report")
    out = tmp / "out"
    r = subprocess.run(
        [sys.executable, "-m", "citeproof.cli", "check", str(DEMO_DOC.relative_to(ROOT)), "--bib", str(DEMO_BIB.relative_to(ROOT)),
         "--out", str(out), "--format", "html,json", "--cache-dir", str(shared_cache()), "-q"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert 0 == r.returncode, r.stderr
    return out / "meta-review.citeproof.html", json.loads((out / "meta-review.citeproof.json").read_text())


class TestReportFile:
    def test_opens_from_file_url_offline(self, page, demo_report):
        """file:// page: every finding shown, nothing fetched from the network, filters and j/k work."""
        html, data = demo_report
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(html.as_uri())
        assert len(data["findings"]) == page.locator("article.finding").count()
        assert page.locator("#controls").is_visible()
        assert f"{len(data['findings'])} of {len(data['findings'])} findings shown" == page.locator("#status").inner_text()
        _shot(page, "report-file-top.png")
        assert [] == _axe_violations(page)
        assert all(u.startswith(("file:", "data:", "about:")) for u in requests), requests

        page.select_option("#f-verdict", "partial")
        partial = [f for f in data["findings"] if f["verdict"] == "partial"]
        assert len(partial) == page.locator("article.finding:visible").count()
        first = page.locator("article.finding:visible").first
        rank = int(first.get_attribute("id")[1:])
        ev = data["findings"][rank - 1]["evidence"]
        assert "partial" == data["findings"][rank - 1]["verdict"]
        if ev["page"]:  # a PDF passage shows its page; a Markdown one its line
            assert str(ev["page"]) == first.locator(".evidence-head .page").inner_text()
        else:
            assert f"line {ev['line']}" in first.locator(".evidence-head").inner_text()
        assert first.locator("mark").count() >= 1
        _shot(page, "report-file-partial.png")

        # j/k over the findings the filter shows: "unsupported" holds several in the demo (since compound claims
        # are judged in parts, "partial" may hold just one).
        page.select_option("#f-verdict", "unsupported")
        assert sum(1 for f in data["findings"] if f["verdict"] == "unsupported") >= 2
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("j")
        page.keyboard.press("j")
        visible_ids = page.eval_on_selector_all("article.finding:not([hidden])", "els => els.map(e => e.id)")
        assert visible_ids[1] == page.evaluate("document.activeElement.id")
        page.keyboard.press("k")
        assert visible_ids[0] == page.evaluate("document.activeElement.id")
        _shot(page, "report-file-keyboard.png")

        page.fill("#f-search", "Sci-Hub")
        page.select_option("#f-verdict", "")
        n = page.locator("article.finding:visible").count()
        expected = sum(1 for f in data["findings"] if "sci-hub" in json.dumps(f, ensure_ascii=False).lower())
        assert 0 < n <= expected
        assert [] == page.js_errors

    def test_readable_without_javascript(self, browser, demo_report):
        """With JavaScript off, the filters stay hidden and every finding is on the page."""
        html, data = demo_report
        ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
        pg = ctx.new_page()
        pg.goto(html.as_uri())
        assert not pg.locator("#controls").is_visible()
        # every finding is in the page: the cards, and the unverifiable ones in their collapsed groups (one click each)
        assert len(data["findings"]) == pg.locator("article.finding").count()
        grouped = pg.locator("details.group article.finding").count()
        assert len(data["findings"]) - grouped == pg.locator("article.finding:visible").count()
        # most works have no source: their groups are folded under one <details> the no-source box points at
        assert pg.locator("#no-source").is_visible() and 1 == pg.locator("details.fold").count()
        pg.locator("details.fold > summary").click()
        assert grouped > 0 and pg.locator("details.group > summary:visible").count() == pg.locator("details.group").count()
        pg.locator("details.group > summary").first.click()  # <details> opens without JavaScript
        assert pg.locator("details.group").first.locator("article.finding").first.is_visible()
        assert pg.locator("#csv-export").is_visible()
        _shot(pg, "report-file-nojs.png")
        ctx.close()

    def test_nothing_runs_off_a_phone_screen(self, browser, demo_report):
        """At 390 px (a phone) no element is wider than the page, every group open, with and without JavaScript;
        j/k still move over the findings (issue 30)."""
        html, data = demo_report
        for js in (True, False):
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=js)
            pg = ctx.new_page()
            pg.goto(html.as_uri())
            pg.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
            width, seen = pg.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            over = pg.evaluate("Array.from(document.querySelectorAll('body *')).filter(function (e) { var r = e.getBoundingClientRect();"
                               " return r.width > 0 && r.right > document.documentElement.clientWidth + 1; }).length")
            assert (390, 0) == (width, over) and seen == 390, (js, width, over)
            if js:
                pg.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = false; })")
                pg.locator("body").click(position={"x": 5, "y": 5})
                pg.keyboard.press("j")
                pg.keyboard.press("j")
                assert "f2" == pg.evaluate("document.activeElement.id")
                _shot(pg, "report-file-390px.png")
                assert [] == _axe_violations(pg)
            ctx.close()

    def test_groups_open_for_a_filter_and_print_shows_no_controls(self, page, demo_report):
        """Unverifiable findings sit in collapsed per-work groups; filtering opens the groups that match; print hides the controls."""
        html, data = demo_report
        page.goto(html.as_uri())
        unverifiable = [f for f in data["findings"] if f["verdict"] == "unverifiable" and "not_a_claim" not in f["flags"]]
        groups = page.locator("details.group[data-kind=unverifiable]")
        assert len({f["citekey"] for f in unverifiable}) == groups.count()
        assert 0 == page.locator("details.group[open]").count()
        page.select_option("#f-verdict", "unverifiable")
        assert len([f for f in data["findings"] if f["verdict"] == "unverifiable"]) == page.locator("article.finding:visible").count()
        page.select_option("#f-verdict", "")
        assert 0 == page.locator("details.group[open]").count()  # opened by the filter, closed with it
        _shot(page, "report-file-groups.png")
        page.emulate_media(media="print")
        assert not page.locator("#controls").is_visible() and not page.locator("fieldset.triage").first.is_visible()
        assert [] == page.js_errors


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`citeproof serve` on a free loopback port, in its own process."""
    tmp = tmp_path_factory.mktemp("serve")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CITEPROOF_CACHE_DIR": str(shared_cache())}
    proc = subprocess.Popen(
        [sys.executable, "-m", "citeproof.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--jobs-dir", str(tmp / "jobs")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"citeproof serve exited: {proc.stdout.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    else:
        proc.terminate()
        pytest.fail("citeproof serve did not start in 30 s")
    yield url, tmp
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()


def test_web_page_upload_filter_and_page_number(page, server):
    """Upload the demo zip, wait for the report, filter to unverifiable, read a finding's page number."""
    url, tmp = server
    zpath = tmp / "manubot-demo.zip"
    zpath.write_bytes(demo_zip_bytes())
    page.goto(url + "/")
    _shot(page, "web-upload.png")
    assert [] == _axe_violations(page)
    page.set_input_files("#document", str(zpath))
    page.click("#submit")
    page.wait_for_url(f"{url}/jobs/*")
    job_url = page.url
    _shot(page, "web-job-progress.png")  # usually still running here
    page.wait_for_selector("iframe#report", timeout=240_000)
    assert page.locator("#dl-json").is_visible() and page.locator("#dl-sarif").is_visible()
    data = page.request.get(job_url + "/report.json").json()
    frame = page.frame_locator("iframe#report")
    frame.locator("article.finding").first.wait_for()
    assert len(data["findings"]) == frame.locator("article.finding").count()
    _shot(page, "web-job-report.png")
    assert [] == _axe_violations(page)

    # filter to unverifiable: only those remain
    frame.locator("#f-verdict").select_option("unverifiable")
    unverifiable = [f for f in data["findings"] if f["verdict"] == "unverifiable"]
    assert len(unverifiable) == frame.locator("article.finding:visible").count()
    assert {"unverifiable"} == set(frame.locator("article.finding:visible").evaluate_all("els => els.map(e => e.dataset.verdict)"))
    first = frame.locator("article.finding:visible").first
    rank = int(first.get_attribute("id")[1:])
    assert "unverifiable" == data["findings"][rank - 1]["verdict"]
    # the demo's unverifiable findings have no source, so they show no page; say so and check the reason shown
    assert data["findings"][rank - 1]["evidence"] is None and 0 == first.locator(".page").count()
    # grouped per cited work: the reason is said once, in the group's summary
    assert data["findings"][rank - 1]["reasons"][0] in first.locator("xpath=ancestor::details[1]/summary").inner_text()
    _shot(page, "web-job-unverifiable.png")

    # a finding with evidence: its page number as rendered equals the JSON's, and the link opens that PDF page
    frame.locator("#f-verdict").select_option("")
    with_page = frame.locator("article.finding[data-page]").first
    rank = int(with_page.get_attribute("id")[1:])
    shown = int(with_page.locator(".page").first.inner_text())
    assert data["findings"][rank - 1]["evidence"]["page"] == shown
    href = with_page.locator("a.source-link").get_attribute("href")
    assert href.endswith(f"#page={shown}")
    pdf = page.request.get(page.frame_locator("iframe#report").locator("a.source-link").first.evaluate("a => a.href").split("#")[0])
    assert 200 == pdf.status and pdf.body().startswith(b"%PDF-")

    # the job survives a reload: same URL, same report
    page.reload()
    page.wait_for_selector("iframe#report")
    assert job_url == page.url
    assert [] == page.js_errors


class TestTriage:
    """Issue 15, part 1: mark a finding, reload, the decision is kept; exported, the next run carries it over."""

    def test_mark_reload_export_rerun(self, browser, demo_report, tmp_path):
        html, data = demo_report
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(html.as_uri())
        first = page.locator("article.finding").first
        fid = first.get_attribute("data-fid")
        assert data["findings"][0]["id"] == fid
        first.locator("input[type=radio][value=false_alarm]").check()
        first.locator(".review-note-input").fill("the source says it on page 3")
        page.reload()
        first = page.locator(f"article.finding[data-fid='{fid}']")
        assert first.locator("input[type=radio][value=false_alarm]").is_checked()
        assert "false alarm: the source says it on page 3" in first.locator(".review-shown").inner_text()
        _shot(page, "report-triage.png")
        with page.expect_download() as dl:
            page.click("#review-export")
        out = tmp_path / "out"
        out.mkdir()
        sidecar = out / "meta-review.citeproof.review.json"
        dl.value.save_as(str(sidecar))
        saved = json.loads(sidecar.read_text())
        assert "false_alarm" == saved["decisions"][fid]["decision"]
        assert [] == errors
        ctx.close()
        r = subprocess.run(
            [sys.executable, "-m", "citeproof.cli", "check", str(DEMO_DOC.relative_to(ROOT)), "--bib", str(DEMO_BIB.relative_to(ROOT)),
             "--out", str(out), "--format", "html,json", "--cache-dir", str(shared_cache()), "-q"],
            cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
        assert 0 == r.returncode, r.stderr
        again = json.loads((out / "meta-review.citeproof.json").read_text())
        f = next(x for x in again["findings"] if x["id"] == fid)
        assert {"decision": "false_alarm", "note": "the source says it on page 3", "stale": False} == {k: f["review"][k] for k in ("decision", "note", "stale")}
        fresh = browser.new_context()  # no localStorage: the decision comes from the report itself
        pg = fresh.new_page()
        pg.goto((out / "meta-review.citeproof.html").as_uri())
        assert "false alarm" in pg.locator(f"article.finding[data-fid='{fid}'] .review-shown").inner_text()
        fresh.close()


def test_web_triage_is_kept_on_the_server(browser, server):
    """On the web page a decision is saved on the server: a reload and another browser see it (issue 15, part 1)."""
    url, _tmp = server
    md = b"Daily vitamin D reduced hip fractures by 22 percent in women over 70 [@trial].\n\nVitamin K cured scurvy in sailors [@trial].\n"
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    r = page.request.post(url + "/jobs", headers={"Accept": "application/json"}, multipart={
        "document": {"name": "draft.md", "mimeType": "text/markdown", "buffer": md},
        "bib": {"name": "refs.bib", "mimeType": "text/plain", "buffer": b"@article{trial, title={A trial}, year={2019}}\n"},
        "sources": {"name": "trial.md", "mimeType": "text/markdown", "buffer": b"# Trial\n\nDaily vitamin D reduced hip fractures by 22 percent in women over 70.\n"}})
    assert 201 == r.status, r.text()
    job = url + r.json()["url"]
    page.goto(job)
    page.wait_for_selector("iframe#report", timeout=90_000)
    frame = page.frame_locator("iframe#report")
    frame.locator("body[data-review-loaded='1']").wait_for()
    card = frame.locator("article.finding", has_text="scurvy")
    fid = card.get_attribute("data-fid")
    card.locator("input[type=radio][value=genuine]").check()
    card.locator(".review-note-input").fill("the trial is about vitamin D")
    frame.locator(f"article.finding[data-fid='{fid}'] .review-saved", has_text="saved on the server").wait_for()
    page.wait_for_timeout(600)  # the note is sent when typing pauses (400 ms)
    frame.locator(f"article.finding[data-fid='{fid}'] .review-saved", has_text="saved on the server").wait_for()
    _shot(page, "web-triage.png")
    page.reload()
    frame = page.frame_locator("iframe#report")
    frame.locator("body[data-review-loaded='1']").wait_for()
    card = frame.locator(f"article.finding[data-fid='{fid}']")
    assert card.locator("input[type=radio][value=genuine]").is_checked()
    assert "genuine problem: the trial is about vitamin D" in card.locator(".review-shown").inner_text()
    ctx.close()
    other = browser.new_context()  # another browser: nothing shared but the server
    pg = other.new_page()
    pg.goto(job)
    frame = pg.frame_locator("iframe#report")
    frame.locator("body[data-review-loaded='1']").wait_for(timeout=30_000)
    assert "genuine problem: the trial is about vitamin D" in frame.locator(f"article.finding[data-fid='{fid}'] .review-shown").inner_text()
    saved = pg.request.get(job + "/review").json()
    assert {"decision": "genuine", "note": "the trial is about vitamin D"} == {k: saved["decisions"][fid][k] for k in ("decision", "note")}
    assert [] == errors
    other.close()
