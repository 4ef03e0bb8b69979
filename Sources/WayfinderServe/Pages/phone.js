// The phone: draws the layers the server describes (the root's stack under its navigation bar, each
// modal as a sheet over it, the popover as a bubble), the tab bar, the URL bar, the error of a
// refused reload over everything, and short notes (a URL opened outside the app). Every tap becomes
// a message to the server, which answers with the new state.
"use strict";
window.Wayfinder = window.Wayfinder || {};
(function () {
  const W = window.Wayfinder;
  const layersView = document.getElementById("layers");
  const tabBar = document.getElementById("tab-bar");
  const urlInput = document.getElementById("url-input");
  const toastView = document.getElementById("toast");
  let toastTimer = null;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function navBar(layer, index, isTop) {
    const bar = element("div", "nav-bar");
    const left = element("div", "nav-left");
    const stack = layer.stack || [];
    if (layer.kind !== "popover" && stack.length > 1) {
      const back = element("button", "back-button", stack[stack.length - 2].title);
      back.type = "button";
      back.dataset.role = "back";
      back.title = "Back to " + stack[stack.length - 2].title;
      if (isTop) back.id = "back-button";
      back.addEventListener("click", function () { W.send({ type: "back" }); });
      left.appendChild(back);
    }
    bar.appendChild(left);
    const screen = layer.screen || {};
    bar.appendChild(element("div", "nav-title", screen.title || ""));
    const right = element("div", "nav-right");
    if (layer.kind === "modal" || layer.kind === "popover") {
      const close = element("button", "close-button", "Close");
      close.type = "button";
      close.dataset.role = "close";
      if (isTop) close.id = "close-button";
      close.addEventListener("click", function () { W.send({ type: "dismiss" }); });
      right.appendChild(close);
    }
    bar.appendChild(right);
    return bar;
  }

  function content(screen) {
    const box = element("div", "content");
    if (!screen) {
      box.appendChild(element("p", "empty-screen", "This stack is empty."));
      return box;
    }
    box.appendChild(element("p", "screen-url", screen.url));
    if (screen.problem) box.appendChild(element("p", "problem", screen.problem));
    for (const line of screen.lines || []) box.appendChild(element("p", "line", line));
    const links = screen.links || [];
    if (links.length) {
      const list = element("div", "links");
      for (const link of links) {
        const button = element("button", "link" + (link.external ? " external" : ""));
        button.type = "button";
        button.dataset.url = link.url;
        button.appendChild(element("span", "link-title", link.title));
        button.appendChild(element("span", "link-url", link.url));
        button.addEventListener("click", function () {
          W.send({ type: "open", url: link.url, from: screen.url, title: link.title });
        });
        list.appendChild(button);
      }
      box.appendChild(list);
    }
    const form = W.form && W.form(screen);
    if (form) box.appendChild(form);
    return box;
  }

  function render(screen, options) {
    const travelling = options && options.travelling;
    document.getElementById("phone").classList.toggle("travelling", !!travelling);
    layersView.replaceChildren();
    const layers = (screen && screen.layers) || [];
    const hasTabs = !!(screen && screen.tabs);
    if (!layers.length) {
      const empty = element("div", "layer root");
      empty.appendChild(element("p", "empty-screen", "Nothing is open. Type a URL above to open a screen."));
      layersView.appendChild(empty);
    }
    let sheets = 0;
    layers.forEach(function (layer, index) {
      const isTop = index === layers.length - 1;
      let view;
      if (layer.kind === "popover") {
        const backdrop = element("div", "popover-backdrop");
        backdrop.addEventListener("click", function () { W.send({ type: "dismiss" }); });
        layersView.appendChild(backdrop);
        view = element("div", "popover");
      } else if (layer.kind === "modal") {
        sheets += 1;
        view = element("div", "layer sheet depth-" + Math.min(sheets, 4));
      } else {
        view = element("div", "layer root" + (hasTabs ? " with-tabs" : ""));
      }
      view.dataset.kind = layer.kind;
      view.dataset.url = layer.screen ? layer.screen.url : "";
      if (isTop) view.classList.add("top"); else if (layers[index + 1].kind !== "popover") view.classList.add("covered");
      if (!isTop || travelling) view.inert = true;
      view.appendChild(navBar(layer, index, isTop));
      view.appendChild(content(layer.screen));
      layersView.appendChild(view);
    });
    tabBar.replaceChildren();
    tabBar.hidden = !hasTabs;
    tabBar.inert = !!travelling || layers.length > 1;
    if (hasTabs) {
      for (const tab of screen.tabs) {
        const button = element("button", "tab" + (tab.selected ? " selected" : ""));
        button.type = "button";
        button.dataset.tab = String(tab.number);
        button.appendChild(element("span", null, tab.title));
        button.addEventListener("click", function () { W.send({ type: "select", tab: tab.number }); });
        tabBar.appendChild(button);
      }
    }
    if (document.activeElement !== urlInput) urlInput.value = (screen && screen.visible) || "";
    const pending = document.getElementById("pending");
    const waiting = screen && screen.pending;
    pending.hidden = !waiting;
    pending.textContent = waiting ? "Waiting: " + waiting.url + (waiting.from_outside ? " (a link from outside)" : "") +
      " opens once its guard lets it through" : "";
  }

  function showFailure(failure) {
    const view = document.getElementById("failure");
    view.hidden = !failure;
    document.getElementById("failure-message").textContent = failure ? failure.message : "";
    document.getElementById("failure-traceback").textContent = failure && failure.traceback ? failure.traceback : "";
  }

  function toast(text) {
    toastView.textContent = text;
    toastView.hidden = false;
    if (toastTimer) clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toastView.hidden = true; }, 4000);
  }

  document.getElementById("url-bar").addEventListener("submit", function (event) {
    event.preventDefault();
    const url = urlInput.value.trim();
    if (url) W.send({ type: "open", url: url });
    urlInput.blur();
  });

  W.phone = { render: render, showFailure: showFailure, toast: toast };
})();
