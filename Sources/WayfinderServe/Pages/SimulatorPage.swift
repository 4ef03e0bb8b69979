/// The simulator page: the phone (URL bar, navigation bars, screens, sheets, popover, tab bar)
/// beside the devtools (tree, event log with time travel, routes with explain, flow graph).
/// The scripts draw everything from the state the server pushes.
enum SimulatorPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wayfinder</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/simulator.css?token={{token}}">
<script src="/assets/flow-graph.js?token={{token}}" defer></script>
<script src="/assets/phone.js?token={{token}}" defer></script>
<script src="/assets/devtools.js?token={{token}}" defer></script>
<script src="/assets/connection.js?token={{token}}" defer></script>
</head>
<body data-connection="connecting">
<main id="simulator">
  <form id="url-bar" autocomplete="off">
    <input id="url-input" name="url" type="text" spellcheck="false" placeholder="tt://..." aria-label="URL to open">
    <button id="url-open" type="submit">Open</button>
  </form>
  <div id="phone" class="phone">
    <div id="layers" class="layers"></div>
    <nav id="tab-bar" class="tab-bar" hidden></nav>
    <div id="time-travel" class="time-travel" hidden>
      <span id="time-travel-text"></span>
      <button id="restore-button" type="button">Restore</button>
      <button id="live-button" type="button">Back to now</button>
    </div>
    <div id="failure" class="failure" hidden>
      <h2>The app's scripts were refused</h2>
      <pre id="failure-message"></pre>
      <pre id="failure-traceback" class="traceback"></pre>
      <p>The app runs on as it was. Save a fix and it reloads.</p>
    </div>
    <div id="toast" class="toast" hidden></div>
  </div>
  <p id="connection-status" class="connection-status">Connecting…</p>
</main>
<aside id="devtools">
  <nav class="devtools-tabs">
    <button type="button" data-panel="events" class="selected">Events</button>
    <button type="button" data-panel="tree">Tree</button>
    <button type="button" data-panel="routes">Routes</button>
    <button type="button" data-panel="flow">Flow</button>
  </nav>
  <section id="panel-events" class="panel">
    <ol id="event-log" class="event-log"></ol>
    <div id="event-detail" class="event-detail" hidden></div>
  </section>
  <section id="panel-tree" class="panel" hidden>
    <p id="tree-caption" class="caption"></p>
    <div id="tree-view" class="tree-view"></div>
  </section>
  <section id="panel-routes" class="panel" hidden>
    <form id="explain-form" autocomplete="off">
      <input id="explain-input" type="text" spellcheck="false" placeholder="a URL to explain" aria-label="URL to explain">
      <button type="submit">Explain</button>
    </form>
    <div id="explain-result" class="explain-result"></div>
    <table id="route-table" class="route-table">
      <thead><tr><th>#</th><th>Pattern</th><th>Mode</th><th>Target</th><th>Constructor</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section id="panel-flow" class="panel" hidden>
    <p class="caption">Screens seen so far, and the links seen on them (solid: followed; dashed: presented as a modal or popover).</p>
    <div id="flow-graph" class="flow-graph"></div>
  </section>
</aside>
</body>
</html>
"""#
}
