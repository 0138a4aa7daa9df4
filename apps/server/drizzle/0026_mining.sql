CREATE TABLE "mining_payouts" (
	"rental_id" bigint NOT NULL,
	"day" integer NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"entry_id" bigint NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mining_payouts_rental_day_key" PRIMARY KEY("rental_id","day"),
	CONSTRAINT "mining_payouts_entry_key" UNIQUE("entry_id"),
	CONSTRAINT "mining_payouts_day" CHECK ("mining_payouts"."day" > 0)
);
--> statement-breakpoint
CREATE TABLE "mining_products" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mining_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"output" text NOT NULL,
	"hashrate" text NOT NULL,
	"power" text NOT NULL,
	"period_days" integer NOT NULL,
	"unit_price_minor" numeric(38, 0) NOT NULL,
	"min_investment_minor" numeric(38, 0) NOT NULL,
	"max_quantity" integer NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"sort" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mining_products_slug_key" UNIQUE("slug"),
	CONSTRAINT "mining_products_name_en" CHECK (jsonb_typeof("mining_products"."name" -> 'en') = 'string'),
	CONSTRAINT "mining_products_description_en" CHECK (jsonb_typeof("mining_products"."description" -> 'en') = 'string'),
	CONSTRAINT "mining_products_terms" CHECK ("mining_products"."period_days" > 0 and "mining_products"."unit_price_minor" > 0 and "mining_products"."min_investment_minor" >= "mining_products"."unit_price_minor" and "mining_products"."max_quantity" > 0 and "mining_products"."daily_rate_ppm" > 0)
);
--> statement-breakpoint
CREATE TABLE "mining_rentals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mining_rentals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_minor" numeric(38, 0) NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"daily_yield_minor" numeric(38, 0) NOT NULL,
	"period_days" integer NOT NULL,
	"day_ms" bigint NOT NULL,
	"paid_days" integer DEFAULT 0 NOT NULL,
	"paid_out_minor" numeric(38, 0) DEFAULT 0 NOT NULL,
	"principal_returned" boolean DEFAULT false NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"started_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"next_payout_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "mining_rentals_status" CHECK ("mining_rentals"."status" in (0, 1, 2, 3)),
	CONSTRAINT "mining_rentals_amount" CHECK ("mining_rentals"."quantity" > 0 and "mining_rentals"."amount_minor" = "mining_rentals"."unit_price_minor" * "mining_rentals"."quantity" and "mining_rentals"."amount_minor" > 0),
	CONSTRAINT "mining_rentals_paid" CHECK ("mining_rentals"."paid_days" >= 0 and "mining_rentals"."paid_days" <= "mining_rentals"."period_days" and "mining_rentals"."paid_out_minor" = "mining_rentals"."daily_yield_minor" * "mining_rentals"."paid_days"),
	CONSTRAINT "mining_rentals_active" CHECK (("mining_rentals"."status" = 1) = ("mining_rentals"."next_payout_at" is not null)),
	CONSTRAINT "mining_rentals_completed" CHECK (("mining_rentals"."status" = 2) = "mining_rentals"."principal_returned" and ("mining_rentals"."status" <> 2 or "mining_rentals"."paid_days" = "mining_rentals"."period_days"))
);
--> statement-breakpoint
ALTER TABLE "mining_payouts" ADD CONSTRAINT "mining_payouts_rental_id_mining_rentals_id_fk" FOREIGN KEY ("rental_id") REFERENCES "public"."mining_rentals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_rentals" ADD CONSTRAINT "mining_rentals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_rentals" ADD CONSTRAINT "mining_rentals_product_id_mining_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."mining_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_rentals" ADD CONSTRAINT "mining_rentals_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mining_rentals_user_idx" ON "mining_rentals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "mining_rentals_due_idx" ON "mining_rentals" USING btree ("next_payout_at") WHERE "mining_rentals"."status" = 1;--> statement-breakpoint
CREATE INDEX "mining_rentals_review_idx" ON "mining_rentals" USING btree ("id") WHERE "mining_rentals"."status" = 0;