// session-kit view: the filter, the timeline's tooltip, and opening what a link jumps to.
// The page works without it: content, links and the timeline are plain HTML and SVG.
(function () {
  "use strict";
  var doc = document;
  doc.documentElement.classList.add("js");
  var items = Array.prototype.slice.call(doc.querySelectorAll("#conversation .item"));
  var bars = Array.prototype.slice.call(doc.querySelectorAll(".track .bar"));
  var texts = new Map();
  function textOf(el) {
    var t = texts.get(el);
    if (t === undefined) { t = el.textContent.toLowerCase(); texts.set(el, t); }
    return t;
  }
  var q = doc.getElementById("q"), tool = doc.getElementById("tool");
  var failures = doc.getElementById("failures"), thinking = doc.getElementById("thinking");
  var count = doc.getElementById("count");

  function matches(el, query, name, failedOnly) {
    var isCall = el.classList.contains("call");
    if (name && !(isCall && el.dataset.tool === name)) return false;
    if (failedOnly && !(isCall && el.dataset.status === "error")) return false;
    if (query && textOf(el).indexOf(query) < 0) return false;
    return true;
  }

  function apply() {
    var query = q.value.trim().toLowerCase(), name = tool.value, failedOnly = failures.checked;
    var showThinking = !thinking || thinking.checked, shown = 0, active = query || name || failedOnly;
    var visibleCalls = new Set();
    items.forEach(function (el) {
      var ok = matches(el, query, name, failedOnly);
      if (el.classList.contains("thinking") && !showThinking) ok = false;
      el.hidden = !ok;
      if (ok) { shown++; if (el.classList.contains("call")) visibleCalls.add(el.id); }
    });
    bars.forEach(function (bar) { bar.classList.toggle("dim", !!active && !visibleCalls.has(bar.dataset.call)); });
    count.textContent = active ? shown + " of " + items.length + " shown" : "";
  }
  [q, tool, failures, thinking].forEach(function (el) {
    if (el) el.addEventListener(el === q ? "input" : "change", apply);
  });
  if (thinking) apply();

  // Open what a link points at (and the calls around it), then bring it into view.
  function reveal(id) {
    var el = id && doc.getElementById(id);
    if (!el) return;
    if (el.hidden) { q.value = ""; tool.value = ""; failures.checked = false; apply(); }
    for (var p = el; p; p = p.parentElement) { if (p.tagName === "DETAILS") p.open = true; }
    el.querySelectorAll(".result.error details.more").forEach(function (d) { d.open = true; });
    el.scrollIntoView({ block: "start" });
    el.classList.remove("flash"); void el.offsetWidth; el.classList.add("flash");
  }
  doc.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("a[href^='#']");
    if (!link) return;
    var id = decodeURIComponent(link.getAttribute("href").slice(1));
    if (!doc.getElementById(id)) return;
    ev.preventDefault();
    history.replaceState(null, "", "#" + id);
    reveal(id);
  });
  window.addEventListener("hashchange", function () { reveal(location.hash.slice(1)); });
  if (location.hash) reveal(decodeURIComponent(location.hash.slice(1)));

  // The call's summary on hover and on keyboard focus.
  var tip = doc.getElementById("tip");
  function show(bar) {
    var title = bar.querySelector("title");
    if (!title) return;
    tip.textContent = title.textContent;
    tip.hidden = false;
    var box = bar.getBoundingClientRect();
    var left = Math.min(box.left, window.innerWidth - tip.offsetWidth - 8);
    tip.style.left = Math.max(4, left) + "px";
    tip.style.top = (box.bottom + 6) + "px";
  }
  function hide() { tip.hidden = true; }
  bars.forEach(function (bar) {
    bar.addEventListener("mouseenter", function () { show(bar); });
    bar.addEventListener("focus", function () { show(bar); });
    bar.addEventListener("mouseleave", hide);
    bar.addEventListener("blur", hide);
  });
})();
