import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { manilaDate } from "../../mail/dates";
import {
  COLOURS,
  drawable,
  fittingSize,
  mm,
  wrapText,
  drawSeal,
  wholeText,
  type CredentialBasics,
} from "./pdf-layout";

/** CR80 (ISO/IEC 7810 ID-1), 85.60 × 53.98 mm, in points. */
export const CR80: [number, number] = [mm(85.6), mm(53.98)];

export interface IdCardInput extends CredentialBasics {
  officeTitles: string[];
  /** The approved 2x2 photo: JPEG, PNG or a one-page PDF. */
  photo: Buffer | null;
  /** The end of the membership year; null before the oath. */
  validUntil: Date | null;
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
  pdf.setAuthor(input.organisation.name);
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
const HEADER = 34;

/** The navy band: the seal, the organisation's name whole (two lines at most), a subtitle. */
async function header(
  pdf: PDFDocument,
  page: PDFPage,
  fonts: Fonts,
  input: IdCardInput,
  subtitle: string,
) {
  page.drawRectangle({ x: 0, y: HEIGHT - HEADER, width: WIDTH, height: HEADER, color: NAVY });
  page.drawRectangle({ x: 0, y: HEIGHT - HEADER - 1.5, width: WIDTH, height: 1.5, color: GOLD });
  const sealSize = HEADER - 6;
  await drawSeal(
    pdf,
    page,
    input,
    { x: MARGIN - 3, y: HEIGHT - HEADER + 3, size: sealSize },
    fonts.bold,
  );
  const x = MARGIN + sealSize + 2;
  const width = WIDTH - x - MARGIN + 3;
  const name = drawable(fonts.bold, input.organisation.name.toUpperCase());
  const org = wholeText(fonts.bold, name, width, 7, 4.5, 2);
  let y = HEIGHT - 4 - org.size;
  for (const line of org.lines) {
    page.drawText(line, { x, y, size: org.size, font: fonts.bold, color: WHITE });
    y -= org.size + 1.5;
  }
  page.drawText(subtitle, { x, y: y - 1, size: 5, font: fonts.regular, color: GOLD });
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
): number {
  page.drawText(label.toUpperCase(), { x, y, size: 4.5, font: fonts.regular, color: GREY });
  let next = y - size - 1.5;
  for (const line of lines) {
    page.drawText(line, { x, y: next, size, font: fonts.bold, color: NAVY });
    next -= size + 1.5;
  }
  return next - 2;
}

const validity = (input: IdCardInput) =>
  input.validUntil ? manilaDate(input.validUntil) : "One year from the oath";

async function drawFront(pdf: PDFDocument, page: PDFPage, fonts: Fonts, input: IdCardInput) {
  await header(pdf, page, fonts, input, "MEMBER IDENTIFICATION CARD");

  // The 2x2 photo, whole (never cropped), centred in a square frame.
  const frame = { x: MARGIN, y: 14, size: HEIGHT - HEADER - 1.5 - 8 - 14 };
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

  const x = frame.x + frame.size + 7;
  const width = WIDTH - x - MARGIN + 2;
  // The whole name, always: smaller, then on a second line (never cut).
  const name = wholeText(fonts.bold, drawable(fonts.bold, input.fullName), width, 9, 6, 2);
  let y = HEIGHT - HEADER - 10;
  y = field(page, fonts, x, y, "Name", name.lines, name.size);
  y = field(page, fonts, x, y, "Member ID", [input.uniqueId], 7.5);
  const type = drawable(fonts.bold, input.memberType);
  y = field(page, fonts, x, y, "Member type", wrapText(fonts.bold, type, 6, width, 2), 6);
  const bottom = 30;
  if (input.officeTitles.length > 0 && y - 10 > bottom) {
    const offices = drawable(fonts.bold, input.officeTitles.join("; "));
    const room = Math.max(1, Math.floor((y - 6 - bottom) / 7));
    const label = input.officeTitles.length > 1 ? "Offices" : "Office";
    field(
      page,
      fonts,
      x,
      y,
      label,
      wrapText(fonts.bold, offices, 5.5, width, Math.min(room, 3)),
      5.5,
    );
  }
  field(page, fonts, x, 22, "Valid until", [validity(input)], 6.5);
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: 5, color: NAVY });
}

async function drawBack(pdf: PDFDocument, page: PDFPage, fonts: Fonts, input: IdCardInput) {
  await header(pdf, page, fonts, input, "VERIFY THIS CARD");
  // The code's own white margin keeps it apart from the band; a few points more help readers.
  const qrSize = 82;
  const qrY = HEIGHT - HEADER - 7 - qrSize;
  page.drawImage(await pdf.embedPng(input.qrPng), {
    x: MARGIN - 2,
    y: qrY,
    width: qrSize,
    height: qrSize,
  });

  const x = MARGIN + qrSize + 3;
  const width = WIDTH - x - MARGIN;
  let y = HEIGHT - HEADER - 10;
  page.drawText("Scan or visit to verify:", { x, y, size: 5.5, font: fonts.regular, color: GREY });
  y -= 7;
  for (const line of wrapText(fonts.bold, drawable(fonts.bold, input.profileUrl), 5, width, 3)) {
    page.drawText(line, { x, y, size: 5, font: fonts.bold, color: NAVY });
    y -= 6.5;
  }
  y -= 3;
  y = field(page, fonts, x, y, "Valid until", [validity(input)], 7);
  field(page, fonts, x, y, "Member ID", [input.uniqueId], 7);

  // The signatory, under the QR code's column and beside it.
  const signY = 20;
  page.drawLine({
    start: { x: MARGIN, y: signY },
    end: { x: MARGIN + 110, y: signY },
    thickness: 0.5,
    color: GREY,
  });
  const signatory = drawable(fonts.bold, input.organisation.signatoryName || " ");
  page.drawText(signatory, {
    x: MARGIN,
    y: signY - 7,
    size: fittingSize(fonts.bold, signatory, 110, 6, 4),
    font: fonts.bold,
    color: NAVY,
  });
  const title = drawable(
    fonts.regular,
    input.organisation.signatoryTitle || "Authorized Signatory",
  );
  page.drawText(title, {
    x: MARGIN,
    y: signY - 13,
    size: fittingSize(fonts.regular, title, 110, 5, 3.5),
    font: fonts.regular,
    color: GREY,
  });
  const note = "Property of the organisation. If found, please return it.";
  let noteY = 18;
  for (const line of wrapText(fonts.regular, note, 4.3, WIDTH - MARGIN - 128, 3)) {
    page.drawText(line, { x: 128, y: noteY, size: 4.3, font: fonts.regular, color: GREY });
    noteY -= 5.5;
  }
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: 4, color: NAVY });
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
