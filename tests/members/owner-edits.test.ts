/*
 * The owner's edits of the record behind the public page: the banner, the
 * church, the education and the branches of service. Each acts on the caller's APPROVED record
 * and answers the fields it sets with the record's id and uniqueId; the page shows the church
 * and the education only when the member chose to.
 */
import {
  CurrentProfileBannerDocument,
  SaveBranchServicesDocument,
  SaveChurchAffiliationDocument,
  SaveEducationDocument,
  SaveProfileBannerDocument,
} from "../graphql/generated";
import { applyAs, buildBranchService, buildUser } from "../support/factories";
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

let owner: Awaited<ReturnType<typeof approvedMember>>;

beforeAll(async () => {
  const { app, admin } = scenario();
  owner = await approvedMember(app, admin);
});

type BannerBody = { profileBannerUrl?: string; profileBannerPositionY?: number };
const banner = (body: BannerBody) => Promise.resolve(body);
const stored = async (id: string) => (await rawDb(scenario().app).members.findById(id).lean())!;
const unnamedSince = async (fileId: string) =>
  (await rawDb(scenario().app).files.findById(fileId).lean())?.unnamedSince ?? null;

describe("the profile banner", () => {
  it("GET answers null without an application", async () => {
    const { app } = scenario();
    const nobody = await buildUser(app);
    const response = await as(app, nobody)("get", "/members/current/profile-banner");
    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
  });

  it("PUT sets an image of the caller's and its position; the page shows it, the file is public", async () => {
    const { app } = scenario();
    const picture = await uploaded(app, owner.user, "PUBLIC_RECORD");
    const response = await as(app, owner.user)("put", "/members/current/profile-banner", {
      profileBannerUrl: picture.fileUrl,
      profileBannerPositionY: 37.456,
    });
    expect(response.status).toBe(200);
    const publicUrl = expect.stringMatching(new RegExp(`/api/v1/files/public/${picture.id}$`));
    expect(response.body.data).toEqual({
      id: owner.id,
      uniqueId: owner.uniqueId,
      profileBannerUrl: publicUrl,
      profileBannerPositionY: 37.46,
    });
    const read = await as(app, owner.user)("get", "/members/current/profile-banner");
    expect(read.body.data).toEqual(response.body.data);
    const page = await publicPage(app, owner.uniqueId);
    expect(page.body.data).toMatchObject({
      profileBannerUrl: publicUrl,
      profileBannerPositionY: 37.46,
    });
    expect(await publicFileStatus(app, picture.id)).toBe(200);

    // Only the position: the image stays.
    const moved = await as(app, owner.user)("put", "/members/current/profile-banner", {
      profileBannerPositionY: 0,
    });
    expect(moved.body.data).toMatchObject({
      profileBannerUrl: publicUrl,
      profileBannerPositionY: 0,
    });
  });

  it("a new image releases the old one and makes it private; null removes the banner", async () => {
    const { app } = scenario();
    const first = await uploaded(app, owner.user, "AVATAR");
    const second = await uploaded(app, owner.user, "CERTIFICATE");
    const put = (body: object) =>
      as(app, owner.user)("put", "/members/current/profile-banner", body);
    expect((await put({ profileBannerUrl: first.id })).status).toBe(200);
    expect((await put({ profileBannerUrl: second.id })).status).toBe(200);
    expect(await publicFileStatus(app, second.id)).toBe(200);
    // An AVATAR upload is the account's avatar too: still named, so the sweep leaves it; but the
    // avatar of a member who is not listed is not public once it is no longer the banner.
    expect(await unnamedSince(first.id)).toBeNull();
    expect(await publicFileStatus(app, first.id)).toBe(404);
    const removed = await put({ profileBannerUrl: null });
    expect(removed.body.data.profileBannerUrl).toBeNull();
    expect((await stored(owner.id)).profileBannerFileId).toBeNull();
    expect(await unnamedSince(second.id)).not.toBeNull();
    expect(await publicFileStatus(app, second.id)).toBe(404);
  });

  it("a banner that is the avatar's file stays named and public while either one shows it", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    await choose(app, member.user, { listed: true });
    // One after the other: an AVATAR upload becomes the account's avatar on arrival.
    const shared = await uploaded(app, member.user, "AVATAR");
    const other = await uploaded(app, member.user, "AVATAR");
    const picture = await uploaded(app, member.user, "PUBLIC_RECORD");
    const send = as(app, member.user);
    const setAvatar = async (avatar: string) =>
      expect((await send("put", "/users/current", { avatar })).status).toBe(200);
    const setBanner = async (profileBannerUrl: string) =>
      expect(
        (await send("put", "/members/current/profile-banner", { profileBannerUrl })).status,
      ).toBe(200);
    const publicUrl = new RegExp(`/api/v1/files/public/${shared.id}$`);

    await setAvatar(shared.id);
    await setBanner(shared.id);
    // A new avatar: the banner still shows the file.
    await setAvatar(other.id);
    expect(await unnamedSince(shared.id)).toBeNull();
    expect(await publicFileStatus(app, shared.id)).toBe(200);
    expect((await publicPage(app, member.uniqueId)).body.data.profileBannerUrl).toMatch(publicUrl);

    // Back as the avatar, then a new banner: the avatar still shows it.
    await setAvatar(shared.id);
    await setBanner(picture.id);
    expect(await unnamedSince(shared.id)).toBeNull();
    expect(await publicFileStatus(app, shared.id)).toBe(200);
    expect((await publicPage(app, member.uniqueId)).body.data.user.avatar).toMatch(publicUrl);

    // Shown by neither: released to the sweep, and private.
    await setAvatar(other.id);
    expect(await unnamedSince(shared.id)).not.toBeNull();
    expect(await publicFileStatus(app, shared.id)).toBe(404);
  });

  it.each([
    ["position 101", () => banner({ profileBannerPositionY: 101 }), "profileBannerPositionY"],
    ["position -1", () => banner({ profileBannerPositionY: -1 }), "profileBannerPositionY"],
    [
      "another member's image",
      async () => {
        const { app, admin } = scenario();
        const stranger = await approvedMember(app, admin);
        return { profileBannerUrl: (await uploaded(app, stranger.user, "PUBLIC_RECORD")).id };
      },
      "profileBannerUrl",
    ],
    [
      "a PDF certificate",
      async () => ({
        profileBannerUrl: (await uploaded(scenario().app, owner.user, "CERTIFICATE", true)).id,
      }),
      "profileBannerUrl",
    ],
    [
      "a requirement document",
      async () => ({
        profileBannerUrl: (await uploaded(scenario().app, owner.user, "REQUIREMENT")).id,
      }),
      "profileBannerUrl",
    ],
  ])("refuses %s with 400 on the field and changes nothing", async (_name, body, path) => {
    const { app } = scenario();
    const before = await stored(owner.id);
    const payload = await body();
    const response = await as(app, owner.user)("put", "/members/current/profile-banner", {
      ...payload,
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    const after = await stored(owner.id);
    expect([after.profileBannerFileId, after.profileBannerPositionY]).toEqual([
      before.profileBannerFileId,
      before.profileBannerPositionY,
    ]);
    if (payload.profileBannerUrl)
      expect(await unnamedSince(payload.profileBannerUrl)).not.toBeNull();
  });

  it("through /graphql", async () => {
    const { app } = scenario();
    const picture = await uploaded(app, owner.user, "PUBLIC_RECORD");
    const saved = await app.graphql(
      SaveProfileBannerDocument,
      { profileBannerUrl: picture.id, profileBannerPositionY: 50 },
      owner.user.token,
    );
    expect(saved.data?.saveProfileBanner.data).toMatchObject({
      id: owner.id,
      profileBannerPositionY: 50,
    });
    const read = await app.graphql(CurrentProfileBannerDocument, {}, owner.user.token);
    expect(read.data?.currentProfileBanner.data).toEqual(saved.data?.saveProfileBanner.data);
    const bad = await app.graphql(
      SaveProfileBannerDocument,
      { profileBannerPositionY: 101 },
      owner.user.token,
    );
    expect(bad.errors?.[0].extensions.code).toBe("VALIDATION_ERROR");
  });
});

describe("church affiliation and education", () => {
  it("PUT /members/current/church-affiliation changes what is given; the page shows it when chosen", async () => {
    const { app } = scenario();
    const response = await as(app, owner.user)("put", "/members/current/church-affiliation", {
      churchAffiliation: " Grace Fellowship ",
      currentPositionRole: "OTHER",
      currentPositionRoleOther: "Youth leader",
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: owner.id,
      uniqueId: owner.uniqueId,
      churchAffiliation: "Grace Fellowship",
      churchAddress: (await stored(owner.id)).churchAddress,
      currentPositionRole: "OTHER",
      currentPositionRoleOther: "Youth leader",
    });
    const hidden = (await publicPage(app, owner.uniqueId)).body.data;
    expect([hidden.churchAffiliation, hidden.currentPositionRoleOther]).toEqual([null, null]);
    await choose(app, owner.user, { showChurch: true });
    const shown = (await publicPage(app, owner.uniqueId)).body.data;
    expect(shown).toMatchObject({
      churchAffiliation: "Grace Fellowship",
      currentPositionRole: "OTHER",
      currentPositionRoleOther: "Youth leader",
      elementarySchool: null,
    });
    await choose(app, owner.user, {});
  });

  it("refuses clearing the church or a blank one with 400, changing nothing", async () => {
    const { app } = scenario();
    const before = await stored(owner.id);
    for (const body of [
      { churchAffiliation: null },
      { churchAddress: "  " },
      { currentPositionRole: "" },
    ]) {
      const response = await as(app, owner.user)(
        "put",
        "/members/current/church-affiliation",
        body,
      );
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe(Object.keys(body)[0]);
    }
    const after = await stored(owner.id);
    expect([after.churchAffiliation, after.churchAddress]).toEqual([
      before.churchAffiliation,
      before.churchAddress,
    ]);
  });

  it("PUT /members/current/education stores entries joined by ' | '; the page shows them when chosen", async () => {
    const { app } = scenario();
    const response = await as(app, owner.user)("put", "/members/current/education", {
      elementarySchool: "Davao Central",
      tertiaryCollegeEntries: ["BA Theology, Asian Seminary", "  ", "BS Nursing, UP"],
      postGraduateStudiesEntries: ["MDiv"],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: owner.id,
      uniqueId: owner.uniqueId,
      elementarySchool: "Davao Central",
      secondarySchool: null,
      tertiaryCollege: "BA Theology, Asian Seminary | BS Nursing, UP",
      postGraduateStudies: "MDiv",
      tertiaryCollegeEntries: ["BA Theology, Asian Seminary", "BS Nursing, UP"],
      postGraduateStudiesEntries: ["MDiv"],
    });
    expect((await stored(owner.id)).tertiaryCollege).toBe(
      "BA Theology, Asian Seminary | BS Nursing, UP",
    );
    expect((await publicPage(app, owner.uniqueId)).body.data.tertiaryCollege).toBeNull();
    await choose(app, owner.user, { showEducation: true });
    const shown = (await publicPage(app, owner.uniqueId)).body.data;
    expect(shown).toMatchObject({
      elementarySchool: "Davao Central",
      tertiaryCollege: "BA Theology, Asian Seminary | BS Nursing, UP",
      postGraduateStudies: "MDiv",
      churchAffiliation: null,
    });
    const tooMany = await as(app, owner.user)("put", "/members/current/education", {
      tertiaryCollegeEntries: Array.from({ length: 11 }, (_, i) => `School ${i}`),
    });
    expect(tooMany.status).toBe(400);
    await choose(app, owner.user, {});
  });

  it("through /graphql", async () => {
    const { app } = scenario();
    const church = await app.graphql(
      SaveChurchAffiliationDocument,
      { churchAddress: "12 Rizal St, Davao" },
      owner.user.token,
    );
    expect(church.data?.saveChurchAffiliation.data.churchAddress).toBe("12 Rizal St, Davao");
    const schools = await app.graphql(
      SaveEducationDocument,
      { secondarySchool: "Holy Cross", postGraduateStudiesEntries: [] },
      owner.user.token,
    );
    expect(schools.data?.saveEducation.data).toMatchObject({
      secondarySchool: "Holy Cross",
      postGraduateStudies: null,
      postGraduateStudiesEntries: [],
    });
  });
});

describe("PUT /members/current/branch-services", () => {
  it("names matching a branch's title become preferredBranches, the rest stay as other", async () => {
    const { app, admin } = scenario();
    const hospital = await buildBranchService(app, admin);
    const prison = await buildBranchService(app, admin);
    const response = await as(app, owner.user)("put", "/members/current/branch-services", {
      preferredBranchOther: `${hospital.title.toUpperCase()}, Disaster response ,${prison.title}, , Campus`,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: owner.id,
      uniqueId: owner.uniqueId,
      preferredBranches: [
        { id: hospital.id, title: hospital.title },
        { id: prison.id, title: prison.title },
      ],
      preferredBranchOther: "Disaster response, Campus",
    });
    const record = await stored(owner.id);
    expect(record.preferredBranchIds).toEqual([hospital.id, prison.id]);
    expect(record.preferredBranchOther).toBe("Disaster response, Campus");
    const cleared = await as(app, owner.user)("put", "/members/current/branch-services", {
      preferredBranchOther: "",
    });
    expect(cleared.body.data).toMatchObject({ preferredBranches: [], preferredBranchOther: null });
    const graph = await app.graphql(
      SaveBranchServicesDocument,
      { preferredBranchOther: hospital.title },
      owner.user.token,
    );
    expect(graph.data?.saveBranchServices.data.preferredBranches).toEqual([
      { id: hospital.id, title: hospital.title },
    ]);
  });
});

describe("who may edit", () => {
  it("a PENDING applicant gets 409 and someone without an application 404, storing nothing", async () => {
    const { app } = scenario();
    const applicant = await buildUser(app);
    const record = await applyAs(app, applicant);
    const nobody = await buildUser(app);
    const picture = await uploaded(app, applicant, "PUBLIC_RECORD");
    const edits: [string, object][] = [
      ["/members/current/profile-banner", { profileBannerUrl: picture.id }],
      ["/members/current/church-affiliation", { churchAffiliation: "Changed" }],
      ["/members/current/education", { elementarySchool: "Changed" }],
      ["/members/current/branch-services", { preferredBranchOther: "Changed" }],
    ];
    for (const [path, body] of edits) {
      const pending = await as(app, applicant)("put", path, body);
      expect([path, pending.status, pending.body.code]).toEqual([path, 409, "CONFLICT"]);
      const none = await as(app, nobody)("put", path, body);
      expect([path, none.status]).toEqual([path, 404]);
    }
    const after = await stored(record.id);
    expect(after).toMatchObject({
      churchAffiliation: record.churchAffiliation,
      elementarySchool: record.elementarySchool ?? null,
      preferredBranchOther: record.preferredBranchOther ?? null,
      profileBannerFileId: null,
    });
    expect(await unnamedSince(picture.id)).not.toBeNull();
  });

  it("needs a bearer token", async () => {
    const { app } = scenario();
    const response = await app.http().put("/api/v1/members/current/education").send({});
    expect(response.status).toBe(401);
  });
});
