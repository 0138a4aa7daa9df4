/* global document, location, window */
// The offline page (served by the service worker when a page cannot be loaded): in the stored
// language (localStorage "lang", as the app reads it), and back to the app as soon as the link returns.
(function () {
  var TEXTS = {
    en: [
      'en',
      'You are offline',
      'Tradewind needs a connection to show prices, balances and orders. Nothing is shown from an old copy.',
      'Try again',
    ],
    zh_CN: [
      'zh-CN',
      '网络已断开',
      'Tradewind 需要网络连接才能显示行情、余额和订单，不会显示过期的旧数据。',
      '重试',
    ],
    zh_TW: [
      'zh-TW',
      '網路已中斷',
      'Tradewind 需要網路連線才能顯示行情、餘額和訂單，不會顯示過期的舊資料。',
      '重試',
    ],
    de: [
      'de',
      'Sie sind offline',
      'Tradewind braucht eine Verbindung, um Kurse, Guthaben und Aufträge anzuzeigen. Veraltete Daten werden nicht angezeigt.',
      'Erneut versuchen',
    ],
    fr: [
      'fr',
      'Vous êtes hors ligne',
      'Tradewind a besoin d’une connexion pour afficher les cours, les soldes et les ordres. Aucune donnée périmée n’est affichée.',
      'Réessayer',
    ],
    es: [
      'es',
      'Sin conexión',
      'Tradewind necesita conexión para mostrar precios, saldos y órdenes. No se muestran datos antiguos.',
      'Reintentar',
    ],
    it: [
      'it',
      'Sei offline',
      'Tradewind ha bisogno di una connessione per mostrare prezzi, saldi e ordini. Non vengono mostrati dati vecchi.',
      'Riprova',
    ],
  };
  var stored;
  try {
    stored = localStorage.getItem('lang');
  } catch {
    stored = null;
  }
  var t = Object.prototype.hasOwnProperty.call(TEXTS, stored) ? TEXTS[stored] : TEXTS.en;
  document.documentElement.lang = t[0];
  document.title = t[1] + ' · Tradewind';
  document.getElementById('title').textContent = t[1];
  document.getElementById('text').textContent = t[2];
  document.getElementById('retry').textContent = t[3];
  var retry = function () {
    location.reload();
  };
  document.getElementById('retry').addEventListener('click', retry);
  window.addEventListener('online', retry);
})();
