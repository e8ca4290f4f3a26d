import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { shortDate } from "./credential-text";
import {
  COLOURS,
  centred,
  drawable,
  fittingSize,
  mm,
  wrapText,
  type CredentialBasics,
} from "./pdf-layout";

/** CR80 (ISO/IEC 7810 ID-1), 85.60 × 53.98 mm, in points. */
export const CR80: [number, number] = [mm(85.6), mm(53.98)];

export interface IdCardInput extends CredentialBasics {
  memberType: string;
  officeTitles: string[];
  /** The approved 2x2 photo: JPEG, PNG or a one-page PDF; null draws an empty frame. */
  photo: Buffer | null;
  validSince: Date;
}

const { navy: NAVY, gold: GOLD, grey: GREY, white: WHITE } = COLOURS;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The member ID card: front and back, one CR80 page each. */
export async function renderIdCard(input: IdCardInput): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Member ID card: ${input.uniqueId}`);
  pdf.setAuthor(input.organisation);
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  await drawFront(pdf, pdf.addPage(CR80), fonts, input);
  await drawBack(pdf, pdf.addPage(CR80), fonts, input);
  return Buffer.from(await pdf.save());
}

const [WIDTH, HEIGHT] = CR80;
const MARGIN = 9;

function header(
  page: PDFPage,
  fonts: Fonts,
  organisation: string,
  height: number,
  subtitle?: string,
) {
  page.drawRectangle({ x: 0, y: HEIGHT - height, width: WIDTH, height, color: NAVY });
  page.drawRectangle({ x: 0, y: HEIGHT - height - 1.5, width: WIDTH, height: 1.5, color: GOLD });
  const name = drawable(fonts.bold, organisation.toUpperCase());
  const size = fittingSize(fonts.bold, name, WIDTH - 2 * MARGIN, 8.5, 5);
  const nameY = subtitle ? HEIGHT - height / 2 + 1 : HEIGHT - height / 2 - size / 3;
  page.drawText(name, {
    x: centred(fonts.bold, name, size, WIDTH / 2),
    y: nameY,
    size,
    font: fonts.bold,
    color: WHITE,
  });
  if (subtitle) {
    page.drawText(subtitle, {
      x: centred(fonts.regular, subtitle, 5.5, WIDTH / 2),
      y: nameY - 9,
      size: 5.5,
      font: fonts.regular,
      color: GOLD,
    });
  }
}

/** A small grey label over a value, from `y` down; answers the y below it. */
function field(
  page: PDFPage,
  fonts: Fonts,
  x: number,
  y: number,
  label: string,
  lines: string[],
  size: number,
  width: number,
): number {
  page.drawText(label.toUpperCase(), { x, y, size: 4.5, font: fonts.regular, color: GREY });
  let next = y - size - 1.5;
  for (const line of lines) {
    page.drawText(line, { x, y: next, size, font: fonts.bold, color: NAVY, maxWidth: width });
    next -= size + 1.5;
  }
  return next - 2;
}

async function drawFront(pdf: PDFDocument, page: PDFPage, fonts: Fonts, input: IdCardInput) {
  const headerHeight = 30;
  header(page, fonts, input.organisation, headerHeight, "MEMBER IDENTIFICATION CARD");

  // The 2x2 photo, whole (never cropped), centred in a square frame.
  const frame = { x: MARGIN, y: 16, size: HEIGHT - headerHeight - 1.5 - 8 - 16 };
  page.drawRectangle({
    x: frame.x,
    y: frame.y,
    width: frame.size,
    height: frame.size,
    borderColor: GOLD,
    borderWidth: 1,
    color: rgb(0.95, 0.95, 0.95),
  });
  await drawPhoto(pdf, page, input.photo, { x: frame.x + 1, y: frame.y + 1, size: frame.size - 2 });

  const x = frame.x + frame.size + 8;
  const width = WIDTH - x - MARGIN;
  const name = drawable(fonts.bold, input.fullName);
  const nameSize = fittingSize(fonts.bold, name, width, 10, 7.5);
  let y = HEIGHT - headerHeight - 12;
  y = field(
    page,
    fonts,
    x,
    y,
    "Name",
    wrapText(fonts.bold, name, nameSize, width, 2),
    nameSize,
    width,
  );
  y = field(page, fonts, x, y, "Member ID", [input.uniqueId], 8, width);
  const type = drawable(fonts.bold, input.memberType);
  y = field(page, fonts, x, y, "Member type", wrapText(fonts.bold, type, 6, width, 2), 6, width);
  if (input.officeTitles.length > 0) {
    const offices = drawable(fonts.bold, input.officeTitles.join("; "));
    const room = Math.max(1, Math.floor((y - 8) / 7));
    field(
      page,
      fonts,
      x,
      y,
      "Office",
      wrapText(fonts.bold, offices, 5.5, width, Math.min(room, 3)),
      5.5,
      width,
    );
  }
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: 6, color: NAVY });
}

async function drawBack(pdf: PDFDocument, page: PDFPage, fonts: Fonts, input: IdCardInput) {
  const headerHeight = 16;
  header(page, fonts, input.organisation, headerHeight);
  const qrSize = 92;
  const qrY = (HEIGHT - headerHeight - qrSize) / 2 - 1;
  page.drawImage(await pdf.embedPng(input.qrPng), {
    x: MARGIN - 2,
    y: qrY,
    width: qrSize,
    height: qrSize,
  });

  const x = MARGIN + qrSize + 4;
  const width = WIDTH - x - MARGIN;
  let y = HEIGHT - headerHeight - 14;
  page.drawText("Scan or visit to verify:", { x, y, size: 6, font: fonts.regular, color: GREY });
  y -= 8;
  for (const line of wrapText(fonts.bold, drawable(fonts.bold, input.profileUrl), 5.5, width, 4)) {
    page.drawText(line, { x, y, size: 5.5, font: fonts.bold, color: NAVY });
    y -= 7;
  }
  y -= 6;
  y = field(page, fonts, x, y, "Valid since", [shortDate(input.validSince)], 7.5, width);
  y = field(page, fonts, x, y, "Member ID", [input.uniqueId], 7.5, width);
  const note = "This card remains the property of the organisation. If found, please return it.";
  let noteY = 12 + 2 * 6;
  for (const line of wrapText(fonts.regular, note, 4.5, width, 3)) {
    if (noteY < y)
      page.drawText(line, { x, y: noteY, size: 4.5, font: fonts.regular, color: GREY });
    noteY -= 6;
  }
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: 6, color: NAVY });
}

type PhotoKind = "jpeg" | "png" | "pdf" | null;

export function photoKind(bytes: Buffer): PhotoKind {
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return "jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (bytes.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  return null;
}

async function drawPhoto(
  pdf: PDFDocument,
  page: PDFPage,
  photo: Buffer | null,
  box: { x: number; y: number; size: number },
) {
  const kind = photo && photoKind(photo);
  if (!photo || !kind) return;
  const placed = (item: { width: number; height: number }) => {
    const scale = Math.min(box.size / item.width, box.size / item.height);
    const width = item.width * scale;
    const height = item.height * scale;
    return { x: box.x + (box.size - width) / 2, y: box.y + (box.size - height) / 2, width, height };
  };
  if (kind === "pdf") {
    const [first] = await pdf.embedPdf(photo, [0]);
    page.drawPage(first, placed(first));
    return;
  }
  // A copy on an ArrayBuffer of its own: pdf-lib reads a JPEG from the start of the buffer
  // underneath, and a Node Buffer may be a slice of a shared one.
  const bytes = Uint8Array.from(photo);
  const image = kind === "jpeg" ? await pdf.embedJpg(bytes) : await pdf.embedPng(bytes);
  page.drawImage(image, placed(image));
}
