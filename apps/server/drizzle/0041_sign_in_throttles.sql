CREATE TABLE "sign_in_throttles" (
	"subject" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"locked_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone NOT NULL
);
