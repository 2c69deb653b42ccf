// The contact form's offer search with JavaScript (docs/decisions/019): the search input becomes a
// combobox (WAI-ARIA APG, list autocomplete) whose options come from /contact/offers?q=. The
// choice travels in a hidden `offer` input; without JavaScript the page's GET search and radio
// buttons do the same. Loaded only when the catalogue is too large for the spec's selector.
(function () {
  var root = document.querySelector("[data-offer-search]");
  if (!root) return;
  var input = root.querySelector("input[type=search]");
  var listbox = root.querySelector("[role=listbox]");
  var optionTemplate = root.querySelector("template[data-offer-option-template]");
  var boxTemplate = root.querySelector("template[data-selected-offer-template]");
  var status = root.querySelector("[data-offer-search-status]");
  var choices = root.querySelector("[data-offer-choices]");
  var endpoint = root.getAttribute("data-endpoint");
  if (!input || !listbox || !optionTemplate || !status || !endpoint) return;

  var GENERAL = { id: "", title: "Demande générale" };
  var selected = null;
  var items = [GENERAL];
  var active = -1;
  var cache = {};
  var timer = 0;
  var pending = null;

  // The server's choice (preselection, search without JavaScript) becomes the combobox's state.
  var checked = choices && choices.querySelector("input[name=offer]:checked");
  if (checked && checked.value) {
    selected = {
      id: checked.value,
      title: checked.getAttribute("data-title") || "",
      reference: checked.getAttribute("data-reference") || "",
      price: checked.getAttribute("data-price") || "",
    };
  }
  // The radio buttons are hidden from the first paint (data-nojs-only): removing them moves nothing.
  if (choices) choices.remove();
  var hidden = document.createElement("input");
  hidden.type = "hidden";
  hidden.name = "offer";
  root.appendChild(hidden);

  input.removeAttribute("name");
  input.removeAttribute("form");
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", listbox.id);

  function label(item) {
    return item.id ? item.title + " (" + item.reference + ")" : item.title;
  }

  function showSelected() {
    hidden.value = selected ? selected.id : "";
    input.value = selected ? label(selected) : "";
    var box = root.querySelector("[data-selected-offer]");
    if (!selected) {
      if (box) box.remove();
      return;
    }
    if (!box && boxTemplate) {
      box = boxTemplate.content.firstElementChild.cloneNode(true);
      boxTemplate.parentNode.insertBefore(box, boxTemplate);
    }
    if (!box) return;
    box.querySelector("[data-selected-title]").textContent = selected.title;
    box.querySelector("[data-selected-reference]").textContent = selected.reference;
    box.querySelector("[data-selected-price]").textContent = selected.price;
  }

  function announce(text) {
    // Cleared first so that the same count said twice is read twice.
    status.textContent = "";
    setTimeout(function () {
      status.textContent = text;
    }, 50);
  }

  function render() {
    listbox.textContent = "";
    items.forEach(function (item, index) {
      var option = optionTemplate.content.firstElementChild.cloneNode(true);
      option.id = "offer-option-" + index;
      option.textContent = label(item);
      if (item.price) {
        var price = document.createElement("span");
        price.className = "ml-2 text-muted-foreground";
        price.textContent = item.price;
        option.appendChild(price);
      }
      option.setAttribute("data-index", String(index));
      listbox.appendChild(option);
    });
    setActive(-1);
  }

  function setActive(index) {
    active = index;
    var options = listbox.children;
    for (var i = 0; i < options.length; i++) {
      options[i].setAttribute("aria-selected", i === index ? "true" : "false");
    }
    if (index >= 0 && options[index]) {
      input.setAttribute("aria-activedescendant", options[index].id);
      options[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function open() {
    listbox.hidden = false;
    input.setAttribute("aria-expanded", "true");
  }

  function close() {
    listbox.hidden = true;
    input.setAttribute("aria-expanded", "false");
    setActive(-1);
  }

  function choose(index) {
    var item = items[index];
    if (!item) return;
    selected = item.id ? item : null;
    close();
    showSelected();
  }

  function show(answer) {
    items = [GENERAL].concat(answer.offers || []);
    render();
    open();
    announce(answer.error || answer.summary || "");
  }

  function search() {
    var term = input.value.trim();
    if (!term) {
      show({ offers: [], summary: "" });
      return;
    }
    if (cache[term]) {
      show(cache[term]);
      return;
    }
    if (pending) pending.abort();
    var request = (pending = new AbortController());
    fetch(endpoint + "?q=" + encodeURIComponent(term), {
      signal: request.signal,
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (answer) {
        var offers = (answer.offers || []).map(function (o) {
          return { id: String(o.id), title: o.title, reference: o.reference, price: o.price };
        });
        var result = { offers: offers, summary: answer.summary, error: answer.error };
        if (!answer.error) cache[term] = result;
        if (input.value.trim() === term) show(result);
      })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;
        show({ error: "La recherche est indisponible pour le moment. Veuillez réessayer." });
      });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 200);
  });

  input.addEventListener("keydown", function (event) {
    var count = items.length;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (listbox.hidden) {
        render();
        open();
        if (!event.altKey) setActive(0);
      } else {
        setActive(Math.min(active + 1, count - 1));
      }
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (listbox.hidden) {
        render();
        open();
        setActive(count - 1);
      } else {
        setActive(active < 0 ? count - 1 : Math.max(active - 1, 0));
      }
    } else if (event.key === "Enter") {
      // Never sends the contact form from here: Enter chooses.
      event.preventDefault();
      if (!listbox.hidden && active >= 0) choose(active);
    } else if (event.key === "Escape") {
      if (!listbox.hidden) {
        event.preventDefault();
        close();
      } else {
        showSelected();
      }
    } else if (event.key === "Tab") {
      close();
    }
  });

  input.addEventListener("click", function () {
    if (listbox.hidden) {
      render();
      open();
    }
  });

  // Keeps the focus in the input while an option is clicked.
  listbox.addEventListener("mousedown", function (event) {
    event.preventDefault();
  });
  listbox.addEventListener("click", function (event) {
    var option = event.target.closest("[role=option]");
    if (option) choose(Number(option.getAttribute("data-index")));
  });

  // Leaving the field: the text goes back to what is chosen (typing alone chooses nothing).
  input.addEventListener("blur", function () {
    close();
    showSelected();
  });

  items = selected ? [GENERAL, selected] : [GENERAL];
  showSelected();
})();
