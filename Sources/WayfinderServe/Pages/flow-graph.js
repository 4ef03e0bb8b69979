// Draws the flow graph as SVG: the routes seen so far as boxes in columns by how many links away
// from the first screens they are, the links seen as curves between them (solid once followed,
// dashed when they present a modal or popover), the visible screen's route filled. A followed
// link's label sits in the gap before the box it leads to, stacked with the other labels leading
// there above the line the curves arrive on, drawn over every curve with a halo.
"use strict";
window.Wayfinder = window.Wayfinder || {};
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const WIDTH = 220, HEIGHT = 30, COLUMN_GAP = 150, ROW_GAP = 22, MARGIN = 24;
  // What fits: node labels in 11px monospace inside a box, link labels in 10px sans in a gap.
  const NODE_CHARACTERS = Math.floor((WIDTH - 16) / 6.7), EDGE_CHARACTERS = Math.floor((COLUMN_GAP - 24) / 5.6);
  const LABEL_LINE = 11, LABELS_PER_NODE = 3;

  function svg(tag, attributes, text) {
    const node = document.createElementNS(NS, tag);
    for (const name in attributes) node.setAttribute(name, String(attributes[name]));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function shortened(text, length) {
    return text.length > length ? text.slice(0, length - 1) + "…" : text;
  }

  // Columns: a node's shortest distance, along edges, from a node no edge reaches.
  function columns(nodes, edges) {
    const incoming = new Map(nodes.map(function (node) { return [node.id, 0]; }));
    const outgoing = new Map(nodes.map(function (node) { return [node.id, []]; }));
    for (const edge of edges) {
      if (edge.from === edge.to || !outgoing.has(edge.from) || !incoming.has(edge.to)) continue;
      incoming.set(edge.to, incoming.get(edge.to) + 1);
      outgoing.get(edge.from).push(edge.to);
    }
    const depth = new Map();
    let queue = nodes.filter(function (node) { return incoming.get(node.id) === 0; }).map(function (node) { return node.id; });
    if (!queue.length && nodes.length) queue = [nodes[0].id];
    for (const id of queue) depth.set(id, 0);
    while (queue.length) {
      const id = queue.shift();
      for (const next of outgoing.get(id)) {
        if (!depth.has(next)) { depth.set(next, depth.get(id) + 1); queue.push(next); }
      }
    }
    for (const node of nodes) if (!depth.has(node.id)) depth.set(node.id, 0);
    return depth;
  }

  // A curve that keeps out of the boxes: to a box in the next column, straight across the gap;
  // further, along the gap between rows above the target's, so it passes between the boxes of
  // the columns on the way; back (or within a column), out of the source's right side, down the
  // gap beside it and into the target's right side.
  function path(from, to) {
    const x1 = from.x + WIDTH, y1 = from.y + HEIGHT / 2, y2 = to.y + HEIGHT / 2;
    if (to.x > from.x) {
      const x2 = to.x, half = COLUMN_GAP / 2;
      if (x2 - x1 <= COLUMN_GAP) {
        return "M " + x1 + " " + y1 + " C " + (x1 + half) + " " + y1 + ", " + (x2 - half) + " " + y2 + ", " + x2 + " " + y2;
      }
      const lane = to.y - ROW_GAP / 2;
      return "M " + x1 + " " + y1 + " C " + (x1 + half) + " " + y1 + ", " + (x1 + half) + " " + lane + ", " + (x1 + COLUMN_GAP) + " " + lane
        + " L " + (x2 - COLUMN_GAP) + " " + lane
        + " C " + (x2 - half) + " " + lane + ", " + (x2 - half) + " " + y2 + ", " + x2 + " " + y2;
    }
    const x2 = to.x + WIDTH, out = Math.max(x1, x2) + COLUMN_GAP / 3;
    return "M " + x1 + " " + y1 + " C " + out + " " + y1 + ", " + out + " " + y2 + ", " + x2 + " " + y2;
  }

  function draw(container, flow, screen) {
    container.replaceChildren();
    const nodes = (flow && flow.nodes) || [];
    const edges = (flow && flow.edges) || [];
    if (!nodes.length) {
      const note = document.createElement("p");
      note.className = "caption";
      note.textContent = "No screen seen yet.";
      container.appendChild(note);
      return;
    }
    const depth = columns(nodes, edges);
    const rows = new Map();
    const place = new Map();
    for (const node of nodes) {
      const column = depth.get(node.id);
      const row = rows.get(column) || 0;
      rows.set(column, row + 1);
      place.set(node.id, { x: MARGIN + column * (WIDTH + COLUMN_GAP), y: MARGIN + row * (HEIGHT + ROW_GAP) });
    }
    const columnCount = Math.max.apply(null, Array.from(depth.values())) + 1;
    const rowCount = Math.max.apply(null, Array.from(rows.values()));
    const width = MARGIN * 2 + columnCount * WIDTH + (columnCount - 1) * COLUMN_GAP;
    const height = MARGIN * 2 + rowCount * HEIGHT + (rowCount - 1) * ROW_GAP;
    const root = svg("svg", { width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
    root.appendChild(svg("title", {}, "Flow graph: " + nodes.length + " screens, " + edges.length + " links"));
    const defs = svg("defs", {});
    const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" });
    marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#6c6c70" }));
    defs.appendChild(marker);
    root.appendChild(defs);

    const labels = new Map();
    for (const edge of edges) {
      const from = place.get(edge.from), to = place.get(edge.to);
      if (!from || !to || edge.from === edge.to) continue;
      const group = svg("g", { class: "flow-edge" + (edge.followed ? " followed" : "") + (edge.presented ? " presented" : "") });
      group.dataset.from = edge.from;
      group.dataset.to = edge.to;
      const d = path(from, to);
      group.appendChild(svg("path", { d: d, "marker-end": "url(#arrow)" }));
      group.appendChild(svg("title", {}, edge.label));
      if (edge.followed && edge.label) {
        // A link arriving from the left is labelled left of its box; one going back, right of it.
        const key = edge.to + (to.x > from.x ? "\u0000left" : "\u0000right");
        const list = labels.get(key) || { to: to, left: to.x > from.x, texts: [] };
        if (!list.texts.includes(edge.label)) list.texts.push(edge.label);
        labels.set(key, list);
      }
      root.appendChild(group);
    }
    for (const list of labels.values()) {
      const to = list.to, texts = list.texts;
      const shown = texts.length > LABELS_PER_NODE ? texts.slice(0, LABELS_PER_NODE - 1).concat(["+" + (texts.length - LABELS_PER_NODE + 1) + " more"]) : texts;
      // Above the line the curves arrive on, stacked upward into the gap between the rows.
      const baseline = to.y + HEIGHT / 2 - 5;
      shown.forEach(function (label, index) {
        const text = svg("text", {
          class: "flow-label", x: list.left ? to.x - 12 : to.x + WIDTH + 12, y: baseline - index * LABEL_LINE,
          "text-anchor": list.left ? "end" : "start",
        }, shortened(label, EDGE_CHARACTERS));
        text.appendChild(svg("title", {}, label));
        root.appendChild(text);
      });
    }
    for (const node of nodes) {
      const at = place.get(node.id);
      const group = svg("g", { class: "flow-node " + node.kind + (flow.current === node.id ? " current" : "") });
      group.dataset.id = node.id;
      group.dataset.label = node.label;
      group.appendChild(svg("rect", { x: at.x, y: at.y, width: WIDTH, height: HEIGHT, rx: 6 }));
      group.appendChild(svg("text", { x: at.x + 8, y: at.y + HEIGHT / 2 + 4 }, shortened(node.label, NODE_CHARACTERS)));
      group.appendChild(svg("title", {}, node.label + " (" + node.kind + ")"));
      root.appendChild(group);
    }
    container.appendChild(root);
    // A graph a little wider than the panel shrinks to fit it (simulator.css); a much wider one
    // stops at three quarters of its size, its text readable, and scrolls.
    root.style.minWidth = Math.ceil(width * 0.75) + "px";
  }

  window.Wayfinder.flowGraph = { draw: draw };
})();
