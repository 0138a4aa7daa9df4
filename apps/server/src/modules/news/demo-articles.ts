import type { ArticleKind } from '@tradewind/contract/messages';
import type { Db } from '#platform/db.ts';
import type { LocalizedText } from '../vote/tables.ts';
import { seedArticle } from './service.ts';

/** The demo's news and notices, in all seven languages; covers are the web app's /news/*.svg. */
interface DemoArticle {
  slug: string;
  kind: ArticleKind;
  cover: string;
  /** Published this long before seeding, so the list has an order. */
  ageHours: number;
  title: LocalizedText;
  summary: LocalizedText;
  body: LocalizedText;
}

const DEMO_ARTICLES: DemoArticle[] = [
  {
    slug: 'demo-news-market-week',
    kind: 'news',
    cover: '/news/market-week.svg',
    ageHours: 2,
    title: {
      en: 'Markets this week: Bitcoin holds its range',
      zh_CN: '本周市场：比特币维持区间震荡',
      zh_TW: '本週市場：比特幣維持區間震盪',
      de: 'Märkte diese Woche: Bitcoin hält seine Spanne',
      fr: 'Les marchés cette semaine : le Bitcoin reste dans sa fourchette',
      es: 'Los mercados esta semana: Bitcoin se mantiene en su rango',
      it: 'I mercati questa settimana: Bitcoin resta nel suo intervallo',
    },
    summary: {
      en: 'A calm week for the majors, with gold firm and the dollar mixed. Demo data: prices here are simulated.',
      zh_CN: '主流币种本周走势平稳，黄金坚挺，美元涨跌互现。演示数据：此处价格为模拟。',
      zh_TW: '主流幣種本週走勢平穩，黃金堅挺，美元漲跌互現。演示數據：此處價格為模擬。',
      de: 'Eine ruhige Woche für die großen Coins, Gold fest, der Dollar uneinheitlich. Demodaten: Die Kurse sind simuliert.',
      fr: 'Une semaine calme pour les grandes cryptos, l’or ferme et le dollar partagé. Données de démonstration : les prix sont simulés.',
      es: 'Una semana tranquila para las principales, con el oro firme y el dólar mixto. Datos de demostración: los precios son simulados.',
      it: 'Una settimana tranquilla per le principali, con l’oro solido e il dollaro misto. Dati dimostrativi: i prezzi sono simulati.',
    },
    body: {
      en: '<p>Bitcoin spent the week between its recent high and low, while Ether followed it closely.</p><h3>What moved</h3><ul><li>Gold stayed firm.</li><li>The dollar was mixed against the euro and the yen.</li></ul><p><strong>Remember:</strong> the prices in this demo are simulated and clearly labelled as such.</p>',
      zh_CN:
        '<p>比特币本周在近期高点与低点之间波动，以太坊紧随其后。</p><h3>市场变化</h3><ul><li>黄金保持坚挺。</li><li>美元兑欧元和日元涨跌互现。</li></ul><p><strong>提示：</strong>本演示中的价格为模拟数据，并已明确标注。</p>',
      zh_TW:
        '<p>比特幣本週在近期高點與低點之間波動，以太坊緊隨其後。</p><h3>市場變化</h3><ul><li>黃金保持堅挺。</li><li>美元兌歐元和日圓漲跌互現。</li></ul><p><strong>提示：</strong>本演示中的價格為模擬數據，並已明確標註。</p>',
      de: '<p>Bitcoin bewegte sich die ganze Woche zwischen seinem jüngsten Hoch und Tief, Ether folgte eng.</p><h3>Was sich bewegte</h3><ul><li>Gold blieb fest.</li><li>Der Dollar zeigte sich gegenüber Euro und Yen uneinheitlich.</li></ul><p><strong>Hinweis:</strong> Die Kurse in dieser Demo sind simuliert und als solche gekennzeichnet.</p>',
      fr: '<p>Le Bitcoin a passé la semaine entre son récent plus haut et son plus bas, l’Ether le suivant de près.</p><h3>Ce qui a bougé</h3><ul><li>L’or est resté ferme.</li><li>Le dollar a été partagé face à l’euro et au yen.</li></ul><p><strong>À noter :</strong> les prix de cette démo sont simulés et signalés comme tels.</p>',
      es: '<p>Bitcoin pasó la semana entre su máximo y su mínimo recientes, y Ether lo siguió de cerca.</p><h3>Qué se movió</h3><ul><li>El oro se mantuvo firme.</li><li>El dólar fue mixto frente al euro y el yen.</li></ul><p><strong>Recuerde:</strong> los precios de esta demostración son simulados y están señalados como tales.</p>',
      it: '<p>Bitcoin ha trascorso la settimana tra il recente massimo e minimo, con Ether a seguirlo da vicino.</p><h3>Cosa si è mosso</h3><ul><li>L’oro è rimasto solido.</li><li>Il dollaro è stato misto contro euro e yen.</li></ul><p><strong>Ricorda:</strong> i prezzi di questa demo sono simulati e indicati come tali.</p>',
    },
  },
  {
    slug: 'demo-news-honest-settlement',
    kind: 'news',
    cover: '/news/honest-settlement.svg',
    ageHours: 26,
    title: {
      en: 'Check any contract result yourself',
      zh_CN: '您可以亲自核对每一笔合约结果',
      zh_TW: '您可以親自核對每一筆合約結果',
      de: 'Prüfen Sie jedes Kontraktergebnis selbst',
      fr: 'Vérifiez vous-même chaque résultat de contrat',
      es: 'Compruebe usted mismo cualquier resultado de contrato',
      it: 'Verifica tu stesso ogni risultato dei contratti',
    },
    summary: {
      en: 'Every settled order shows its opening and closing ticks, their sources and the rule that decided it.',
      zh_CN: '每笔已结算订单都会显示开仓与平仓报价、其来源以及决定结果的规则。',
      zh_TW: '每筆已結算訂單都會顯示開倉與平倉報價、其來源以及決定結果的規則。',
      de: 'Jede abgerechnete Order zeigt Eröffnungs- und Schlusskurs, deren Quellen und die Regel, die entschieden hat.',
      fr: 'Chaque ordre réglé affiche ses cotations d’ouverture et de clôture, leurs sources et la règle appliquée.',
      es: 'Cada orden liquidada muestra sus cotizaciones de apertura y cierre, sus fuentes y la regla que la decidió.',
      it: 'Ogni ordine regolato mostra le quotazioni di apertura e chiusura, le loro fonti e la regola che lo ha deciso.',
    },
    body: {
      en: '<p>Open <strong>My contracts</strong>, choose a settled order and look at its detail: you see the price when you placed it, the price at delivery, where both came from and when.</p><p>Long wins if the closing price is higher, short wins if it is lower, and a tie refunds the stake. Nobody can choose an outcome.</p>',
      zh_CN:
        '<p>打开<strong>我的合约</strong>，选择一笔已结算订单查看详情：您会看到下单时的价格、交割时的价格，以及两者的来源和时间。</p><p>收盘价更高则买涨获胜，更低则买跌获胜，持平则退还本金。任何人都无法指定结果。</p>',
      zh_TW:
        '<p>打開<strong>我的合約</strong>，選擇一筆已結算訂單查看詳情：您會看到下單時的價格、交割時的價格，以及兩者的來源和時間。</p><p>收盤價更高則買漲獲勝，更低則買跌獲勝，持平則退還本金。任何人都無法指定結果。</p>',
      de: '<p>Öffnen Sie <strong>Meine Kontrakte</strong>, wählen Sie eine abgerechnete Order und sehen Sie sich die Details an: den Kurs bei der Platzierung, den Kurs bei Lieferung, woher beide stammen und wann.</p><p>Long gewinnt bei höherem Schlusskurs, Short bei niedrigerem, bei Gleichstand wird der Einsatz erstattet. Niemand kann ein Ergebnis wählen.</p>',
      fr: '<p>Ouvrez <strong>Mes contrats</strong>, choisissez un ordre réglé et consultez son détail : le prix à la passation, le prix à l’échéance, leur provenance et leur horodatage.</p><p>La hausse gagne si le prix de clôture est plus haut, la baisse s’il est plus bas, et une égalité rembourse la mise. Personne ne peut choisir un résultat.</p>',
      es: '<p>Abra <strong>Mis contratos</strong>, elija una orden liquidada y vea su detalle: el precio al colocarla, el precio al vencimiento, de dónde vinieron y cuándo.</p><p>El alza gana si el precio de cierre es mayor, la baja si es menor, y un empate devuelve el importe. Nadie puede elegir un resultado.</p>',
      it: '<p>Apri <strong>I miei contratti</strong>, scegli un ordine regolato e guarda il dettaglio: il prezzo all’apertura, il prezzo alla scadenza, da dove vengono e quando.</p><p>Il rialzo vince se il prezzo di chiusura è più alto, il ribasso se è più basso, e la parità rimborsa l’importo. Nessuno può scegliere un risultato.</p>',
    },
  },
  {
    slug: 'demo-news-security-tips',
    kind: 'news',
    cover: '/news/security-tips.svg',
    ageHours: 50,
    title: {
      en: 'Five habits that keep your account safe',
      zh_CN: '保护账户安全的五个习惯',
      zh_TW: '保護帳戶安全的五個習慣',
      de: 'Fünf Gewohnheiten, die Ihr Konto schützen',
      fr: 'Cinq habitudes pour protéger votre compte',
      es: 'Cinco hábitos que mantienen segura su cuenta',
      it: 'Cinque abitudini per proteggere il tuo conto',
    },
    summary: {
      en: 'Separate passwords, a withdrawal password and a look at your signed-in devices go a long way.',
      zh_CN: '使用不同的密码、设置提现密码并定期检查已登录设备，大有裨益。',
      zh_TW: '使用不同的密碼、設定提現密碼並定期檢查已登入裝置，大有裨益。',
      de: 'Getrennte Passwörter, ein Auszahlungspasswort und ein Blick auf angemeldete Geräte helfen viel.',
      fr: 'Des mots de passe distincts, un mot de passe de retrait et un œil sur vos appareils connectés font beaucoup.',
      es: 'Contraseñas distintas, una contraseña de retiro y revisar sus dispositivos conectados ayudan mucho.',
      it: 'Password diverse, una password di prelievo e un controllo dei dispositivi connessi aiutano molto.',
    },
    body: {
      en: '<ol><li>Use a password you use nowhere else.</li><li>Set a withdrawal password different from your login password.</li><li>Check your signed-in devices and sign out the ones you do not know.</li><li>We never ask for a fee to release a withdrawal.</li><li>Only enter your password in this app.</li></ol>',
      zh_CN:
        '<ol><li>使用在其他地方从未用过的密码。</li><li>设置与登录密码不同的提现密码。</li><li>检查已登录设备，退出您不认识的设备。</li><li>我们绝不会为放行提现收取任何费用。</li><li>只在本应用中输入密码。</li></ol>',
      zh_TW:
        '<ol><li>使用在其他地方從未用過的密碼。</li><li>設定與登入密碼不同的提現密碼。</li><li>檢查已登入裝置，登出您不認識的裝置。</li><li>我們絕不會為放行提現收取任何費用。</li><li>只在本應用中輸入密碼。</li></ol>',
      de: '<ol><li>Verwenden Sie ein Passwort, das Sie nirgendwo sonst nutzen.</li><li>Legen Sie ein Auszahlungspasswort fest, das sich vom Login-Passwort unterscheidet.</li><li>Prüfen Sie Ihre angemeldeten Geräte und melden Sie unbekannte ab.</li><li>Wir verlangen nie eine Gebühr, um eine Auszahlung freizugeben.</li><li>Geben Sie Ihr Passwort nur in dieser App ein.</li></ol>',
      fr: '<ol><li>Utilisez un mot de passe que vous n’utilisez nulle part ailleurs.</li><li>Définissez un mot de passe de retrait différent de celui de connexion.</li><li>Vérifiez vos appareils connectés et déconnectez ceux que vous ne connaissez pas.</li><li>Nous ne demandons jamais de frais pour débloquer un retrait.</li><li>Ne saisissez votre mot de passe que dans cette application.</li></ol>',
      es: '<ol><li>Use una contraseña que no use en ningún otro sitio.</li><li>Defina una contraseña de retiro distinta de la de inicio de sesión.</li><li>Revise sus dispositivos conectados y cierre la sesión de los que no conozca.</li><li>Nunca pedimos una comisión para liberar un retiro.</li><li>Introduzca su contraseña solo en esta aplicación.</li></ol>',
      it: '<ol><li>Usa una password che non usi altrove.</li><li>Imposta una password di prelievo diversa da quella di accesso.</li><li>Controlla i dispositivi connessi e disconnetti quelli che non riconosci.</li><li>Non chiediamo mai una commissione per sbloccare un prelievo.</li><li>Inserisci la password solo in questa app.</li></ol>',
    },
  },
  {
    slug: 'demo-notice-maintenance',
    kind: 'notice',
    cover: '/news/maintenance.svg',
    ageHours: 1,
    title: {
      en: 'Scheduled maintenance on Sunday 02:00–02:30 UTC',
      zh_CN: '周日 02:00–02:30 (UTC) 系统维护通知',
      zh_TW: '週日 02:00–02:30 (UTC) 系統維護通知',
      de: 'Geplante Wartung am Sonntag, 02:00–02:30 UTC',
      fr: 'Maintenance prévue dimanche de 02:00 à 02:30 UTC',
      es: 'Mantenimiento programado el domingo de 02:00 a 02:30 UTC',
      it: 'Manutenzione programmata domenica 02:00–02:30 UTC',
    },
    summary: {
      en: 'Deposits and withdrawals pause for about 30 minutes; open contracts settle as usual.',
      zh_CN: '充值和提现将暂停约 30 分钟；未平仓合约照常结算。',
      zh_TW: '充值和提現將暫停約 30 分鐘；未平倉合約照常結算。',
      de: 'Ein- und Auszahlungen pausieren etwa 30 Minuten; offene Kontrakte werden wie gewohnt abgerechnet.',
      fr: 'Les dépôts et retraits sont suspendus environ 30 minutes ; les contrats ouverts sont réglés normalement.',
      es: 'Los depósitos y retiros se pausan unos 30 minutos; los contratos abiertos se liquidan con normalidad.',
      it: 'Depositi e prelievi si fermano per circa 30 minuti; i contratti aperti vengono regolati normalmente.',
    },
    body: {
      en: '<p>We are upgrading our database servers. During the window, deposits and withdrawals are queued and processed right after.</p><p>Open contracts settle on schedule on recorded prices.</p>',
      zh_CN:
        '<p>我们将升级数据库服务器。维护期间，充值和提现将排队等待，并在维护结束后立即处理。</p><p>未平仓合约将按时根据记录的价格结算。</p>',
      zh_TW:
        '<p>我們將升級資料庫伺服器。維護期間，充值和提現將排隊等待，並在維護結束後立即處理。</p><p>未平倉合約將按時根據記錄的價格結算。</p>',
      de: '<p>Wir aktualisieren unsere Datenbankserver. Während des Zeitfensters werden Ein- und Auszahlungen vorgemerkt und direkt danach bearbeitet.</p><p>Offene Kontrakte werden planmäßig zu aufgezeichneten Kursen abgerechnet.</p>',
      fr: '<p>Nous mettons à niveau nos serveurs de base de données. Pendant ce créneau, dépôts et retraits sont mis en file et traités juste après.</p><p>Les contrats ouverts sont réglés à l’heure sur les prix enregistrés.</p>',
      es: '<p>Estamos actualizando nuestros servidores de bases de datos. Durante la ventana, los depósitos y retiros quedan en cola y se procesan justo después.</p><p>Los contratos abiertos se liquidan a su hora con los precios registrados.</p>',
      it: '<p>Stiamo aggiornando i nostri server di database. Durante la finestra, depositi e prelievi vengono messi in coda ed elaborati subito dopo.</p><p>I contratti aperti vengono regolati puntualmente sui prezzi registrati.</p>',
    },
  },
  {
    slug: 'demo-notice-trc20-only',
    kind: 'notice',
    cover: '/news/trc20-only.svg',
    ageHours: 30,
    title: {
      en: 'Deposits: USDT on TRC20 only',
      zh_CN: '充值仅支持 TRC20 网络的 USDT',
      zh_TW: '充值僅支援 TRC20 網路的 USDT',
      de: 'Einzahlungen: nur USDT über TRC20',
      fr: 'Dépôts : uniquement l’USDT sur TRC20',
      es: 'Depósitos: solo USDT en TRC20',
      it: 'Depositi: solo USDT su TRC20',
    },
    summary: {
      en: 'Send only USDT on the TRON (TRC20) network to your deposit address.',
      zh_CN: '请仅向您的充值地址发送 TRON (TRC20) 网络上的 USDT。',
      zh_TW: '請僅向您的充值地址發送 TRON (TRC20) 網路上的 USDT。',
      de: 'Senden Sie an Ihre Einzahlungsadresse nur USDT im TRON-Netzwerk (TRC20).',
      fr: 'N’envoyez à votre adresse de dépôt que de l’USDT sur le réseau TRON (TRC20).',
      es: 'Envíe a su dirección de depósito solo USDT en la red TRON (TRC20).',
      it: 'Invia al tuo indirizzo di deposito solo USDT sulla rete TRON (TRC20).',
    },
    body: {
      en: '<p>Your deposit address accepts <strong>USDT on TRC20</strong>. Other coins or networks sent to it cannot be credited.</p>',
      zh_CN:
        '<p>您的充值地址仅接受<strong>TRC20 网络的 USDT</strong>。发送其他币种或其他网络的资产将无法入账。</p>',
      zh_TW:
        '<p>您的充值地址僅接受<strong>TRC20 網路的 USDT</strong>。發送其他幣種或其他網路的資產將無法入帳。</p>',
      de: '<p>Ihre Einzahlungsadresse akzeptiert <strong>USDT über TRC20</strong>. Andere Coins oder Netzwerke können nicht gutgeschrieben werden.</p>',
      fr: '<p>Votre adresse de dépôt accepte <strong>l’USDT sur TRC20</strong>. D’autres cryptos ou réseaux ne peuvent pas être crédités.</p>',
      es: '<p>Su dirección de depósito acepta <strong>USDT en TRC20</strong>. Otras monedas o redes enviadas a ella no se pueden acreditar.</p>',
      it: '<p>Il tuo indirizzo di deposito accetta <strong>USDT su TRC20</strong>. Altre monete o reti non possono essere accreditate.</p>',
    },
  },
];

/** Seeds the demo's news and notices once (by slug). */
export async function seedDemoArticles(db: Db, now: Date): Promise<void> {
  for (const { ageHours, ...article } of DEMO_ARTICLES) {
    await seedArticle(db, now, {
      ...article,
      publishedAt: new Date(now.getTime() - ageHours * 3_600_000),
    });
  }
}
