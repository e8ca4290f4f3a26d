import type { MiddlewareFn } from "type-graphql";
import type { RequestContext } from "../graphql/context";
import type { AccountBucket } from "./rate-limits";

/**
 * The per-IP hourly bucket of an account endpoint (register, forgot, resend, verify), as
 * resolver middleware so that REST and /graphql draw from the same bucket.
 */
export function accountRateLimit(bucket: AccountBucket): MiddlewareFn<RequestContext> {
  return async ({ context }, next) => {
    await context.services.rateLimits.consumeAccount(bucket, context.client.ip ?? "unknown");
    return (await next()) as unknown;
  };
}
