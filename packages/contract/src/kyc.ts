import * as z from 'zod/mini';
import { fileIdSchema } from './files.ts';
import { decisionSchema, queueUserSchema } from './operator.ts';

/**
 * Identity verification (spec §3 KYC, §4 statuses). A user sends a submission; an
 * operator approves it (the user becomes `verified`) or rejects it with a reason the
 * user sees; after a rejection the user may send a new one. At most one is pending.
 */

export const KYC_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const kycStatusSchema = z.enum(KYC_STATUSES);

/** spec §4: under review, passed, failed. */
export const KYC_STATUS_LABELS: Record<KycStatus, string> = {
  pending: 'kyc.status.pending',
  approved: 'kyc.status.approved',
  rejected: 'kyc.status.rejected',
};

/** A user's standing: `none` until the first submission. */
export const KYC_STATES = ['none', ...KYC_STATUSES] as const;
export type KycState = (typeof KYC_STATES)[number];

export const DOCUMENT_TYPES = ['id_card', 'passport', 'driving_licence'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  id_card: 'kyc.document.id_card',
  passport: 'kyc.document.passport',
  driving_licence: 'kyc.document.driving_licence',
};

/** A passport has one photo page; the other documents have a back side to photograph. */
export function needsBackPhoto(type: DocumentType): boolean {
  return type !== 'passport';
}

/** ISO 3166-1 alpha-2; the client names them in the user's language (Intl.DisplayNames). */
export const COUNTRY_CODES = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AX',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

export const NAME_MAX_LENGTH = 64;
export const DOCUMENT_NUMBER_MAX_LENGTH = 32;

const nameSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(NAME_MAX_LENGTH, { error: 'validation.too_long', abort: true }),
    z.regex(/^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u, { error: 'validation.kyc_name' }),
  );

export const kycSubmitRequestSchema = z
  .strictObject({
    country: z.enum(COUNTRY_CODES, {
      error: (issue) =>
        issue.input === undefined ? 'validation.required' : 'validation.kyc_country',
    }),
    lastName: nameSchema,
    firstName: nameSchema,
    documentType: z.enum(DOCUMENT_TYPES, {
      error: (issue) =>
        issue.input === undefined ? 'validation.required' : 'validation.kyc_document_type',
    }),
    documentNumber: z
      .string({ error: 'validation.required' })
      .check(
        z.trim(),
        z.toUpperCase(),
        z.minLength(1, { error: 'validation.required', abort: true }),
        z.maxLength(DOCUMENT_NUMBER_MAX_LENGTH, { error: 'validation.too_long', abort: true }),
        z.regex(/^[A-Z0-9][A-Z0-9 -]{2,}$/, { error: 'validation.kyc_document_number' }),
      ),
    frontFileId: fileIdSchema,
    backFileId: z.optional(fileIdSchema),
    faceFileId: fileIdSchema,
  })
  .check(
    z.superRefine((value, ctx) => {
      if (needsBackPhoto(value.documentType) && !value.backFileId)
        ctx.addIssue({
          code: 'custom',
          path: ['backFileId'],
          message: 'validation.kyc_back_required',
        });
      if (!needsBackPhoto(value.documentType) && value.backFileId)
        ctx.addIssue({
          code: 'custom',
          path: ['backFileId'],
          message: 'validation.kyc_back_not_needed',
        });
      const seen = new Map<string, string>();
      for (const field of ['frontFileId', 'backFileId', 'faceFileId'] as const) {
        const id = value[field];
        if (!id) continue;
        if (seen.has(id))
          ctx.addIssue({ code: 'custom', path: [field], message: 'validation.kyc_same_photo' });
        seen.set(id, field);
      }
    }),
  );
export type KycSubmitRequest = z.infer<typeof kycSubmitRequestSchema>;

export const kycSubmissionSchema = z.object({
  id: z.string(),
  status: kycStatusSchema,
  country: z.string(),
  lastName: z.string(),
  firstName: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string(),
  frontFileId: z.string(),
  backFileId: z.nullable(z.string()),
  faceFileId: z.string(),
  /** Why it was rejected, as the operator wrote it; null unless rejected. */
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});
export type KycSubmission = z.infer<typeof kycSubmissionSchema>;

/** `GET /api/v1/kyc`: the user's standing and their latest submission. */
export const kycOverviewSchema = z.object({
  verified: z.boolean(),
  state: z.enum(KYC_STATES),
  submission: z.nullable(kycSubmissionSchema),
});
export type KycOverview = z.infer<typeof kycOverviewSchema>;

const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' }));

/** Operators: `{id, decision, reason}`, a reason required to reject. */
export const kycDecideRequestSchema = z
  .strictObject({ id: idSchema, ...decisionSchema.shape })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );

export const kycQueueItemSchema = z.extend(kycSubmissionSchema, {
  uid: z.string(),
  user: queueUserSchema,
});
export const kycQueueSchema = z.object({
  items: z.array(kycQueueItemSchema),
  nextCursor: z.nullable(z.string()),
});
export const kycQueueQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
