CREATE TABLE "reward_budget_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reward_budget_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"asset" text NOT NULL,
	"delta_minor" numeric(38, 0) NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" bigint,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	CONSTRAINT "reward_budget_requests_status" CHECK ("reward_budget_requests"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "reward_budget_requests_nonzero" CHECK ("reward_budget_requests"."delta_minor" <> 0),
	CONSTRAINT "reward_budget_requests_second_approver" CHECK ("reward_budget_requests"."decided_by" is null or "reward_budget_requests"."decided_by" <> "reward_budget_requests"."requested_by"),
	CONSTRAINT "reward_budget_requests_decided" CHECK (("reward_budget_requests"."status" = 'pending') = ("reward_budget_requests"."decided_at" is null)),
	CONSTRAINT "reward_budget_requests_people" CHECK (case when "reward_budget_requests"."requested_by" is null then "reward_budget_requests"."status" = 'approved' and "reward_budget_requests"."decided_by" is null else "reward_budget_requests"."status" = 'pending' or "reward_budget_requests"."decided_by" is not null end),
	CONSTRAINT "reward_budget_requests_rejected_reason" CHECK ("reward_budget_requests"."status" <> 'rejected' or "reward_budget_requests"."decision_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "reward_budgets" (
	"asset" text PRIMARY KEY NOT NULL,
	"approved_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"granted_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reward_budgets_within" CHECK ("reward_budgets"."granted_minor" >= 0 and "reward_budgets"."granted_minor" <= "reward_budgets"."approved_minor")
);
--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD COLUMN "one_per_identity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD COLUMN "approval_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD COLUMN "approved_by" bigint;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "bonus_redemptions" ADD COLUMN "identity_key" text;--> statement-breakpoint
ALTER TABLE "reward_budget_requests" ADD CONSTRAINT "reward_budget_requests_asset_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_budget_requests" ADD CONSTRAINT "reward_budget_requests_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_budget_requests" ADD CONSTRAINT "reward_budget_requests_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_budgets" ADD CONSTRAINT "reward_budgets_asset_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_budget_requests_status_idx" ON "reward_budget_requests" USING btree ("status","id");--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD CONSTRAINT "bonus_codes_approved_by_operators_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bonus_redemptions_code_identity_key" ON "bonus_redemptions" USING btree ("code_id","identity_key") WHERE "bonus_redemptions"."identity_key" is not null;--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD CONSTRAINT "bonus_codes_approval_status" CHECK ("bonus_codes"."approval_status" in ('approved', 'pending', 'rejected'));--> statement-breakpoint
ALTER TABLE "bonus_codes" ADD CONSTRAINT "bonus_codes_second_approver" CHECK ("bonus_codes"."approved_by" is null or "bonus_codes"."created_by" is null or "bonus_codes"."approved_by" <> "bonus_codes"."created_by");--> statement-breakpoint
-- Rewards paid before budgets existed become an approved, fully used budget, so the ledger
-- check holds on upgrade and nothing more can be paid until two admins approve a budget.
INSERT INTO "reward_budget_requests" ("asset", "delta_minor", "reason", "status", "requested_at", "decided_at")
SELECT "asset", -("available" + "locked"), 'Rewards paid before reward budgets existed (migration 0047)', 'approved', now(), now()
FROM "ledger_accounts" WHERE "name" LIKE 'house:rewards:%' AND "available" + "locked" < 0;--> statement-breakpoint
INSERT INTO "reward_budgets" ("asset", "approved_minor", "granted_minor", "updated_at")
SELECT "asset", -("available" + "locked"), -("available" + "locked"), now()
FROM "ledger_accounts" WHERE "name" LIKE 'house:rewards:%' AND "available" + "locked" < 0;
