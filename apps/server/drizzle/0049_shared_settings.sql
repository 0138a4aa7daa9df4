CREATE TABLE "shared_setting_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shared_setting_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"value" text NOT NULL,
	"previous" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" bigint NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	CONSTRAINT "shared_setting_changes_status" CHECK ("shared_setting_changes"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "shared_setting_changes_two_people" CHECK ("shared_setting_changes"."decided_by" is null or "shared_setting_changes"."decided_by" <> "shared_setting_changes"."requested_by")
);
--> statement-breakpoint
CREATE TABLE "shared_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"set_by" text NOT NULL,
	"set_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shared_setting_changes" ADD CONSTRAINT "shared_setting_changes_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_setting_changes" ADD CONSTRAINT "shared_setting_changes_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shared_setting_changes_one_pending" ON "shared_setting_changes" USING btree ("name") WHERE "shared_setting_changes"."status" = 'pending';