/* fracas: acting on a table's page with a mouse, a finger or the keyboard alone.
   - focus goes to the first offered action when the page loads (after each action);
     "/" puts the cursor in the Action box, "a" goes back to the first action;
   - a click on a combatant's row or token keeps only the actions against it;
   - where several act at once, one is chosen and only its actions are shown;
   - the log follows the fight: its newest line stays in view unless the reader scrolled
     up (then "new lines" brings them back), and it can show one combatant's lines.
   It reapplies itself after each live update (fracas-live.js, htmx's sse extension). */
(function () {
  "use strict";
  var chosenTarget = "", chosenActor = "";

  function $(id) { return document.getElementById(id); }
  function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  function visible(el) { return el.offsetParent !== null; }
  function firstAction() { return all("button.do").filter(visible)[0] || null; }

  function focusFirst() {
    var b = firstAction();
    if (b) { b.focus({ preventScroll: true }); }
    return b;
  }

  function applyChoice() {
    var actors = all("button.actor");
    if (actors.length && !actors.some(function (b) { return b.dataset.actor === chosenActor; })) {
      chosenActor = actors[0].dataset.actor;
    }
    if (!actors.length) { chosenActor = ""; }
    actors.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.actor === chosenActor)); });
    var targets = {};
    all("button.do").forEach(function (b) {
      if (b.dataset.target) { targets[b.dataset.target] = true; }
      b.classList.toggle("other-actor", !!chosenActor && b.dataset.actor !== chosenActor);
      b.classList.toggle("other-target", !!chosenTarget && !!b.dataset.target && b.dataset.target !== chosenTarget);
    });
    if (chosenTarget && !targets[chosenTarget]) { chosenTarget = ""; return applyChoice(); }
    all("[data-cid]").forEach(function (el) {
      el.classList.toggle("chosen", !!chosenTarget && el.dataset.cid === chosenTarget);
    });
    var hint = $("target-hint");
    if (hint) {
      hint.hidden = !chosenTarget;
      var row = chosenTarget ? $("row-" + chosenTarget) : null;
      var name = row ? row.querySelector(".name") : null;
      $("target-name").textContent = name ? name.textContent : chosenTarget;
    }
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest) { return; }
    var actor = t.closest("button.actor");
    if (actor) {
      chosenActor = actor.dataset.actor;
      applyChoice();
      focusFirst();
      return;
    }
    if (t.closest("#target-all")) {
      chosenTarget = "";
      applyChoice();
      focusFirst();
      return;
    }
    var who = t.closest("tr[data-cid], g.person[data-cid]");
    if (who && !t.closest("a, button, input, select")) {
      var cid = who.dataset.cid;
      if (!all("button.do").some(function (b) { return b.dataset.target === cid; })) { return; }
      chosenTarget = chosenTarget === cid ? "" : cid;
      applyChoice();
      var against = all("button.do").filter(function (b) {
        return visible(b) && b.dataset.target === chosenTarget;
      })[0];
      if (against) { against.focus({ preventScroll: true }); } else { focusFirst(); }
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    if (e.key === "/") {
      var box = $("action");
      if (box) { e.preventDefault(); box.focus(); }
    } else if (e.key === "a") {
      if (focusFirst()) { e.preventDefault(); }
    }
  });

  // -- the log ---------------------------------------------------------------------------
  var wasAtEnd = true, linesBefore = 0;

  function log() { return $("log"); }
  function atEnd(el) { return el.scrollHeight - el.scrollTop - el.clientHeight < 8; }
  function marker(show) { var m = $("log-new"); if (m) { m.hidden = !show; } }

  function toEnd() {
    var el = log();
    if (el) { el.scrollTop = el.scrollHeight; }
    marker(false);
  }

  function filterLog() {
    var el = log(), pick = $("log-filter");
    if (!el) { return; }
    var who = pick ? pick.value : "";
    Array.prototype.forEach.call(el.children, function (line) {
      var names = (line.dataset.who || "").split(" ");
      line.hidden = !!who && !line.classList.contains("round") && names.indexOf(who) < 0;
    });
  }

  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "log-filter") { filterLog(); toEnd(); }
  });
  document.addEventListener("click", function (e) {
    if (e.target && e.target.closest && e.target.closest("#log-new")) { toEnd(); }
  });
  document.addEventListener("scroll", function (e) {
    if (e.target && e.target.id === "log" && atEnd(e.target)) { marker(false); }
  }, true);

  document.body.addEventListener("htmx:sseBeforeMessage", function () {
    var el = log();
    wasAtEnd = !el || atEnd(el);
    linesBefore = el ? el.children.length : 0;
  });
  document.body.addEventListener("htmx:sseMessage", function () {
    applyChoice();
    filterLog();
    var el = log();
    if (!el) { return; }
    if (wasAtEnd) { toEnd(); } else if (el.children.length !== linesBefore) { marker(true); }
    if (document.activeElement === document.body || !document.activeElement) { focusFirst(); }
  });
  document.body.addEventListener("fracas:earlier", filterLog);

  applyChoice();
  filterLog();
  toEnd();
  if (!$("faces") && !$("action-error") && !$("faces-error")) { focusFirst(); }
})();
