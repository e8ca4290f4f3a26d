/**
 * What a file is, decided by its first bytes: the name and the type a
 * client declares are ignored. Only these four are accepted, so anything a browser could run
 * (HTML, SVG, scripts) or a system could execute is refused whatever it is called.
 */
export const SNIFF_BYTES = 12;

export const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/webp"];

/** The type of a file starting with `head` (at least SNIFF_BYTES of it, or the whole file), or null. */
export function sniffType(head: Buffer): string | null {
  const starts = (bytes: number[], at = 0) =>
    head.length >= at + bytes.length && bytes.every((byte, i) => head[at + i] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf"; // %PDF-
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/webp": ".webp",
};

/**
 * A name safe to store and to put in a Content-Disposition header: the last segment of any
 * path the client sent, without control characters or quotes, at most 120 characters, ending
 * in the extension of the sniffed type (a PDF never comes back named `.html`).
 */
export function safeFileName(raw: string | undefined, mimeType: string): string {
  const extension = EXTENSIONS[mimeType] ?? "";
  const base = (raw ?? "")
    .split(/[/\\]/)
    .pop()!
    .normalize("NFC")
    .replace(/[^\p{L}\p{N} ._()-]/gu, "_")
    .replace(/^[.\s]+/, "")
    .trim();
  const stem = base.replace(/\.[^.]*$/, "").slice(0, 120 - extension.length) || "file";
  return `${stem}${extension}`;
}
