// Site chrome without React: theme toggle and mobile menu. Loaded on every page, hydrated or not,
// so that pages which need no other JavaScript ship none. Event delegation survives re-renders.
(function () {
  var root = document.documentElement;
  var key = root.getAttribute("data-theme-key") || "theme";
  var media = window.matchMedia("(prefers-color-scheme: dark)");

  function stored() {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }
  function apply(dark) {
    root.classList.toggle("dark", dark);
    root.style.colorScheme = dark ? "dark" : "light";
  }
  function onSystemChange() {
    var t = stored();
    if (!t || t === "system") apply(media.matches);
  }
  if (media.addEventListener) media.addEventListener("change", onSystemChange);
  else if (media.addListener) media.addListener(onSystemChange);

  function closeMenus(except) {
    var menus = document.querySelectorAll("details[data-mobile-menu][open]");
    for (var i = 0; i < menus.length; i++) if (menus[i] !== except) menus[i].open = false;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var toggle = target.closest("[data-theme-toggle]");
    if (toggle) {
      // From system, go to the opposite of what is shown now; then flip between light and dark.
      var dark = !root.classList.contains("dark");
      try {
        localStorage.setItem(key, dark ? "dark" : "light");
      } catch {
        // storage disabled: the choice lasts for this page only
      }
      apply(dark);
      return;
    }
    var menu = target.closest("details[data-mobile-menu]");
    if (menu && target.closest("a")) {
      menu.open = false;
      return;
    }
    if (!menu) closeMenus(null);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector("details[data-mobile-menu][open]");
    if (open) {
      open.open = false;
      var summary = open.querySelector("summary");
      if (summary) summary.focus();
    }
  });
})();
