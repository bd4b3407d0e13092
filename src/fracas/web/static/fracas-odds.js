// The GM's "Odds of this fight" (fracas.web.fight_odds): the box is fetched when the page
// opens; "Work out the odds" opens a stream that pushes the progress, and closing the page
// closes it (the server then cancels the job). Tune: its form starts a search whose
// progress and plot come the same way.
(function () {
  "use strict";
  const box = document.getElementById("fight-odds");
  if (!box) return;
  const base = box.dataset.base;
  const streams = {};

  function swap(id, html) {
    const old = document.getElementById(id);
    if (!old) return;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    const fresh = holder.firstElementChild;
    if (fresh) old.replaceWith(fresh);
  }

  function follow(name, url) {
    if (streams[name]) streams[name].close();
    const source = new EventSource(url);
    streams[name] = source;
    source.addEventListener("odds", (e) => { swap("fight-odds-panel", e.data); stale(); });
    source.addEventListener("tune", (e) => swap("tune-result", e.data));
    source.addEventListener("end", () => { source.close(); delete streams[name]; });
    source.onerror = () => { if (source.readyState === EventSource.CLOSED) delete streams[name]; };
  }

  function post(url, fields) {
    const panel = document.getElementById("fight-odds-panel");
    const body = new URLSearchParams(fields);
    body.set("csrf", panel ? panel.dataset.csrf : "");
    return fetch(url, { method: "POST", body: body, credentials: "same-origin" });
  }

  box.addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (!button) return;
    if (button.id === "fight-odds-start") follow("odds", button.dataset.url);
    if (button.id === "fight-odds-cancel") {
      post(button.dataset.url, { what: "odds" }).then((r) => r.text()).then((html) => {
        if (streams.odds) { streams.odds.close(); delete streams.odds; }
        swap("fight-odds-panel", html);
      });
    }
    if (button.id === "tune-cancel") {
      post(button.dataset.url, { what: "tune" }).then((r) => r.text()).then((html) => {
        if (streams.tune) { streams.tune.close(); delete streams.tune; }
        swap("tune-result", html);
      });
    }
  });

  box.addEventListener("submit", (e) => {
    if (e.target.id !== "tune-form") return;
    e.preventDefault();
    const form = e.target;
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin" })
      .then((r) => r.text().then((html) => [r.ok, html]))
      .then(([ok, html]) => {
        swap("tune-result", html);
        const result = document.getElementById("tune-result");
        if (ok && result && result.dataset.state === "running") follow("tune", result.dataset.stream);
      });
  });

  // A table's finished odds are of the version they were worked out at: when the page
  // shows a later one, they say so and offer to work them out again.
  function stale() {
    const live = document.getElementById("live");
    const panel = document.getElementById("fight-odds-panel");
    const note = panel && panel.querySelector(".fight-odds-stale");
    if (live && note && panel.dataset.state === "done") {
      note.hidden = live.dataset.version === panel.dataset.version;
    }
  }
  const live = document.getElementById("live");
  if (live) new MutationObserver(stale).observe(live, { attributes: true, attributeFilter: ["data-version"] });

  fetch(base + "/fight-odds", { credentials: "same-origin" })
    .then((r) => r.text())
    .then((html) => {
      const loading = document.getElementById("fight-odds-loading");
      if (loading) loading.outerHTML = html;
      const panel = document.getElementById("fight-odds-panel");
      if (panel && panel.dataset.state === "running") follow("odds", base + "/fight-odds/events");
      stale();
      const result = document.getElementById("tune-result");
      if (result && result.dataset.state === "running") follow("tune", result.dataset.stream);
    });
})();
