import type { Language } from '@tradewind/contract/languages';
import { rateText } from '@tradewind/contract/mining';
import type { NewProduct } from '../mining/service.ts';
import type { LocalizedText } from '../mining/tables.ts';

/**
 * The demo's three miners. Every description says the same hard facts in the reader's
 * language: the yield is a fixed rate Tradewind pays, not the miner's actual output; when
 * it is paid; that the price is returned at the end; what it costs; and the risks.
 */

interface Terms {
  output: string;
  days: number;
  percent: string;
}

const DISCLOSURE: Record<Language, (t: Terms) => string> = {
  en: (t) =>
    `This rental runs for ${t.days} days from the day it is approved. Each day it pays a fixed ${t.percent}% of the price you paid, in USDT, to your spot account. The yield is set by Tradewind and does not follow the miner's actual ${t.output} output, the ${t.output} price or the network difficulty.\n\nCosts: the price includes electricity, hosting and maintenance. There are no other fees. At the end of the period the full price is returned to your spot account together with the last day's yield.\n\nRisks: this is not a bank deposit and is not insured. The yield and the return of the price depend on Tradewind being able to pay. A rental cannot be cancelled once approved. Until an operator reviews it, the rental is under review; if it is rejected, the full price is refunded at once.`,
  zh_CN: (t) =>
    `本租用自审核通过之日起运行 ${t.days} 天。每天按您支付价格的固定 ${t.percent}% 以 USDT 发放到您的现货账户。收益率由 Tradewind 设定，不随矿机实际的 ${t.output} 产出、${t.output} 价格或全网难度变化。\n\n费用：价格已包含电费、托管和维护费，无其他费用。期满时，全部价格将连同最后一天的收益一并退回您的现货账户。\n\n风险：本产品不是银行存款，不受保险保障。收益和本金的返还取决于 Tradewind 的支付能力。审核通过后不可取消。在运营人员审核前，租用处于审核中；如被拒绝，全部价格将立即退还。`,
  zh_TW: (t) =>
    `本租用自審核通過之日起運行 ${t.days} 天。每天按您支付價格的固定 ${t.percent}% 以 USDT 發放到您的現貨帳戶。收益率由 Tradewind 設定，不隨礦機實際的 ${t.output} 產出、${t.output} 價格或全網難度變化。\n\n費用：價格已包含電費、託管和維護費，無其他費用。期滿時，全部價格將連同最後一天的收益一併退回您的現貨帳戶。\n\n風險：本產品不是銀行存款，不受保險保障。收益和本金的返還取決於 Tradewind 的支付能力。審核通過後不可取消。在營運人員審核前，租用處於審核中；如被拒絕，全部價格將立即退還。`,
  de: (t) =>
    `Diese Miete läuft ${t.days} Tage ab dem Tag der Freigabe. Jeden Tag zahlt sie feste ${t.percent} % des gezahlten Preises in USDT auf Ihr Spot-Konto. Die Rendite legt Tradewind fest; sie folgt nicht der tatsächlichen ${t.output}-Ausbeute des Miners, dem ${t.output}-Kurs oder der Netzwerk-Schwierigkeit.\n\nKosten: Der Preis enthält Strom, Hosting und Wartung. Weitere Gebühren gibt es nicht. Am Ende der Laufzeit wird der volle Preis zusammen mit der Rendite des letzten Tages auf Ihr Spot-Konto zurückgezahlt.\n\nRisiken: Dies ist keine Bankeinlage und nicht versichert. Rendite und Rückzahlung hängen davon ab, dass Tradewind zahlen kann. Nach der Freigabe kann die Miete nicht storniert werden. Bis ein Mitarbeiter sie prüft, ist sie in Prüfung; wird sie abgelehnt, wird der volle Preis sofort erstattet.`,
  fr: (t) =>
    `Cette location dure ${t.days} jours à partir de son approbation. Chaque jour, elle verse un rendement fixe de ${t.percent} % du prix payé, en USDT, sur votre compte spot. Le rendement est fixé par Tradewind et ne suit ni la production réelle de ${t.output} du mineur, ni le cours du ${t.output}, ni la difficulté du réseau.\n\nCoûts : le prix comprend l'électricité, l'hébergement et la maintenance. Il n'y a pas d'autres frais. À la fin de la période, le prix complet est restitué sur votre compte spot avec le rendement du dernier jour.\n\nRisques : ce n'est pas un dépôt bancaire et il n'est pas assuré. Le rendement et la restitution du prix dépendent de la capacité de Tradewind à payer. Une location approuvée ne peut pas être annulée. Tant qu'un opérateur ne l'a pas examinée, elle est en cours d'examen ; si elle est refusée, le prix complet est remboursé immédiatement.`,
  es: (t) =>
    `Este alquiler dura ${t.days} días desde el día en que se aprueba. Cada día paga un ${t.percent} % fijo del precio pagado, en USDT, a tu cuenta spot. El rendimiento lo fija Tradewind y no sigue la producción real de ${t.output} del minero, el precio de ${t.output} ni la dificultad de la red.\n\nCostes: el precio incluye electricidad, alojamiento y mantenimiento. No hay otras comisiones. Al final del periodo, el precio completo se devuelve a tu cuenta spot junto con el rendimiento del último día.\n\nRiesgos: no es un depósito bancario y no está asegurado. El rendimiento y la devolución del precio dependen de que Tradewind pueda pagar. Un alquiler aprobado no se puede cancelar. Hasta que un operador lo revise, el alquiler está en revisión; si se rechaza, el precio completo se reembolsa al instante.`,
  it: (t) =>
    `Questo noleggio dura ${t.days} giorni dal giorno dell'approvazione. Ogni giorno paga un rendimento fisso del ${t.percent}% del prezzo pagato, in USDT, sul tuo conto spot. Il rendimento è fissato da Tradewind e non segue la produzione reale di ${t.output} del miner, il prezzo di ${t.output} né la difficoltà della rete.\n\nCosti: il prezzo comprende elettricità, hosting e manutenzione. Non ci sono altre commissioni. Alla fine del periodo il prezzo intero viene restituito sul tuo conto spot insieme al rendimento dell'ultimo giorno.\n\nRischi: non è un deposito bancario e non è assicurato. Il rendimento e la restituzione del prezzo dipendono dalla capacità di Tradewind di pagare. Un noleggio approvato non può essere annullato. Finché un operatore non lo esamina, il noleggio è in revisione; se viene rifiutato, il prezzo intero viene rimborsato subito.`,
};

const CLOUD_MINER: Record<Language, string> = {
  en: 'cloud miner',
  zh_CN: '云矿机',
  zh_TW: '雲礦機',
  de: 'Cloud-Miner',
  fr: 'mineur cloud',
  es: 'minero en la nube',
  it: 'miner cloud',
};

const LANGS = Object.keys(DISCLOSURE) as Language[];

function percentOf(ppm: number): string {
  return (Number(rateText(ppm)) * 100).toFixed(2).replace(/\.?0+$/, '');
}

function product(p: {
  slug: string;
  model: string;
  output: string;
  hashrate: string;
  power: string;
  periodDays: number;
  unitPrice: bigint;
  minInvestment: bigint;
  maxQuantity: number;
  dailyRatePpm: number;
  sort: number;
}): NewProduct {
  const percent = percentOf(p.dailyRatePpm);
  // The language's own decimal mark: "0.3" in English and Chinese, "0,3" in German, French, Spanish and Italian.
  const termsIn = (lang: Language) => ({
    output: p.output,
    days: p.periodDays,
    percent: ['de', 'fr', 'es', 'it'].includes(lang) ? percent.replace('.', ',') : percent,
  });
  const name = Object.fromEntries(
    LANGS.map((lang) => [lang, `${p.model} ${CLOUD_MINER[lang]}`]),
  ) as LocalizedText;
  const description = Object.fromEntries(
    LANGS.map((lang) => [lang, DISCLOSURE[lang](termsIn(lang))]),
  ) as LocalizedText;
  return {
    slug: p.slug,
    name,
    description,
    output: p.output,
    hashrate: p.hashrate,
    power: p.power,
    periodDays: p.periodDays,
    unitPriceMinor: p.unitPrice,
    minInvestmentMinor: p.minInvestment,
    maxQuantity: p.maxQuantity,
    dailyRatePpm: p.dailyRatePpm,
    enabled: true,
    sort: p.sort,
  };
}

const USDT = 1_000_000n;

export const DEMO_MINING_PRODUCTS: NewProduct[] = [
  product({
    slug: 'demo-s19-xp',
    model: 'Antminer S19 XP',
    output: 'BTC',
    hashrate: '140 TH/s',
    power: '3010 W',
    periodDays: 7,
    unitPrice: 100n * USDT,
    minInvestment: 100n * USDT,
    maxQuantity: 50,
    dailyRatePpm: 3_000,
    sort: 1,
  }),
  product({
    slug: 'demo-l7',
    model: 'Antminer L7',
    output: 'LTC',
    hashrate: '9.5 GH/s',
    power: '3425 W',
    periodDays: 30,
    unitPrice: 200n * USDT,
    minInvestment: 400n * USDT,
    maxQuantity: 20,
    dailyRatePpm: 4_000,
    sort: 2,
  }),
  product({
    slug: 'demo-m60s',
    model: 'Whatsminer M60S',
    output: 'BTC',
    hashrate: '186 TH/s',
    power: '3441 W',
    periodDays: 90,
    unitPrice: 500n * USDT,
    minInvestment: 1_000n * USDT,
    maxQuantity: 10,
    dailyRatePpm: 5_000,
    sort: 3,
  }),
];
