CREATE TABLE "market_demo_walk_key" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"key_hex" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_demo_walk_key_one" CHECK ("market_demo_walk_key"."id" = 1),
	CONSTRAINT "market_demo_walk_key_hex" CHECK ("market_demo_walk_key"."key_hex" ~ '^[0-9a-f]{64}$')
);
