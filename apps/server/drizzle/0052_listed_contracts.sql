CREATE TABLE "market_listed_contracts" (
	"symbol" text PRIMARY KEY NOT NULL,
	"instrument" text NOT NULL,
	"feed_id" text NOT NULL,
	"last_trade_date" date NOT NULL,
	"listed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_listed_contracts_feed_id" CHECK ("market_listed_contracts"."feed_id" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "market_listed_contracts" ADD CONSTRAINT "market_listed_contracts_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;