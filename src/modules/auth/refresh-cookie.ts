import { parse, serialize } from "cookie";
import type { RequestContext } from "../../graphql/context";

export const REFRESH_COOKIE = "refreshToken";
/** Sent only to the auth routes, so no other request carries the long-lived secret. */
export const REFRESH_COOKIE_PATH = "/api/v1/auth";

/**
 * The refresh token travels only in this cookie (HttpOnly: scripts never see it;
 * SameSite=Strict: no cross-site request carries it). GraphQL mutations set it too.
 */
export function setRefreshCookie(ctx: RequestContext, token: string, expiresAt: Date): void {
  ctx.res?.appendHeader(
    "Set-Cookie",
    serialize(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: "strict",
      path: REFRESH_COOKIE_PATH,
      secure: ctx.secureCookies,
      expires: expiresAt,
    }),
  );
}

export function clearRefreshCookie(ctx: RequestContext): void {
  ctx.res?.appendHeader(
    "Set-Cookie",
    serialize(REFRESH_COOKIE, "", {
      httpOnly: true,
      sameSite: "strict",
      path: REFRESH_COOKIE_PATH,
      secure: ctx.secureCookies,
      expires: new Date(0),
    }),
  );
}

export function readRefreshCookie(ctx: RequestContext): string | undefined {
  const header = ctx.req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[REFRESH_COOKIE] || undefined;
}
