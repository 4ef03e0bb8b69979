// A screen's fields and buttons in the phone: real inputs (text, password, checkbox, select), each
// sending what is typed once it is done (on change), and buttons that send a press. A secret's
// value never comes from the server: its input is empty, marked when something was typed.
"use strict";
window.Wayfinder = window.Wayfinder || {};
(function () {
  const W = window.Wayfinder;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function input(field) {
    let control;
    if (field.kind === "toggle") {
      control = element("input", "field-input");
      control.type = "checkbox";
      control.checked = field.value === true;
      control.addEventListener("change", function () { W.send({ type: "fill", field: field.name, value: control.checked }); });
    } else if (field.kind === "choice") {
      control = element("select", "field-input");
      for (const choice of field.choices || []) {
        const option = element("option", null, choice);
        option.value = choice;
        control.appendChild(option);
      }
      control.value = field.value;
      control.addEventListener("change", function () { W.send({ type: "fill", field: field.name, value: control.value }); });
    } else {
      control = element("input", "field-input");
      control.type = field.kind === "secret" ? "password" : "text";
      control.value = field.kind === "secret" ? "" : String(field.value);
      if (field.kind === "secret" && field.filled) control.placeholder = "(typed)";
      control.spellcheck = false;
      control.addEventListener("change", function () { W.send({ type: "fill", field: field.name, value: control.value }); });
    }
    control.dataset.field = field.name;
    control.setAttribute("aria-label", field.label);
    return control;
  }

  // The form of `screen`, or null when it has neither fields nor buttons.
  W.form = function (screen) {
    const fields = screen.fields || [];
    const buttons = screen.buttons || [];
    if (!fields.length && !buttons.length) return null;
    const form = element("div", "screen-form");
    for (const field of fields) {
      const row = element("label", "field field-" + field.kind);
      row.appendChild(element("span", "field-label", field.label));
      row.appendChild(input(field));
      form.appendChild(row);
    }
    for (const button of buttons) {
      const press = element("button", "form-button", button.title);
      press.type = "button";
      press.dataset.method = button.method;
      press.addEventListener("click", function () { W.send({ type: "press", title: button.title }); });
      form.appendChild(press);
    }
    return form;
  };
})();
