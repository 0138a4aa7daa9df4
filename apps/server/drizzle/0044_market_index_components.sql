CREATE TABLE "market_quarantined_quotes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_quarantined_quotes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"instrument" text NOT NULL,
	"source" text NOT NULL,
	"price_minor" numeric(38, 0) NOT NULL,
	"reference_minor" numeric(38, 0) NOT NULL,
	"source_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_ticks" ADD COLUMN "components" jsonb;--> statement-breakpoint
ALTER TABLE "market_quarantined_quotes" ADD CONSTRAINT "market_quarantined_quotes_instrument_market_instruments_symbol_fk" FOREIGN KEY ("instrument") REFERENCES "public"."market_instruments"("symbol") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_quarantined_quotes_time_idx" ON "market_quarantined_quotes" USING btree ("received_at");--> statement-breakpoint
-- Only the recorder writes quarantined quotes, as it alone writes ticks (0010_market_retention.sql).
CREATE TRIGGER market_quarantined_quotes_recorder_only BEFORE INSERT ON market_quarantined_quotes FOR EACH ROW EXECUTE FUNCTION market_recorder_only();
