CREATE TABLE "operator_enrolments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_enrolments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operator_id" bigint NOT NULL,
	"request_id" bigint,
	"code_hash" text NOT NULL,
	"totp_secret" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"target_operator_id" bigint,
	"username" text NOT NULL,
	"role" text NOT NULL,
	"reason" text NOT NULL,
	"requested_by" bigint NOT NULL,
	"status" text NOT NULL,
	"decided_by" bigint,
	"decided_actor" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "operator_requests_not_self" CHECK ("operator_requests"."decided_by" is null or "operator_requests"."decided_by" <> "operator_requests"."requested_by")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "operator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "operator_enrolments" ADD CONSTRAINT "operator_enrolments_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_enrolments" ADD CONSTRAINT "operator_enrolments_request_id_operator_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."operator_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_requests" ADD CONSTRAINT "operator_requests_target_operator_id_operators_id_fk" FOREIGN KEY ("target_operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_requests" ADD CONSTRAINT "operator_requests_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_requests" ADD CONSTRAINT "operator_requests_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_enrolments_code_hash_key" ON "operator_enrolments" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "operator_enrolments_operator_idx" ON "operator_enrolments" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "operator_requests_status_idx" ON "operator_requests" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "operator_requests_target_idx" ON "operator_requests" USING btree ("target_operator_id");--> statement-breakpoint
-- Every audit entry names someone: an operator, or the shell user who ran the CLI.
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_someone" CHECK ("operator_id" IS NOT NULL OR "actor" IS NOT NULL);--> statement-breakpoint
-- One open request per operator name, so two admins cannot each get a different approval for it.
CREATE UNIQUE INDEX "operator_requests_pending_username_key" ON "operator_requests" ("username") WHERE "status" = 'pending';
