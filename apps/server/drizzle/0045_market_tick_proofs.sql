CREATE TABLE "market_tick_proofs" (
	"tick_id" bigint NOT NULL,
	"source" text NOT NULL,
	"feed_id" text NOT NULL,
	"update" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_tick_proofs_tick_id_source_pk" PRIMARY KEY("tick_id","source")
);
--> statement-breakpoint
CREATE INDEX "market_tick_proofs_recorded_at_idx" ON "market_tick_proofs" USING btree ("recorded_at");--> statement-breakpoint
-- Only the recorder writes them, as it alone writes ticks (0010_market_retention.sql).
CREATE TRIGGER market_tick_proofs_recorder_only BEFORE INSERT ON market_tick_proofs FOR EACH ROW EXECUTE FUNCTION market_recorder_only();
