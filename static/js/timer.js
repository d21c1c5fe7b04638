// The move timer: counts down the move time, warns at 10 s, beeps at 0; a tap restarts it.
// Settings and texts come from data attributes of <body> (templates/scoring/timer.html).
(function () {
  "use strict";
  var body = document.body;
  var SECONDS = parseInt(body.dataset.seconds, 10) || 40;
  var WARN_AT = 10;
  var text = {
    running: body.dataset.textRunning,
    over: body.dataset.textOver,
    soundOn: body.dataset.textSoundOn,
    soundOff: body.dataset.textSoundOff
  };
  var digits = document.getElementById("digits");
  var hint = document.getElementById("hint");
  var announce = document.getElementById("announce");
  var soundButton = document.getElementById("sound");
  var deadline = null;
  var finished = false;
  var soundOn = true;
  var audio = null;
  var wakeLock = null;

  function beep() {
    if (!soundOn || !audio) return;
    var now = audio.currentTime;
    for (var i = 0; i < 3; i++) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, now + i * 0.3);
      gain.gain.exponentialRampToValueAtTime(0.4, now + i * 0.3 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.3 + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.3);
      osc.stop(now + i * 0.3 + 0.25);
    }
  }

  function show(remaining) {
    digits.textContent = String(remaining);
    body.classList.toggle("is-warning", remaining > 0 && remaining <= WARN_AT);
  }

  function tick() {
    if (deadline === null || finished) return;
    var remaining = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    show(remaining);
    if (remaining === 0) {
      finished = true;
      body.classList.remove("is-warning");
      body.classList.add("is-over", "is-flash");
      hint.textContent = text.over;
      announce.textContent = text.over;
      beep();
    }
  }

  function keepAwake() {
    if (wakeLock || !("wakeLock" in navigator)) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () {});
  }

  function restart() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (audio && audio.state === "suspended") audio.resume();
    keepAwake();
    finished = false;
    body.classList.remove("is-over", "is-flash", "is-warning");
    void body.offsetWidth;  // restart the flash animation next time
    deadline = performance.now() + SECONDS * 1000;
    hint.textContent = text.running;
    announce.textContent = "";
    show(SECONDS);
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest("button, a")) return;
    event.preventDefault();
    restart();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === " " || event.key === "Enter") {
      if (event.target.closest("button, a")) return;
      event.preventDefault();
      restart();
    }
  });
  soundButton.addEventListener("click", function () {
    soundOn = !soundOn;
    soundButton.setAttribute("aria-pressed", String(soundOn));
    soundButton.textContent = soundOn ? text.soundOn : text.soundOff;
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && deadline !== null) keepAwake();
  });
  setInterval(tick, 100);
})();
