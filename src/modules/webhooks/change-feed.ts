/**
 * The port through which modules tell of a change the organisation's site shows: the webhooks
 * module stores it with one delivery per endpoint that asked for its type. Modules import only
 * this file, never the webhooks module itself.
 */
export const WEBHOOK_EVENTS = [
  "member.approved",
  "member.archived",
  "member.profile_changed",
  "member.erased",
  "event.published",
  "event.changed",
  "event.deleted",
  "news.published",
  "news.changed",
  "news.deleted",
  "directory.changed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** What a change carries: the record's id and public fields only (never a contact). */
export type ChangeData = { id: string } & Record<string, string | number | boolean | null>;

export interface ChangeFeed {
  /**
   * Stores the change with its deliveries before resolving: a caller awaits it in the write
   * path of the change, so what it answered as done is delivered even if the process dies.
   */
  record(type: WebhookEventType, data: ChangeData): Promise<void>;
}

/** Until the webhooks module is wired (and in tests of one module alone): changes go nowhere. */
export const NO_CHANGE_FEED: ChangeFeed = { record: () => Promise.resolve() };

export function isWebhookEvent(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
