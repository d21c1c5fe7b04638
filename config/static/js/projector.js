// Projector and ceremony screens: a "Full screen" button where the browser allows it.
// Nothing is computed here; the server sends every number and name.
document.addEventListener("DOMContentLoaded", function () {
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
