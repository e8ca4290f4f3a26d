/**
 * Issue 53 point 1: a phone's photo keeps where it was taken in its metadata; the service
 * stores none of it. A JPEG (by POST /files) and a PNG (by the site's upload link), each with
 * planted GPS Exif, XMP and comments, go the whole way: attached as PHOTO_2X2, approved by an
 * administrator, shown on the public page, rendered on the ID card. The traces are looked for
 * in the stored object, the signed link's bytes, the public bytes and the card's PDF and the
 * images pdfimages extracts from it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import { gpsTraces, jpegWithGps, pngWithGps } from "../support/gps-photos";
import { pdfImageFiles, pdfImages } from "../support/pdf-reading";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { storageDir, upload } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });

const local = (url: string) => {
  const parsed = new URL(url, "http://service.invalid");
  return `${parsed.pathname}${parsed.search}`;
};

async function bytesAt(app: TestApp, url: string, user?: TestUser): Promise<Buffer> {
  const request = app.http().get(local(url)).buffer(true);
  if (user) request.set(bearer(user));
  const response = await request.parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => done(null, Buffer.concat(chunks)));
  });
  expect([url, response.status]).toEqual([url, 200]);
  return response.body as Buffer;
}

/** The dirty photo uploaded the site's way: presign, then PUT to the link. */
async function uploadBySite(app: TestApp, user: TestUser, bytes: Buffer, name: string) {
  const presigned = await app
    .http()
    .post("/api/v1/members/requirements/upload?actionType=upload&slug=requirementUploader")
    .set(bearer(user))
    .send({ files: [{ name, size: bytes.length, type: "image/png" }] });
  expect(presigned.status).toBe(200);
  const stored = await app
    .http()
    .put(local(presigned.body[0].url))
    .attach("file", bytes, { filename: name, contentType: "image/png" });
  expect(stored.status).toBe(200);
  return stored.body.serverData as { fileId: string; fileUrl: string };
}

describe.each([
  ["a JPEG by POST /files", "jpeg"],
  ["a PNG by the site's upload link", "png"],
] as const)("%s with planted GPS tags", (_label, format) => {
  it("is stored, linked, shown publicly and printed on the ID card without them", async () => {
    const { app, admin } = scenario();
    const member = await approvedMemberOf(app, admin, {
      firstName: "Rosa",
      lastName: "Dimaculangan",
    });
    const dirty = format === "jpeg" ? await jpegWithGps() : await pngWithGps();
    expect(gpsTraces(dirty)).toContain("the GPS marker");

    const photo =
      format === "jpeg"
        ? ((await upload(app, member.user, dirty, { filename: "IMG_2041.jpg" })).body.data as {
            id: string;
            fileUrl: string;
          })
        : await uploadBySite(app, member.user, dirty, "IMG_2041.png").then((data) => ({
            id: data.fileId,
            fileUrl: data.fileUrl,
          }));

    // The stored object: clean, and the record's size and sha256 are its own.
    const record = (await rawDb(app).files.findById(photo.id).lean())!;
    const stored = fs.readFileSync(path.join(storage.dir, record.storageKey));
    expect(gpsTraces(stored)).toEqual([]);
    expect([record.size, record.sha256]).toEqual([
      stored.length,
      createHash("sha256").update(stored).digest("hex"),
    ]);
    expect(record.mimeType).toBe(`image/${format}`);
    // Turned the way the camera was held (the JPEG's Exif orientation), then forgotten.
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([360, 420, undefined]);

    // The signed link's bytes.
    expect(gpsTraces(await bytesAt(app, photo.fileUrl))).toEqual([]);

    // Attached, approved, shown: the public bytes.
    const attached = await app
      .http()
      .put("/api/v1/members/current/requirements")
      .set(bearer(member.user))
      .send({ attachments: [{ type: "PHOTO_2X2", fileUrl: photo.fileUrl }] });
    expect(attached.status).toBe(200);
    const approved = await app
      .http()
      .patch(`/api/v1/members/${member.id}/requirements/PHOTO_2X2`)
      .set(bearer(admin))
      .send({ reviewStatus: "APPROVED" });
    expect(approved.status).toBe(200);
    const shown = await app
      .http()
      .put("/api/v1/members/current/public-profile")
      .set(bearer(member.user))
      .send({ listed: true, showPhoto: true });
    expect(shown.status).toBe(200);
    const page = await app.http().get(`/api/v1/members/public/${member.id}`);
    const photoUrl = page.body.data.photoUrl as string;
    expect(photoUrl).toContain(`/files/public/${photo.id}`);
    const publicBytes = await bytesAt(app, photoUrl);
    expect(gpsTraces(publicBytes)).toEqual([]);
    expect(publicBytes.equals(stored)).toBe(true);

    // The ID card, once the payment is verified: the PDF and every image in it.
    const paid = await app
      .http()
      .put("/api/v1/members/current/payment-checkout")
      .set(bearer(member.user))
      .send({ paymentMethod: "CASH" });
    expect(paid.status).toBe(200);
    const verified = await app
      .http()
      .patch(`/api/v1/members/${member.id}/payment`)
      .set(bearer(admin))
      .send({ status: "VERIFIED" });
    expect(verified.status).toBe(200);
    const generated = await app
      .http()
      .put("/api/v1/members/current/id-generation")
      .set(bearer(member.user))
      .send({});
    expect(generated.status).toBe(200);
    const card = await bytesAt(app, generated.body.data.asset.idCardUrl as string);
    expect(gpsTraces(card)).toEqual([]);
    // The photo is on the card's front (360 × 420, whole), and no extracted image holds a trace.
    expect(pdfImages(card)).toEqual(
      expect.arrayContaining([expect.objectContaining({ page: 1, width: 360, height: 420 })]),
    );
    const images = pdfImageFiles(card);
    expect(images.length).toBeGreaterThanOrEqual(2);
    expect(images.map((image) => [image.name, gpsTraces(image.bytes)])).toEqual(
      images.map((image) => [image.name, []]),
    );
    if (format === "jpeg") {
      // A JPEG goes into the PDF as its own bytes: the card carries exactly the stored ones.
      expect(images.some((image) => image.bytes.equals(stored))).toBe(true);
    }
  }, 90_000);
});

it("stores a listed member's avatar without its metadata, and serves it publicly so", async () => {
  const { app, admin } = scenario();
  const member = await approvedMemberOf(app, admin);
  const avatar = await upload(app, member.user, await jpegWithGps(), {
    purpose: "AVATAR",
    filename: "me.jpg",
  });
  expect(avatar.status).toBe(201);
  await app
    .http()
    .put("/api/v1/members/current/public-profile")
    .set(bearer(member.user))
    .send({ listed: true });
  const served = await bytesAt(app, `/api/v1/files/public/${avatar.body.data.id}`);
  expect(gpsTraces(served)).toEqual([]);
  expect(createHash("sha256").update(served).digest("hex")).toBe(avatar.body.data.sha256);
});
