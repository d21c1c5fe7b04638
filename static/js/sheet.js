/* Score sheet on a tablet: keep what was typed, say when a save did not reach the server,
 * and send it again when the connection is back. The server computes every score: the keypad
 * here only lists the faces tapped; the server adds them up.
 *
 * - Every game form's values are kept in localStorage (key `sheet-<id>-game-<n>`) until the
 *   game is saved, and put back into the form when the page is opened again.
 * - htmx:sendError (no connection) and htmx:responseError (server error) mark the form: a save
 *   is retried when the browser is online again and every RETRY_MS while it is pending.
 */
(function () {
  "use strict";

  var RETRY_MS = 15000;
  var STORE_PREFIX = "rummikub:";
  // The messages, translated by the server (a JSON script element on the sheet page).
  var text = JSON.parse(document.getElementById("sheet-text").textContent);

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function formOf(element) {
    if (!element) return null;
    return element.matches("form[data-draft-key]") ? element : element.closest("form[data-draft-key]");
  }

  function serialize(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name.indexOf("key-") !== 0) pairs.push([name, String(value)]);
    });
    return pairs;
  }

  function saveDraft(form) {
    var store = storage();
    if (!store) return;
    try {
      store.setItem(STORE_PREFIX + form.dataset.draftKey, JSON.stringify({ values: serialize(form), at: Date.now() }));
    } catch (e) { /* storage full or disabled: the form still holds the values */ }
  }

  function readDraft(key) {
    var store = storage();
    if (!store) return null;
    try { return JSON.parse(store.getItem(STORE_PREFIX + key) || "null"); } catch (e) { return null; }
  }

  function dropDraft(key) {
    var store = storage();
    if (store) store.removeItem(STORE_PREFIX + key);
  }

  function say(form, message) {
    var box = form && form.querySelector("[data-send-state]");
    if (!box) return;
    box.textContent = message || "";
    box.hidden = !message;
  }

  function restoreDraft(form) {
    var draft = readDraft(form.dataset.draftKey);
    if (!draft || !Array.isArray(draft.values)) return;
    if (JSON.stringify(draft.values) === JSON.stringify(serialize(form))) return;
    var has = {};
    draft.values.forEach(function (pair) { has[pair[0] + "\u0000" + pair[1]] = true; });
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.name === "csrfmiddlewaretoken") return;
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = !!has[field.name + "\u0000" + field.value];
      }
    });
    draft.values.forEach(function (pair) {
      var field = form.querySelector('[name="' + CSS.escape(pair[0]) + '"]');
      if (field && field.type !== "radio" && field.type !== "checkbox") field.value = pair[1];
    });
    say(form, text.restored);
    preview(form);
  }

  function preview(form) {
    var fields = form.querySelector(".game-fields");
    if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function retry(form) {
    var pending = form.dataset.pending;
    if (!pending || !document.body.contains(form) || form.classList.contains("htmx-request")) return;
    delete form.dataset.pending;  // set again if this attempt fails too
    say(form, text.retrying);
    if (pending === "save") {
      form.requestSubmit(form.querySelector(".save-button"));
    } else {
      preview(form);
    }
  }

  function retryAll() {
    document.querySelectorAll("form[data-pending]").forEach(retry);
  }

  function isSave(detail) {
    return detail.elt && detail.elt.matches && detail.elt.matches("form[data-draft-key]");
  }

  function failed(event, offline) {
    var form = formOf(event.detail.elt);
    if (!form) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!offline && status >= 400 && status < 500) {
      delete form.dataset.pending;
      say(form, text.refused);
      return;
    }
    var save = isSave(event.detail);
    if (save || !form.dataset.pending) form.dataset.pending = save ? "save" : "preview";
    say(form, save ? (offline ? text.offline : text.serverError) : text.previewOffline);
  }

  // The keypad: list the tapped face in the rack's field, then ask the server for the sums.
  document.addEventListener("click", function (event) {
    var key = event.target.closest("button[data-keypad]");
    if (!key) return;
    var form = formOf(key);
    var field = form && form.querySelector('[name="' + key.dataset.keypad + '-keypad"]');
    if (!field) return;
    event.preventDefault();
    var faces = field.value.trim() ? field.value.trim().split(/\s+/) : [];
    if (key.value === "back") faces.pop();
    else if (key.value === "clear") faces = [];
    else faces.push(key.value);
    field.value = faces.join(" ");
    saveDraft(form);
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("input", function (event) {
    var form = formOf(event.target);
    if (form) saveDraft(form);
  });
  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (form) saveDraft(form);
  });

  document.addEventListener("click", function (event) {
    var discard = event.target.closest("[data-discard-draft]");
    if (discard) dropDraft(discard.dataset.discardDraft);
  });

  document.body.addEventListener("htmx:sendError", function (event) { failed(event, true); });
  document.body.addEventListener("htmx:responseError", function (event) { failed(event, false); });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (form && event.detail.successful) delete form.dataset.pending;
  });

  // What each game's last request was computed from: a tap made while a request was in
  // flight is dropped by htmx when the reply replaces the form, so compare after the swap.
  var sentValues = {};
  function comparable(form) {
    return JSON.stringify(serialize(form).filter(function (pair) { return pair[0] !== "version"; }));
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (form) sentValues[form.dataset.draftKey] = comparable(form);
  });

  // After a swap: a saved game forgets its draft; the other drafts take the new sheet version;
  // a form changed since its request was sent is computed again.
  document.body.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("form[data-draft-key]").forEach(function (form) {
      var sent = sentValues[form.dataset.draftKey];
      if (sent === undefined || form.classList.contains("htmx-request")) return;
      delete sentValues[form.dataset.draftKey];
      if (sent !== comparable(form)) preview(form);
    });
    document.querySelectorAll("section[data-saved] form[data-draft-key]").forEach(function (form) {
      dropDraft(form.dataset.draftKey);
    });
    document.querySelectorAll("form[data-draft-key]").forEach(function (form) {
      if (!form.closest("section[data-saved]") && readDraft(form.dataset.draftKey)) saveDraft(form);
    });
  });

  window.addEventListener("online", retryAll);
  setInterval(function () { if (navigator.onLine !== false) retryAll(); }, RETRY_MS);

  document.querySelectorAll("form[data-draft-key]").forEach(restoreDraft);
})();
