import type { PageWindow } from "../db/page-query";

/**
 * One page of a list as a service answers it: plain data and the window it was asked for. The
 * resolver wraps it in the API's envelope (`paged` in src/graphql/envelopes.ts), so services
 * know nothing of GraphQL types. GET /users pages by offset (`PageResult<User, OffsetWindow>`).
 */
export type PageResult<T, W = PageWindow> = W & {
  items: T[];
  /** Every record of the list, over all its pages. */
  total: number;
};

/** Records from `offset` on, at most `limit` of them. */
export interface OffsetWindow {
  offset: number;
  limit: number;
}

/** The page of `window` (only its page and limit are kept) holding `items` of `total`. */
export const pageOf = <T>(window: PageWindow, items: T[], total: number): PageResult<T> => ({
  page: window.page,
  limit: window.limit,
  items,
  total,
});
