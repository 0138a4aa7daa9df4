/* global document, window */
// The colour scheme, set before the page paints: index.html loads this file in its head, ahead of
// the style sheets, so a dark page is never first drawn light. The choice stored under "theme"
// (Settings → Appearance: "light" or "dark"; none follows the system) or else the system's goes to
// html[data-prefers-color-scheme], which antd-mobile's dark variables and the app's own
// (src/app/styles.css) follow, and to the theme-color meta. The app switches it with the same rules
// (src/features/settings/theme.ts). An external file: the content security policy runs no inline script.
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
  // The system switching (at dusk, say) and a choice made in another tab show at once.
  if (media && media.addEventListener) media.addEventListener('change', apply);
  window.addEventListener('storage', function (event) {
    if (event.key === 'theme' || event.key === null) apply();
  });
})();
