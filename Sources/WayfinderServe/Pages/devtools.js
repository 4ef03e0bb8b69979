// The devtools beside the phone: the event log (each event's URL, route, params, time, the
// changes to the tree the host reported and the traceback; choosing one shows the app as it was
// after it, and Restore makes that the app's tree again), the tree (tabs, stacks, modals, popover; entries not made yet marked; the open a
// guard keeps waiting), a link sent from outside the app, the state and the log exported and imported as files, the route table
// with an explain box, and the flow graph.
"use strict";
window.Wayfinder = window.Wayfinder || {};
(function () {
  const W = window.Wayfinder;
  const log = document.getElementById("event-log");
  const detail = document.getElementById("event-detail");
  const banner = document.getElementById("time-travel");
  const events = new Map();
  W.travel = null;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Panels
  for (const button of document.querySelectorAll(".devtools-tabs button")) {
    button.addEventListener("click", function () { showPanel(button.dataset.panel); });
  }
  function showPanel(name) {
    for (const button of document.querySelectorAll(".devtools-tabs button")) {
      button.classList.toggle("selected", button.dataset.panel === name);
    }
    for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.id !== "panel-" + name;
  }

  // The event log
  function summary(event) {
    if (event.kind === "select" || event.kind === "restore" || event.kind === "launch" || event.kind === "reload") {
      return event.message || event.visible || "";
    }
    if (event.url) return event.url + (event.outcome === "changed" ? "" : "  " + (event.message || ""));
    return event.message || event.visible || "";
  }

  function addEvents(list, reset) {
    if (reset) { log.replaceChildren(); events.clear(); }
    const atBottom = log.parentElement.scrollTop + log.parentElement.clientHeight >= log.parentElement.scrollHeight - 20;
    for (const event of list) {
      events.set(event.id, event);
      const row = element("li", "event " + event.outcome);
      row.dataset.id = String(event.id);
      row.dataset.kind = event.kind;
      row.dataset.outcome = event.outcome;
      row.appendChild(element("span", "time", event.at));
      row.appendChild(element("span", "kind", event.kind));
      row.appendChild(element("span", "summary", summary(event)));
      row.appendChild(element("span", "ms", event.ms === null ? "" : event.ms + " ms"));
      row.title = [event.kind, event.outcome, event.url, event.message].filter(Boolean).join(" · ");
      row.addEventListener("click", function () { choose(event.id); });
      log.appendChild(row);
    }
    while (log.children.length > 500) log.removeChild(log.firstChild);
    if (atBottom && !W.travel) log.parentElement.scrollTop = log.parentElement.scrollHeight;
  }

  function choose(id) {
    for (const row of log.children) row.classList.toggle("selected", row.dataset.id === String(id));
    showDetail(events.get(id));
    W.send({ type: "inspect", event: id });
  }

  function showDetail(event) {
    detail.replaceChildren();
    if (!event) { detail.hidden = true; return; }
    detail.hidden = false;
    const lines = [
      "#" + event.id + " " + event.kind + " (" + event.outcome + ") at " + event.at + (event.ms === null ? "" : ", took " + event.ms + " ms"),
    ];
    if (event.url) lines.push("url       " + event.url);
    if (event.route) {
      lines.push("route     " + event.route.pattern + "  (mode " + event.route.mode + ")");
      lines.push("params    " + JSON.stringify(event.route.params));
      if (event.route.query && Object.keys(event.route.query).length) lines.push("query     " + JSON.stringify(event.route.query));
      if (event.route.fragment) lines.push("fragment  " + event.route.fragment);
    }
    if (event.message) lines.push("message   " + event.message);
    (event.changes || []).forEach(function (change, index) {
      lines.push((index === 0 ? "changes   " : "          ") + change.text);
    });
    if (event.visible) lines.push("visible   " + event.visible);
    detail.appendChild(element("div", null, lines.join("\n")));
    if (event.traceback) detail.appendChild(element("div", "traceback", event.traceback));
  }

  // Time travel: the app as it was after an event.
  function showInspected(answer) {
    W.travel = answer;
    banner.hidden = false;
    const event = events.get(answer.event);
    document.getElementById("time-travel-text").textContent =
      "The app after event #" + answer.event + (event ? " (" + event.kind + ")" : "");
    W.phone.render(answer.screen, { travelling: true });
    showTree(answer.tree, answer.event);
  }

  // The chosen event stays chosen, its detail shown: only the phone and the tree are live again.
  function backToNow() {
    W.travel = null;
    banner.hidden = true;
    if (W.live) {
      W.phone.render(W.live.screen, { travelling: false });
      showTree(W.live.tree, null);
    }
  }

  document.getElementById("restore-button").addEventListener("click", function () {
    if (!W.travel) return;
    const id = W.travel.event;
    backToNow();
    W.send({ type: "restore", event: id });
  });
  document.getElementById("live-button").addEventListener("click", backToNow);

  // The tree
  function entryList(entries) {
    const list = element("ul");
    for (const entry of entries || []) {
      const item = element("li");
      const label = element("span", "tree-entry" + (entry.made ? "" : " unmade") + (entry.visible ? " visible" : ""),
        (entry.title === entry.url ? entry.url : entry.title + "  " + entry.url) + (entry.made ? "" : "  (not made yet)"));
      label.dataset.url = entry.url;
      item.appendChild(label);
      list.appendChild(item);
    }
    return list;
  }

  function node(title, child) {
    const item = element("li");
    item.appendChild(element("span", "tree-node", title));
    if (child) item.appendChild(child);
    return item;
  }

  function showTree(tree, eventID) {
    const view = document.getElementById("tree-view");
    document.getElementById("tree-caption").textContent = eventID === null
      ? "The navigation tree now."
      : "The navigation tree after event #" + eventID + ".";
    view.replaceChildren();
    const top = element("ul");
    if (tree && tree.root) {
      if (tree.root.kind === "tabs") {
        const tabs = element("ul");
        tree.root.tabs.forEach(function (tab, index) {
          const selected = index + 1 === tree.root.selected;
          const label = "Tab " + (index + 1) + (tab.title ? ": " + tab.title : "") + (selected ? " (selected)" : "");
          tabs.appendChild(node(label, entryList(tab.entries)));
        });
        top.appendChild(node("Tabs", tabs));
      } else {
        top.appendChild(node("Stack", entryList(tree.root.entries)));
      }
      (tree.modals || []).forEach(function (modal, index) {
        top.appendChild(node("Modal " + (index + 1), entryList(modal)));
      });
      if (tree.popover) top.appendChild(node("Popover", entryList(tree.popover)));
      if (tree.pending) {
        const waiting = element("span", "tree-entry pending", tree.pending.url + (tree.pending.from_outside ? "  (a link from outside)" : ""));
        waiting.dataset.url = tree.pending.url;
        top.appendChild(node("Waiting for its guard", waiting));
      }
    } else {
      top.appendChild(element("li", "caption", "The app is not loaded."));
    }
    view.appendChild(top);
  }

  // Routes and explain
  function showRoutes(routes) {
    const body = document.querySelector("#route-table tbody");
    body.replaceChildren();
    (routes || []).forEach(function (route, index) {
      const row = element("tr");
      row.dataset.pattern = route.pattern;
      row.appendChild(element("td", null, index + 1));
      row.appendChild(element("td", null, route.pattern));
      row.appendChild(element("td", null, route.mode));
      row.appendChild(element("td", null, route.target));
      // A function target has no constructor: "-", as `wayfinder routes` says.
      row.appendChild(element("td", null, route.method || "-"));
      body.appendChild(row);
    });
  }

  document.getElementById("explain-form").addEventListener("submit", function (event) {
    event.preventDefault();
    const url = document.getElementById("explain-input").value.trim();
    if (url) W.send({ type: "explain", url: url });
  });

  function showExplanation(answer) {
    const view = document.getElementById("explain-result");
    view.replaceChildren();
    const report = answer.report || {};
    const lines = [answer.url];
    if (report.matched) {
      for (const hop of report.moved || []) lines.push("  moved    " + hop.from + " -> " + hop.to + "  (moved '" + hop.old + "' -> '" + hop.new + "')");
      lines.push("  pattern  " + report.pattern + "  (mode " + report.mode + ")");
      if (report.method) lines.push("  method   " + report.method);
      lines.push("  params   " + JSON.stringify(report.params));
      if (report.query && Object.keys(report.query).length) lines.push("  query    " + JSON.stringify(report.query));
      if (report.fragment) lines.push("  fragment " + report.fragment);
    } else {
      lines.push((report.external ? "  external: " : "  no match: ") + (report.reason || ""));
    }
    view.appendChild(element("div", "explain-report", lines.join("\n")));
    for (const entry of answer.explain || []) {
      view.appendChild(element("div", entry.verdict,
        "  " + entry.verdict.padEnd(7) + " " + entry.pattern + (entry.reason ? ": " + entry.reason : "")));
    }
    for (const row of document.querySelectorAll("#route-table tbody tr")) {
      row.classList.toggle("winner", !!report.matched && row.dataset.pattern === report.pattern);
    }
  }

  // A link from outside the app: through the host's door for links (guards, the external rule,
  // link prefixes), not as the URL bar's open.
  document.getElementById("link-form").addEventListener("submit", function (event) {
    event.preventDefault();
    const url = document.getElementById("link-input").value.trim();
    if (url) W.send({ type: "link", url: url });
  });

  // Files: the state and the event log exported as downloads, imported in parts (each message
  // stays under the server's limit; 8192 characters are at most 48 KiB as JSON).
  const importPart = 8192;
  const importLimit = 16 * 1024 * 1024;
  document.getElementById("export-state").addEventListener("click", function () { W.send({ type: "export", what: "state" }); });
  document.getElementById("export-log").addEventListener("click", function () { W.send({ type: "export", what: "log" }); });
  function importFile(input, what) {
    input.addEventListener("change", function () {
      const file = input.files && input.files[0];
      input.value = "";
      if (!file) return;
      if (file.size > importLimit) { W.phone.toast("Not done: import: the file is larger than " + importLimit + " bytes"); return; }
      file.text().then(function (text) {
        // Cut between characters, never inside a surrogate pair.
        const pieces = [];
        let start = 0;
        do {
          let end = Math.min(text.length, start + importPart);
          const code = text.charCodeAt(end - 1);
          if (end < text.length && code >= 0xD800 && code <= 0xDBFF) end -= 1;
          pieces.push(text.slice(start, end));
          start = end;
        } while (start < text.length);
        pieces.forEach(function (piece, index) {
          W.send({ type: "import", what: what, part: index + 1, parts: pieces.length, text: piece });
        });
      });
    });
  }
  importFile(document.getElementById("import-state"), "state");
  importFile(document.getElementById("import-log"), "log");

  function saveExport(answer) {
    const url = URL.createObjectURL(new Blob([answer.text], { type: "application/json" }));
    const anchor = element("a");
    anchor.href = url;
    anchor.download = answer.name;
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function showFlow(flow, screen) {
    W.flowGraph.draw(document.getElementById("flow-graph"), flow, screen);
  }

  W.devtools = {
    addEvents: addEvents, showTree: showTree, showRoutes: showRoutes, showInspected: showInspected,
    showExplanation: showExplanation, showFlow: showFlow, showPanel: showPanel, saveExport: saveExport,
  };
})();
