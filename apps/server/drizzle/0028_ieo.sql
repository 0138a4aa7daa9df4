CREATE TABLE "ieo_applications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ieo_applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"price_minor" numeric(38, 0) NOT NULL,
	"quantity" numeric(38, 0) NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"allocated_quantity" numeric(38, 0),
	"paid_minor" numeric(38, 0),
	"refund_minor" numeric(38, 0),
	"allocated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ieo_applications_project_user_key" UNIQUE("project_id","user_id"),
	CONSTRAINT "ieo_applications_status" CHECK ("ieo_applications"."status" in (0, 6, 7, 8)),
	CONSTRAINT "ieo_applications_amount" CHECK ("ieo_applications"."quantity" > 0 and "ieo_applications"."price_minor" > 0 and "ieo_applications"."amount_minor" = "ieo_applications"."quantity" * "ieo_applications"."price_minor"),
	CONSTRAINT "ieo_applications_allocation" CHECK ("ieo_applications"."allocated_quantity" is null or ("ieo_applications"."allocated_quantity" >= 0 and "ieo_applications"."allocated_quantity" <= "ieo_applications"."quantity" and "ieo_applications"."paid_minor" = "ieo_applications"."allocated_quantity" * "ieo_applications"."price_minor" and "ieo_applications"."refund_minor" = "ieo_applications"."amount_minor" - "ieo_applications"."paid_minor"))
);
--> statement-breakpoint
CREATE TABLE "ieo_projects" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ieo_projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"token" text NOT NULL,
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"supply" numeric(38, 0) NOT NULL,
	"unit_price_minor" numeric(38, 0) NOT NULL,
	"price_min_minor" numeric(38, 0) NOT NULL,
	"price_max_minor" numeric(38, 0) NOT NULL,
	"per_user_cap" numeric(38, 0) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"lists_at" timestamp with time zone NOT NULL,
	"announced_at" timestamp with time zone NOT NULL,
	"allocated_at" timestamp with time zone,
	"listed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ieo_projects_slug_key" UNIQUE("slug"),
	CONSTRAINT "ieo_projects_token_key" UNIQUE("token"),
	CONSTRAINT "ieo_projects_period" CHECK ("ieo_projects"."ends_at" > "ieo_projects"."starts_at" and "ieo_projects"."lists_at" >= "ieo_projects"."ends_at"),
	CONSTRAINT "ieo_projects_prices" CHECK ("ieo_projects"."price_min_minor" > 0 and "ieo_projects"."price_min_minor" <= "ieo_projects"."unit_price_minor" and "ieo_projects"."unit_price_minor" <= "ieo_projects"."price_max_minor"),
	CONSTRAINT "ieo_projects_supply" CHECK ("ieo_projects"."supply" > 0 and "ieo_projects"."per_user_cap" > 0),
	CONSTRAINT "ieo_projects_name_en" CHECK (jsonb_typeof("ieo_projects"."name" -> 'en') = 'string'),
	CONSTRAINT "ieo_projects_description_en" CHECK (jsonb_typeof("ieo_projects"."description" -> 'en') = 'string'),
	CONSTRAINT "ieo_projects_steps" CHECK (("ieo_projects"."listed_at" is null or "ieo_projects"."allocated_at" is not null) and ("ieo_projects"."cancelled_at" is null or "ieo_projects"."allocated_at" is null))
);
--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD CONSTRAINT "ieo_applications_project_id_ieo_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."ieo_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD CONSTRAINT "ieo_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_projects" ADD CONSTRAINT "ieo_projects_token_assets_code_fk" FOREIGN KEY ("token") REFERENCES "public"."assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ieo_applications_user_idx" ON "ieo_applications" USING btree ("user_id","id");