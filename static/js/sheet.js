/* Score sheet on a tablet: keep what was typed, never let a save hang silently, send it again
 * until it lands, and keep only the game being entered open. The server computes every score:
 * this file only posts forms and lets htmx swap the replies (the keypad lists the faces tapped;
 * the server adds them up).
 *
 * - Every request gives up after TIMEOUT_MS. A save that times out, cannot be sent (no
 *   connection) or gets a server error marks its game "not saved — will retry" and is sent
 *   again after RETRY_MS, twice as long after each failure up to RETRY_MAX_MS, and at once when
 *   the browser is back online. A refusal (4xx) is said, not retried. A server that cannot
 *   answer just now (502, 503, 504: its database restarting, a proxy with no server up) is a
 *   timeout: said as one, and asked again no sooner than its Retry-After.
 * - Every game form's values are kept in localStorage (key `rummikub:sheet-<id>-game-<n>`, with
 *   the form's sheet version and whether a save is pending) until the game is saved. A page
 *   opened again puts them back, has them scored at once, and sends a pending save again.
 * - Replies never replace an input (only scores, errors and status, by id), so a tap made while
 *   a reply is on its way is kept.
 * - A game just saved folds up to its line of scores and the next game to enter opens.
 * - A save refused because another tablet saved the sheet meanwhile shows the conflict just
 *   above the game's save button (`data-conflict-new`): both are brought into view.
 */
(function () {
  "use strict";

  var TIMEOUT_MS = 8000;
  var RETRY_MS = 1000;
  var RETRY_MAX_MS = 30000;
  var STORE_PREFIX = "rummikub:";
  // The messages, translated by the server (a JSON script element on the sheet page).
  var text = JSON.parse(document.getElementById("sheet-text").textContent);

  htmx.config.timeout = TIMEOUT_MS;

  // A rack's keypad holding no faces comes as its switch only (`data-keypad="g<n>-<letter>"`):
  // put the page's one keypad in it, with the rack's names and ids, before htmx and the drafts
  // read the page (this file is deferred: the page is parsed, DOMContentLoaded has not fired).
  function buildKeypads() {
    var template = document.getElementById("keypad-template");
    if (!template) return;
    document.querySelectorAll("details[data-keypad]").forEach(function (details) {
      var id = details.dataset.keypad;
      var letter = id.slice(id.indexOf("-") + 1);
      var body = template.content.cloneNode(true);
      body.querySelector("label").htmlFor = id + "-keypad";
      var field = body.querySelector("input");
      field.name = letter + "-keypad";
      field.id = id + "-keypad";
      field.setAttribute("aria-describedby", id + "-keypad-total " + id + "-keypad-errors");
      body.querySelector(".keypad__total").id = id + "-keypad-total";
      body.querySelector("div").id = id + "-keypad-errors";
      body.querySelectorAll("button").forEach(function (key) { key.name = "key-" + letter; });
      details.appendChild(body);
      details.removeAttribute("data-keypad");
    });
  }
  // Every rack's two notes, shown by referee.css when its seat went out or its keypad holds faces.
  function addRackTexts() {
    var template = document.getElementById("rack-texts");
    if (!template) return;
    document.querySelectorAll(".rack").forEach(function (rack) {
      var texts = template.content.cloneNode(true).children;
      var out = texts[0], note = texts[1];
      rack.querySelector(".rack__fields").before(out);
      rack.querySelector(".keypad").before(note);
    });
  }
  buildKeypads();
  addRackTexts();

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
    var draft = { values: serialize(form), at: Date.now(), pending: form.dataset.pending === "save" };
    try {
      store.setItem(STORE_PREFIX + form.dataset.draftKey, JSON.stringify(draft));
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

  /* The game's status in its heading: "not saved — will retry" until a reply replaces it. */
  function markPending(form) {
    var section = form.closest("section.game");
    var status = section && section.querySelector(".game__status");
    if (!status) return;
    var mark = document.createElement("span");
    mark.className = "status status--pending";
    mark.textContent = text.pending;
    status.replaceChildren(mark);
  }

  function preview(form) {
    var fields = form.querySelector(".game-fields");
    if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function send(form) {
    clearTimeout(form.retryTimer);
    var pending = form.dataset.pending;
    if (!pending || !document.body.contains(form)) return;
    if (form.classList.contains("htmx-request")) {  // still waiting for the last attempt
      schedule(form);
      return;
    }
    say(form, text.retrying, true);
    if (pending === "save") {
      form.requestSubmit(form.querySelector(".save-button"));
    } else {
      preview(form);
    }
  }

  function schedule(form, atLeastMs) {
    clearTimeout(form.retryTimer);
    var attempts = Number(form.dataset.attempts || 0);
    var wait = Math.min(Math.max(RETRY_MS * Math.pow(2, attempts), atLeastMs || 0), RETRY_MAX_MS);
    form.retryTimer = setTimeout(function () { send(form); }, wait);
  }

  /* Seconds the server asked us to wait (Retry-After), in milliseconds; 0 when it did not say. */
  function retryAfterMs(xhr) {
    var seconds = Number(xhr && xhr.getResponseHeader("Retry-After"));
    return isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
  }

  function failed(event, message) {
    var form = formOf(event.detail.elt);
    if (!form) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 400 && status < 500) {
      clearTimeout(form.retryTimer);
      delete form.dataset.pending;
      saveDraft(form);
      say(form, text.refused, true);
      return;
    }
    if (status === 502 || status === 503 || status === 504) message = text.timeout;
    var save = event.detail.elt === form;
    if (save || !form.dataset.pending) form.dataset.pending = save ? "save" : "preview";
    form.dataset.attempts = String(Number(form.dataset.attempts || 0) + 1);
    if (form.dataset.pending === "save") {
      markPending(form);
      saveDraft(form);
      say(form, message, true);
    } else {
      say(form, text.previewOffline, true);
    }
    schedule(form, retryAfterMs(event.detail.xhr));
  }

  function restoreDraft(form) {
    var draft = readDraft(form.dataset.draftKey);
    if (!draft || !Array.isArray(draft.values)) return;
    if (!draft.pending && JSON.stringify(draft.values) === JSON.stringify(serialize(form))) return;
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
    if (draft.pending) {
      form.dataset.pending = "save";
      markPending(form);
      say(form, text.restoredPending, true);
      send(form);
      preview(form);  // queued after the save: the scores show even while it cannot be sent
    } else {
      say(form, text.restored, false);
      preview(form);
    }
  }

  /* Fold a just-saved game and open the next one to enter, its heading at the top of the screen. */
  function moveOn(section) {
    var details = section.querySelector("details.game__details");
    if (details) details.open = false;
    var next = null;
    document.querySelectorAll("section.game").forEach(function (game) {
      if (!next && !game.querySelector(".game__status .status--saved")) next = game;
    });
    if (!next) {
      var summary = document.getElementById("sheet-summary");
      if (summary) summary.scrollIntoView({ block: "start" });
      return;
    }
    var nextDetails = next.querySelector("details.game__details");
    if (nextDetails) nextDetails.open = true;
    next.scrollIntoView({ block: "start" });
  }

  /* A conflict just shown: scroll it into view with the save button below it (the whole box
   * when both do not fit on the screen), unless they are in view already. */
  function showConflicts() {
    document.querySelectorAll("[data-conflict-new]").forEach(function (box) {
      box.removeAttribute("data-conflict-new");
      var section = box.closest("section.game");
      var details = section && section.querySelector("details.game__details");
      if (details) details.open = true;
      var save = section && section.querySelector(".save-button");
      var top = box.getBoundingClientRect().top;
      var bottom = (save || box).getBoundingClientRect().bottom;
      var height = window.innerHeight || document.documentElement.clientHeight;
      if (top >= 0 && bottom <= height) return;
      if (save && bottom - top <= height) save.scrollIntoView({ block: "end" });
      else box.scrollIntoView({ block: "start" });
    });
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

  document.body.addEventListener("htmx:sendError", function (event) { failed(event, text.offline); });
  document.body.addEventListener("htmx:timeout", function (event) { failed(event, text.timeout); });
  document.body.addEventListener("htmx:responseError", function (event) { failed(event, text.serverError); });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (!form || !event.detail.successful) return;
    var save = event.detail.elt === form;
    if (save || form.dataset.pending !== "save") {
      clearTimeout(form.retryTimer);
      delete form.dataset.pending;
      delete form.dataset.attempts;
    }
    var box = form.querySelector("[data-send-state]");
    if (box && box.dataset.problem && !form.dataset.pending) say(form, "");
  });

  // After a reply: a game just saved forgets its draft and folds up, the next game opens; the
  // drafts of the other games take the sheet's new version.
  document.body.addEventListener("htmx:afterSettle", function () {
    showConflicts();
    document.querySelectorAll("[data-just-saved]").forEach(function (mark) {
      mark.removeAttribute("data-just-saved");
      var section = mark.closest("section.game");
      var form = section && section.querySelector("form[data-draft-key]");
      if (form) {
        dropDraft(form.dataset.draftKey);
        say(form, "");
      }
      if (section) moveOn(section);
    });
    document.querySelectorAll("form[data-draft-key]").forEach(function (form) {
      if (readDraft(form.dataset.draftKey)) saveDraft(form);
      if (form.dataset.pending === "save") markPending(form);  // a preview's reply replaced the mark
    });
  });

  window.addEventListener("online", function () {
    document.querySelectorAll("form[data-pending]").forEach(send);
  });

  // After htmx has set up the page (its own DOMContentLoaded handler runs first), so that a
  // restored draft is scored and a pending save sent at once.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-draft-key]").forEach(restoreDraft);
    showConflicts();  // a conflict sent as a whole page (a form posted without htmx)
  });
})();
