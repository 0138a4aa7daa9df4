import type { IeoProjectInput } from '@tradewind/contract/ieo';
import type { Db } from '#platform/db.ts';
import type { Ledger } from '../ledger/service.ts';
import { createProject, runAllocation, runListing } from '../ieo/service.ts';

const DAY_MS = 86_400_000;

type DemoProject = Omit<IeoProjectInput, 'startsAt' | 'endsAt' | 'listsAt' | 'announcedAt'> & {
  startDays: number;
  endDays: number;
  listDays: number;
};

/** The demo's projects: one subscribing, one not started, one already listed (clearly demo data). */
export async function seedDemoIeo(deps: { db: Db; ledger: Ledger }, now: Date): Promise<void> {
  for (const { startDays, endDays, listDays, ...project } of DEMO_PROJECTS) {
    const at = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
    const id = await createProject(deps.db, now, null, {
      ...project,
      startsAt: at(startDays),
      endsAt: at(endDays),
      listsAt: at(listDays),
      announcedAt: at(startDays - 3),
    });
    if (endDays <= 0) await runAllocation(deps, now, id, null);
    if (listDays <= 0) await runListing(deps, now, id, null);
  }
}

const DEMO_PROJECTS: DemoProject[] = [
  {
    slug: 'demo-nova',
    token: 'NOVA',
    tokenName: 'Nova Grid (demo)',
    name: {
      en: 'Nova Grid (demo)',
      zh_CN: 'Nova Grid（演示）',
      zh_TW: 'Nova Grid（示範）',
      de: 'Nova Grid (Demo)',
      fr: 'Nova Grid (démo)',
      es: 'Nova Grid (demo)',
      it: 'Nova Grid (demo)',
    },
    description: {
      en: 'A demo project: a shared network of community solar batteries. Not a real token.',
      zh_CN: '演示项目：社区太阳能电池共享网络。并非真实代币。',
      zh_TW: '示範項目：社區太陽能電池共享網路。並非真實代幣。',
      de: 'Ein Demo-Projekt: ein gemeinsames Netz von Solarbatterien in Gemeinden. Kein echter Token.',
      fr: 'Un projet de démonstration : un réseau partagé de batteries solaires communautaires. Pas un vrai jeton.',
      es: 'Un proyecto de demostración: una red compartida de baterías solares comunitarias. No es un token real.',
      it: 'Un progetto dimostrativo: una rete condivisa di batterie solari di comunità. Non è un token reale.',
    },
    supply: '1000000',
    unitPrice: '0.05',
    priceMin: '0.04',
    priceMax: '0.08',
    perUserCap: '50000',
    startDays: -2,
    endDays: 12,
    listDays: 14,
  },
  {
    slug: 'demo-tide',
    token: 'TIDE',
    tokenName: 'Tidewater (demo)',
    name: {
      en: 'Tidewater (demo)',
      zh_CN: 'Tidewater（演示）',
      zh_TW: 'Tidewater（示範）',
      de: 'Tidewater (Demo)',
      fr: 'Tidewater (démo)',
      es: 'Tidewater (demo)',
      it: 'Tidewater (demo)',
    },
    description: {
      en: 'A demo project: tracking shipping containers across ports. Not a real token.',
      zh_CN: '演示项目：跨港口追踪集装箱。并非真实代币。',
      zh_TW: '示範項目：跨港口追蹤貨櫃。並非真實代幣。',
      de: 'Ein Demo-Projekt: Verfolgung von Schiffscontainern zwischen Häfen. Kein echter Token.',
      fr: 'Un projet de démonstration : le suivi des conteneurs maritimes entre les ports. Pas un vrai jeton.',
      es: 'Un proyecto de demostración: seguimiento de contenedores entre puertos. No es un token real.',
      it: 'Un progetto dimostrativo: tracciamento dei container tra i porti. Non è un token reale.',
    },
    supply: '500000',
    unitPrice: '0.2',
    priceMin: '0.18',
    priceMax: '0.25',
    perUserCap: '10000',
    startDays: 5,
    endDays: 12,
    listDays: 15,
  },
  {
    slug: 'demo-orbit',
    token: 'ORBT',
    tokenName: 'Orbit Relay (demo)',
    name: {
      en: 'Orbit Relay (demo)',
      zh_CN: 'Orbit Relay（演示）',
      zh_TW: 'Orbit Relay（示範）',
      de: 'Orbit Relay (Demo)',
      fr: 'Orbit Relay (démo)',
      es: 'Orbit Relay (demo)',
      it: 'Orbit Relay (demo)',
    },
    description: {
      en: 'A demo project whose sale has ended and whose token is listed. Not a real token.',
      zh_CN: '演示项目：申购已结束，代币已上线。并非真实代币。',
      zh_TW: '示範項目：申購已結束，代幣已上線。並非真實代幣。',
      de: 'Ein Demo-Projekt, dessen Verkauf beendet und dessen Token gelistet ist. Kein echter Token.',
      fr: 'Un projet de démonstration dont la vente est terminée et le jeton listé. Pas un vrai jeton.',
      es: 'Un proyecto de demostración cuya venta ha terminado y cuyo token ya cotiza. No es un token real.',
      it: 'Un progetto dimostrativo la cui vendita è terminata e il cui token è quotato. Non è un token reale.',
    },
    supply: '200000',
    unitPrice: '1',
    priceMin: '0.9',
    priceMax: '1.2',
    perUserCap: '5000',
    startDays: -20,
    endDays: -10,
    listDays: -7,
  },
];
