CREATE TABLE "bank_cards" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"bank_name" text NOT NULL,
	"account_number" text NOT NULL,
	"branch_name" text NOT NULL,
	"branch_code" text NOT NULL,
	"holder_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "money_passwords" (
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"password_hash" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "money_passwords_pkey" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "money_passwords_kind" CHECK ("money_passwords"."kind" in ('withdraw', 'trade')),
	CONSTRAINT "money_passwords_attempts" CHECK ("money_passwords"."failed_attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdrawals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"asset" text NOT NULL,
	"network" text,
	"address" text,
	"card_id" bigint,
	"amount_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"txid" text,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawals_status" CHECK ("withdrawals"."status" in ('under_review', 'processing', 'success', 'review_failed', 'failed')),
	CONSTRAINT "withdrawals_kind" CHECK ("withdrawals"."kind" in ('crypto', 'card')),
	CONSTRAINT "withdrawals_amounts" CHECK ("withdrawals"."amount_minor" > 0 and "withdrawals"."fee_minor" >= 0),
	CONSTRAINT "withdrawals_destination" CHECK (("withdrawals"."kind" = 'crypto' and "withdrawals"."network" is not null and "withdrawals"."address" is not null and "withdrawals"."card_id" is null)
          or ("withdrawals"."kind" = 'card' and "withdrawals"."card_id" is not null and "withdrawals"."network" is null and "withdrawals"."address" is null)),
	CONSTRAINT "withdrawals_success_has_txid" CHECK ("withdrawals"."status" <> 'success' or "withdrawals"."txid" is not null),
	CONSTRAINT "withdrawals_refusal_has_reason" CHECK ("withdrawals"."status" not in ('review_failed', 'failed') or "withdrawals"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_passwords" ADD CONSTRAINT "money_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_card_id_bank_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."bank_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reviewed_by_operators_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_cards_user_idx" ON "bank_cards" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_cards_user_account_key" ON "bank_cards" USING btree ("user_id","account_number") WHERE "bank_cards"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","id");