CREATE TABLE "bonus_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bonus_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"asset" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"max_redemptions" integer NOT NULL,
	"per_user_limit" integer NOT NULL,
	"redeemed_count" integer DEFAULT 0 NOT NULL,
	"verified_only" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bonus_codes_code_key" UNIQUE("code"),
	CONSTRAINT "bonus_codes_code_format" CHECK ("bonus_codes"."code" ~ '^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$'),
	CONSTRAINT "bonus_codes_amount_positive" CHECK ("bonus_codes"."amount_minor" > 0),
	CONSTRAINT "bonus_codes_limits" CHECK ("bonus_codes"."max_redemptions" >= 1 and "bonus_codes"."per_user_limit" >= 1),
	CONSTRAINT "bonus_codes_count_within_limit" CHECK ("bonus_codes"."redeemed_count" >= 0 and "bonus_codes"."redeemed_count" <= "bonus_codes"."max_redemptions"),
	CONSTRAINT "bonus_codes_window" CHECK ("bonus_codes"."expires_at" > "bonus_codes"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "bonus_redemptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bonus_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"n" integer NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bonus_redemptions_code_user_n_key" UNIQUE("code_id","user_id","n"),
	CONSTRAINT "bonus_redemptions_entry_key" UNIQUE("entry_id"),
	CONSTRAINT "bonus_redemptions_n_positive" CHECK ("bonus_redemptions"."n" >= 1)
);
--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD CONSTRAINT "bonus_codes_asset_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD CONSTRAINT "bonus_codes_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_redemptions" ADD CONSTRAINT "bonus_redemptions_code_id_bonus_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."bonus_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_redemptions" ADD CONSTRAINT "bonus_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_redemptions" ADD CONSTRAINT "bonus_redemptions_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bonus_redemptions_user_idx" ON "bonus_redemptions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "users_inviter_idx" ON "users" USING btree ("inviter_id","id");