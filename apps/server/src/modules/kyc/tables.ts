import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { files } from '#platform/tables.ts';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

/**
 * Identity-verification submissions. A rejected one stays as it was (with its reason); the
 * user sends a new row. The database allows one pending submission per user.
 */
export const kycSubmissions = pgTable(
  'kyc_submissions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** pending, approved or rejected (KYC_STATUSES). */
    status: text('status').notNull(),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull(),
    lastName: text('last_name').notNull(),
    firstName: text('first_name').notNull(),
    documentType: text('document_type').notNull(),
    documentNumber: text('document_number').notNull(),
    frontFileId: bigint('front_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    backFileId: bigint('back_file_id', { mode: 'number' }).references(() => files.id),
    faceFileId: bigint('face_file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id),
    /** Shown to the user when rejected. */
    reason: text('reason'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('kyc_submissions_one_pending')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('kyc_submissions_user_idx').on(t.userId, t.id),
    index('kyc_submissions_queue_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
    check('kyc_submissions_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check(
      'kyc_submissions_document_type',
      sql`${t.documentType} in ('id_card', 'passport', 'driving_licence')`,
    ),
    check(
      'kyc_submissions_back_photo',
      sql`(${t.documentType} = 'passport') = (${t.backFileId} is null)`,
    ),
    check('kyc_submissions_reason', sql`(${t.status} = 'rejected') = (${t.reason} is not null)`),
    check('kyc_submissions_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
  ],
);

export type KycSubmissionRow = typeof kycSubmissions.$inferSelect;
