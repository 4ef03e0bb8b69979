// The page's one WebSocket to the server: every message the server pushes goes to the phone and the
// devtools; everything the page asks goes out on it. The page never polls and never reloads itself:
// when the connection closes it says so and stays as it was.
"use strict";
(function () {
  const W = window.Wayfinder;
  const token = new URLSearchParams(location.search).get("token") || "";
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/ws?token=" + encodeURIComponent(token));
  const status = document.getElementById("connection-status");
  const pending = [];

  W.send = function (message) {
    const text = JSON.stringify(message);
    if (socket.readyState === WebSocket.OPEN) socket.send(text); else pending.push(text);
  };

  socket.addEventListener("open", function () {
    document.body.dataset.connection = "open";
    status.textContent = "Connected to wayfinder serve: every change arrives as it happens.";
    while (pending.length) socket.send(pending.shift());
  });

  socket.addEventListener("close", function () {
    document.body.dataset.connection = "closed";
    status.textContent = "Disconnected from wayfinder serve. Reload this page once it runs again.";
  });

  socket.addEventListener("message", function (message) {
    let data;
    try { data = JSON.parse(message.data); } catch (error) { return; }
    switch (data.type) {
      case "state": W.receiveState(data); break;
      case "inspect": W.devtools.showInspected(data); break;
      case "explain": W.devtools.showExplanation(data); break;
      case "export": W.devtools.saveExport(data); break;
      case "refused": W.phone.toast("Not done: " + data.reason); break;
      case "recording": W.recorded(data); break;
    }
    if (typeof data.seq === "number") document.body.dataset.seq = String(data.seq);
  });

  // A state message: the live state, drawn unless the user is looking at an earlier one.
  W.receiveState = function (state) {
    W.live = state;
    W.devtools.addEvents(state.events, state.reset);
    W.devtools.showRoutes(state.routes);
    W.devtools.showFlow(state.flow, state.screen);
    W.phone.showFailure(state.failure);
    if (!W.travel) {
      W.phone.render(state.screen, { travelling: false });
      W.devtools.showTree(state.tree, null);
    }
    for (const event of state.events) {
      if (state.reset) break;
      if (event.kind === "external") W.phone.toast("Opened outside the app: " + event.url);
      else if ((event.outcome === "failed" || event.outcome === "waiting") && event.kind !== "reload") W.phone.toast(event.message || "failed");
      else if (event.outcome === "unchanged" && ["back", "dismiss", "select"].includes(event.kind) && event.message) W.phone.toast(event.message);
    }
  };
})();
