"""Online resolution speed and cache (issue 12: ``make bench``).

Starts the loopback services of ``tests/online_server.py`` on 127.0.0.1 with
200 ms added to every response, and resolves 100 references (80 by DOI, 20 by
title, first author and year) through the whole online step (lookup, then the
full-text ladder down to the abstract) with the real rate limits
(:data:`citeproof.sources.online.http.DEFAULT_RATES`). Then again with the
same cache, counting requests. Target: under 15 s, and 0 requests on the re-run.
No traffic leaves 127.0.0.1.

    python bench/online_bench.py [--refs 100] [--delay 0.2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from online_server import FakeWeb, json_reply  # noqa: E402
from online_world import crossref_work, openalex_work  # noqa: E402

from citeproof.model import Reference, Source  # noqa: E402
from citeproof.sources.cache import Cache  # noqa: E402


def world(web: FakeWeb, n: int) -> dict[str, Reference]:
    refs = {}
    for i in range(n):
        doi = f"10.5555/bench.{i:04d}"
        title = f"Benchmark study number {i} of household transmission in cohort {i * 7}"
        abstract = f"We report study {i} with {i * 3} participants."
        web["crossref"].routes[f"/works/{doi}"] = json_reply(crossref_work(doi, title, [("Ann", f"Author{i}")], 2020, "Bench Journal"))
        work = openalex_work(doi, title, [f"Ann Author{i}"], 2020, "Bench Journal", abstract=abstract)
        web["openalex"].routes[f"/works/doi:{doi}"] = json_reply(work)
        key = f"w{i:03d}"
        if i < n * 4 // 5:
            refs[key] = Reference(citekey=key, title=title, authors=(f"Author{i}, Ann",), year="2020", doi=doi)
        else:
            web["openalex"].routes[f"/works?search=Benchmark study number {i} "] = json_reply({"meta": {"count": 1}, "results": [work]})
            refs[key] = Reference(citekey=key, title=title, authors=(f"Author{i}, Ann",), year="2020")
    return refs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--refs", type=int, default=100)
    ap.add_argument("--delay", type=float, default=0.2)
    a = ap.parse_args()
    web = FakeWeb()
    try:
        for s in web.services.values():
            s.delay_s = a.delay
        for k, v in web.env.items():
            if k != "CITEPROOF_ONLINE_RATES":  # the real politeness limits
                os.environ[k] = v
        refs = world(web, a.refs)
        from citeproof.sources.online import OnlineSession, OnlineSettings

        with tempfile.TemporaryDirectory() as tmp:
            results = []
            for label in ("cold", "warm (cache)"):
                cache = Cache(Path(tmp))
                session = OnlineSession(OnlineSettings(email="bench@example.org"), Path(tmp), cache)
                local = {k: Source(citekey=k, error="no local source") for k in refs}
                t = time.perf_counter()
                session.complete(refs, local)
                dt = time.perf_counter() - t
                found = sum(1 for lk in session.lookups.values() if lk.found)
                results.append((label, dt, session.http.requests_made, found))
                session.close()
        for label, dt, req, found in results:
            print(f"online, {a.refs} references, {a.delay * 1000:.0f} ms per response, {label}: {dt:.2f} s, {req} requests, {found} found")
        ok = results[0][1] < 15 and results[1][2] == 0
        print("target (under 15 s cold, 0 requests warm):", "met" if ok else "NOT met")
    finally:
        web.stop()


if __name__ == "__main__":
    main()
