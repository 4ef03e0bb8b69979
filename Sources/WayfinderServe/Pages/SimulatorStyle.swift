/// The simulator's look: a phone frame with iOS-like bars, sheets that slide up over the screen,
/// a popover bubble, and the devtools panel beside it.
enum SimulatorStyle {
    static let css = #"""
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body {
  display: flex; gap: 24px; padding: 20px; background: #e9ebef; color: #1c1c1e;
  font: 14px/1.4 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
button { font: inherit; cursor: pointer; }
[hidden] { display: none !important; }

/* The phone */
#simulator { display: flex; flex-direction: column; align-items: center; gap: 10px; flex: none; }
#url-bar { display: flex; gap: 6px; width: 390px; }
#url-input {
  flex: 1; padding: 7px 10px; border: 1px solid #b8bcc4; border-radius: 8px;
  font: 13px ui-monospace, "SF Mono", Menlo, Consolas, monospace; background: #fff;
}
#url-bar button, .devtools-tabs button, #explain-form button, .time-travel button {
  padding: 6px 12px; border: 1px solid #b8bcc4; border-radius: 8px; background: #fff;
}
.phone {
  position: relative; width: 390px; height: 760px; overflow: hidden;
  border: 12px solid #1c1c1e; border-radius: 46px; background: #f2f2f7;
  box-shadow: 0 12px 40px rgba(0, 0, 0, .25);
}
.layers { position: absolute; inset: 0; }
.layer { position: absolute; inset: 0; display: flex; flex-direction: column; background: #f2f2f7; }
.layer.root.with-tabs { bottom: 56px; }
.tab-bar { z-index: 1; }
.layer.sheet, .popover, .popover-backdrop { z-index: 2; }
.layer.sheet {
  top: 28px; border-radius: 14px 14px 0 0; box-shadow: 0 -4px 24px rgba(0, 0, 0, .25);
  animation: slide-up .28s ease-out;
}
.layer.sheet.depth-2 { top: 40px; }
.layer.sheet.depth-3 { top: 52px; }
.layer.sheet.depth-4 { top: 64px; }
.layer.covered { filter: brightness(.82); }
@keyframes slide-up { from { transform: translateY(100%); } to { transform: translateY(0); } }

.nav-bar {
  flex: none; display: grid; grid-template-columns: 1fr auto 1fr; align-items: center; min-height: 52px;
  padding: 18px 8px 6px; background: rgba(249, 249, 249, .94); border-bottom: 1px solid #c6c6c8;
}
.layer.sheet .nav-bar { padding-top: 8px; min-height: 44px; border-radius: 14px 14px 0 0; }
.nav-title { font-weight: 600; text-align: center; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 200px; }
.nav-left { justify-self: start; min-width: 0; }
.nav-right { justify-self: end; }
.back-button, .close-button {
  border: 0; background: none; color: #007aff; padding: 4px 6px; max-width: 120px;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.back-button::before { content: "‹ "; font-size: 20px; line-height: 1; }

.content { flex: 1; overflow-y: auto; padding: 12px 14px 20px; }
.screen-url { font: 11px ui-monospace, Menlo, Consolas, monospace; color: #8e8e93; margin: 0 0 10px; word-break: break-all; }
.line { margin: 0 0 8px; }
.problem { margin: 0 0 10px; padding: 8px 10px; border-radius: 8px; background: #fff2f0; color: #b3261e; white-space: pre-wrap; }
.links { margin-top: 14px; background: #fff; border-radius: 10px; overflow: hidden; }
.link {
  display: flex; flex-direction: column; align-items: flex-start; width: 100%; padding: 10px 14px;
  border: 0; border-bottom: 1px solid #e5e5ea; background: #fff; text-align: left; color: #007aff;
}
.link:last-child { border-bottom: 0; }
.link:hover { background: #f5f5fa; }
.link-url { font: 11px ui-monospace, Menlo, Consolas, monospace; color: #8e8e93; word-break: break-all; }
.link.external .link-title::after { content: "  ↗ opens outside the app"; color: #8e8e93; font-size: 12px; }

.tab-bar {
  position: absolute; left: 0; right: 0; bottom: 0; height: 56px; display: flex;
  background: rgba(249, 249, 249, .96); border-top: 1px solid #c6c6c8;
}
.tab { flex: 1; min-width: 0; border: 0; background: none; color: #8e8e93; font-size: 11px; padding: 6px 2px 10px; }
.tab::before { content: "●"; display: block; font-size: 14px; }
.tab.selected { color: #007aff; }
.tab span { display: block; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }

.popover-backdrop { position: absolute; inset: 0; background: rgba(0, 0, 0, .18); }
.popover {
  position: absolute; left: 24px; right: 24px; top: 120px; max-height: 60%; display: flex; flex-direction: column;
  background: #fff; border-radius: 14px; box-shadow: 0 8px 30px rgba(0, 0, 0, .3); animation: pop .18s ease-out;
}
.popover::before {
  content: ""; position: absolute; top: -9px; right: 40px; border: 9px solid transparent; border-top: 0;
  border-bottom-color: #fff;
}
.popover .nav-bar { padding-top: 8px; min-height: 40px; border-radius: 14px 14px 0 0; }
@keyframes pop { from { transform: scale(.9); opacity: 0; } to { transform: scale(1); opacity: 1; } }

.empty-screen { padding: 40px 20px; color: #8e8e93; text-align: center; }
.toast {
  position: absolute; left: 20px; right: 20px; bottom: 70px; padding: 10px 14px; border-radius: 10px;
  background: rgba(28, 28, 30, .9); color: #fff; font-size: 13px; word-break: break-all;
}
.time-travel {
  position: absolute; left: 0; right: 0; top: 0; display: flex; gap: 6px; align-items: center; padding: 6px 10px;
  background: #fff4ce; border-bottom: 1px solid #e0c55a; font-size: 12px; z-index: 5;
}
.time-travel span { flex: 1; }
.phone.travelling .layers { filter: sepia(.35); }
.failure {
  position: absolute; inset: 0; padding: 40px 18px; overflow: auto; z-index: 6;
  background: rgba(60, 0, 0, .92); color: #fff;
}
.failure h2 { font-size: 17px; margin: 0 0 10px; }
.failure pre { white-space: pre-wrap; word-break: break-word; font: 12px ui-monospace, Menlo, Consolas, monospace; }
.failure .traceback { color: #ffb4ab; }
.connection-status { margin: 0; color: #6c6c70; font-size: 12px; }
body[data-connection="closed"] .connection-status { color: #b3261e; }

/* The devtools */
#devtools {
  flex: 1; min-width: 420px; display: flex; flex-direction: column; background: #fff; border-radius: 12px;
  box-shadow: 0 2px 10px rgba(0, 0, 0, .08); overflow: hidden; max-height: calc(100vh - 40px);
}
.devtools-tabs { display: flex; gap: 6px; padding: 10px; border-bottom: 1px solid #e5e5ea; }
.devtools-tabs button.selected { background: #1c1c1e; color: #fff; border-color: #1c1c1e; }
.panel { flex: 1; overflow: auto; padding: 10px 14px; }
.caption { color: #6c6c70; margin: 0 0 8px; font-size: 12px; }
.event-log { list-style: none; margin: 0; padding: 0; font: 12px ui-monospace, Menlo, Consolas, monospace; }
.event { display: grid; grid-template-columns: 86px 64px 1fr auto; gap: 8px; padding: 5px 6px; border-radius: 6px; cursor: pointer; }
.event:hover { background: #f2f2f7; }
.event.selected { background: #dbeafe; }
.event .kind { font-weight: 600; }
.event.failed .kind, .event.failed .summary { color: #b3261e; }
.event.unchanged .kind { color: #6c6c70; }
.event .time { color: #8e8e93; }
.event .ms { color: #8e8e93; text-align: right; }
.event .summary { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.event-detail {
  margin-top: 10px; padding: 10px; border-radius: 8px; background: #f7f7fa;
  font: 12px ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word;
}
.event-detail .traceback { color: #b3261e; }
.tree-view ul { list-style: none; margin: 0; padding-left: 16px; }
.tree-view > ul { padding-left: 0; }
.tree-view li { margin: 2px 0; }
.tree-node { font-weight: 600; }
.tree-entry { font: 12px ui-monospace, Menlo, Consolas, monospace; }
.tree-entry.unmade { color: #8e8e93; font-style: italic; }
.tree-entry.visible { background: #dbeafe; border-radius: 4px; padding: 0 4px; }
.route-table { width: 100%; border-collapse: collapse; font-size: 12px; margin-top: 12px; }
.route-table th, .route-table td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
.route-table td:nth-child(2) { font-family: ui-monospace, Menlo, Consolas, monospace; }
.route-table tr.winner td { background: #dcfce7; }
#explain-form { display: flex; gap: 6px; }
#explain-input { flex: 1; padding: 6px 8px; border: 1px solid #b8bcc4; border-radius: 8px; font: 12px ui-monospace, Menlo, Consolas, monospace; }
.explain-result { margin-top: 8px; font: 12px ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; }
.explain-result .won { color: #15803d; }
.explain-result .lost { color: #a16207; }
.explain-result .failed { color: #b3261e; }
.flow-graph svg { display: block; max-width: none; }
.flow-node rect { fill: #fff; stroke: #007aff; stroke-width: 1.5; }
.flow-node.action rect { stroke: #8e8e93; stroke-dasharray: 4 2; }
.flow-node.outside rect { stroke: #8e8e93; fill: #f2f2f7; }
.flow-node.dead rect { stroke: #b3261e; fill: #fff2f0; }
.flow-node.current rect { fill: #dbeafe; }
.flow-node text { font: 11px ui-monospace, Menlo, Consolas, monospace; fill: #1c1c1e; }
.flow-edge path { fill: none; stroke: #b8bcc4; stroke-width: 1.2; }
.flow-edge.followed path { stroke: #1c1c1e; stroke-width: 1.8; }
.flow-edge.presented path { stroke-dasharray: 5 3; }
.flow-edge text { font: 10px sans-serif; fill: #6c6c70; }
@media (prefers-reduced-motion: reduce) { .layer.sheet, .popover { animation: none; } }
"""#
}
