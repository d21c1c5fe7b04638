// The round's clock: counts down the seconds left that the server sent (data-seconds-left) by the
// time passed on this device since they arrived, never by this device's own time of day. The
// server sends a fresh value every 30 s (htmx replaces the element, which starts counting anew).
(function () {
  if (window.roundClockRunning) return;
  window.roundClockRunning = true;
  var arrived = new WeakMap();

  function format(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(rest).padStart(2, "0");
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-seconds-left]").forEach(function (element) {
      if (!arrived.has(element)) arrived.set(element, now);
      var passed = (now - arrived.get(element)) / 1000;
      var left = Math.max(0, Math.round(Number(element.dataset.secondsLeft) - passed));
      element.textContent = left > 0 ? format(left) : element.dataset.upText;
      element.classList.toggle("is-up", left === 0);
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:load", tick);  // a fresh value counts from the moment it arrives
  setInterval(tick, 1000);
})();
