CREATE TABLE "conversion_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"from_asset" text NOT NULL,
	"to_asset" text NOT NULL,
	"amount_minor" numeric(38, 0) NOT NULL,
	"usdt_leg_minor" numeric(38, 0) NOT NULL,
	"fee_minor" numeric(38, 0) NOT NULL,
	"fee_bps" integer NOT NULL,
	"receive_minor" numeric(38, 0) NOT NULL,
	"tick_id" bigint NOT NULL,
	"price_minor" numeric(38, 0) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"executed_at" timestamp with time zone,
	"entry_id" bigint,
	CONSTRAINT "conversion_quotes_via_usdt" CHECK (("conversion_quotes"."from_asset" = 'USDT') <> ("conversion_quotes"."to_asset" = 'USDT')),
	CONSTRAINT "conversion_quotes_amounts" CHECK ("conversion_quotes"."amount_minor" > 0 and "conversion_quotes"."receive_minor" > 0 and "conversion_quotes"."usdt_leg_minor" > 0 and "conversion_quotes"."fee_minor" >= 0),
	CONSTRAINT "conversion_quotes_executed" CHECK (("conversion_quotes"."executed_at" is null) = ("conversion_quotes"."entry_id" is null))
);
--> statement-breakpoint
CREATE TABLE "market_instruments" (
	"symbol" text PRIMARY KEY NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"price_scale" integer NOT NULL,
	CONSTRAINT "market_instruments_price_scale" CHECK ("market_instruments"."price_scale" between 0 and 18)
);
--> statement-breakpoint
CREATE TABLE "market_ticks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_ticks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"instrument" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"price_minor" numeric(38, 0) NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "market_ticks_price_positive" CHECK ("market_ticks"."price_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "conversion_quotes" ADD CONSTRAINT "conversion_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversion_quotes" ADD CONSTRAINT "conversion_quotes_tick_id_market_ticks_id_fk" FOREIGN KEY ("tick_id") REFERENCES "public"."market_ticks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_ticks" ADD CONSTRAINT "market_ticks_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversion_quotes_user_idx" ON "conversion_quotes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "market_ticks_instrument_ts_key" ON "market_ticks" USING btree ("instrument","ts");--> statement-breakpoint
CREATE INDEX "market_ticks_ts_idx" ON "market_ticks" USING btree ("ts");