/* global document, window */
// Light or dark before the first paint: see index.html.
(function () {
  var COLOURS = { light: '#ffffff', dark: '#1a1d24' };
  var media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function stored() {
    try {
      var value = localStorage.getItem('theme');
      return value === 'light' || value === 'dark' ? value : null;
    } catch {
      return null;
    }
  }
  function apply() {
    var theme = stored() || (media && media.matches ? 'dark' : 'light');
    document.documentElement.setAttribute('data-prefers-color-scheme', theme);
    var meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute('content', COLOURS[theme]);
  }
  apply();
  if (media && media.addEventListener) media.addEventListener('change', apply);
  window.addEventListener('storage', function (event) {
    if (event.key === 'theme' || event.key === null) apply();
  });
})();
