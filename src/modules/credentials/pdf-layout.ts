import { rgb, type PDFFont } from "pdf-lib";

/** What the certificate and the ID card both print. */
export interface CredentialBasics {
  organisation: string;
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
