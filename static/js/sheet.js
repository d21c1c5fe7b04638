/* Score sheet on a tablet: keep what was typed, say when a save did not reach the server,
 * and send it again when the connection is back. The server computes every score: the keypad
 * here only lists the faces tapped; the server adds them up.
 *
 * - Every game form's values are kept in localStorage (key `sheet-<id>-game-<n>`) until the
 *   game is saved, and put back into the form when the page is opened again.
 * - htmx:sendError (no connection) and htmx:responseError (server error) mark the form: a save
 *   is retried when the browser is online again and every RETRY_MS while it is pending.
 * - Replies never replace an input (only scores, errors and status, by id), so a tap made while
 *   a reply is on its way is kept.
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
    if (!element || !element.closest) return null;
    return element.closest("form[data-draft-key]");
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

  /* Show a note under the save button; a "problem" note goes away after the next good reply. */
  function say(form, message, problem) {
    var box = form && form.querySelector("[data-send-state]");
    if (!box) return;
    box.textContent = message || "";
    box.hidden = !message;
    box.dataset.problem = problem ? "1" : "";
  }

  function preview(form) {
    var fields = form.querySelector(".game-fields");
    if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function restoreDraft(form) {
    var draft = readDraft(form.dataset.draftKey);
    if (!draft || !Array.isArray(draft.values)) return;
    if (JSON.stringify(draft.values) === JSON.stringify(serialize(form))) return;
    var has = {};
    draft.values.forEach(function (pair) { has[pair[0] + "\u0000" + pair[1]] = true; });
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = !!has[field.name + "\u0000" + field.value];
      }
    });
    draft.values.forEach(function (pair) {
      var field = form.querySelector('[name="' + CSS.escape(pair[0]) + '"]');
      if (field && field.type !== "radio" && field.type !== "checkbox") field.value = pair[1];
    });
    var details = form.closest("details");
    if (details) details.open = true;
    say(form, text.restored, false);
    preview(form);
  }

  function retry(form) {
    var pending = form.dataset.pending;
    if (!pending || !document.body.contains(form) || form.classList.contains("htmx-request")) return;
    delete form.dataset.pending;  // set again if this attempt fails too
    say(form, text.retrying, true);
    if (pending === "save") {
      form.requestSubmit(form.querySelector(".save-button"));
    } else {
      preview(form);
    }
  }

  function retryAll() {
    document.querySelectorAll("form[data-pending]").forEach(retry);
  }

  function failed(event, offline) {
    var form = formOf(event.detail.elt);
    if (!form) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!offline && status >= 400 && status < 500) {
      delete form.dataset.pending;
      say(form, text.refused, true);
      return;
    }
    var save = event.detail.elt === form;
    if (save || !form.dataset.pending) form.dataset.pending = save ? "save" : "preview";
    say(form, save ? (offline ? text.offline : text.serverError) : text.previewOffline, true);
  }

  // The keypad: list the tapped face in the rack's field, then ask the server for the sums.
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest('button[name^="key-"]');
    var form = formOf(key);
    var field = form && form.querySelector('[name="' + key.name.slice(4) + '-keypad"]');
    if (!field) return;
    event.preventDefault();
    var faces = field.value.trim() ? field.value.trim().split(/\s+/) : [];
    if (key.value === "back") faces.pop();
    else if (key.value === "clear") faces = [];
    else faces.push(key.value);
    field.value = faces.join(" ");
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("click", function (event) {
    var discard = event.target.closest && event.target.closest("[data-discard-draft]");
    if (discard) dropDraft(discard.dataset.discardDraft);
  });

  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = formOf(event.target);
      if (form) saveDraft(form);
    });
  });

  document.body.addEventListener("htmx:sendError", function (event) { failed(event, true); });
  document.body.addEventListener("htmx:responseError", function (event) { failed(event, false); });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (!form || !event.detail.successful) return;
    delete form.dataset.pending;
    var box = form.querySelector("[data-send-state]");
    if (box && box.dataset.problem) say(form, "");
  });

  // After a reply: a game just saved forgets its draft and folds up to its line of scores;
  // the drafts of the other games take the sheet's new version.
  document.body.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("[data-just-saved]").forEach(function (mark) {
      mark.removeAttribute("data-just-saved");
      var section = mark.closest("section.game");
      var form = section && section.querySelector("form[data-draft-key]");
      if (form) {
        dropDraft(form.dataset.draftKey);
        say(form, "");
      }
      var details = section && section.querySelector("details");
      if (details) details.open = false;
    });
    document.querySelectorAll("form[data-draft-key]").forEach(function (form) {
      if (readDraft(form.dataset.draftKey)) saveDraft(form);
    });
  });

  window.addEventListener("online", retryAll);
  setInterval(function () { if (navigator.onLine !== false) retryAll(); }, RETRY_MS);

  document.querySelectorAll("form[data-draft-key]").forEach(restoreDraft);
})();
