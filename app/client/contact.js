// The contact page without React: the 'Offre sélectionnée' box follows the selector, the button
// says 'Envoi en cours...' while the form is sent, and the server's feedback shows as a toast.
// Without JavaScript the same form posts normally and the feedback shows inline.
(function () {
  var SUCCESS_TOAST_MS = 6000;

  var toasts = document.querySelectorAll("[data-toast]");
  for (var i = 0; i < toasts.length; i++) {
    (function (toast) {
      var close = toast.querySelector("[data-toast-close]");
      if (close) {
        close.addEventListener("click", function () {
          toast.remove();
        });
      }
      if (toast.getAttribute("data-toast") === "success") {
        setTimeout(function () {
          toast.remove();
        }, SUCCESS_TOAST_MS);
      }
    })(toasts[i]);
  }

  var form = document.querySelector("form[data-contact-form]");
  if (!form) return;
  var select = form.querySelector("select[name=offer]");
  var template = form.querySelector("template[data-selected-offer-template]");
  var button = form.querySelector("button[type=submit]");

  function showSelected() {
    if (!select) return;
    var box = form.querySelector("[data-selected-offer]");
    var option = select.options[select.selectedIndex];
    if (!option || !option.value) {
      if (box) box.remove();
      return;
    }
    if (!box && template) {
      box = template.content.firstElementChild.cloneNode(true);
      template.parentNode.insertBefore(box, template);
    }
    if (!box) return;
    // Options read 'Title (Reference)' (spec section 2) and carry the formatted price.
    var label = option.textContent || "";
    var match = /^([\s\S]*) \(([^()]*)\)$/.exec(label);
    var parts = {
      "[data-selected-title]": match ? match[1] : label,
      "[data-selected-reference]": match ? match[2] : "",
      "[data-selected-price]": (option.getAttribute("data-price") || "") + "/mois",
    };
    for (var selector in parts) {
      var element = box.querySelector(selector);
      if (element) element.textContent = parts[selector];
    }
  }

  function setSending(sending) {
    if (!button) return;
    button.disabled = sending;
    var idle = button.querySelector("[data-idle]");
    var busy = button.querySelector("[data-sending]");
    if (idle) idle.hidden = sending;
    if (busy) busy.hidden = !sending;
  }

  if (select) select.addEventListener("change", showSelected);
  form.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) setSending(true);
  });
  // Back to this page from the browser's cache: the form is usable again, the box up to date.
  window.addEventListener("pageshow", function () {
    setSending(false);
    showSelected();
  });
  showSelected();
})();
