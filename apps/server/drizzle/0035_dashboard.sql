CREATE TABLE "ledger_checks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"violations" jsonb NOT NULL,
	CONSTRAINT "ledger_checks_status" CHECK ("ledger_checks"."status" in ('ok', 'violations', 'error')),
	CONSTRAINT "ledger_checks_ok_is_clean" CHECK (("ledger_checks"."status" = 'ok') = (jsonb_array_length("ledger_checks"."violations") = 0))
);
--> statement-breakpoint
DROP INDEX "ledger_postings_account_idx";--> statement-breakpoint
CREATE INDEX "ledger_postings_account_time_idx" ON "ledger_postings" USING btree ("account_id","created_at");