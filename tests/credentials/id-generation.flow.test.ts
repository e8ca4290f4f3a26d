import { readFileSync } from "node:fs";
import path from "node:path";
import { storageDir, upload } from "../support/file-samples";
import { approvedMemberOf, bearer, buildOffice } from "../support/factories";
import {
  decodeQrPng,
  pdfImages,
  pdfPagePng,
  pdfPageSizes,
  pdfPagesText,
} from "../support/pdf-reading";
import { download } from "../support/membership-year";
import { useScenario } from "../support/scenario";

const storage = storageDir();
const scenario = useScenario({ env: { ...storage.env, APP_URL: "https://chaplains.example.org" } });
const api = () => scenario().app.http();
const PHOTO = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
const ID_GENERATION = "/api/v1/members/current/id-generation";

interface Asset {
  profileUrl: string;
  qrCodeUrl: string;
  certificateUrl: string | null;
  idCardUrl: string;
  generatedAt: string;
}

let offices = 0;

/** An approved member with an approved-to-be 2x2 photo, an office and a verified payment. */
async function memberReadyForId() {
  const { app, admin } = scenario();
  const member = await approvedMemberOf(app, admin, {
    firstName: "Maria Clara",
    lastName: "Santos",
  });
  const uploaded = await upload(app, member.user, PHOTO, { filename: "photo.jpg" });
  expect(uploaded.status).toBe(201);
  const photoId = (uploaded.body as { data: { id: string } }).data.id;
  const requirements = await api()
    .put("/api/v1/members/current/requirements")
    .set(bearer(member.user))
    .send({ attachments: [{ type: "PHOTO_2X2", fileId: photoId }] });
  expect(requirements.status).toBe(200);

  offices += 1;
  const office = await buildOffice(app, admin, { name: `City Chaplain of Quezon City ${offices}` });
  const appointed = await api()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({ memberId: member.id, startDate: "2026-01-01" });
  expect(appointed.status).toBe(201);

  const paid = await api()
    .put("/api/v1/members/current/payment-checkout")
    .set(bearer(member.user))
    .send({ paymentMethod: "CASH" });
  expect(paid.status).toBe(200);
  const unverified = await api().put(ID_GENERATION).set(bearer(member.user)).send({});
  expect(unverified.status).toBe(409);
  const verified = await api()
    .patch(`/api/v1/members/${member.id}/payment`)
    .set(bearer(admin))
    .send({ status: "VERIFIED" });
  expect(verified.status).toBe(200);
  // The card is printed only from an approved photo: refused, naming it, until then.
  const unapproved = await api().put(ID_GENERATION).set(bearer(member.user)).send({});
  expect(unapproved.status).toBe(409);
  expect(unapproved.body.message).toMatch(/2x2 photo has not been APPROVED/);
  const approved = await api()
    .patch(`/api/v1/members/${member.id}/requirements/PHOTO_2X2`)
    .set(bearer(admin))
    .send({ reviewStatus: "APPROVED" });
  expect(approved.status).toBe(200);
  return member;
}

describe("ID generation once the payment is verified", () => {
  it("renders the QR code and ID card as the member's private files; no certificate before the oath", async () => {
    const member = await memberReadyForId();
    const response = await api().put(ID_GENERATION).set(bearer(member.user)).send({
      certificateUrl: "https://evil.example/forged.pdf",
      idCardUrl: "https://evil.example/x",
    });
    expect(response.status).toBe(200);
    const { uniqueId, asset } = response.body.data as { uniqueId: string; asset: Asset };
    expect(uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
    const profileUrl = `https://chaplains.example.org/profile/${uniqueId}`;
    expect(asset.profileUrl).toBe(profileUrl);
    expect(JSON.stringify(asset)).not.toContain("evil.example");

    expect(decodeQrPng(await download(scenario().app, asset.qrCodeUrl))).toBe(profileUrl);

    // The certificate is issued at the oath (tests/credentials/membership-year.test.ts).
    expect(asset.certificateUrl).toBeNull();

    const card = await download(scenario().app, asset.idCardUrl);
    const sizes = await pdfPageSizes(card);
    expect(sizes.map(([w, h]) => [w.toFixed(2), h.toFixed(2)])).toEqual([
      ["242.65", "153.01"],
      ["242.65", "153.01"],
    ]);
    const [front, back] = pdfPagesText(card);
    for (const text of [
      "Maria Clara Santos",
      uniqueId,
      "Member in formation",
      "City Chaplain of Quezon City",
    ]) {
      expect(front).toContain(text);
    }
    expect(back.replace(/ /g, "")).toContain(profileUrl);
    expect(back).toMatch(/VALID UNTIL One year from the oath/);
    // The member's own 2x2 photo (300×300) on the front.
    expect(pdfImages(card)).toEqual(
      expect.arrayContaining([expect.objectContaining({ page: 1, width: 300, height: 300 })]),
    );
    expect(decodeQrPng(pdfPagePng(card, 2, 200))).toBe(profileUrl);

    const again = await api().get(ID_GENERATION).set(bearer(member.user));
    expect(again.body.data).toMatchObject({
      uniqueId,
      asset: { profileUrl, generatedAt: asset.generatedAt },
    });
    const stranger = await api()
      .get(new URL(asset.idCardUrl, "http://service.invalid").pathname)
      .set(bearer(scenario().admin));
    expect(stranger.status).toBe(200);
  });

  it("replaces the files on a new render and releases the old ones", async () => {
    const { app } = scenario();
    const member = await memberReadyForId();
    const first = await api().put(ID_GENERATION).set(bearer(member.user)).send({});
    const second = await api().put(ID_GENERATION).set(bearer(member.user)).send({});
    expect(second.status).toBe(200);
    const idOf = (url: string) => new URL(url, "http://service.invalid").pathname.split("/").pop()!;
    const before = first.body.data.asset as Asset;
    const after = second.body.data.asset as Asset;
    expect(idOf(after.idCardUrl)).not.toBe(idOf(before.idCardUrl));
    const files = app.connection.model<{ _id: string; unnamedSince: Date | null }>("StoredFile");
    const old = await Promise.all(
      [before.qrCodeUrl, before.idCardUrl].map((url) => files.findById(idOf(url)).lean()),
    );
    expect(old.map((file) => file?.unnamedSince)).toEqual([expect.any(Date), expect.any(Date)]);
    const current = await files.findById(idOf(after.idCardUrl)).lean();
    expect(current?.unnamedSince).toBeNull();
    expect(await app.connection.model("Credential").countDocuments({ memberId: member.id })).toBe(
      1,
    );
  });

  it("exports the credential record and erases it with the account", async () => {
    const { app } = scenario();
    const member = await memberReadyForId();
    expect((await api().put(ID_GENERATION).set(bearer(member.user)).send({})).status).toBe(200);
    const exported = await api().get("/api/v1/users/current/export").set(bearer(member.user));
    expect(exported.body.data.credentials).toEqual([
      expect.objectContaining({ memberId: member.id, uniqueId: expect.stringMatching(/^POI-/) }),
    ]);
    expect((await api().delete("/api/v1/users/current").set(bearer(member.user))).status).toBe(204);
    expect(
      await app.connection.model("Credential").countDocuments({ userId: member.user.id }),
    ).toBe(0);
  });
});
