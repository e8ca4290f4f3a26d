import { rgb, type PDFDocument, type PDFFont, type PDFPage } from "pdf-lib";
import type { OrganisationIdentity } from "../organisation/organisation.type";

/** What the certificate and the ID card both print. */
export interface CredentialBasics {
  organisation: OrganisationIdentity;
  /** The seal image (PNG or JPEG), or null: a drawn seal of the short name stands in. */
  seal: Buffer | null;
  memberType: string;
  fullName: string;
  uniqueId: string;
  /** The QR code of the public check, as PNG. */
  qrPng: Buffer;
  /** The public check's URL, printed beside the QR code. */
  profileUrl: string;
}

/** The organisation's colours on both. */
export const COLOURS = {
  navy: rgb(0.09, 0.16, 0.33),
  gold: rgb(0.72, 0.56, 0.2),
  grey: rgb(0.38, 0.38, 0.38),
  white: rgb(1, 1, 1),
};

/** Millimetres to PDF points (1/72 inch). */
export const mm = (millimetres: number) => (millimetres * 72) / 25.4;

/**
 * Text the standard fonts can draw: they encode WinAnsi only, so other letters lose their marks
 * (NFKD) and anything still unknown becomes "?", instead of the whole render failing on a name.
 */
export function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.replace(/\s+/g, " ").trim()]
    .map((char) => {
      if (known.has(char.codePointAt(0)!)) return char;
      const bare = char.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      return [...bare].every((part) => known.has(part.codePointAt(0)!)) ? bare : "?";
    })
    .join("");
}

/** The largest size up to `size` (down to `min`) at which `text` fits `width`. */
export function fittingSize(
  font: PDFFont,
  text: string,
  width: number,
  size: number,
  min: number,
): number {
  let current = size;
  while (current > min && font.widthOfTextAtSize(text, current) > width) current -= 0.25;
  return current;
}

/**
 * `text` broken into at most `maxLines` lines of `width`, at word boundaries where it can be and
 * inside a long word (a URL) where it must; the last line ends in "…" when text is left over.
 */
export function wrapText(
  font: PDFFont,
  text: string,
  size: number,
  width: number,
  maxLines: number,
): string[] {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  let line = "";
  const push = () => {
    lines.push(line);
    line = "";
  };
  for (const word of text.split(" ")) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) push();
    // A word wider than the line is cut where it must be.
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1];
  while (last && !fits(`${last}…`)) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}

/** x at which `text` is centred on `centre`. */
export const centred = (font: PDFFont, text: string, size: number, centre: number) =>
  centre - font.widthOfTextAtSize(text, size) / 2;

/**
 * A name that must be printed whole: the largest size down to `min` at which it fits one line,
 * else wrapped at spaces into up to `maxLines` lines at the largest size they fit; a name
 * longer still is shrunk further, never cut.
 */
export function wholeText(
  font: PDFFont,
  text: string,
  width: number,
  size: number,
  min: number,
  maxLines: number,
): { size: number; lines: string[] } {
  const single = fittingSize(font, text, width, size, min);
  if (font.widthOfTextAtSize(text, single) <= width) return { size: single, lines: [text] };
  for (let current = size; current >= min / 2; current -= 0.25) {
    const lines = wordLines(font, text, current, width);
    if (lines && lines.length <= maxLines) return { size: current, lines };
  }
  return { size: min / 2, lines: wordLines(font, text, min / 2, Infinity) ?? [text] };
}

/** `text` wrapped at spaces into lines of `width`; null when one word alone is wider. */
function wordLines(font: PDFFont, text: string, size: number, width: number): string[] | null {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (font.widthOfTextAtSize(word, size) > width) return null;
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The seal in a square of `size` at (x, y): the image kept in settings, or a drawn one. */
export async function drawSeal(
  pdf: PDFDocument,
  page: PDFPage,
  input: Pick<CredentialBasics, "seal" | "organisation">,
  box: { x: number; y: number; size: number },
  font: PDFFont,
): Promise<void> {
  const seal = input.seal;
  const isPng = seal?.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const isJpeg = seal?.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
  if (seal && (isPng || isJpeg)) {
    const bytes = Uint8Array.from(seal);
    const image = isPng ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
    const scale = Math.min(box.size / image.width, box.size / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    page.drawImage(image, {
      x: box.x + (box.size - width) / 2,
      y: box.y + (box.size - height) / 2,
      width,
      height,
    });
    return;
  }
  const r = box.size / 2;
  const centre = { x: box.x + r, y: box.y + r };
  page.drawCircle({ ...centre, size: r, color: COLOURS.gold });
  page.drawCircle({ ...centre, size: r * 0.82, borderColor: COLOURS.white, borderWidth: r * 0.06 });
  const label = drawable(font, input.organisation.shortName || "SEAL");
  const labelSize = fittingSize(font, label, r * 1.4, r * 0.5, 2);
  page.drawText(label, {
    x: centred(font, label, labelSize, centre.x),
    y: centre.y - labelSize / 3,
    size: labelSize,
    font,
    color: COLOURS.white,
  });
}
