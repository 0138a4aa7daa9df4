CREATE TABLE "loan_overdue_days" (
	"loan_id" bigint NOT NULL,
	"day" integer NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"accrued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "loan_overdue_days_loan_day_key" PRIMARY KEY("loan_id","day"),
	CONSTRAINT "loan_overdue_days_day" CHECK ("loan_overdue_days"."day" > 0 and "loan_overdue_days"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "loan_products" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"institution" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"min_amount_minor" numeric(38, 0) NOT NULL,
	"max_amount_minor" numeric(38, 0) NOT NULL,
	"periods" integer[] NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"overdue_rate_ppm" integer NOT NULL,
	"method" text NOT NULL,
	"enabled" boolean NOT NULL,
	"sort" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "loan_products_slug_key" UNIQUE("slug"),
	CONSTRAINT "loan_products_name_en" CHECK (jsonb_typeof("loan_products"."name" -> 'en') = 'string'),
	CONSTRAINT "loan_products_terms" CHECK ("loan_products"."min_amount_minor" > 0 and "loan_products"."max_amount_minor" >= "loan_products"."min_amount_minor" and "loan_products"."daily_rate_ppm" > 0 and "loan_products"."overdue_rate_ppm" > 0 and cardinality("loan_products"."periods") > 0),
	CONSTRAINT "loan_products_method" CHECK ("loan_products"."method" in ('interest_first'))
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"period_days" integer NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"overdue_rate_ppm" integer NOT NULL,
	"method" text NOT NULL,
	"front_file_id" bigint NOT NULL,
	"back_file_id" bigint NOT NULL,
	"holding_file_id" bigint NOT NULL,
	"day_ms" bigint NOT NULL,
	"overdue_days" integer DEFAULT 0 NOT NULL,
	"overdue_interest_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"disbursed_at" timestamp with time zone,
	"disbursed_by" bigint,
	"due_at" timestamp with time zone,
	"next_accrual_at" timestamp with time zone,
	"repaid_at" timestamp with time zone,
	"repaid_minor" numeric(38, 0),
	CONSTRAINT "loans_status" CHECK ("loans"."status" in (0, 1, 2, 3, 4, 5)),
	CONSTRAINT "loans_amount" CHECK ("loans"."amount_minor" > 0 and "loans"."period_days" > 0),
	CONSTRAINT "loans_reason" CHECK (("loans"."status" = 4) = ("loans"."reason" is not null)),
	CONSTRAINT "loans_disbursed" CHECK (("loans"."status" in (2, 3, 5)) = ("loans"."disbursed_at" is not null and "loans"."due_at" is not null)),
	CONSTRAINT "loans_accruing" CHECK (("loans"."status" in (2, 5)) = ("loans"."next_accrual_at" is not null)),
	CONSTRAINT "loans_repaid" CHECK (("loans"."status" = 3) = ("loans"."repaid_at" is not null and "loans"."repaid_minor" is not null)),
	CONSTRAINT "loans_overdue" CHECK ("loans"."overdue_days" >= 0 and "loans"."overdue_interest_minor" >= 0 and ("loans"."overdue_days" = 0 or "loans"."status" in (3, 5)))
);
--> statement-breakpoint
ALTER TABLE "loan_overdue_days" ADD CONSTRAINT "loan_overdue_days_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_product_id_loan_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."loan_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_front_file_id_files_id_fk" FOREIGN KEY ("front_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_back_file_id_files_id_fk" FOREIGN KEY ("back_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_holding_file_id_files_id_fk" FOREIGN KEY ("holding_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_disbursed_by_operators_id_fk" FOREIGN KEY ("disbursed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loans_one_unsettled" ON "loans" USING btree ("user_id") WHERE "loans"."status" in (0, 1, 2, 5);--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loans_due_idx" ON "loans" USING btree ("next_accrual_at") WHERE "loans"."status" in (2, 5);--> statement-breakpoint
CREATE INDEX "loans_queue_idx" ON "loans" USING btree ("id") WHERE "loans"."status" in (0, 1);