import { PDFDocument, StandardFonts } from "pdf-lib";
import { manilaDate } from "../../mail/dates";
import { dateInWords } from "./credential-text";
import {
  COLOURS,
  centred,
  drawable,
  drawSeal,
  fittingSize,
  wholeText,
  type CredentialBasics,
} from "./pdf-layout";

/** A4 landscape, in points. */
export const A4_LANDSCAPE: [number, number] = [841.89, 595.28];

export interface CertificateInput extends CredentialBasics {
  /** The day of the oath: the certificate is dated it (in words, Asia/Manila). */
  oathDay: Date;
  /** The end of the membership year the oath started. */
  validUntil: Date | null;
}

const { navy: NAVY, gold: GOLD, grey: GREY } = COLOURS;

/** The certificate of membership, issued at the oath: one A4 landscape page. */
export async function renderCertificate(input: CertificateInput): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of Membership: ${input.uniqueId}`);
  pdf.setAuthor(input.organisation.name);
  pdf.setCreationDate(input.oathDay);
  pdf.setModificationDate(input.oathDay);
  const page = pdf.addPage(A4_LANDSCAPE);
  const [width, height] = A4_LANDSCAPE;
  const serif = await pdf.embedFont(StandardFonts.TimesRoman);
  const serifBold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const serifItalic = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const sans = await pdf.embedFont(StandardFonts.Helvetica);
  const sansBold = await pdf.embedFont(StandardFonts.HelveticaBold);
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

  await drawSeal(pdf, page, input, { x: centre - 34, y: 478, size: 68 }, sansBold);
  const org = wholeText(
    sansBold,
    drawable(sansBold, input.organisation.name.toUpperCase()),
    width - 160,
    13,
    9,
    2,
  );
  let y = 460;
  for (const text of org.lines) {
    line(text, sansBold, org.size, y, GREY);
    y -= org.size + 3;
  }
  line("Certificate of Membership", serifBold, 38, y - 40);
  line("This certifies that", serifItalic, 16, y - 70, GREY);

  // The name is printed whole: smaller, then on two lines.
  const name = wholeText(serifBold, drawable(serifBold, input.fullName), width - 200, 34, 20, 2);
  let nameY = y - 112;
  let widest = 0;
  for (const text of name.lines) {
    line(text, serifBold, name.size, nameY);
    widest = Math.max(widest, serifBold.widthOfTextAtSize(text, name.size));
    nameY -= name.size + 4;
  }
  const ruleY = nameY + name.size - 2;
  const halfLine = Math.max(260, widest / 2 + 20);
  page.drawLine({
    start: { x: centre - halfLine, y: ruleY },
    end: { x: centre + halfLine, y: ruleY },
    thickness: 1,
    color: GOLD,
  });

  line(
    "is received as a member of the organisation with the standing of",
    serif,
    15,
    ruleY - 26,
    GREY,
  );
  line(input.memberType, serifBold, 24, ruleY - 56);
  line(`Given on ${dateInWords(input.oathDay)}, the day of the oath.`, serif, 14, ruleY - 82, GREY);
  const validity = input.validUntil ? `   ·   Valid until ${manilaDate(input.validUntil)}` : "";
  line(`Member ID: ${input.uniqueId}${validity}`, serifBold, 13, ruleY - 102);

  // The signatory, left; the QR code of the public check, right.
  const signX = 220;
  page.drawLine({ start: { x: 90, y: 100 }, end: { x: 350, y: 100 }, thickness: 0.8, color: GREY });
  const signatory = drawable(serifBold, input.organisation.signatoryName || " ");
  page.drawText(signatory, {
    x: centred(serifBold, signatory, 13, signX),
    y: 85,
    size: 13,
    font: serifBold,
    color: NAVY,
  });
  const title = drawable(serif, input.organisation.signatoryTitle || "Authorized Signatory");
  page.drawText(title, {
    x: centred(serif, title, 11, signX),
    y: 71,
    size: 11,
    font: serif,
    color: GREY,
  });

  const qr = await pdf.embedPng(input.qrPng);
  const qrSize = 96;
  const qrX = width - 90 - qrSize;
  page.drawImage(qr, { x: qrX, y: 72, width: qrSize, height: qrSize });
  const caption = "Scan to verify membership";
  page.drawText(caption, {
    x: centred(sans, caption, 8, qrX + qrSize / 2),
    y: 62,
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
    y: 51,
    size: urlSize,
    font: sans,
    color: GREY,
  });

  return Buffer.from(await pdf.save());
}
