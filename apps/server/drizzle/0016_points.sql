CREATE TABLE "points_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"day" date,
	"streak" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "points_events_checkin_shape" CHECK ("points_events"."kind" <> 'checkin' or ("points_events"."day" is not null and "points_events"."streak" >= 1))
);
--> statement-breakpoint
ALTER TABLE "points_events" ADD CONSTRAINT "points_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "points_events_user_idx" ON "points_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "points_events_user_checkin_day_key" ON "points_events" USING btree ("user_id","day") WHERE "points_events"."kind" = 'checkin';