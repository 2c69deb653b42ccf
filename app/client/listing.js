// The offers listing without React: filters apply as the visitor types. The form stays a plain GET
// form (it works without JavaScript); here each change fetches the server-rendered page for the new
// filters, swaps in its results and replaces the address, without a page load. Any failure falls
// back to a normal navigation.
(function () {
  var form = document.querySelector("form[data-live-filters]");
  if (!form) return;
  var DEBOUNCE_MS = 300;
  var SPINNER_DELAY_MS = 150;
  var timer = 0;
  var controller = null;
  var current = location.pathname + location.search;

  function targetUrl() {
    var params = new URLSearchParams();
    var data = new FormData(form);
    data.forEach(function (value, key) {
      var text = String(value).trim();
      // 'all' is the "Tous" choice of a select; typed in the search box it is a search term.
      var field = form.elements.namedItem(key);
      var isSelect = field && field.tagName === "SELECT";
      if (text && !(isSelect && text === "all")) params.set(key, text);
    });
    var search = params.toString();
    return "/offers" + (search ? "?" + search : "");
  }

  function part(root, selector) {
    return root.querySelector(selector);
  }

  function apply(doc) {
    var pairs = [
      ["[data-listing-content]", "[data-listing-content]"],
      ["[data-filter-actions]", "[data-filter-actions]"],
    ];
    for (var i = 0; i < pairs.length; i++) {
      var from = part(doc, pairs[i][1]);
      var to = part(document, pairs[i][0]);
      if (!from || !to) return false;
      to.innerHTML = from.innerHTML;
    }
    var count = part(doc, "#resultats");
    var shown = part(document, "#resultats");
    if (count && shown && shown.textContent !== count.textContent) {
      shown.textContent = count.textContent;
    }
    return true;
  }

  function setLoading(loading) {
    var spinner = part(document, "[data-listing-loading]");
    var content = part(document, "[data-listing-content]");
    if (spinner) spinner.hidden = !loading;
    if (content) content.hidden = loading;
  }

  function run() {
    var url = targetUrl();
    if (url === current) return;
    current = url;
    if (controller) controller.abort();
    var mine = (controller = new AbortController());
    var spinnerTimer = setTimeout(function () {
      setLoading(true);
    }, SPINNER_DELAY_MS);
    fetch(url, { signal: mine.signal, headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text().then(function (html) {
          return { html: html, url: new URL(response.url) };
        });
      })
      .then(function (result) {
        if (mine !== controller) return;
        clearTimeout(spinnerTimer);
        var doc = new DOMParser().parseFromString(result.html, "text/html");
        if (!apply(doc)) throw new Error("unexpected page");
        setLoading(false);
        // The server answers at the canonical address (it redirects other spellings).
        current = result.url.pathname + result.url.search;
        history.replaceState(history.state, "", current);
      })
      .catch(function (error) {
        clearTimeout(spinnerTimer);
        if (error && error.name === "AbortError") return;
        location.assign(url);
      });
  }

  function schedule(delay) {
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  form.addEventListener("input", function (event) {
    schedule(event.target instanceof HTMLSelectElement ? 0 : DEBOUNCE_MS);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    run();
  });
})();
