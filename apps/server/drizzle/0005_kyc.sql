CREATE TABLE "files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"visibility" text NOT NULL,
	"storage_key" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "files_visibility" CHECK ("files"."visibility" in ('private', 'public')),
	CONSTRAINT "files_size_positive" CHECK ("files"."size" > 0)
);
--> statement-breakpoint
CREATE TABLE "card_deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"status" text NOT NULL,
	"asset" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"actual_minor" numeric(38, 0) NOT NULL,
	"fee_bps" integer NOT NULL,
	"payee_bank" text NOT NULL,
	"payee_card_number" text NOT NULL,
	"payee_name" text NOT NULL,
	"payee_phone" text NOT NULL,
	"screenshot_file_id" bigint NOT NULL,
	"reason" text,
	"entry_id" bigint,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "card_deposits_status" CHECK ("card_deposits"."status" in ('pending', 'paid', 'rejected')),
	CONSTRAINT "card_deposits_amounts" CHECK ("card_deposits"."fee_minor" >= 0 and "card_deposits"."actual_minor" > 0 and "card_deposits"."amount_minor" = "card_deposits"."fee_minor" + "card_deposits"."actual_minor"),
	CONSTRAINT "card_deposits_fee_bps" CHECK ("card_deposits"."fee_bps" between 0 and 10000),
	CONSTRAINT "card_deposits_reason" CHECK (("card_deposits"."status" = 'rejected') = ("card_deposits"."reason" is not null)),
	CONSTRAINT "card_deposits_decided" CHECK (("card_deposits"."status" = 'pending') = ("card_deposits"."decided_at" is null)),
	CONSTRAINT "card_deposits_entry" CHECK (("card_deposits"."status" = 'paid') = ("card_deposits"."entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "kyc_submissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kyc_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"status" text NOT NULL,
	"country" text NOT NULL,
	"last_name" text NOT NULL,
	"first_name" text NOT NULL,
	"document_type" text NOT NULL,
	"document_number" text NOT NULL,
	"front_file_id" bigint NOT NULL,
	"back_file_id" bigint,
	"face_file_id" bigint NOT NULL,
	"reason" text,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kyc_submissions_status" CHECK ("kyc_submissions"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "kyc_submissions_document_type" CHECK ("kyc_submissions"."document_type" in ('id_card', 'passport', 'driving_licence')),
	CONSTRAINT "kyc_submissions_back_photo" CHECK (("kyc_submissions"."document_type" = 'passport') = ("kyc_submissions"."back_file_id" is null)),
	CONSTRAINT "kyc_submissions_reason" CHECK (("kyc_submissions"."status" = 'rejected') = ("kyc_submissions"."reason" is not null)),
	CONSTRAINT "kyc_submissions_decided" CHECK (("kyc_submissions"."status" = 'pending') = ("kyc_submissions"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "card_deposits" ADD CONSTRAINT "card_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_deposits" ADD CONSTRAINT "card_deposits_screenshot_file_id_files_id_fk" FOREIGN KEY ("screenshot_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_deposits" ADD CONSTRAINT "card_deposits_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_front_file_id_files_id_fk" FOREIGN KEY ("front_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_back_file_id_files_id_fk" FOREIGN KEY ("back_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_face_file_id_files_id_fk" FOREIGN KEY ("face_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_storage_key_key" ON "files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "card_deposits_screenshot_key" ON "card_deposits" USING btree ("screenshot_file_id");--> statement-breakpoint
CREATE INDEX "card_deposits_user_idx" ON "card_deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "card_deposits_queue_idx" ON "card_deposits" USING btree ("id") WHERE "card_deposits"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_submissions_one_pending" ON "kyc_submissions" USING btree ("user_id") WHERE "kyc_submissions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "kyc_submissions_user_idx" ON "kyc_submissions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "kyc_submissions_queue_idx" ON "kyc_submissions" USING btree ("id") WHERE "kyc_submissions"."status" = 'pending';