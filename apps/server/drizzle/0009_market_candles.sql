CREATE TABLE "market_candles_1m" (
	"instrument" text NOT NULL,
	"open_time" timestamp with time zone NOT NULL,
	"open_minor" numeric(38, 0) NOT NULL,
	"high_minor" numeric(38, 0) NOT NULL,
	"low_minor" numeric(38, 0) NOT NULL,
	"close_minor" numeric(38, 0) NOT NULL,
	"volume_minor" numeric(38, 0) NOT NULL,
	"tick_count" integer NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	CONSTRAINT "market_candles_1m_instrument_open_time_pk" PRIMARY KEY("instrument","open_time"),
	CONSTRAINT "market_candles_1m_minute" CHECK ("market_candles_1m"."open_time" = date_bin('1 minute', "market_candles_1m"."open_time", timestamptz '2000-01-03 00:00:00+00')),
	CONSTRAINT "market_candles_1m_prices" CHECK ("market_candles_1m"."low_minor" > 0 and "market_candles_1m"."low_minor" <= "market_candles_1m"."open_minor" and "market_candles_1m"."low_minor" <= "market_candles_1m"."close_minor" and "market_candles_1m"."high_minor" >= "market_candles_1m"."open_minor" and "market_candles_1m"."high_minor" >= "market_candles_1m"."close_minor"),
	CONSTRAINT "market_candles_1m_counts" CHECK ("market_candles_1m"."volume_minor" >= 0 and "market_candles_1m"."tick_count" > 0 and "market_candles_1m"."first_ts" <= "market_candles_1m"."last_ts")
);
--> statement-breakpoint
CREATE TABLE "market_favorites" (
	"user_id" bigint NOT NULL,
	"instrument" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_favorites_user_id_instrument_pk" PRIMARY KEY("user_id","instrument")
);
--> statement-breakpoint
ALTER TABLE "market_instruments" ADD COLUMN "kind" text DEFAULT 'crypto' NOT NULL;--> statement-breakpoint
ALTER TABLE "market_candles_1m" ADD CONSTRAINT "market_candles_1m_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_favorites" ADD CONSTRAINT "market_favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_favorites" ADD CONSTRAINT "market_favorites_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_instruments" ADD CONSTRAINT "market_instruments_kind" CHECK ("market_instruments"."kind" in ('crypto', 'commodity', 'forex', 'metal'));