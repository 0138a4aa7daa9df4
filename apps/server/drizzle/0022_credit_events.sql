CREATE TABLE "credit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"points" integer NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "credit_events_kind" CHECK ("credit_events"."kind" in ('kyc_approved', 'loan_repaid_on_time', 'loan_overdue'))
);
--> statement-breakpoint
ALTER TABLE "credit_events" ADD CONSTRAINT "credit_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_events_user_idx" ON "credit_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_events_user_kind_ref_key" ON "credit_events" USING btree ("user_id","kind","ref");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_events_user_kyc_key" ON "credit_events" USING btree ("user_id") WHERE "credit_events"."kind" = 'kyc_approved';--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "credit_score";