CREATE TABLE "deposit_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposit_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"key_fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deposit_addresses_index_range" CHECK ("deposit_addresses"."derivation_index" >= 0)
);
--> statement-breakpoint
CREATE TABLE "deposit_watch_state" (
	"chain" text PRIMARY KEY NOT NULL,
	"cursor" text,
	"head_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"asset" text NOT NULL,
	"network" text NOT NULL,
	"txid" text NOT NULL,
	"log_index" integer NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text,
	"amount_minor" numeric(38, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"required_confirmations" integer NOT NULL,
	"entry_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"credited_at" timestamp with time zone,
	CONSTRAINT "deposits_status" CHECK ("deposits"."status" in ('pending_payment', 'paid', 'rejected')),
	CONSTRAINT "deposits_amount_nonnegative" CHECK ("deposits"."amount_minor" >= 0),
	CONSTRAINT "deposits_paid_has_entry" CHECK (("deposits"."status" = 'paid') = ("deposits"."entry_id" is not null)),
	CONSTRAINT "deposits_rejected_has_reason" CHECK (("deposits"."status" = 'rejected') = ("deposits"."reason" is not null)),
	CONSTRAINT "deposits_owner" CHECK ("deposits"."user_id" is not null or "deposits"."status" = 'rejected')
);
--> statement-breakpoint
CREATE TABLE "deposit_sim_chain" (
	"id" integer PRIMARY KEY NOT NULL,
	"extra_blocks" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_sim_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deposit_sim_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"txid" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text,
	"to_address" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "deposit_sim_transfers_amount" CHECK ("deposit_sim_transfers"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_key" ON "deposit_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_index_key" ON "deposit_addresses" USING btree ("derivation_index");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_transfer_key" ON "deposits" USING btree ("txid","log_index");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_pending_idx" ON "deposits" USING btree ("id") WHERE "deposits"."status" = 'pending_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_sim_transfers_key" ON "deposit_sim_transfers" USING btree ("txid","log_index");--> statement-breakpoint
CREATE INDEX "deposit_sim_transfers_block_idx" ON "deposit_sim_transfers" USING btree ("block_number");