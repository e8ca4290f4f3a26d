import { PDFDocument, StandardFonts } from "pdf-lib";
import { A4_LANDSCAPE, renderCertificate } from "../../src/modules/credentials/certificate.render";
import {
  dateInWords,
  memberTypeLabel,
  ordinalInWords,
} from "../../src/modules/credentials/credential-text";
import { calendarDay, manilaDate } from "../../src/mail/dates";
import { CR80, renderIdCard } from "../../src/modules/credentials/id-card.render";
import { drawable, wholeText, wrapText } from "../../src/modules/credentials/pdf-layout";
import { renderQrPng } from "../../src/modules/credentials/qr-code.render";
import { MemberType } from "../../src/modules/members/member.enums";
import { publicProfileUrl } from "../../src/modules/members/public-url";
import {
  decodeQrPng,
  pdfImages,
  pdfPagePng,
  pdfPageSizes,
  pdfPagesText,
} from "../support/pdf-reading";
import { samplePhotoPng } from "../support/sample-photo";

const url = publicProfileUrl("https://chaplains.example.org", "POI-2026-00042");
// 27 November 2026 in Manila, though still the 26th in UTC.
const issuedAt = new Date("2026-11-26T16:30:00.000Z");

const ORG = {
  name: "Pearl of the Orient International Auxiliary Chaplain Values Educators Inc.",
  shortName: "POI-AVCE",
  address: "Quezon City",
  email: "",
  phone: "",
  website: "",
  sealFileId: null,
  signatoryName: "Rev. Juan Dela Cruz",
  signatoryTitle: "National President",
};

describe("credential texts", () => {
  it("writes the date in words in Asia/Manila", () => {
    expect(ordinalInWords(1)).toBe("first");
    expect(ordinalInWords(12)).toBe("twelfth");
    expect(ordinalInWords(20)).toBe("twentieth");
    expect(ordinalInWords(23)).toBe("twenty-third");
    expect(ordinalInWords(30)).toBe("thirtieth");
    expect(ordinalInWords(31)).toBe("thirty-first");
    expect(dateInWords(issuedAt)).toBe("the twenty-seventh day of November, 2026");
    // The one way mails and credentials write a day.
    expect(manilaDate(issuedAt)).toBe("27 November 2026");
    expect(manilaDate(new Date("2026-11-28T15:59:59.000Z"))).toBe("28 November 2026");
    expect(calendarDay("2026-12-05")).toBe("Saturday, 5 December 2026");
  });

  it("names member types as people read them and builds the public check's URL", () => {
    expect(memberTypeLabel(MemberType.ASSOCIATE_CHAPLAIN)).toBe("Associate Chaplain");
    expect(memberTypeLabel(null)).toBe("Member in formation");
    expect(url).toBe("https://chaplains.example.org/profile/POI-2026-00042");
  });

  it("keeps names drawable in the standard fonts and wraps long text with an ellipsis", async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    expect(drawable(font, "José  Ñuñez")).toBe("José Ñuñez");
    expect(drawable(font, "Nguyễn Trần 李")).toBe("Nguyen Tran ?");
    const lines = wrapText(font, "https://chaplains.example.org/profile/POI-2026-00042", 6, 60, 5);
    expect(lines.join("")).toBe("https://chaplains.example.org/profile/POI-2026-00042");
    for (const line of lines) expect(font.widthOfTextAtSize(line, 6)).toBeLessThanOrEqual(60);
    const cut = wrapText(font, "one two three four five six seven eight nine ten", 8, 40, 2);
    expect(cut).toHaveLength(2);
    expect(cut[1].endsWith("…")).toBe(true);
  });

  it("prints a long name whole: smaller first, then on a second line, never cut", async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.HelveticaBold);
    const short = wholeText(font, "Maria Santos", 120, 9, 6, 2);
    expect(short).toEqual({ size: 9, lines: ["Maria Santos"] });
    const name = "Maximiliano Concepción Bartolomé Q. Dela Cruz-Santisteban";
    const long = wholeText(font, name, 120, 9, 6, 2);
    expect(long.lines).toHaveLength(2);
    expect(long.lines.join(" ")).toBe(name);
    for (const line of long.lines)
      expect(font.widthOfTextAtSize(line, long.size)).toBeLessThanOrEqual(120);
    const longer = wholeText(font, `${name} ${name}`, 120, 9, 6, 2);
    expect(longer.lines.join(" ")).toBe(`${name} ${name}`);
  });
});

describe("rendered credentials", () => {
  let qrPng: Buffer;
  beforeAll(async () => {
    qrPng = await renderQrPng(url);
  });

  it("renders a QR code that decodes to the public check", () => {
    expect(decodeQrPng(qrPng)).toBe(url);
  });

  it("renders the certificate on one A4 landscape page with its texts and a readable QR code", async () => {
    const pdf = await renderCertificate({
      organisation: ORG,
      seal: null,
      memberType: "Associate Chaplain",
      fullName: "Maria Clara Santos",
      uniqueId: "POI-2026-00042",
      oathDay: issuedAt,
      validUntil: new Date("2027-11-26T16:30:00.000Z"),
      qrPng,
      profileUrl: url,
    });
    const [size, ...more] = await pdfPageSizes(pdf);
    expect(more).toHaveLength(0);
    expect(size[0]).toBeCloseTo(A4_LANDSCAPE[0], 1);
    expect(size[1]).toBeCloseTo(A4_LANDSCAPE[1], 1);
    expect(size[0]).toBeGreaterThan(size[1]);
    const [text] = pdfPagesText(pdf);
    for (const expected of [
      "Certificate of Membership",
      "Associate Chaplain",
      "Maria Clara Santos",
      "the twenty-seventh day of November, 2026",
      "Member ID: POI-2026-00042",
      "Valid until 27 November 2027",
      "Rev. Juan Dela Cruz",
      "National President",
    ]) {
      expect(text).toContain(expected);
    }
    expect(decodeQrPng(pdfPagePng(pdf, 1, 150))).toBe(url);
  });

  it("renders a two-sided CR80 card: photo, name, id, type and offices in front; QR, URL and valid-since behind", async () => {
    const photo = samplePhotoPng();
    const pdf = await renderIdCard({
      organisation: ORG,
      seal: null,
      fullName: "Maria Clara Santos",
      uniqueId: "POI-2026-00042",
      memberType: "Associate Chaplain",
      officeTitles: ["City Chaplain of Quezon City"],
      photo,
      qrPng,
      profileUrl: url,
      validUntil: issuedAt,
    });
    const sizes = await pdfPageSizes(pdf);
    expect(sizes).toHaveLength(2);
    for (const [width, height] of sizes) {
      expect(width).toBeCloseTo(CR80[0], 2);
      expect(height).toBeCloseTo(CR80[1], 2);
      expect(width).toBeCloseTo(242.65, 1);
      expect(height).toBeCloseTo(153.01, 1);
    }
    const [front, back] = pdfPagesText(pdf);
    for (const expected of [
      "Maria Clara Santos",
      "POI-2026-00042",
      "Associate Chaplain",
      "City Chaplain of Quezon City",
    ]) {
      expect(front).toContain(expected);
    }
    expect(back.replace(/ /g, "")).toContain(url);
    expect(back).toMatch(/VALID UNTIL 27 November 2026/i);
    expect(back).toContain("Rev. Juan Dela Cruz");
    // The photo whole on the front (its own pixel size), the QR code on the back.
    expect(pdfImages(pdf)).toEqual(
      expect.arrayContaining([expect.objectContaining({ page: 1, width: 360, height: 420 })]),
    );
    expect(decodeQrPng(pdfPagePng(pdf, 2, 300))).toBe(url);
  });

  it("embeds a JPEG photo and survives a name no font can draw", async () => {
    const pdf = await renderIdCard({
      organisation: ORG,
      seal: null,
      fullName: "李 Wei Santos-Villanueva de los Reyes y Concepcion Bartolome III",
      uniqueId: "POI-2026-00043",
      memberType: memberTypeLabel(null),
      officeTitles: [],
      photo: TINY_JPEG,
      qrPng,
      profileUrl: url,
      validUntil: issuedAt,
    });
    const [front] = pdfPagesText(pdf);
    expect(front).toContain("? Wei Santos-Villanueva");
    expect(pdfImages(pdf).some((image) => image.page === 1 && image.type === "image")).toBe(true);
  });
});

/** A 1×1 white JPEG. */
const TINY_JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=",
  "base64",
);
