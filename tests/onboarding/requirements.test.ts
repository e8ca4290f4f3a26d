import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { PDF, PNG, storageDir, upload } from "../support/file-samples";
import { rawDb } from "../support/raw-db";
import { API, adminCall, approvedMember } from "../support/onboarding";
import { SaveCurrentRequirementsDocument } from "../graphql/generated";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: storageDir().env }));
});
afterAll(() => app?.close());

const uploaded = async (user: TestUser, bytes = PDF, purpose = "REQUIREMENT") => {
  const response = await upload(app, user, bytes, { purpose, filename: "doc.pdf" });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; fileUrl: string };
};

describe("GET /members/current/requirements", () => {
  it("answers 404 without an application", async () => {
    const user = await buildUser(app);
    const response = await app.http().get(`${API}/members/current/requirements`).set(bearer(user));
    expect(response.status).toBe(404);
  });

  it("answers a pending applicant with the status and an empty map of the 13 types", async () => {
    const user = await buildUser(app);
    const record = await applyAs(app, user);
    const { body } = await app.http().get(`${API}/members/current/requirements`).set(bearer(user));
    expect(body.data).toMatchObject({
      memberId: record.id,
      status: "PENDING",
      uniqueId: null,
      requirements: [],
    });
    expect(Object.keys(body.data.attachments)).toHaveLength(13);
    expect(body.data.attachments.photo_2x2).toBeNull();
    expect(body.data.attachments.clearance_nbi).toBeNull();
  });
});

describe("PUT /members/current/requirements", () => {
  it("attaches files by id or fileUrl, one per type, PENDING, with fresh links", async () => {
    const member = await approvedMember(app, admin);
    const photo = await uploaded(member.user, PNG);
    const nbi = await uploaded(member.user);
    const response = await member.put("/members/current/requirements", {
      attachments: [
        { type: "PHOTO_2X2", fileId: photo.id },
        { type: "CLEARANCE_NBI", fileUrl: nbi.fileUrl },
      ],
    });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.status).toBe("APPROVED");
    expect(data.attachments.photo_2x2).toEqual(expect.stringContaining(photo.id));
    expect(data.attachments.clearance_nbi).toEqual(expect.stringContaining(nbi.id));
    expect(data.requirements).toHaveLength(2);
    for (const requirement of data.requirements) {
      expect(requirement).toMatchObject({ reviewStatus: "PENDING", reviewNote: null });
    }
    const read = await app
      .http()
      .get(data.attachments.clearance_nbi.replace(/^https?:\/\/[^/]+/, ""));
    expect(read.status).toBe(200);
  });

  it("refuses a file of another purpose or another account (400 on the field) and a pending record (409)", async () => {
    const member = await approvedMember(app, admin);
    const proof = await uploaded(member.user, PNG, "PAYMENT_PROOF");
    const wrong = await member.put("/members/current/requirements", {
      attachments: [{ type: "PHOTO_2X2", fileId: proof.id }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].path).toBe("attachments.0.fileId");
    const other = await approvedMember(app, admin);
    const theirs = await uploaded(other.user);
    const stolen = await member.put("/members/current/requirements", {
      attachments: [{ type: "CLEARANCE_POLICE", fileUrl: theirs.fileUrl }],
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors[0].path).toBe("attachments.0.fileUrl");
    expect((await member.get("/members/current/requirements")).body.data.requirements).toEqual([]);

    const user = await buildUser(app);
    await applyAs(app, user);
    const mine = await uploaded(user);
    const pending = await app
      .http()
      .put(`${API}/members/current/requirements`)
      .set(bearer(user))
      .send({ attachments: [{ type: "LETTER_OF_INTENT", fileId: mine.id }] });
    expect(pending.status).toBe(409);
  });

  it("a new file resets its review; an APPROVED document cannot be replaced", async () => {
    const member = await approvedMember(app, admin);
    const first = await uploaded(member.user);
    await member.put("/members/current/requirements", {
      attachments: [{ type: "LETTER_OF_INTENT", fileId: first.id }],
    });
    const rejected = await adminCall(app, admin).patch(
      `/members/${member.id}/requirements/LETTER_OF_INTENT`,
      { reviewStatus: "REJECTED", note: "Unsigned letter" },
    );
    expect(rejected.status).toBe(200);
    const second = await uploaded(member.user);
    const replaced = await member.put("/members/current/requirements", {
      attachments: [{ type: "LETTER_OF_INTENT", fileId: second.id }],
    });
    expect(replaced.body.data.requirements[0]).toMatchObject({
      reviewStatus: "PENDING",
      reviewNote: null,
    });
    await adminCall(app, admin).patch(`/members/${member.id}/requirements/LETTER_OF_INTENT`, {
      reviewStatus: "APPROVED",
    });
    const third = await uploaded(member.user);
    const refused = await member.put("/members/current/requirements", {
      attachments: [{ type: "LETTER_OF_INTENT", fileId: third.id }],
    });
    expect(refused.status).toBe(409);
    const after = await member.get("/members/current/requirements");
    expect(after.body.data.requirements[0]).toMatchObject({
      fileId: second.id,
      reviewStatus: "APPROVED",
    });
  });
});

describe("the administrators' review", () => {
  it("a rejection needs a note, is mailed to the member and audited", async () => {
    const member = await approvedMember(app, admin);
    const photo = await uploaded(member.user, PNG);
    await member.put("/members/current/requirements", {
      attachments: [{ type: "PHOTO_2X2", fileId: photo.id }],
    });
    const path = `/members/${member.id}/requirements/PHOTO_2X2`;
    const noNote = await adminCall(app, admin).patch(path, { reviewStatus: "REJECTED" });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors[0].path).toBe("note");
    const mailsBefore = app.mail.messages.length;
    const rejected = await adminCall(app, admin).patch(path, {
      reviewStatus: "REJECTED",
      note: "The photo is blurred",
    });
    expect(rejected.body.data).toMatchObject({
      reviewStatus: "REJECTED",
      reviewNote: "The photo is blurred",
    });
    const mail = await app.mail.waitFor(member.user.email, {
      subject: /2x2 photo/i,
      after: mailsBefore,
    });
    expect(mail.text).toContain("The photo is blurred");
    const progress = await member.get("/members/current/onboarding-progress");
    expect(progress.body.data.steps[0].missing[0]).toMatch(/not accepted: upload a new one/);
    const audit = await adminCall(app, admin).get("/audit-logs?limit=100");
    expect(JSON.stringify(audit.body)).toContain("requirement.review");
    expect((await member.get("/requirements/pending")).status).toBe(403);
  });

  it("a type the member never attached is a 404; a bad type a 400", async () => {
    const member = await approvedMember(app, admin);
    const missing = await adminCall(app, admin).patch(
      `/members/${member.id}/requirements/CLEARANCE_NBI`,
      { reviewStatus: "APPROVED" },
    );
    expect(missing.status).toBe(404);
    const bad = await adminCall(app, admin).patch(`/members/${member.id}/requirements/SELFIE`, {
      reviewStatus: "APPROVED",
    });
    expect(bad.status).toBe(400);
  });

  it("GET /requirements/pending lists documents waiting for review, oldest first", async () => {
    const a = await approvedMember(app, admin);
    const b = await approvedMember(app, admin);
    const fileA = await uploaded(a.user);
    await a.put("/members/current/requirements", {
      attachments: [{ type: "CLEARANCE_BARANGAY", fileId: fileA.id }],
    });
    const fileB = await uploaded(b.user);
    await b.put("/members/current/requirements", {
      attachments: [{ type: "CLEARANCE_BARANGAY", fileId: fileB.id }],
    });
    const page = await adminCall(app, admin).get("/requirements/pending?limit=100");
    expect(page.status).toBe(200);
    const ids = page.body.data.map((row: { memberId: string }) => row.memberId);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    const row = page.body.data.find((item: { memberId: string }) => item.memberId === b.id);
    expect(row).toMatchObject({
      type: "CLEARANCE_BARANGAY",
      reviewStatus: "PENDING",
      fullName: b.name,
    });
    expect(page.body.pagination).toMatchObject({ currentPage: 1, limit: 100 });
  });
});

/** Whether a record names the file (the orphan sweep leaves it alone). */
const named = async (fileId: string) =>
  (await rawDb(app).files.findById(fileId).lean())?.unnamedSince === null;

describe("the whole list sent again, as the organisation's site does", () => {
  it("an APPROVED document's current file, by id or any link of ours, is accepted and changes nothing", async () => {
    const member = await approvedMember(app, admin);
    const photo = await uploaded(member.user, PNG);
    const first = await member.put("/members/current/requirements", {
      attachments: [{ type: "PHOTO_2X2", fileUrl: photo.fileUrl }],
    });
    const firstLink = first.body.data.attachments.photo_2x2 as string;
    await adminCall(app, admin).patch(`/members/${member.id}/requirements/PHOTO_2X2`, {
      reviewStatus: "APPROVED",
    });
    const before = (await member.get("/members/current/requirements")).body.data;
    const approved = before.requirements[0];
    expect(approved).toMatchObject({ type: "PHOTO_2X2", reviewStatus: "APPROVED" });
    const letter = await uploaded(member.user);
    for (const ref of [
      { fileUrl: before.attachments.photo_2x2 },
      { fileUrl: firstLink },
      { fileUrl: `/api/v1/files/public/${photo.id}` },
      { fileId: photo.id },
    ]) {
      const again = await member.put("/members/current/requirements", {
        attachments: [
          { type: "PHOTO_2X2", ...ref },
          { type: "LETTER_OF_INTENT", fileId: letter.id },
        ],
      });
      expect(again.status).toBe(200);
      const kept = again.body.data.requirements.find(
        (row: { type: string }) => row.type === "PHOTO_2X2",
      );
      expect(kept).toMatchObject({
        fileId: photo.id,
        reviewStatus: "APPROVED",
        updatedAt: approved.updatedAt,
      });
    }
    const viaGraphql = await app.graphql(
      SaveCurrentRequirementsDocument,
      { attachments: [{ type: "PHOTO_2X2", fileId: photo.id }] },
      member.user.token,
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(viaGraphql.data!.saveCurrentRequirements.data.requirements).toContainEqual({
      type: "PHOTO_2X2",
      fileId: photo.id,
      reviewStatus: "APPROVED",
      updatedAt: approved.updatedAt,
    });

    // Another file for the APPROVED type is still a 409, and the rest of that list is not kept.
    const other = await uploaded(member.user, PNG);
    const clearance = await uploaded(member.user);
    const replaced = await member.put("/members/current/requirements", {
      attachments: [
        { type: "CLEARANCE_NBI", fileId: clearance.id },
        { type: "PHOTO_2X2", fileId: other.id },
      ],
    });
    expect(replaced.status).toBe(409);
    const after = (await member.get("/members/current/requirements")).body.data;
    expect(after.attachments.clearance_nbi).toBeNull();
    expect(await named(clearance.id)).toBe(false);
    expect(await named(other.id)).toBe(false);
    expect(await named(photo.id)).toBe(true);
  });
});

describe("the 2x2 photo", () => {
  it("must be a PNG, JPEG or WebP image: a PDF is a 400 on its item, and the request stores nothing", async () => {
    const member = await approvedMember(app, admin);
    const pdf = await uploaded(member.user, PDF);
    const letter = await uploaded(member.user);
    const response = await member.put("/members/current/requirements", {
      attachments: [
        { type: "LETTER_OF_INTENT", fileId: letter.id },
        { type: "PHOTO_2X2", fileUrl: pdf.fileUrl },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: "VALIDATION_ERROR",
      message: "The 2x2 photo must be a PNG, JPEG or WebP image",
      errors: [
        {
          path: "attachments.1.fileUrl",
          message: "The 2x2 photo must be a PNG, JPEG or WebP image",
        },
      ],
      ...(response.body.error ? { error: response.body.error } : {}),
    });
    expect((await member.get("/members/current/requirements")).body.data.requirements).toEqual([]);
    expect(await named(pdf.id)).toBe(false);
    expect(await named(letter.id)).toBe(false);

    const viaGraphql = await app.graphql(
      SaveCurrentRequirementsDocument,
      { attachments: [{ type: "PHOTO_2X2", fileId: pdf.id }] },
      member.user.token,
    );
    expect(viaGraphql.errors![0]).toMatchObject({
      message: "The 2x2 photo must be a PNG, JPEG or WebP image",
      extensions: { code: "VALIDATION_ERROR", status: 400 },
    });
    // A PDF stays fine for the other documents.
    const asLetter = await member.put("/members/current/requirements", {
      attachments: [{ type: "LETTER_OF_INTENT", fileId: pdf.id }],
    });
    expect(asLetter.status).toBe(200);
  });
});
