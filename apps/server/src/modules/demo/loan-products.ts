import type { Language } from '@tradewind/contract/languages';
import type { NewLoanProduct } from '../loans/service.ts';
import type { LocalizedText } from '../mining/tables.ts';

/**
 * The demo's two loan products. Each description states the hard facts in the reader's
 * language: how interest is counted, when the principal is due, early repayment, and what
 * being overdue costs.
 */

interface Terms {
  percent: string;
  overduePercent: string;
}

const TERMS: Record<Language, (t: Terms) => string> = {
  en: (t) =>
    `Interest-first: interest of ${t.percent}% of the principal accrues for each day started from disbursement; the principal is due at the end of the period, together with the interest. You may repay earlier and pay only the interest to date.\n\nAfter the due date the loan is overdue: each full day adds ${t.overduePercent}% of the principal as overdue interest, and your credit score goes down. Repaying on time raises it. Repayment is taken from your spot USDT.`,
  zh_CN: (t) =>
    `先息后本：自放款起每开始一天按本金的 ${t.percent}% 计息；本金于期满时与利息一并偿还。可提前还款，只需支付截至当日的利息。\n\n到期未还即为逾期：每满一天按本金的 ${t.overduePercent}% 计收逾期利息，信用分将下降；按时还款可提高信用分。还款从您的现货 USDT 扣除。`,
  zh_TW: (t) =>
    `先息後本：自放款起每開始一天按本金的 ${t.percent}% 計息；本金於期滿時與利息一併償還。可提前還款，只需支付截至當日的利息。\n\n到期未還即為逾期：每滿一天按本金的 ${t.overduePercent}% 計收逾期利息，信用分將下降；按時還款可提高信用分。還款從您的現貨 USDT 扣除。`,
  de: (t) =>
    `Zinsen zuerst: Für jeden ab der Auszahlung begonnenen Tag fallen ${t.percent} % Zinsen auf den Kreditbetrag an; der Kreditbetrag ist am Ende der Laufzeit zusammen mit den Zinsen fällig. Sie können früher zurückzahlen und zahlen dann nur die bis dahin angefallenen Zinsen.\n\nNach dem Fälligkeitstag ist der Kredit überfällig: Jeder volle Tag kostet ${t.overduePercent} % des Kreditbetrags als Verzugszinsen, und Ihr Kredit-Score sinkt. Pünktliche Rückzahlung erhöht ihn. Die Rückzahlung wird von Ihrem Spot-USDT abgebucht.`,
  fr: (t) =>
    `Intérêts d'abord : des intérêts de ${t.percent} % du capital courent pour chaque jour commencé depuis le versement ; le capital est dû à la fin de la période, avec les intérêts. Vous pouvez rembourser plus tôt et ne payer que les intérêts à date.\n\nAprès l'échéance, le prêt est en retard : chaque jour complet ajoute ${t.overduePercent} % du capital en intérêts de retard et votre score de crédit baisse. Un remboursement à temps l'augmente. Le remboursement est prélevé sur vos USDT spot.`,
  es: (t) =>
    `Intereses primero: se devenga un interés del ${t.percent} % del principal por cada día iniciado desde el desembolso; el principal vence al final del plazo, junto con los intereses. Puede devolverlo antes y pagar solo los intereses hasta la fecha.\n\nTras el vencimiento el préstamo está vencido: cada día completo añade un ${t.overduePercent} % del principal como interés de mora y su puntuación de crédito baja. Devolverlo a tiempo la sube. El pago se cobra de sus USDT spot.`,
  it: (t) =>
    `Prima gli interessi: per ogni giorno iniziato dall'erogazione maturano interessi del ${t.percent}% del capitale; il capitale è dovuto alla fine del periodo, insieme agli interessi. Puoi rimborsare prima pagando solo gli interessi maturati.\n\nDopo la scadenza il prestito è scaduto: ogni giorno intero aggiunge il ${t.overduePercent}% del capitale come interessi di mora e il tuo punteggio di credito scende. Rimborsare puntualmente lo aumenta. Il rimborso viene addebitato sui tuoi USDT spot.`,
};

const percent = (ppm: number) => String(ppm / 10_000);
const describe = (dailyRatePpm: number, overdueRatePpm: number): LocalizedText =>
  Object.fromEntries(
    Object.entries(TERMS).map(([lang, text]) => [
      lang,
      text({ percent: percent(dailyRatePpm), overduePercent: percent(overdueRatePpm) }),
    ]),
  ) as LocalizedText;

const USDT = 1_000_000n;

export const DEMO_LOAN_PRODUCTS: NewLoanProduct[] = [
  {
    slug: 'demo-quick-loan',
    name: {
      en: 'Quick loan',
      zh_CN: '快捷贷',
      zh_TW: '快捷貸',
      de: 'Schnellkredit',
      fr: 'Prêt rapide',
      es: 'Préstamo rápido',
      it: 'Prestito rapido',
    },
    institution: {
      en: 'Tradewind Demo Credit',
      zh_CN: 'Tradewind 演示信贷',
      zh_TW: 'Tradewind 演示信貸',
      de: 'Tradewind Demo-Kredit',
      fr: 'Tradewind Crédit démo',
      es: 'Tradewind Crédito demo',
      it: 'Tradewind Credito demo',
    },
    description: describe(1_000, 5_000),
    minAmountMinor: 100n * USDT,
    maxAmountMinor: 5_000n * USDT,
    periods: [7, 15, 30],
    dailyRatePpm: 1_000,
    overdueRatePpm: 5_000,
    method: 'interest_first',
    enabled: true,
    sort: 1,
  },
  {
    slug: 'demo-growth-loan',
    name: {
      en: 'Growth loan',
      zh_CN: '成长贷',
      zh_TW: '成長貸',
      de: 'Wachstumskredit',
      fr: 'Prêt croissance',
      es: 'Préstamo crecimiento',
      it: 'Prestito crescita',
    },
    institution: {
      en: 'Northwind Lending (demo)',
      zh_CN: '北风借贷（演示）',
      zh_TW: '北風借貸（演示）',
      de: 'Northwind Lending (Demo)',
      fr: 'Northwind Lending (démo)',
      es: 'Northwind Lending (demo)',
      it: 'Northwind Lending (demo)',
    },
    description: describe(500, 3_000),
    minAmountMinor: 1_000n * USDT,
    maxAmountMinor: 50_000n * USDT,
    periods: [30, 60, 90],
    dailyRatePpm: 500,
    overdueRatePpm: 3_000,
    method: 'interest_first',
    enabled: true,
    sort: 2,
  },
];
