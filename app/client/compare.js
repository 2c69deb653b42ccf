// The listing's comparison without React. Without JavaScript the cards' checkboxes are sent by the
// compare form (GET /comparer). Here the selection survives pages and filters (sessionStorage),
// the form becomes a bar at the bottom of the screen, and at most data-max boxes can be checked.
(function () {
  var form = document.getElementById("compare-form");
  if (!form) return;
  var KEY = "compare-offers";
  var MAX = Number(form.getAttribute("data-max")) || 3;
  var status = form.querySelector("[data-compare-status]");
  var clear = form.querySelector("[data-compare-clear]");
  var submit = form.querySelector("[type=submit]");
  var selected = [];
  try {
    var stored = JSON.parse(sessionStorage.getItem(KEY) || "[]");
    if (Array.isArray(stored))
      selected = stored
        .filter(function (s) {
          return typeof s === "string";
        })
        .slice(0, MAX);
  } catch {
    // Storage unavailable (privacy settings): the selection lasts for this page only.
  }

  function save() {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(selected));
    } catch {
      // Same as above.
    }
  }

  function sync() {
    var boxes = document.querySelectorAll('input[form="compare-form"]');
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      box.checked = selected.indexOf(box.value) !== -1;
      box.disabled = !box.checked && selected.length >= MAX;
    }
    var n = selected.length;
    form.toggleAttribute("data-active", n > 0);
    clear.hidden = n === 0;
    submit.disabled = n < 2;
    var text =
      n === 0
        ? ""
        : (n === 1 ? "1 offre sélectionnée" : n + " offres sélectionnées") +
          (n < 2
            ? " : cochez-en une autre pour comparer."
            : n >= MAX
              ? " (" + MAX + " au plus)."
              : ".");
    if (status.textContent !== text) status.textContent = text;
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || box.form !== form) return;
    var at = selected.indexOf(box.value);
    if (box.checked && at === -1 && selected.length < MAX) selected.push(box.value);
    if (!box.checked && at !== -1) selected.splice(at, 1);
    save();
    sync();
  });
  clear.addEventListener("click", function () {
    selected = [];
    save();
    sync();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (selected.length) location.assign(form.action + "?offres=" + selected.join(","));
  });
  // listing.js swaps the results in: check the boxes of the new cards.
  var content = document.querySelector("[data-listing-content]");
  if (content) new MutationObserver(sync).observe(content, { childList: true });
  sync();
})();
