/*
 * Public records on the public page (owner edits): a title, a description whose
 * HTML is cleaned as news captions are, a type, a date, a place and up to six pictures of the
 * member's own; only PUBLISHED ones (and their pictures) are public.
 */
import {
  CreatePublicRecordDocument,
  CurrentPublicRecordsDocument,
  DeletePublicRecordDocument,
  PublicMemberDocument,
  UpdatePublicRecordDocument,
} from "../graphql/generated";
import { applyAs, buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { storageDir } from "../support/file-samples";
import { useScenario } from "../support/scenario";
import {
  approvedMember,
  as,
  publicFileStatus,
  publicPage,
  uploaded,
  type Uploaded,
} from "../support/profile-fixtures";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });

let owner: Awaited<ReturnType<typeof approvedMember>>;
let other: Awaited<ReturnType<typeof approvedMember>>;

beforeAll(async () => {
  const { app, admin } = scenario();
  owner = await approvedMember(app, admin);
  other = await approvedMember(app, admin);
});

const recordsOf = (memberId: string) =>
  rawDb(scenario().app).connection.collection("member_public_records").find({ memberId }).toArray();
const pictures = (count: number) =>
  Promise.all(
    Array.from({ length: count }, () => uploaded(scenario().app, owner.user, "PUBLIC_RECORD")),
  );
const unnamedSince = async (fileId: string) =>
  (await rawDb(scenario().app).files.findById(fileId).lean())?.unnamedSince ?? null;

function body(attachments: Uploaded[], overrides: object = {}) {
  return {
    title: "Hospital visitation",
    shortDescription: "<p>Prayed with <strong>forty</strong> patients.</p>",
    type: "COMMUNITY_SERVICE",
    eventAt: "2025-03-01",
    location: "Davao City",
    status: "PUBLISHED",
    attachments: attachments.map((file) => ({ fileUrl: file.fileUrl })),
    ...overrides,
  };
}

describe("POST /members/current/public-records", () => {
  it("adds a record with its pictures in order (201); script and event attributes are cleaned", async () => {
    const { app } = scenario();
    const [first, second] = await pictures(2);
    const response = await as(app, owner.user)("post", "/members/current/public-records", {
      ...body([first, second]),
      shortDescription:
        '<p onclick="steal()">Served <em>300</em> families<script>alert(1)</script></p>' +
        '<a href="javascript:alert(2)">link</a><img src=x onerror="alert(3)">',
      attachments: [
        { fileUrl: first.fileUrl, fileName: "Visit.png", mimeType: "text/html" },
        { fileUrl: second.id },
      ],
    });
    expect(response.status).toBe(201);
    const record = response.body.data;
    expect(record).toMatchObject({
      title: "Hospital visitation",
      type: "COMMUNITY_SERVICE",
      eventAt: "2025-03-01T00:00:00.000Z",
      location: "Davao City",
      status: "PUBLISHED",
    });
    expect(record.shortDescription).toBe(
      '<p>Served <em>300</em> families</p><a rel="noopener noreferrer nofollow">link</a>',
    );
    expect(record.attachments).toEqual([
      {
        id: expect.any(String),
        fileUrl: expect.stringContaining(`/files/${first.id}?`),
        fileName: "Visit.png",
        // The stored type, decided by the bytes, whatever the client said.
        mimeType: "image/png",
        sortOrder: 0,
        createdAt: expect.any(String),
      },
      expect.objectContaining({ fileName: "picture.png", mimeType: "image/png", sortOrder: 1 }),
    ]);
    expect(await unnamedSince(first.id)).toBeNull();
  });

  it("refuses seven pictures, a long description and another member's picture: 400, nothing stored", async () => {
    const { app } = scenario();
    const before = (await recordsOf(owner.id)).length;
    const send = (payload: object) =>
      as(app, owner.user)("post", "/members/current/public-records", payload);

    const seven = await send(body(await pictures(7)));
    expect(seven.status).toBe(400);
    expect(seven.body.errors.map((e: { path: string }) => e.path)).toEqual(["attachments"]);

    const long = await send(body([], { shortDescription: `<p>${"a".repeat(3001)}</p>` }));
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe("shortDescription");
    // 3 000 characters of text is the limit, whatever the tags around them.
    const atLimit = await send(
      body([], {
        shortDescription: `<p><b>${"a".repeat(2990)}</b>&amp;${"b".repeat(9)}</p>`,
        status: "DRAFT",
      }),
    );
    expect(atLimit.status).toBe(201);

    const [mine] = await pictures(1);
    const theirs = await uploaded(app, other.user, "PUBLIC_RECORD");
    const foreign = await send(body([mine, theirs]));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "attachments.1.fileUrl",
    ]);
    // The caller's own picture, claimed before the refusal, is unnamed again.
    expect(await unnamedSince(mine.id)).not.toBeNull();
    expect(await unnamedSince(theirs.id)).not.toBeNull();
    expect(await recordsOf(owner.id)).toHaveLength(before + 1);
  });

  it("refuses a CERTIFICATE upload as a picture, an unknown type and a missing date", async () => {
    const { app } = scenario();
    const certificate = await uploaded(app, owner.user, "CERTIFICATE");
    const send = (payload: object) =>
      as(app, owner.user)("post", "/members/current/public-records", payload);
    expect((await send(body([certificate]))).body.errors[0].path).toBe("attachments.0.fileUrl");
    expect((await send(body([], { type: "SERMON" }))).status).toBe(400);
    const undated: Record<string, unknown> = body([]);
    delete undated.eventAt;
    expect((await send(undated)).status).toBe(400);
  });

  it("is for APPROVED records: a PENDING applicant gets 409", async () => {
    const { app } = scenario();
    const applicant = await buildUser(app);
    await applyAs(app, applicant);
    const response = await as(app, applicant)("post", "/members/current/public-records", body([]));
    expect(response.status).toBe(409);
    expect((await as(app, applicant)("get", "/members/current/public-records")).body.data).toEqual(
      [],
    );
  });
});

describe("PUT and DELETE /members/current/public-records/{id}", () => {
  it("replaces the pictures: kept ones keep their id, dropped ones are released", async () => {
    const { app } = scenario();
    const [a, b, c] = await pictures(3);
    const created = await as(app, owner.user)(
      "post",
      "/members/current/public-records",
      body([a, b], { status: "DRAFT" }),
    );
    const record = created.body.data as { id: string; attachments: { id: string }[] };
    const response = await as(app, owner.user)(
      "put",
      `/members/current/public-records/${record.id}`,
      {
        attachments: [{ fileUrl: b.id }, { fileUrl: c.fileUrl }],
        title: "Renamed",
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.title).toBe("Renamed");
    const after = response.body.data.attachments as { id: string; sortOrder: number }[];
    expect(after.map((item) => item.sortOrder)).toEqual([0, 1]);
    expect(after[0].id).toBe(record.attachments[1].id);
    expect(await unnamedSince(a.id)).not.toBeNull();
    expect(await unnamedSince(b.id)).toBeNull();
    expect(await unnamedSince(c.id)).toBeNull();
  });

  it("refuses clearing a required field and another member's record (404), changing nothing", async () => {
    const { app } = scenario();
    const theirs = await as(app, other.user)("post", "/members/current/public-records", body([]));
    const id = theirs.body.data.id as string;
    const put = await as(app, owner.user)("put", `/members/current/public-records/${id}`, {
      status: "DRAFT",
    });
    expect(put.status).toBe(404);
    expect(
      (await as(app, owner.user)("delete", `/members/current/public-records/${id}`)).status,
    ).toBe(404);
    const cleared = await as(app, other.user)("put", `/members/current/public-records/${id}`, {
      title: null,
    });
    expect(cleared.status).toBe(400);
    expect(cleared.body.errors[0].path).toBe("title");
    const stored = await rawDb(app)
      .connection.collection("member_public_records")
      .findOne({ _id: id as never });
    expect(stored).toMatchObject({ status: "PUBLISHED", title: "Hospital visitation" });
  });

  it("DELETE answers 204 and releases the pictures", async () => {
    const { app } = scenario();
    const [picture] = await pictures(1);
    const created = await as(app, owner.user)(
      "post",
      "/members/current/public-records",
      body([picture]),
    );
    const id = created.body.data.id as string;
    const response = await as(app, owner.user)("delete", `/members/current/public-records/${id}`);
    expect(response.status).toBe(204);
    expect(await unnamedSince(picture.id)).not.toBeNull();
    expect((await recordsOf(owner.id)).map((r) => r._id)).not.toContain(id);
  });
});

describe("public records on the public page", () => {
  it("shows PUBLISHED ones only, newest event first; their pictures are public while published", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    const send = as(app, member.user);
    const [shownPicture, draftPicture] = await Promise.all([
      uploaded(app, member.user, "PUBLIC_RECORD"),
      uploaded(app, member.user, "PUBLIC_RECORD"),
    ]);
    const older = await send(
      "post",
      "/members/current/public-records",
      body([], { eventAt: "2024-01-01", title: "Older" }),
    );
    const newer = await send(
      "post",
      "/members/current/public-records",
      body([shownPicture], { eventAt: "2025-06-01", title: "Newer" }),
    );
    const draft = await send(
      "post",
      "/members/current/public-records",
      body([draftPicture], { status: "DRAFT" }),
    );
    expect([older.status, newer.status, draft.status]).toEqual([201, 201, 201]);

    const page = await publicPage(app, member.uniqueId);
    const records = page.body.data.publicRecords as {
      title: string;
      attachments: { fileUrl: string }[];
    }[];
    expect(records.map((record) => record.title)).toEqual(["Newer", "Older"]);
    expect(records[0].attachments[0].fileUrl).toMatch(
      new RegExp(`/api/v1/files/public/${shownPicture.id}$`),
    );
    expect(await publicFileStatus(app, shownPicture.id)).toBe(200);
    expect(await publicFileStatus(app, draftPicture.id)).toBe(404);

    // Unpublished: off the page, and its pictures private again.
    await send("put", `/members/current/public-records/${newer.body.data.id}`, { status: "DRAFT" });
    expect((await publicPage(app, member.uniqueId)).body.data.publicRecords).toHaveLength(1);
    expect(await publicFileStatus(app, shownPicture.id)).toBe(404);
    // The owner's own list has every record, drafts too.
    expect((await send("get", "/members/current/public-records")).body.data).toHaveLength(3);
  });
});

describe("through /graphql", () => {
  it("adds, lists, changes and removes the caller's records", async () => {
    const { app } = scenario();
    const token = owner.user.token;
    const [picture] = await pictures(1);
    const created = await app.graphql(
      CreatePublicRecordDocument,
      {
        title: "Graph training",
        shortDescription: "<script>x()</script><p>Trained 12</p>",
        type: "TRAINING_CONDUCTED",
        eventAt: "2025-02-02",
        location: "Cebu",
        status: "DRAFT",
        attachments: [{ fileUrl: picture.id }],
      },
      token,
    );
    const record = created.data!.createPublicRecord.data;
    expect(record).toMatchObject({ shortDescription: "<p>Trained 12</p>", status: "DRAFT" });
    const listed = await app.graphql(CurrentPublicRecordsDocument, {}, token);
    expect(listed.data?.currentPublicRecords.data.map((r) => r.id)).toContain(record.id);
    const seven = await app.graphql(
      UpdatePublicRecordDocument,
      { id: record.id, attachments: Array.from({ length: 7 }, () => ({ fileUrl: picture.id })) },
      token,
    );
    expect(seven.errors?.[0].extensions.code).toBe("VALIDATION_ERROR");
    const published = await app.graphql(
      UpdatePublicRecordDocument,
      { id: record.id, status: "PUBLISHED" },
      token,
    );
    expect(published.data?.updatePublicRecord.data.status).toBe("PUBLISHED");
    const page = await app.graphql(PublicMemberDocument, { id: owner.id });
    expect(page.data?.publicMember.data.publicRecords.map((r) => r.id)).toContain(record.id);
    const removed = await app.graphql(DeletePublicRecordDocument, { id: record.id }, token);
    expect(removed.data?.deletePublicRecord.code).toBe("OK");
  });
});
