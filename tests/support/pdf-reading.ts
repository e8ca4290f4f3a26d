import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";

/*
 * Reading the PDFs the service renders as a person's tools would: poppler's pdftotext and
 * pdftoppm (Debian's poppler-utils, installed by .ci/run), pdf-lib for page sizes, jsQR for the
 * codes.
 */

function withFile<T>(bytes: Buffer, read: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-read-"));
  try {
    const file = path.join(dir, "in.pdf");
    writeFileSync(file, bytes);
    return read(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page, words joined by single spaces. */
export function pdfPagesText(bytes: Buffer): string[] {
  return withFile(bytes, (file) =>
    execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
      .split("\f")
      .filter((page, index, pages) => index < pages.length - 1 || page.trim() !== "")
      .map((page) => page.replace(/\s+/g, " ").trim()),
  );
}

/** Each page's [width, height] in points. */
export async function pdfPageSizes(bytes: Buffer): Promise<[number, number][]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => [page.getWidth(), page.getHeight()]);
}

/** The QR code a PNG shows, decoded; null when none is found. */
export function decodeQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/** One page rendered to PNG at `dpi`, as pdftoppm draws it. */
export function pdfPagePng(bytes: Buffer, page: number, dpi = 300): Buffer {
  return withFile(bytes, (file, dir) => {
    const out = path.join(dir, "page");
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      String(dpi),
      "-f",
      String(page),
      "-l",
      String(page),
      "-singlefile",
      file,
      out,
    ]);
    return readFileSync(`${out}.png`);
  });
}

/** Images placed on each page, as `pdfimages -list` reports them: [page, width, height]. */
export function pdfImages(
  bytes: Buffer,
): { page: number; width: number; height: number; type: string }[] {
  return withFile(bytes, (file) =>
    execFileSync("pdfimages", ["-list", file], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .filter((line) => line.trim() !== "")
      .map((line) => line.trim().split(/\s+/))
      .map((cells) => ({
        page: Number(cells[0]),
        width: Number(cells[3]),
        height: Number(cells[4]),
        type: cells[2],
      })),
  );
}

/**
 * Every image the PDF embeds, extracted as pdfimages -all writes it: a JPEG stream as the
 * .jpg it carries (its own bytes, metadata and all), other images as PNG.
 */
export function pdfImageFiles(bytes: Buffer): { name: string; bytes: Buffer }[] {
  return withFile(bytes, (file, dir) => {
    execFileSync("pdfimages", ["-all", file, path.join(dir, "image")]);
    return readdirSync(dir)
      .filter((name) => name.startsWith("image"))
      .sort()
      .map((name) => ({ name, bytes: readFileSync(path.join(dir, name)) }));
  });
}
