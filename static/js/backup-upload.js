/* The backup upload: a file over the size limit is refused before it is sent (the server refuses
 * it too, by its size, without reading it; a browser may then show a broken connection instead). */
(function () {
  "use strict";

  var form = document.getElementById("restore-form");
  if (!form) return;
  var input = form.querySelector("input[type=file][data-max-bytes]");
  form.addEventListener("submit", function (event) {
    var file = input && input.files && input.files[0];
    if (!file || file.size <= Number(input.dataset.maxBytes)) return;
    event.preventDefault();
    var list = document.getElementById(input.id + "_errors");
    if (!list) {
      list = document.createElement("ul");
      list.className = "errorlist";
      list.id = input.id + "_errors";
      input.parentNode.insertBefore(list, input);
    }
    list.innerHTML = "";
    var item = document.createElement("li");
    item.textContent = input.dataset.tooLarge;
    list.appendChild(item);
    input.setAttribute("aria-invalid", "true");
  });
})();
