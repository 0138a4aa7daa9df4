ALTER TABLE "users" DROP CONSTRAINT "users_has_contact";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "address_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_has_contact" CHECK ("users"."email" is not null or "users"."phone" is not null or "users"."address_claimed_at" is not null);