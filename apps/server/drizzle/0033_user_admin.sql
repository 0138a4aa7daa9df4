CREATE TABLE "balance_adjustments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "balance_adjustments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"wallet" text NOT NULL,
	"asset" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" bigint NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"entry_id" bigint,
	CONSTRAINT "balance_adjustments_status" CHECK ("balance_adjustments"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "balance_adjustments_nonzero" CHECK ("balance_adjustments"."amount_minor" <> 0),
	CONSTRAINT "balance_adjustments_second_approver" CHECK ("balance_adjustments"."decided_by" is null or "balance_adjustments"."decided_by" <> "balance_adjustments"."requested_by"),
	CONSTRAINT "balance_adjustments_decided" CHECK (("balance_adjustments"."status" = 'pending') = ("balance_adjustments"."decided_by" is null and "balance_adjustments"."decided_at" is null)),
	CONSTRAINT "balance_adjustments_entry" CHECK (("balance_adjustments"."status" = 'approved') = ("balance_adjustments"."entry_id" is not null)),
	CONSTRAINT "balance_adjustments_rejected_reason" CHECK ("balance_adjustments"."status" <> 'rejected' or "balance_adjustments"."decision_reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_adjustments_status_idx" ON "balance_adjustments" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "balance_adjustments_user_idx" ON "balance_adjustments" USING btree ("user_id","id");