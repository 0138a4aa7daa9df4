CREATE TABLE "card_deposit_payees" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_deposit_payees_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"bank_name" text NOT NULL,
	"account_name" text NOT NULL,
	"account_number" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"enabled" boolean NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "deposit_min_minor" numeric(38, 0);--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "tradable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "recommended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "popular" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "card_deposit_payees_enabled_idx" ON "card_deposit_payees" USING btree ("sort","id") WHERE "card_deposit_payees"."enabled";--> statement-breakpoint
-- Existing instruments keep today's marks and order (they were constants in the contract until now).
UPDATE "market_instruments" SET
  "recommended" = "symbol" IN ('BTCUSDT', 'ETHUSDT', 'BNBUSDT'),
  "popular" = "symbol" IN ('BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT'),
  "sort_order" = coalesce(array_position(ARRAY['BTCUSDT', 'ETHUSDT', 'BNBUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT', 'TRXUSDT', 'LTCUSDT', 'WTIUSD', 'NGASUSD', 'COPPERUSD', 'EURUSD', 'GBPUSD', 'USDJPY', 'AUDUSD', 'XAUUSD', 'XAGUSD'], "symbol"), 100) - 1;
