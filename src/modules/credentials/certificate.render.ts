import { PDFDocument, StandardFonts } from "pdf-lib";
import { dateInWords } from "./credential-text";
import { COLOURS, centred, drawable, fittingSize, type CredentialBasics } from "./pdf-layout";

/** A4 landscape, in points. */
export const A4_LANDSCAPE: [number, number] = [841.89, 595.28];

export interface CertificateInput extends CredentialBasics {
  /** The day the certificate is issued (printed in words, Asia/Manila). */
  issuedAt: Date;
}

const { navy: NAVY, gold: GOLD, grey: GREY } = COLOURS;

/** The membership certificate: one A4 landscape page. */
export async function renderCertificate(input: CertificateInput): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of Membership: ${input.uniqueId}`);
  pdf.setAuthor(input.organisation);
  pdf.setCreationDate(input.issuedAt);
  pdf.setModificationDate(input.issuedAt);
  const page = pdf.addPage(A4_LANDSCAPE);
  const [width, height] = A4_LANDSCAPE;
  const serif = await pdf.embedFont(StandardFonts.TimesRoman);
  const serifBold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const serifItalic = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const sans = await pdf.embedFont(StandardFonts.Helvetica);
  const centre = width / 2;

  page.drawRectangle({
    x: 24,
    y: 24,
    width: width - 48,
    height: height - 48,
    borderColor: NAVY,
    borderWidth: 4,
  });
  page.drawRectangle({
    x: 34,
    y: 34,
    width: width - 68,
    height: height - 68,
    borderColor: GOLD,
    borderWidth: 1.5,
  });

  const line = (text: string, font: typeof serif, size: number, y: number, color = NAVY) => {
    const clean = drawable(font, text);
    page.drawText(clean, { x: centred(font, clean, size, centre), y, size, font, color });
  };

  line(input.organisation.toUpperCase(), sans, 14, 515, GREY);
  line("Certificate of Membership", serifBold, 44, 450);
  line("This certifies that", serifItalic, 18, 400, GREY);

  const name = drawable(serifBold, input.fullName);
  const nameSize = fittingSize(serifBold, name, width - 200, 36, 16);
  page.drawText(name, {
    x: centred(serifBold, name, nameSize, centre),
    y: 345,
    size: nameSize,
    font: serifBold,
    color: NAVY,
  });
  // The line under the name is at least as wide as the name, whatever its length.
  const halfLine = Math.max(260, serifBold.widthOfTextAtSize(name, nameSize) / 2 + 20);
  page.drawLine({
    start: { x: centre - halfLine, y: 335 },
    end: { x: centre + halfLine, y: 335 },
    thickness: 1,
    color: GOLD,
  });

  line("is received as a member of the organisation with the standing of", serif, 16, 300, GREY);
  line("Associate Chaplain", serifBold, 26, 262);
  line(`Given on ${dateInWords(input.issuedAt)}.`, serif, 15, 222, GREY);
  line(`Member ID: ${input.uniqueId}`, serifBold, 15, 195);

  // Signature line, left; the QR code of the public check, right.
  page.drawLine({ start: { x: 90, y: 110 }, end: { x: 330, y: 110 }, thickness: 0.8, color: GREY });
  const signature = "Authorized Signature";
  page.drawText(signature, {
    x: centred(serif, signature, 12, 210),
    y: 94,
    size: 12,
    font: serif,
    color: GREY,
  });

  const qr = await pdf.embedPng(input.qrPng);
  const qrSize = 104;
  const qrX = width - 90 - qrSize;
  page.drawImage(qr, { x: qrX, y: 80, width: qrSize, height: qrSize });
  const caption = "Scan to verify membership";
  page.drawText(caption, {
    x: centred(sans, caption, 8, qrX + qrSize / 2),
    y: 68,
    size: 8,
    font: sans,
    color: GREY,
  });
  const url = drawable(sans, input.profileUrl);
  const urlSize = fittingSize(sans, url, 260, 7, 4);
  page.drawText(url, {
    x: Math.min(
      centred(sans, url, urlSize, qrX + qrSize / 2),
      width - 48 - sans.widthOfTextAtSize(url, urlSize),
    ),
    y: 57,
    size: urlSize,
    font: sans,
    color: GREY,
  });

  return Buffer.from(await pdf.save());
}
