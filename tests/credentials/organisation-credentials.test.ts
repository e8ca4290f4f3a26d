/**
 * Issue 49, points 1 and 2: the organisation's identity as settings an administrator keeps,
 * printed on the ID card and the certificate (read back with pdftotext, pdfimages and a QR
 * decoder) and signing every mail; the card only from an approved photo, the name whole, the
 * certificate issued at the oath and dated its day; what was issued keeps what it printed.
 */
import { simpleParser } from "mailparser";
import { PNG as PngImage } from "pngjs";
import { PDF, storageDir, upload } from "../support/file-samples";
import { bearer, buildUser } from "../support/factories";
import { decodeQrPng, pdfImages, pdfPagePng, pdfPagesText } from "../support/pdf-reading";
import { useScenario } from "../support/scenario";
import { dateInWords } from "../../src/modules/credentials/credential-text";
import { manilaDate } from "../../src/mail/dates";
import { API, dayFromNow, download, memberBeforeOath, takeOath } from "../support/membership-year";
import {
  OrganisationSettingsDocument,
  UpdateOrganisationSettingsDocument,
} from "../graphql/generated";

// Each member is walked through onboarding by the API: slow on a shared machine.
jest.setTimeout(240_000);

const scenario = useScenario({
  env: { ...storageDir().env, APP_URL: "https://chaplains.example.org" },
});
const LONG = {
  firstName: "Maximiliano Concepción Bartolomé",
  middleInitial: "Q",
  lastName: "Dela Cruz-Santisteban",
};
const LONG_NAME = "Maximiliano Concepción Bartolomé Q. Dela Cruz-Santisteban";
const DEFAULT_NAME = "Pearl of the Orient International Auxiliary Chaplain Values Educators Inc.";
const ORG = {
  name: DEFAULT_NAME,
  shortName: "POI-AVCE",
  address: "12 Mabini Street, Quezon City",
  email: "office@poi-avce.example.org",
  phone: "+63 2 8123 4567",
  website: "https://poi-avce.example.org",
  signatoryName: "Rev. Dr. Amado Villanueva",
  signatoryTitle: "National President",
};

/** A seal of an odd size, found again among the PDF's images by it. */
function sealPng(): Buffer {
  const png = new PngImage({ width: 137, height: 131 });
  for (let at = 0; at < png.data.length; at += 4) {
    png.data[at] = 200;
    png.data[at + 1] = 160;
    png.data[at + 2] = 40;
    png.data[at + 3] = 255;
  }
  return PngImage.sync.write(png);
}

let sealFileId: string;

describe("organisation settings", () => {
  it("start from the ORG_* defaults and are an administrator's only", async () => {
    const { app, admin } = scenario();
    const fresh = await app.http().get(`${API}/settings/organisation`).set(bearer(admin));
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toMatchObject({
      name: DEFAULT_NAME,
      sealFileId: null,
      updatedAt: null,
    });
    const member = await buildUser(app);
    expect((await app.http().get(`${API}/settings/organisation`).set(bearer(member))).status).toBe(
      403,
    );
    const put = await app
      .http()
      .put(`${API}/settings/organisation`)
      .set(bearer(member))
      .send({ ...ORG });
    expect(put.status).toBe(403);
    const graphql = await app.graphql(OrganisationSettingsDocument, {}, member.token);
    expect(graphql.errors?.[0].extensions.code).toBe("FORBIDDEN");
  });

  it("refuse bad input with a 400 on the field and change nothing", async () => {
    const { app, admin } = scenario();
    const put = (body: object) =>
      app.http().put(`${API}/settings/organisation`).set(bearer(admin)).send(body);
    const blank = await put({ ...ORG, name: "   " });
    expect(blank.status).toBe(400);
    expect(blank.body.errors[0].path).toBe("name");
    const email = await put({ ...ORG, email: "not an address" });
    expect(email.status).toBe(400);
    expect(email.body.errors[0].path).toBe("email");
    const pdf = await upload(app, admin, PDF, { purpose: "NEWS_MEDIA", filename: "seal.pdf" });
    const notImage = await put({ ...ORG, sealFileId: pdf.body.data?.id ?? "x" });
    expect(notImage.status).toBe(400);
    const someoneElse = await buildUser(app);
    const theirs = await upload(app, someoneElse, sealPng(), {
      purpose: "AVATAR",
      filename: "seal.png",
    });
    expect(theirs.status).toBe(201);
    const notMine = await put({ ...ORG, sealFileId: theirs.body.data.id });
    expect(notMine.status).toBe(400);
    expect(notMine.body.errors[0].path).toBe("sealFileId");
    const after = await app.http().get(`${API}/settings/organisation`).set(bearer(admin));
    expect(after.body.data.updatedAt).toBeNull();
  });

  it("are saved whole with a seal image, over REST and GraphQL", async () => {
    const { app, admin } = scenario();
    const seal = await upload(app, admin, sealPng(), {
      purpose: "EVENT_IMAGE",
      filename: "seal.png",
    });
    expect(seal.status).toBe(201);
    sealFileId = seal.body.data.id;
    const saved = await app
      .http()
      .put(`${API}/settings/organisation`)
      .set(bearer(admin))
      .send({ ...ORG, sealFileId });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ ...ORG, sealFileId });
    const read = await app.graphql(OrganisationSettingsDocument, {}, admin.token);
    expect(read.data?.organisationSettings.data).toMatchObject({
      name: DEFAULT_NAME,
      signatoryName: ORG.signatoryName,
      sealFileId,
      updatedAt: expect.any(String),
    });
  });
});

describe("the ID card and the certificate", () => {
  it("prints the card only from an approved photo, and no certificate before the oath", async () => {
    const { app, admin } = scenario();
    const member = await memberBeforeOath(app, admin, LONG);
    const current = await app
      .http()
      .get(`${API}/members/current/id-generation`)
      .set(bearer(member.user));
    const asset = current.body.data.asset;
    expect(asset.certificateUrl).toBeNull();
    expect(asset.validUntil).toBeNull();
    const card = await download(app, asset.idCardUrl);
    const [front, back] = pdfPagesText(card);
    expect(front).toContain(LONG_NAME);
    expect(front).toContain(member.uniqueId);
    expect(front).toContain("Member in formation");
    expect(front).toContain("VALID UNTIL One year from the oath");
    expect(front.toUpperCase()).toContain("PEARL OF THE ORIENT");
    expect(back).toContain(ORG.signatoryName);
    expect(back).toContain(ORG.signatoryTitle);
    // The seal (137 × 131) on both sides, the photo (300 × 300) on the front.
    const images = pdfImages(card);
    expect(images).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ page: 1, width: 137, height: 131 }),
        expect.objectContaining({ page: 2, width: 137, height: 131 }),
        expect.objectContaining({ page: 1, width: 300, height: 300 }),
      ]),
    );
    const profileUrl = `https://chaplains.example.org/profile/${member.uniqueId}`;
    expect(decodeQrPng(pdfPagePng(card, 2, 300))).toBe(profileUrl);
  });

  it("issues the certificate at the oath, dated its day, and the card with its valid until", async () => {
    const { app, admin } = scenario();
    const member = await memberBeforeOath(app, admin, LONG);
    const oathDay = dayFromNow(-3);
    const mailsBefore = app.mail.messages.length;
    await takeOath(app, admin, member, oathDay);
    const end = new Date(`${oathDay}T00:00:00Z`);
    end.setUTCMonth(end.getUTCMonth() + 12);

    const current = await app
      .http()
      .get(`${API}/members/current/id-generation`)
      .set(bearer(member.user));
    const asset = current.body.data.asset;
    expect(new Date(asset.validUntil).getTime()).toBe(end.getTime());
    const certificate = await download(app, asset.certificateUrl);
    const [text] = pdfPagesText(certificate);
    for (const expected of [
      DEFAULT_NAME.toUpperCase(),
      "Certificate of Membership",
      LONG_NAME,
      "Associate Chaplain",
      `Given on ${dateInWords(new Date(`${oathDay}T00:00:00Z`))}, the day of the oath.`,
      `Member ID: ${member.uniqueId}`,
      `Valid until ${manilaDate(end)}`,
      ORG.signatoryName,
      ORG.signatoryTitle,
    ]) {
      expect(text).toContain(expected);
    }
    expect(pdfImages(certificate)).toEqual(
      expect.arrayContaining([expect.objectContaining({ page: 1, width: 137, height: 131 })]),
    );
    const profileUrl = `https://chaplains.example.org/profile/${member.uniqueId}`;
    expect(decodeQrPng(pdfPagePng(certificate, 1, 150))).toBe(profileUrl);

    const card = await download(app, asset.idCardUrl);
    const [front, back] = pdfPagesText(card);
    expect(front).toContain(LONG_NAME);
    expect(front).toContain("Associate Chaplain");
    expect(front).toContain(`VALID UNTIL ${manilaDate(end)}`);
    expect(back).toContain(`VALID UNTIL ${manilaDate(end)}`);

    // The oath mail: from the organisation, signed with its contacts, the certificate attached.
    const mail = await app.mail.waitFor(member.user.email, {
      subject: /Associate Chaplain/i,
      after: mailsBefore,
    });
    expect(mail.from).toContain(DEFAULT_NAME);
    expect(mail.text).toContain(ORG.address);
    expect(mail.text).toContain(ORG.phone);
    const parsed = await simpleParser(mail.raw);
    const attached = parsed.attachments.find((file) => file.filename === "certificate.pdf");
    expect(pdfPagesText(attached!.content)[0]).toContain(LONG_NAME);

    // New settings print on what is rendered from now on; what was issued keeps its own.
    const renamed = await app
      .http()
      .put(`${API}/settings/organisation`)
      .set(bearer(admin))
      .send({ ...ORG, sealFileId, signatoryName: "Bishop Lorenzo Ramos" });
    expect(renamed.status).toBe(200);
    const issued = pdfPagesText(await download(app, asset.certificateUrl))[0];
    expect(issued).toContain(ORG.signatoryName);
    expect(issued).not.toContain("Bishop Lorenzo Ramos");
    const again = await app
      .http()
      .put(`${API}/members/current/id-generation`)
      .set(bearer(member.user))
      .send({});
    expect(again.status).toBe(200);
    const reprinted = pdfPagesText(await download(app, again.body.data.asset.certificateUrl))[0];
    expect(reprinted).toContain("Bishop Lorenzo Ramos");
    expect(reprinted).toContain(`Given on ${dateInWords(new Date(`${oathDay}T00:00:00Z`))}`);
    // Back to the settings the other tests print.
    await app
      .http()
      .put(`${API}/settings/organisation`)
      .set(bearer(admin))
      .send({ ...ORG, sealFileId });
  });
});

describe("GraphQL settings", () => {
  it("saves and reads the settings as REST does, and refuses a blank name", async () => {
    const { app, admin } = scenario();
    const bad = await app.graphql(
      UpdateOrganisationSettingsDocument,
      { name: " ", shortName: "X", signatoryName: "A", signatoryTitle: "B", sealFileId: null },
      admin.token,
    );
    expect(bad.errors?.[0].extensions.code).toBe("VALIDATION_ERROR");
    const saved = await app.graphql(
      UpdateOrganisationSettingsDocument,
      {
        name: ORG.name,
        shortName: ORG.shortName,
        signatoryName: ORG.signatoryName,
        signatoryTitle: ORG.signatoryTitle,
        sealFileId,
      },
      admin.token,
    );
    expect(saved.data?.updateOrganisationSettings.data).toEqual({
      name: ORG.name,
      signatoryName: ORG.signatoryName,
      sealFileId,
    });
  });
});
