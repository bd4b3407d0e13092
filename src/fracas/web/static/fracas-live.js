/* fracas: a table page kept live by its event stream (see fracas/web/events.py).
   The stream's updates morph the parts that changed (htmx's sse extension, idiomorph);
   this script keeps the page on the version it shows: #live's data-version, the hidden
   version of the forms a person fills in (marked data-follow), the stream's URL for a
   reconnection; it keeps the element in use where it is on the screen and the log
   scrolled to its end when it was there, fetches the log's earlier lines on demand, and
   pauses the stream of a page hidden for a minute or left idle by the server, and
   resumes it when its reader is back. */
(function () {
  "use strict";
  var stream = document.getElementById("stream");
  var live = document.getElementById("live");
  if (!stream || !live) { return; }
  var base = stream.dataset.base;
  var paused = false;
  var logAtEnd = true;
  Idiomorph.defaults.ignoreActiveValue = true;

  function log() { return document.getElementById("log"); }

  function note(text) { document.getElementById("stream-note").textContent = text; }

  function atEnd(el) { return el.scrollHeight - el.scrollTop - el.clientHeight < 8; }

  function earlierButton() {
    var button = document.getElementById("log-earlier"), el = log();
    if (button && el) { button.hidden = !(+el.dataset.start > 0); }
  }

  function follow(version) {
    live.dataset.version = version;
    document.querySelectorAll("input[name=version][data-follow]").forEach(function (input) {
      input.value = version;
    });
    stream.setAttribute("sse-connect", base + "/events?v=" + version);
    earlierButton();
  }

  // A fresh copy of the stream's element in its place: htmx closes the old one's stream.
  function replaceStream() {
    var fresh = stream.cloneNode(true);
    fresh.setAttribute("sse-connect", base + "/events?v=" + live.dataset.version);
    stream.parentNode.insertBefore(fresh, stream);
    htmx.remove(stream);
    stream = fresh;
  }

  function reconnect() {
    replaceStream();
    htmx.process(stream);
  }

  function pause(text) {
    if (!paused) {
      paused = true;
      replaceStream();
      note(text);
    }
  }

  // The element a person is using stays where it is on the screen, whatever grows above.
  var anchor = null, anchorTop = 0;

  document.body.addEventListener("htmx:sseBeforeMessage", function () {
    var el = log();
    logAtEnd = !el || atEnd(el);
    anchor = document.activeElement;
    if (anchor && anchor !== document.body) {
      anchorTop = anchor.getBoundingClientRect().top;
    } else {
      anchor = null;
    }
  });

  document.body.addEventListener("htmx:sseMessage", function (e) {
    var message = e.detail;
    if (message.type === "update" && message.lastEventId) {
      follow(message.lastEventId);
      note("");
      var el = log();
      if (el && logAtEnd) { el.scrollTop = el.scrollHeight; }
      if (anchor && document.body.contains(anchor)) {
        window.scrollBy(0, anchor.getBoundingClientRect().top - anchorTop);
      }
    } else if (message.type === "close") {
      if (message.data === "idle") {
        pause("Paused while nothing happened: it goes on as soon as you are back.");
      } else if (message.data === "reload") {
        window.location.href = base;
      } else if (message.data === "gone") {
        note("This table is gone: it was deleted.");
      } else {
        note("Live updates stopped: reload the page to try again.");
      }
    }
  });

  function resume() {
    if (paused && document.visibilityState !== "hidden") {
      paused = false;
      note("");
      reconnect();
    }
  }
  ["focus", "pointerdown", "keydown"].forEach(function (name) {
    window.addEventListener(name, resume, true);
  });
  // A page hidden for a minute lets go of its stream (and of the browser's connection).
  var hiding = null;
  document.addEventListener("visibilitychange", function () {
    window.clearTimeout(hiding);
    if (document.visibilityState === "hidden") {
      hiding = window.setTimeout(function () {
        pause("Paused while the page was hidden: it goes on as soon as you are back.");
      }, 60000);
    } else {
      resume();
    }
  });

  document.body.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("#log-earlier") : null;
    var el = log();
    if (!button || !el) { return; }
    button.disabled = true;
    fetch(button.dataset.url + "?end=" + el.dataset.start, { credentials: "same-origin" })
      .then(function (answer) {
        if (!answer.ok) { throw new Error(answer.status); }
        return answer.text().then(function (text) {
          var height = el.scrollHeight, first = el.firstChild;
          text.split("\n").slice(0, -1).forEach(function (line) {
            var div = document.createElement("div");
            div.className = /^── round /.test(line) ? "line round" : "line";
            div.textContent = line;
            el.insertBefore(div, first);
          });
          document.body.dispatchEvent(new CustomEvent("fracas:earlier"));
          el.dataset.start = answer.headers.get("X-Log-Start") || "0";
          el.scrollTop += el.scrollHeight - height;
        });
      })
      .catch(function () { note("The earlier lines could not be fetched: try again."); })
      .then(function () { button.disabled = false; earlierButton(); });
  });

  var el = log();
  if (el) { el.scrollTop = el.scrollHeight; }
})();
