/**
 * Sizes as refusals word them, so every 413 names its limit the same way, and the API's
 * documented examples say the limit the service enforces.
 */

/** The most a JSON request body may be (REST and /graphql). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** A byte count in words: `1 MiB`, `512 KiB`. */
export const sizeInWords = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** The 413 of a JSON body over its limit. */
export const bodyTooLarge = (limitBytes: number): string =>
  `The request body is larger than ${sizeInWords(limitBytes)}`;

/** The 413 of an uploaded file over FILE_MAX_BYTES. */
export const fileTooLarge = (limitBytes: number): string =>
  `The file is larger than ${sizeInWords(limitBytes)}, the most a file may be`;
