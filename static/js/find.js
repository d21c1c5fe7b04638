/* "Find my table" on a phone: when the answer arrives, scroll it up into the part of the screen
 * the on-screen keyboard leaves free (the visual viewport), keeping the search field in view. */
(function () {
  "use strict";

  var MARGIN = 8;
  var SHOWN = 160;  // px of the first answer to bring into view: the name and the table

  function reveal(results) {
    var field = document.getElementById("find-q");
    var answer = results.querySelector(".match") || results.firstElementChild;
    if (!field || !answer) return;
    var view = window.visualViewport;
    var top = view ? view.offsetTop : 0;
    var bottom = top + (view ? view.height : window.innerHeight);
    var box = answer.getBoundingClientRect();
    var below = box.top + Math.min(box.height, SHOWN) + MARGIN - bottom;  // hidden under the keyboard
    var room = field.getBoundingClientRect().top - top - MARGIN;  // scrolling further hides the field
    var by = Math.min(below, room);
    if (by > 0) window.scrollBy(0, by);
  }

  // htmx:load comes with each new answer (the results' box is swapped whole).
  document.body.addEventListener("htmx:load", function (event) {
    if (event.detail.elt.id === "find-results") reveal(event.detail.elt);
  });
})();
