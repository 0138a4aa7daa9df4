ALTER TABLE "withdrawals" ADD COLUMN "first_approved_by" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "second_approved_by" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "second_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_first_approved_by_operators_id_fk" FOREIGN KEY ("first_approved_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_second_approved_by_operators_id_fk" FOREIGN KEY ("second_approved_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_second_approver_differs" CHECK ("withdrawals"."second_approved_by" is null or ("withdrawals"."first_approved_by" is not null and "withdrawals"."second_approved_by" <> "withdrawals"."first_approved_by"));--> statement-breakpoint
-- Approvals made before the second-approval rule were single approvals: the reviewer was the (only) approver.
UPDATE "withdrawals" SET "first_approved_by" = "reviewed_by", "first_approved_at" = "reviewed_at" WHERE "status" IN ('processing', 'success', 'failed') AND "reviewed_by" IS NOT NULL;
