CREATE TABLE "vote_ballots" (
	"poll_id" bigint NOT NULL,
	"option_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vote_ballots_poll_user_key" PRIMARY KEY("poll_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "vote_options" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vote_options_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"poll_id" bigint NOT NULL,
	"label" jsonb NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "vote_options_poll_id_key" UNIQUE("poll_id","id"),
	CONSTRAINT "vote_options_poll_sort_key" UNIQUE("poll_id","sort"),
	CONSTRAINT "vote_options_label_en" CHECK (jsonb_typeof("vote_options"."label" -> 'en') = 'string')
);
--> statement-breakpoint
CREATE TABLE "vote_polls" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vote_polls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vote_polls_slug_key" UNIQUE("slug"),
	CONSTRAINT "vote_polls_period" CHECK ("vote_polls"."ends_at" > "vote_polls"."starts_at"),
	CONSTRAINT "vote_polls_title_en" CHECK (jsonb_typeof("vote_polls"."title" -> 'en') = 'string'),
	CONSTRAINT "vote_polls_description_en" CHECK (jsonb_typeof("vote_polls"."description" -> 'en') = 'string')
);
--> statement-breakpoint
ALTER TABLE "vote_ballots" ADD CONSTRAINT "vote_ballots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vote_ballots" ADD CONSTRAINT "vote_ballots_option_fk" FOREIGN KEY ("poll_id","option_id") REFERENCES "public"."vote_options"("poll_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vote_options" ADD CONSTRAINT "vote_options_poll_id_vote_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."vote_polls"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vote_ballots_option_idx" ON "vote_ballots" USING btree ("poll_id","option_id");--> statement-breakpoint
CREATE INDEX "vote_polls_ends_idx" ON "vote_polls" USING btree ("ends_at");