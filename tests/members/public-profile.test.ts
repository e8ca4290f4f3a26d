/*
 * Public profiles by consent, member types and service chaplains: what the
 * member chose decides what anyone reads; the address, barangay, birth date, phone, email,
 * SSS/TIN and documents never appear, whatever the choices.
 */
import {
  PublicMemberDocument,
  ServiceChaplainsDocument,
  SetMemberTypeDocument,
  SetPublicProfileDocument,
} from "../graphql/generated";
import {
  approvedMemberOf,
  bearer,
  buildBranchService,
  buildUser,
  applyAs,
  type TestUser,
} from "../support/factories";
import { rawDb } from "../support/raw-db";
import { PNG, storageDir, upload } from "../support/file-samples";
import { useScenario } from "../support/scenario";

const storage = storageDir();
const scenario = useScenario({ users: { stranger: {} }, env: storage.env });
const SPECIALIST = "CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR";

/** What the application holds that a public page must never show. */
const PRIVATE = {
  homeAddress: "77 Hidden Lane",
  barangay: "Secretbarangay",
  mobilePhoneNumber: "09170000777",
  emergencyContactMobile: "09180000777",
  dateOfBirth: "1971-07-07T00:00:00.000Z",
  sssNumber: "34-7777777-7",
  tinNumber: "777-777-777",
  recentIdPhotoUrl: "https://files.example.org/private-id.jpg",
};
const FORBIDDEN =
  /Hidden Lane|Secretbarangay|0917000077|0918000077|1971-07-07|7777777|777-777|private-id|@/;

let member: { user: TestUser; id: string };
let branch: { id: string; title: string };

const publicPage = (key: string) => scenario().app.http().get(`/api/v1/members/public/${key}`);
const choose = (user: TestUser, choice: Record<string, unknown>) =>
  scenario()
    .app.http()
    .put("/api/v1/members/current/public-profile")
    .set(bearer(user))
    .send(choice);
const setType = (id: string, body: Record<string, unknown>, user?: TestUser) =>
  scenario()
    .app.http()
    .patch(`/api/v1/members/${id}/member-type`)
    .set(bearer(user ?? scenario().admin))
    .send(body);

beforeAll(async () => {
  const { app, admin } = scenario();
  branch = await buildBranchService(app, admin);
  member = await approvedMemberOf(app, admin, {
    ...PRIVATE,
    firstName: "Lorna",
    lastName: "Villanueva",
    region: "Region XI",
    province: "Davao del Sur",
    municipalityCity: "Davao City",
    preferredBranchIds: [branch.id],
  });
});

describe("GET /members/public/{idOrUniqueId}", () => {
  it("shows nothing beyond the credential while nothing is chosen (all off by default)", async () => {
    const response = await publicPage(member.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: member.id,
      fullName: "Lorna Villanueva",
      memberType: null,
      badgeNumber: null,
      photoUrl: null,
      region: null,
      province: null,
      municipalityCity: null,
      preferredBranches: null,
    });
    expect(JSON.stringify(response.body)).not.toMatch(FORBIDDEN);
  });

  it("shows the location and branches once chosen, never the barangay or anything private", async () => {
    const choice = { listed: true, showPhoto: true, showLocation: true, showBranches: true };
    const saved = await choose(member.user, choice);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ ...choice, showChurch: false, showEducation: false });
    const response = await publicPage(member.id);
    expect(response.body.data).toMatchObject({
      region: "Davao Region",
      province: "Davao del Sur",
      municipalityCity: "Davao City",
      preferredBranches: [{ id: branch.id, title: branch.title }],
      // No approved 2x2 photo exists yet.
      photoUrl: null,
    });
    expect(JSON.stringify(response.body)).not.toMatch(FORBIDDEN);
    const graph = await scenario().app.graphql(PublicMemberDocument, { id: member.id });
    expect(graph.data?.publicMember.data).toEqual(response.body.data);
  });

  it("a choice left out is off: each choice shows only its own part", async () => {
    await choose(member.user, { showBranches: true });
    const response = await publicPage(member.id);
    expect(response.body.data.region).toBeNull();
    expect(response.body.data.preferredBranches).toEqual([{ id: branch.id, title: branch.title }]);
    await choose(member.user, {});
    const none = await publicPage(member.id);
    expect(none.body.data.preferredBranches).toBeNull();
    expect(JSON.stringify(none.body)).not.toMatch(FORBIDDEN);
  });

  it("is reached by the uniqueId on the member's card as by the id", async () => {
    const { app } = scenario();
    const uniqueId = "POI-2026-00042";
    await rawDb(app).members.updateOne({ _id: member.id }, { $set: { uniqueId } });
    const response = await publicPage(uniqueId);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: member.id, uniqueId });
  });

  it("answers the same 404 for unknown, pending, malformed and overlong keys", async () => {
    const { app } = scenario();
    const pending = await applyAs(app, await buildUser(app), PRIVATE);
    const answers = await Promise.all(
      [pending.id, "POI-2026-99999", "not-an-id", "x".repeat(200)].map((key) => publicPage(key)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        code: "NOT_FOUND",
        message: "No approved member has this id",
      });
    }
  });

  it("PUT /members/current/public-profile needs a token and a record; a bad value is a 400", async () => {
    const { app, stranger } = scenario();
    expect((await app.http().put("/api/v1/members/current/public-profile").send({})).status).toBe(
      401,
    );
    const none = await choose(stranger, { listed: true });
    expect(none.status).toBe(404);
    const bad = await choose(member.user, { listed: "yes please" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("the 2x2 photo on the public page", () => {
  it("is shown, and served publicly, only once approved and while the member chooses showPhoto", async () => {
    const { app, admin } = scenario();
    const owner = await approvedMemberOf(app, admin, PRIVATE);
    const uploaded = await upload(app, owner.user, PNG, {
      filename: "photo.png",
      contentType: "image/png",
    });
    expect(uploaded.status).toBe(201);
    const fileId = uploaded.body.data.id as string;
    const attached = await app
      .http()
      .put("/api/v1/members/current/requirements")
      .set(bearer(owner.user))
      .send({ attachments: [{ type: "PHOTO_2X2", fileId }] });
    expect(attached.status).toBe(200);

    const hidden = await publicPage(owner.id);
    expect(hidden.body.data.photoUrl).toBeNull();
    expect((await app.http().get(`/api/v1/files/public/${fileId}`)).status).toBe(404);

    // Chosen, but not yet reviewed: a pending photo is not shown to the public.
    await choose(owner.user, { showPhoto: true });
    expect((await publicPage(owner.id)).body.data.photoUrl).toBeNull();
    expect((await app.http().get(`/api/v1/files/public/${fileId}`)).status).toBe(404);
    const reviewed = await app
      .http()
      .patch(`/api/v1/members/${owner.id}/requirements/PHOTO_2X2`)
      .set(bearer(admin))
      .send({ reviewStatus: "APPROVED" });
    expect(reviewed.status).toBe(200);

    const shown = await publicPage(owner.id);
    const photoUrl = shown.body.data.photoUrl as string;
    expect(photoUrl).toContain(`/files/public/${fileId}`);
    // The site reads the same photo as its applicant's approved requirement.
    const requirement = await rawDb(app)
      .connection.collection("member_requirements")
      .findOne({ memberId: owner.id, type: "PHOTO_2X2" });
    expect(shown.body.data.applicantRequirements).toEqual([
      {
        id: requirement?._id,
        type: "PHOTO_2X2",
        fileUrl: photoUrl,
        fileName: "photo.png",
        mimeType: "image/png",
        updatedAt: expect.any(String),
      },
    ]);
    const served = await app.http().get(`/api/v1/files/public/${fileId}`);
    expect(served.status).toBe(200);
    expect(served.headers["cache-control"]).toBe("public, max-age=86400");

    // Withdrawn: the page drops the photo and the file is private again.
    await choose(owner.user, {});
    expect((await publicPage(owner.id)).body.data.photoUrl).toBeNull();
    expect((await publicPage(owner.id)).body.data.applicantRequirements).toEqual([]);
    expect((await app.http().get(`/api/v1/files/public/${fileId}`)).status).toBe(404);
  });
});

describe("member types and service chaplains", () => {
  it("an administrator sets the type and badge (audited); others get 403; bad input 400", async () => {
    const { app, admin, stranger } = scenario();
    const set = await setType(member.id, { memberType: SPECIALIST, badgeNumber: " CS-0042 " });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      id: member.id,
      memberType: SPECIALIST,
      badgeNumber: "CS-0042",
    });
    const audit = await rawDb(app)
      .auditLogs.findOne({ action: "member.memberType", targetId: member.id })
      .lean();
    expect(audit).toMatchObject({ actorId: admin.id });
    expect((await setType(member.id, { memberType: SPECIALIST }, stranger)).status).toBe(403);
    const bad = await setType(member.id, { memberType: "BISHOP" });
    expect(bad.status).toBe(400);
    const unknown = await setType("0190d5b0-0000-7000-8000-000000000000", {
      memberType: SPECIALIST,
    });
    expect(unknown.status).toBe(404);
    // An absent badgeNumber keeps the one set.
    const kept = await setType(member.id, { memberType: SPECIALIST });
    expect(kept.body.data.badgeNumber).toBe("CS-0042");
  });

  it("lists the certified specialists who chose to be listed, public fields only", async () => {
    const { app, admin } = scenario();
    await choose(member.user, { listed: true, showLocation: true });
    // A specialist who did not choose to be listed, and a listed member of another type.
    const unlisted = await approvedMemberOf(app, admin, PRIVATE);
    await setType(unlisted.id, { memberType: SPECIALIST });
    const other = await approvedMemberOf(app, admin, PRIVATE);
    await setType(other.id, { memberType: "PROFESSIONAL_CHAPLAIN" });
    await choose(other.user, { listed: true });

    const response = await app.http().get("/api/v1/members/public/service-chaplains");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: member.id,
        uniqueId: "POI-2026-00042",
        fullName: "Lorna Villanueva",
        memberType: SPECIALIST,
        badgeNumber: "CS-0042",
        photoUrl: null,
        region: "Davao Region",
        province: "Davao del Sur",
        municipalityCity: "Davao City",
        preferredBranches: null,
      },
    ]);
    expect(response.body.pagination).toMatchObject({ totalCount: 1, currentPage: 1 });
    expect(JSON.stringify(response.body)).not.toMatch(FORBIDDEN);

    const graph = await app.graphql(ServiceChaplainsDocument, {});
    expect(graph.data?.serviceChaplains.data).toEqual(response.body.data);

    // Unlisting takes the member off the list at once.
    await choose(member.user, { listed: false });
    const after = await app.http().get("/api/v1/members/public/service-chaplains");
    expect(after.body.data).toEqual([]);
  });

  it("the same operations answer through /graphql", async () => {
    const { app, admin } = scenario();
    const typed = await app.graphql(
      SetMemberTypeDocument,
      { id: member.id, memberType: SPECIALIST, badgeNumber: null },
      admin.token,
    );
    expect(typed.data?.setMemberType.data).toEqual({
      id: member.id,
      memberType: SPECIALIST,
      badgeNumber: null,
    });
    const chosen = await app.graphql(SetPublicProfileDocument, { listed: true }, member.user.token);
    expect(chosen.data?.setPublicProfile.data).toEqual({
      listed: true,
      showPhoto: false,
      showLocation: false,
      showBranches: false,
      showChurch: false,
      showEducation: false,
    });
  });
});
