import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CONFIRM_IDLE,
  type ConfirmEvent,
  type ConfirmState,
  type ConfirmStep,
  confirmStep,
} from '../src/ui/confirm-step.ts';

/**
 * Issue 29: no console action that moves or releases money acts on one click. The steps of the
 * confirmation are walked here; which buttons go through it is checked from the source (the
 * browser suite, apps/admin/e2e/money-confirm.e2e.ts, clicks the real ones).
 */

type Summary = { uid: string; amount: string };
const SUMMARY: Summary = { uid: '10000001', amount: '500' };

/** Runs events from idle; returns the final state and how many requests went out. */
function walk(...events: ConfirmEvent<Summary>[]) {
  let state: ConfirmState<Summary> = CONFIRM_IDLE;
  let sent = 0;
  for (const event of events) {
    const step: ConfirmStep<Summary> = confirmStep(state, event);
    state = step.state;
    if (step.send) sent++;
  }
  return { state, sent };
}

describe('a money button asks before it acts', () => {
  it('pressing opens the confirmation with the summary and sends nothing', () => {
    expect(walk({ type: 'press', summary: SUMMARY })).toEqual({
      state: { phase: 'asking', summary: SUMMARY },
      sent: 0,
    });
  });

  it('pressing again while it asks changes nothing and still sends nothing', () => {
    const other = { uid: '2', amount: '1' };
    expect(walk({ type: 'press', summary: SUMMARY }, { type: 'press', summary: other })).toEqual({
      state: { phase: 'asking', summary: SUMMARY },
      sent: 0,
    });
  });

  it('cancelling sends nothing, and a later confirm without a press sends nothing', () => {
    expect(
      walk({ type: 'press', summary: SUMMARY }, { type: 'cancel' }, { type: 'confirm' }),
    ).toEqual({ state: CONFIRM_IDLE, sent: 0 });
  });

  it('confirming sends once, even when the button is pressed twice', () => {
    expect(
      walk({ type: 'press', summary: SUMMARY }, { type: 'confirm' }, { type: 'confirm' }),
    ).toEqual({ state: { phase: 'sending', summary: SUMMARY }, sent: 1 });
    expect(
      walk({ type: 'press', summary: SUMMARY }, { type: 'confirm' }, { type: 'done' }),
    ).toEqual({ state: CONFIRM_IDLE, sent: 1 });
  });

  it('a refusal keeps the confirmation open to retry, which sends again only when confirmed', () => {
    expect(
      walk({ type: 'press', summary: SUMMARY }, { type: 'confirm' }, { type: 'failed' }),
    ).toEqual({ state: { phase: 'asking', summary: SUMMARY }, sent: 1 });
    expect(
      walk(
        { type: 'press', summary: SUMMARY },
        { type: 'confirm' },
        { type: 'failed' },
        { type: 'confirm' },
      ).sent,
    ).toBe(2);
  });

  it('a request on its way cannot be cancelled away (its result still closes the dialog)', () => {
    expect(
      walk({ type: 'press', summary: SUMMARY }, { type: 'confirm' }, { type: 'cancel' }).state,
    ).toEqual({ phase: 'sending', summary: SUMMARY });
  });
});

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
function files(dir = src): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [path.relative(src, full)];
  });
}
const text = (file: string) => fs.readFileSync(path.join(src, file), 'utf8');
/** The operator route an api/ file posts to (`http.post('/kyc/decide'`), if any. */
const postsTo = (file: string) =>
  text(file).match(/\bhttp\.post(?:<[^>]*>)?\(\s*['`]([^'`]+)['`]/)?.[1];

/** Routes that move or release money (credit, approve, pay out, refund, adjust, allocate, deliver). */
const MONEY = [
  '/bonus-codes/decide',
  '/card-deposits/decide',
  '/ieo/allocate',
  '/ieo/cancel',
  '/ieo/list',
  '/kyc/decide',
  '/loans/decide',
  '/loans/disburse',
  '/mining/rentals/decide',
  '/reward-budgets',
  '/reward-budgets/decide',
  '/users/adjustments',
  '/users/adjustments/decide',
  '/withdrawals/complete',
  '/withdrawals/fail',
  '/withdrawals/review',
];
/** The components through which a money action is confirmed. */
const CONFIRMING = ['@/ui/money-confirm.tsx', '@/ui/review-queue.tsx', '@/ui/decision-buttons.tsx'];

describe('every console button that moves money goes through the confirmation', () => {
  const all = files();
  const moneyApis = all.filter((file) => {
    const route = postsTo(file);
    return route !== undefined && MONEY.includes(route);
  });

  it('every money route has its api file', () => {
    expect(moneyApis.map(postsTo).sort()).toEqual([...MONEY].sort());
  });

  it.each(MONEY)('the screens calling %s import the confirmation', (route) => {
    const api = moneyApis.find((file) => postsTo(file) === route) as string;
    const name = `/${path.basename(api)}`;
    const callers = all.filter(
      (file) =>
        file !== api && !file.includes(`${path.sep}api${path.sep}`) && text(file).includes(name),
    );
    expect(callers.length, route).toBeGreaterThan(0);
    for (const caller of callers)
      expect(
        CONFIRMING.some((component) => text(caller).includes(`from '${component}'`)),
        `${caller} calls ${route} without the confirmation`,
      ).toBe(true);
  });

  it('no screen posts money from a bare Popconfirm or a plain click', () => {
    for (const file of all.filter((f) =>
      moneyApis.some((api) => text(f).includes(`/${path.basename(api)}`)),
    ))
      expect(text(file), file).not.toMatch(/Popconfirm/);
  });

  it('every queue gives its approval a confirmation, and the decision buttons open it first', () => {
    const queue = text(path.join('ui', 'review-queue.tsx'));
    expect(queue).toMatch(/\n {2}confirm: \(item: T\) => MoneySummary;/);
    expect(queue).toContain('confirm={props.confirm(item)}');
    const buttons = text(path.join('ui', 'decision-buttons.tsx'));
    expect(buttons).toMatch(/onClick=\{\(\) => \(confirm \? gate\.press\(confirm\)/);
    for (const file of all.filter((f) => text(f).includes('<DecisionButtons')))
      for (const use of text(file).split('<DecisionButtons').slice(1))
        expect(use.slice(0, use.indexOf('/>')), file).toContain('confirm=');
  });
});
