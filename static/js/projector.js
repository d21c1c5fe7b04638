// Projector and ceremony screens: a "Full screen" button where the browser allows it; the
// controls fade a few seconds after the mouse last moved; the board's type shrinks until its
// last row ends above the controls (the CSS guesses the size from the rows; this makes sure).
// Nothing is computed here; the server sends every number and name.
(function () {
  var IDLE_MILLISECONDS = 4000;
  var SMALLEST_PIXELS = 12;
  var NARROW = window.matchMedia("(max-width: 1000px)");  // tablets and phones scroll instead

  function fitBoard() {
    var board = document.getElementById("board");
    var tools = document.querySelector(".screen__tools");
    if (!board) return;
    board.style.fontSize = "";
    if (NARROW.matches) return;
    var bottom = tools ? tools.getBoundingClientRect().top : window.innerHeight;
    var size = parseFloat(getComputedStyle(board).fontSize);
    while (board.getBoundingClientRect().bottom > bottom && size > SMALLEST_PIXELS) {
      size -= 0.5;
      board.style.fontSize = size + "px";
    }
  }

  function fadeTools(tools) {
    var timer;
    function wake() {
      tools.classList.remove("screen__tools--idle");
      clearTimeout(timer);
      timer = setTimeout(function () { tools.classList.add("screen__tools--idle"); }, IDLE_MILLISECONDS);
    }
    ["mousemove", "mousedown", "keydown", "touchstart", "focusin"].forEach(function (name) {
      document.addEventListener(name, wake, { passive: true });
    });
    wake();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var tools = document.querySelector(".screen__tools");
    if (tools) fadeTools(tools);
    fitBoard();
    document.body.addEventListener("htmx:afterSettle", fitBoard);
    window.addEventListener("resize", fitBoard);
    var button = document.querySelector("[data-fullscreen]");
    if (!button || !document.fullscreenEnabled) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      if (document.fullscreenElement) {
        document.exitFullscreen();
      } else {
        document.documentElement.requestFullscreen();
      }
    });
  });
})();
