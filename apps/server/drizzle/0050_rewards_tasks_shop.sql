CREATE TABLE "delivery_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"region" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shop_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"item" text NOT NULL,
	"kind" text NOT NULL,
	"points_cost" integer NOT NULL,
	"points_event_id" bigint NOT NULL,
	"entry_id" bigint,
	"status" text NOT NULL,
	"address_id" bigint,
	"recipient_name" text,
	"recipient_phone" text,
	"region" text,
	"address" text,
	"tracking_note" text,
	"shipped_by" bigint,
	"shipped_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shop_orders_status" CHECK ("shop_orders"."status" in ('completed', 'awaiting_shipment', 'shipped')),
	CONSTRAINT "shop_orders_kind" CHECK ("shop_orders"."kind" in ('reward', 'physical')),
	CONSTRAINT "shop_orders_cost" CHECK ("shop_orders"."points_cost" > 0),
	CONSTRAINT "shop_orders_shape" CHECK (case when "shop_orders"."kind" = 'reward' then "shop_orders"."entry_id" is not null and "shop_orders"."status" = 'completed' else "shop_orders"."address" is not null and "shop_orders"."status" <> 'completed' end),
	CONSTRAINT "shop_orders_shipped" CHECK (("shop_orders"."status" = 'shipped') = ("shop_orders"."shipped_at" is not null and "shop_orders"."tracking_note" is not null))
);
--> statement-breakpoint
CREATE TABLE "task_claims" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"task" text NOT NULL,
	"points_event_id" bigint,
	"entry_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_claims_paid_once" CHECK (("task_claims"."points_event_id" is null) <> ("task_claims"."entry_id" is null))
);
--> statement-breakpoint
ALTER TABLE "delivery_addresses" ADD CONSTRAINT "delivery_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_address_id_delivery_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."delivery_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_shipped_by_operators_id_fk" FOREIGN KEY ("shipped_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_claims" ADD CONSTRAINT "task_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_addresses_user_idx" ON "delivery_addresses" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "shop_orders_user_idx" ON "shop_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "shop_orders_status_idx" ON "shop_orders" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_claims_user_task_key" ON "task_claims" USING btree ("user_id","task");