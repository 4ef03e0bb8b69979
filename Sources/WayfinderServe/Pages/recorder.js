// The Record button of the devtools: while it records, the server keeps each step done on the
// phone; Stop answers the spec that replays them, shown here to copy or save (Export).
"use strict";
window.Wayfinder = window.Wayfinder || {};
(function () {
  const W = window.Wayfinder;
  const button = document.getElementById("record-button");
  const output = document.getElementById("recorded-spec");
  const exportLink = document.getElementById("export-spec");
  let recording = false;

  button.addEventListener("click", function () { W.send({ type: "record", on: !recording }); });

  // The server's answer: recording started, or stopped with the spec.
  W.recorded = function (answer) {
    recording = answer.on === true;
    button.textContent = recording ? "Stop" : "Record";
    button.classList.toggle("recording", recording);
    document.body.dataset.recording = recording ? "on" : "off";
    if (typeof answer.spec === "string") {
      output.value = answer.spec;
      output.hidden = false;
      exportLink.href = URL.createObjectURL(new Blob([answer.spec], { type: "text/x-lua" }));
      exportLink.hidden = false;
    }
  };
})();
