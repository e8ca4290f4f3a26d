/*
 * Certificates on the public page (owner edits): added from the member's own
 * CERTIFICATE uploads with a credentialId issued here, changed and removed by their owner only,
 * shown (and their files served publicly) while the member is listed.
 */
import {
  CreateCertificateDocument,
  CurrentCertificatesDocument,
  DeleteCertificateDocument,
  PublicMemberDocument,
  UpdateCertificateDocument,
} from "../graphql/generated";
import { applyAs, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { storageDir } from "../support/file-samples";
import { useScenario } from "../support/scenario";
import {
  approvedMember,
  as,
  choose,
  publicFileStatus,
  publicPage,
  uploaded,
} from "../support/profile-fixtures";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });
const CREDENTIAL_ID = /^CERT-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;

let owner: Awaited<ReturnType<typeof approvedMember>>;
let other: Awaited<ReturnType<typeof approvedMember>>;

beforeAll(async () => {
  const { app, admin } = scenario();
  owner = await approvedMember(app, admin);
  other = await approvedMember(app, admin);
});

const certificatesOf = async (memberId: string) =>
  rawDb(scenario().app).connection.collection("member_certificates").find({ memberId }).toArray();

describe("POST /members/current/certificates", () => {
  it("adds one from the caller's CERTIFICATE upload, with a credentialId issued here (201)", async () => {
    const { app } = scenario();
    const file = await uploaded(app, owner.user, "CERTIFICATE", true);
    const response = await as(app, owner.user)("post", "/members/current/certificates", {
      title: " Basic Chaplaincy Course ",
      certificateUrl: file.fileUrl,
      issuedAt: "2025-03-01",
    });
    expect(response.status).toBe(201);
    expect(response.body.code).toBe("CREATED");
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(
      ["certificateUrl", "createdAt", "credentialId", "dateReceived", "id", "title"].sort(),
    );
    expect(data).toMatchObject({
      title: "Basic Chaplaincy Course",
      dateReceived: "2025-03-01T00:00:00.000Z",
    });
    expect(data.credentialId).toMatch(CREDENTIAL_ID);
    // The owner's answer links the file privately: it is public only while the page shows it.
    expect(data.certificateUrl).toContain(`/files/${file.id}?expires=`);
    const stored = await rawDb(app).files.findById(file.id).lean();
    expect(stored?.unnamedSince).toBeNull();

    const mine = await as(app, owner.user)("get", "/members/current/certificates");
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([data.id]);
  });

  it("keeps credentialIds unique by a unique index, each certificate its own", async () => {
    const { app } = scenario();
    const indexes = await rawDb(app).connection.collection("member_certificates").indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: { credentialId: 1 }, unique: true })]),
    );
    const file = await uploaded(app, owner.user, "CERTIFICATE");
    const ids = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const added = await as(app, owner.user)("post", "/members/current/certificates", {
        title: `Seminar ${i}`,
        certificateUrl: file.id,
        issuedAt: "2024-01-0" + String(i + 1),
      });
      expect(added.status).toBe(201);
      ids.add(added.body.data.credentialId as string);
    }
    expect(ids.size).toBe(3);
  });

  it.each([
    [
      "another member's file",
      async () => (await uploaded(scenario().app, other.user, "CERTIFICATE")).id,
    ],
    [
      "an upload of another purpose",
      async () => (await uploaded(scenario().app, owner.user, "REQUIREMENT", true)).id,
    ],
    ["a link from elsewhere", () => Promise.resolve("https://example.org/certificate.pdf")],
  ])("refuses %s: 400 on certificateUrl, nothing stored", async (_name, ref) => {
    const { app } = scenario();
    const before = (await certificatesOf(owner.id)).length;
    const response = await as(app, owner.user)("post", "/members/current/certificates", {
      title: "Not mine",
      certificateUrl: await ref(),
      issuedAt: "2025-01-01",
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual(["certificateUrl"]);
    expect(await certificatesOf(owner.id)).toHaveLength(before);
  });

  it("refuses a date in the future, a blank title and a missing file with 400", async () => {
    const { app } = scenario();
    const file = await uploaded(app, owner.user, "CERTIFICATE");
    const send = (body: object) =>
      as(app, owner.user)("post", "/members/current/certificates", body);
    const future = await send({ title: "Later", certificateUrl: file.id, issuedAt: "2999-01-01" });
    expect(future.status).toBe(400);
    expect(future.body.errors[0].path).toBe("issuedAt");
    const blank = await send({ title: "  ", certificateUrl: file.id, issuedAt: "2024-01-01" });
    expect(blank.body.errors[0].path).toBe("title");
    const missing = await send({ title: "No file", issuedAt: "2024-01-01" });
    expect(missing.status).toBe(400);
    // The file named in the refused requests stays unnamed: the orphan sweep may take it.
    expect((await rawDb(app).files.findById(file.id).lean())?.unnamedSince).not.toBeNull();
  });

  it("is for APPROVED records: a PENDING applicant gets 409, someone without one 404", async () => {
    const { app } = scenario();
    const applicant = await buildUser(app);
    await applyAs(app, applicant);
    const file = await uploaded(app, applicant, "CERTIFICATE");
    const body = { title: "Early", certificateUrl: file.id, issuedAt: "2024-01-01" };
    const pending = await as(app, applicant)("post", "/members/current/certificates", body);
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe("CONFLICT");
    const nobody = await buildUser(app);
    const none = await as(app, nobody)("post", "/members/current/certificates", {
      ...body,
      certificateUrl: (await uploaded(app, nobody, "CERTIFICATE")).id,
    });
    expect(none.status).toBe(404);
    expect((await as(app, applicant)("get", "/members/current/certificates")).body.data).toEqual(
      [],
    );
  });
});

describe("PUT and DELETE /members/current/certificates/{id}", () => {
  async function added(user: TestUser) {
    const { app } = scenario();
    const file = await uploaded(app, user, "CERTIFICATE");
    const response = await as(app, user)("post", "/members/current/certificates", {
      title: "Original",
      certificateUrl: file.id,
      issuedAt: "2024-05-05",
    });
    return { ...(response.body.data as { id: string; credentialId: string }), fileId: file.id };
  }

  it("changes the owner's own; a new file releases the old one; the credentialId stays", async () => {
    const { app } = scenario();
    const certificate = await added(owner.user);
    const replacement = await uploaded(app, owner.user, "CERTIFICATE", true);
    const response = await as(app, owner.user)(
      "put",
      `/members/current/certificates/${certificate.id}`,
      { title: "Renamed", certificateUrl: replacement.fileUrl },
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: certificate.id,
      credentialId: certificate.credentialId,
      title: "Renamed",
      dateReceived: "2024-05-05T00:00:00.000Z",
    });
    expect(response.body.data.certificateUrl).toContain(`/files/${replacement.id}?`);
    const files = rawDb(app).files;
    expect((await files.findById(certificate.fileId).lean())?.unnamedSince).not.toBeNull();
    expect((await files.findById(replacement.id).lean())?.unnamedSince).toBeNull();
  });

  it("another member's certificate is the 404, for PUT and DELETE, and stays as it was", async () => {
    const { app } = scenario();
    const theirs = await added(other.user);
    const put = await as(app, owner.user)("put", `/members/current/certificates/${theirs.id}`, {
      title: "Taken over",
    });
    expect(put.status).toBe(404);
    expect(put.body.code).toBe("NOT_FOUND");
    const del = await as(app, owner.user)("delete", `/members/current/certificates/${theirs.id}`);
    expect(del.status).toBe(404);
    const stored = await rawDb(app)
      .connection.collection("member_certificates")
      .findOne({ _id: theirs.id as never });
    expect(stored).toMatchObject({ title: "Original", memberId: other.id });
  });

  it("DELETE answers 204, takes it off the page and releases its file", async () => {
    const { app } = scenario();
    const certificate = await added(owner.user);
    const response = await as(app, owner.user)(
      "delete",
      `/members/current/certificates/${certificate.id}`,
    );
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await certificatesOf(owner.id)).not.toContainEqual(
      expect.objectContaining({ _id: certificate.id }),
    );
    expect(
      (await rawDb(app).files.findById(certificate.fileId).lean())?.unnamedSince,
    ).not.toBeNull();
    const again = await as(app, owner.user)(
      "delete",
      `/members/current/certificates/${certificate.id}`,
    );
    expect(again.status).toBe(404);
  });

  it("a file two certificates show stays named until neither does", async () => {
    const { app } = scenario();
    const file = await uploaded(app, owner.user, "CERTIFICATE");
    const add = (title: string) =>
      as(app, owner.user)("post", "/members/current/certificates", {
        title,
        certificateUrl: file.id,
        issuedAt: "2024-02-02",
      });
    const first = (await add("First")).body.data.id as string;
    const second = (await add("Second")).body.data.id as string;
    await as(app, owner.user)("delete", `/members/current/certificates/${first}`);
    expect((await rawDb(app).files.findById(file.id).lean())?.unnamedSince).toBeNull();
    await as(app, owner.user)("delete", `/members/current/certificates/${second}`);
    expect((await rawDb(app).files.findById(file.id).lean())?.unnamedSince).not.toBeNull();
  });
});

describe("certificates on the public page", () => {
  it("are shown, and their files served publicly, exactly while the member is listed", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    const file = await uploaded(app, member.user, "CERTIFICATE", true);
    const added = await as(app, member.user)("post", "/members/current/certificates", {
      title: "Hospital Chaplaincy",
      certificateUrl: file.id,
      issuedAt: "2023-09-09",
    });
    expect((await publicPage(app, member.uniqueId)).body.data.certificates).toEqual([]);
    expect(await publicFileStatus(app, file.id)).toBe(404);

    await choose(app, member.user, { listed: true });
    const shown = await publicPage(app, member.uniqueId);
    expect(shown.body.data.certificates).toEqual([
      {
        ...added.body.data,
        certificateUrl: expect.stringMatching(new RegExp(`/api/v1/files/public/${file.id}$`)),
      },
    ]);
    expect(await publicFileStatus(app, file.id)).toBe(200);

    await choose(app, member.user, {});
    expect((await publicPage(app, member.uniqueId)).body.data.certificates).toEqual([]);
    expect(await publicFileStatus(app, file.id)).toBe(404);
  });
});

describe("through /graphql", () => {
  it("lists, adds, changes and removes the caller's certificates", async () => {
    const { app } = scenario();
    const file = await uploaded(app, owner.user, "CERTIFICATE");
    const token = owner.user.token;
    const created = await app.graphql(
      CreateCertificateDocument,
      { title: "Graph course", certificateUrl: file.id, issuedAt: "2024-03-03" },
      token,
    );
    const certificate = created.data!.createCertificate.data;
    expect(certificate).toMatchObject({ title: "Graph course" });
    expect(certificate.credentialId).toMatch(CREDENTIAL_ID);
    const listed = await app.graphql(CurrentCertificatesDocument, {}, token);
    expect(listed.data?.currentCertificates.data.map((c) => c.id)).toContain(certificate.id);
    const changed = await app.graphql(
      UpdateCertificateDocument,
      { id: certificate.id, title: "Graph course II" },
      token,
    );
    expect(changed.data?.updateCertificate.data.title).toBe("Graph course II");
    const refused = await app.graphql(
      UpdateCertificateDocument,
      { id: certificate.id, title: "Theirs" },
      other.user.token,
    );
    expect(refused.errors?.[0].extensions.code).toBe("NOT_FOUND");
    const removed = await app.graphql(DeleteCertificateDocument, { id: certificate.id }, token);
    expect(removed.data?.deleteCertificate.code).toBe("OK");
    const page = await app.graphql(PublicMemberDocument, { id: owner.id });
    expect(page.data?.publicMember.data.certificates).toEqual([]);
  });
});
