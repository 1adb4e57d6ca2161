// The job page's live progress: polls the job's status until it is done or failed, then reloads the page.
// A file, not an inline script: the page's CSP runs scripts from this origin only (issue 31).
(function () {
  var url = document.getElementById("job-status").getAttribute("data-status-url");
  function tick() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (s) {
      if (s.status === "done" || s.status === "failed") { location.reload(); return; }
      document.getElementById("status-word").textContent = s.status;
      document.getElementById("stage").textContent = s.stage !== s.status ? ": " + s.stage : "";
      document.getElementById("progress-text").textContent = s.total ? s.done + "/" + s.total : "";
      var p = document.getElementById("progress");
      p.max = s.total || 1; p.value = s.done || 0;
      setTimeout(tick, 400);
    }).catch(function () { setTimeout(tick, 1500); });
  }
  setTimeout(tick, 300);
})();
