import type { Language } from '@tradewind/contract/languages';
import {
  VOTE_ENDED_VISIBLE_DAYS,
  VOTE_LIST_MAX,
  VOTE_OPTIONS_MAX,
  type CastVoteRequest,
  type VotePoll,
  type VotePollAdmin,
  type VotePollCreate,
  type VotePollStatus,
} from '@tradewind/contract/vote';
import { and, asc, count, desc, eq, gt, inArray } from 'drizzle-orm';
import crypto from 'node:crypto';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import {
  type LocalizedText,
  type VoteOptionRow,
  type VotePollRow,
  voteBallots,
  voteOptions,
  votePolls,
} from './tables.ts';

/**
 * Polls and ballots (spec /Vote). One vote per user per poll is the ballots' primary key,
 * so it holds however many requests race. Raises VOTE_NOT_FOUND, VOTE_CLOSED, VOTE_ALREADY_CAST;
 * for operators VOTE_NOT_OPEN (closing a poll that is not open) and VOTE_ENDS_IN_PAST.
 */

const DAY_MS = 86_400_000;
const STATUS_ORDER: Record<VotePollStatus, number> = { open: 0, upcoming: 1, ended: 2 };

export function pollStatus(
  poll: Pick<VotePollRow, 'startsAt' | 'endsAt'>,
  now: Date,
): VotePollStatus {
  if (now < poll.startsAt) return 'upcoming';
  return now < poll.endsAt ? 'open' : 'ended';
}

/** The text in the language asked for, else English (always present: a check constraint). */
export function localized(text: LocalizedText, language: Language): string {
  return text[language] ?? text.en;
}

/** Polls not ended more than VOTE_ENDED_VISIBLE_DAYS ago: open first, then upcoming, then ended. */
export async function listPolls(
  db: Executor,
  now: Date,
  userId: number,
  language: Language,
): Promise<VotePoll[]> {
  const polls = await db
    .select()
    .from(votePolls)
    .where(gt(votePolls.endsAt, new Date(now.getTime() - VOTE_ENDED_VISIBLE_DAYS * DAY_MS)))
    .orderBy(asc(votePolls.endsAt), asc(votePolls.id))
    .limit(VOTE_LIST_MAX);
  const views = await pollViews(db, now, userId, language, polls);
  return views.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
}

/** Casts the user's vote and returns the poll with the new counts. */
export async function castVote(
  db: Db,
  now: Date,
  userId: number,
  request: CastVoteRequest,
  language: Language,
): Promise<VotePoll> {
  const pollId = Number(request.pollId);
  const optionId = Number(request.optionId);
  const [poll] = await db.select().from(votePolls).where(eq(votePolls.id, pollId)).limit(1);
  if (!poll) throw new AppError('VOTE_NOT_FOUND', {}, 404);
  const [option] = await db
    .select({ id: voteOptions.id })
    .from(voteOptions)
    .where(and(eq(voteOptions.pollId, pollId), eq(voteOptions.id, optionId)))
    .limit(1);
  if (!option) throw new AppError('VOTE_NOT_FOUND', {}, 404);
  if (pollStatus(poll, now) !== 'open') throw new AppError('VOTE_CLOSED', {}, 409);
  // A concurrent second ballot waits on the first one's key and then inserts nothing.
  const inserted = await db
    .insert(voteBallots)
    .values({ pollId, optionId, userId, createdAt: now })
    .onConflictDoNothing({ target: [voteBallots.pollId, voteBallots.userId] })
    .returning({ pollId: voteBallots.pollId });
  if (inserted.length === 0) throw new AppError('VOTE_ALREADY_CAST', {}, 409);
  const [view] = await pollViews(db, now, userId, language, [poll]);
  if (!view) throw new Error('poll view missing after a vote');
  return view;
}

async function pollViews(
  db: Executor,
  now: Date,
  userId: number,
  language: Language,
  polls: VotePollRow[],
): Promise<VotePoll[]> {
  if (polls.length === 0) return [];
  const pollIds = polls.map((p) => p.id);
  const [options, counts, mine] = await Promise.all([
    db
      .select()
      .from(voteOptions)
      .where(inArray(voteOptions.pollId, pollIds))
      .orderBy(asc(voteOptions.pollId), asc(voteOptions.sort)),
    db
      .select({ optionId: voteBallots.optionId, n: count() })
      .from(voteBallots)
      .where(inArray(voteBallots.pollId, pollIds))
      .groupBy(voteBallots.pollId, voteBallots.optionId),
    db
      .select({ pollId: voteBallots.pollId, optionId: voteBallots.optionId })
      .from(voteBallots)
      .where(and(eq(voteBallots.userId, userId), inArray(voteBallots.pollId, pollIds))),
  ]);
  const countByOption = new Map(counts.map((c) => [c.optionId, Number(c.n)]));
  const mineByPoll = new Map(mine.map((b) => [b.pollId, b.optionId]));
  return polls.map((poll) => {
    const own = options.filter((o) => o.pollId === poll.id);
    const items = own.map((o: VoteOptionRow) => ({
      id: String(o.id),
      label: localized(o.label, language),
      count: countByOption.get(o.id) ?? 0,
    }));
    const voted = mineByPoll.get(poll.id);
    return {
      id: String(poll.id),
      title: localized(poll.title, language),
      description: localized(poll.description, language),
      status: pollStatus(poll, now),
      startsAt: poll.startsAt.toISOString(),
      endsAt: poll.endsAt.toISOString(),
      options: items,
      total: items.reduce((sum, o) => sum + o.count, 0),
      votedOptionId: voted === undefined ? null : String(voted),
    };
  });
}

export interface NewPoll {
  slug: string;
  title: LocalizedText;
  description: LocalizedText;
  startsAt: Date;
  endsAt: Date;
  options: LocalizedText[];
}

/**
 * Creates a poll with its options; a poll whose slug exists is left as it is. Returns the poll's
 * id. With an operator the creation is audited in the same transaction; the demo seed passes none.
 */
export async function createPoll(
  db: Db,
  now: Date,
  input: NewPoll,
  operator: OperatorContext | null = null,
): Promise<number> {
  if (input.options.length < 2 || input.options.length > VOTE_OPTIONS_MAX)
    throw new Error(`a poll needs 2 to ${VOTE_OPTIONS_MAX} options`);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(votePolls)
      .values({
        slug: input.slug,
        title: input.title,
        description: input.description,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        createdAt: now,
      })
      .onConflictDoNothing({ target: votePolls.slug })
      .returning({ id: votePolls.id });
    if (!created) {
      const [existing] = await tx
        .select({ id: votePolls.id })
        .from(votePolls)
        .where(eq(votePolls.slug, input.slug))
        .limit(1);
      if (!existing) throw new Error(`poll ${input.slug} neither inserted nor found`);
      return existing.id;
    }
    await tx
      .insert(voteOptions)
      .values(input.options.map((label, index) => ({ pollId: created.id, label, sort: index })));
    if (operator) {
      await audit(tx, now, operator, {
        action: 'poll.create',
        targetType: 'vote_poll',
        targetId: created.id,
        after: {
          title: input.title.en,
          options: input.options.map((o) => o.en),
          startsAt: input.startsAt.toISOString(),
          endsAt: input.endsAt.toISOString(),
        },
      });
    }
    return created.id;
  });
}

/* Operators */

/** A text as the operator typed it, without empty translations (English is required by the schema). */
function cleanText(text: Record<string, string | undefined>): LocalizedText {
  const out: Record<string, string> = {};
  for (const [language, value] of Object.entries(text))
    if (value !== undefined && value.trim() !== '') out[language] = value.trim();
  return out as LocalizedText;
}

/** An operator's new poll: opens at `startsAt` (or now) and must end in the future. */
export async function createPollAsOperator(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: VotePollCreate,
): Promise<VotePollAdmin> {
  const startsAt = input.startsAt ? new Date(input.startsAt) : now;
  const endsAt = new Date(input.endsAt);
  if (endsAt <= now) throw new AppError('VOTE_ENDS_IN_PAST', {}, 422, 'endsAt');
  if (endsAt <= startsAt) throw new AppError('VALIDATION_FAILED', {}, 422, 'endsAt');
  const id = await createPoll(
    db,
    now,
    {
      slug: `op-${crypto.randomBytes(8).toString('hex')}`,
      title: cleanText(input.title),
      description: cleanText(input.description),
      startsAt,
      endsAt,
      options: input.options.map((o) => cleanText(o.label)),
    },
    operator,
  );
  return pollForOperators(db, now, id);
}

/** Ends an open poll now: nobody can vote any more; the counts stay as the ballots are. */
export async function closePoll(
  db: Db,
  now: Date,
  operator: OperatorContext,
  id: number,
  reason?: string,
): Promise<VotePollAdmin> {
  const endsAt = await db.transaction(async (tx) => {
    const [poll] = await tx.select().from(votePolls).where(eq(votePolls.id, id)).for('update');
    if (!poll) throw new AppError('VOTE_NOT_FOUND', {}, 404);
    if (pollStatus(poll, now) !== 'open') throw new AppError('VOTE_NOT_OPEN', {}, 409);
    // A poll cannot end when it starts (the period check); one opened this very millisecond ends a millisecond later.
    const endsAt = now > poll.startsAt ? now : new Date(poll.startsAt.getTime() + 1);
    await tx.update(votePolls).set({ endsAt }).where(eq(votePolls.id, id));
    await audit(tx, now, operator, {
      action: 'poll.close',
      targetType: 'vote_poll',
      targetId: id,
      before: { endsAt: poll.endsAt.toISOString() },
      after: { endsAt: endsAt.toISOString() },
      reason: reason ?? null,
    });
    return endsAt;
  });
  return pollForOperators(db, endsAt, id);
}

async function adminViews(db: Executor, now: Date, polls: VotePollRow[]): Promise<VotePollAdmin[]> {
  if (polls.length === 0) return [];
  const pollIds = polls.map((p) => p.id);
  const [options, counts] = await Promise.all([
    db
      .select()
      .from(voteOptions)
      .where(inArray(voteOptions.pollId, pollIds))
      .orderBy(asc(voteOptions.pollId), asc(voteOptions.sort)),
    db
      .select({ optionId: voteBallots.optionId, n: count() })
      .from(voteBallots)
      .where(inArray(voteBallots.pollId, pollIds))
      .groupBy(voteBallots.pollId, voteBallots.optionId),
  ]);
  const countByOption = new Map(counts.map((c) => [c.optionId, Number(c.n)]));
  return polls.map((poll) => {
    const items = options
      .filter((o) => o.pollId === poll.id)
      .map((o) => ({ id: String(o.id), label: o.label, count: countByOption.get(o.id) ?? 0 }));
    return {
      id: String(poll.id),
      title: poll.title,
      description: poll.description,
      status: pollStatus(poll, now),
      startsAt: poll.startsAt.toISOString(),
      endsAt: poll.endsAt.toISOString(),
      options: items,
      total: items.reduce((sum, o) => sum + o.count, 0),
      createdAt: poll.createdAt.toISOString(),
    };
  });
}

/** Every poll with its results, newest first (bounded by VOTE_LIST_MAX). */
export async function listPollsForOperators(db: Executor, now: Date): Promise<VotePollAdmin[]> {
  const polls = await db.select().from(votePolls).orderBy(desc(votePolls.id)).limit(VOTE_LIST_MAX);
  return adminViews(db, now, polls);
}

export async function pollForOperators(
  db: Executor,
  now: Date,
  id: number,
): Promise<VotePollAdmin> {
  const polls = await db.select().from(votePolls).where(eq(votePolls.id, id)).limit(1);
  const [view] = await adminViews(db, now, polls);
  if (!view) throw new AppError('VOTE_NOT_FOUND', {}, 404);
  return view;
}

/** The demo's polls: open from a day before seeding for a year. */
export async function seedDemoPolls(db: Db, now: Date): Promise<void> {
  const startsAt = new Date(now.getTime() - DAY_MS);
  const endsAt = new Date(now.getTime() + 365 * DAY_MS);
  for (const poll of DEMO_POLLS) await createPoll(db, now, { ...poll, startsAt, endsAt });
}

const DEMO_POLLS: Omit<NewPoll, 'startsAt' | 'endsAt'>[] = [
  {
    slug: 'demo-next-listing',
    title: {
      en: 'Which coin should we list next?',
      zh_TW: '下一個上架哪個幣種？',
      zh_CN: '下一个上线哪个币种？',
      es: '¿Qué moneda deberíamos listar a continuación?',
      fr: 'Quelle crypto devrions-nous lister ensuite ?',
      it: 'Quale moneta dovremmo quotare dopo?',
      de: 'Welchen Coin sollen wir als Nächstes listen?',
    },
    description: {
      en: 'Tell us which asset you would like to trade next on Tradewind.',
      zh_TW: '告訴我們您希望接下來在 Tradewind 交易哪種資產。',
      zh_CN: '告诉我们您希望接下来在 Tradewind 交易哪种资产。',
      es: 'Dinos qué activo te gustaría negociar próximamente en Tradewind.',
      fr: 'Dites-nous quel actif vous aimeriez échanger prochainement sur Tradewind.',
      it: 'Dicci quale asset vorresti negoziare prossimamente su Tradewind.',
      de: 'Sagen Sie uns, welchen Vermögenswert Sie als Nächstes auf Tradewind handeln möchten.',
    },
    options: [
      { en: 'Solana (SOL)' },
      { en: 'Cardano (ADA)' },
      { en: 'Polkadot (DOT)' },
      { en: 'Avalanche (AVAX)' },
    ],
  },
  {
    slug: 'demo-next-feature',
    title: {
      en: 'Which feature should we build next?',
      zh_TW: '我們接下來應該開發哪個功能？',
      zh_CN: '我们接下来应该开发哪个功能？',
      es: '¿Qué función deberíamos desarrollar a continuación?',
      fr: 'Quelle fonctionnalité devrions-nous développer ensuite ?',
      it: 'Quale funzione dovremmo sviluppare dopo?',
      de: 'Welche Funktion sollen wir als Nächstes entwickeln?',
    },
    description: {
      en: 'Help us decide what comes next in the app.',
      zh_TW: '幫助我們決定應用程式的下一步。',
      zh_CN: '帮助我们决定应用的下一步。',
      es: 'Ayúdanos a decidir qué llega después a la aplicación.',
      fr: "Aidez-nous à choisir la suite de l'application.",
      it: "Aiutaci a decidere cosa arriverà nell'app.",
      de: 'Helfen Sie uns zu entscheiden, was als Nächstes in die App kommt.',
    },
    options: [
      {
        en: 'Price alerts',
        zh_TW: '價格提醒',
        zh_CN: '价格提醒',
        es: 'Alertas de precio',
        fr: 'Alertes de prix',
        it: 'Avvisi di prezzo',
        de: 'Preisalarme',
      },
      {
        en: 'Dark mode',
        zh_TW: '深色模式',
        zh_CN: '深色模式',
        es: 'Modo oscuro',
        fr: 'Mode sombre',
        it: 'Modalità scura',
        de: 'Dunkelmodus',
      },
      {
        en: 'Recurring purchases',
        zh_TW: '定期定額購買',
        zh_CN: '定期定额购买',
        es: 'Compras periódicas',
        fr: 'Achats récurrents',
        it: 'Acquisti ricorrenti',
        de: 'Sparpläne',
      },
    ],
  },
];
