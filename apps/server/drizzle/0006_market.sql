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
ALTER TABLE "market_ticks" ADD CONSTRAINT "market_ticks_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_ticks_instrument_ts_key" ON "market_ticks" USING btree ("instrument","ts");--> statement-breakpoint
CREATE INDEX "market_ticks_ts_idx" ON "market_ticks" USING btree ("ts");