import {
  BranchServiceDocument,
  BranchServicesDocument,
  CreateBranchServiceDocument,
  DeleteBranchServiceDocument,
  UpdateBranchServiceDocument,
} from "../graphql/generated";
import type { TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

describe("branch services through /graphql", () => {
  it("runs create, list, get, update and delete with the same envelopes as REST", async () => {
    const created = await app.graphql(
      CreateBranchServiceDocument,
      {
        title: "Youth Ministry",
        description: "Young people",
        sections: [{ title: "Aims", type: "list", items: [{ content: "Formation" }] }],
      },
      admin.token,
    );
    expect(created.errors).toBeUndefined();
    const branch = created.data!.createBranchService;
    expect(branch).toMatchObject({
      code: "CREATED",
      data: { title: "Youth Ministry", memberId: null },
    });

    const listed = await app.graphql(BranchServicesDocument, { search: "youth" });
    expect(listed.data!.branchServices).toMatchObject({
      code: "OK",
      pagination: { totalCount: 1, currentPage: 1 },
    });
    expect(listed.data!.branchServices.data[0].id).toBe(branch.data.id);

    const fetched = await app.graphql(BranchServiceDocument, { id: branch.data.id });
    expect(fetched.data!.branchService.data.sections[0]).toMatchObject({
      title: "Aims",
      type: "list",
    });

    const sectionId = branch.data.sections[0].id;
    const updated = await app.graphql(
      UpdateBranchServiceDocument,
      {
        id: branch.data.id,
        sections: [{ id: sectionId, title: "Aims", type: "richtext", items: [] }],
      },
      admin.token,
    );
    expect(updated.data!.updateBranchService.data.sections).toEqual([
      { id: sectionId, title: "Aims", type: "richtext", items: [] },
    ]);

    const deleted = await app.graphql(
      DeleteBranchServiceDocument,
      { id: branch.data.id },
      admin.token,
    );
    expect(deleted.data!.deleteBranchService).toEqual({ code: "OK", message: expect.any(String) });
    const gone = await app.graphql(BranchServiceDocument, { id: branch.data.id });
    expect(gone.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("applies the same role checks: UNAUTHENTICATED anonymously, FORBIDDEN for a member", async () => {
    const variables = { title: "Seafarers", description: "Ministry at sea" };
    const anonymous = await app.graphql(CreateBranchServiceDocument, variables);
    expect(anonymous.status).toBe(200);
    expect(anonymous.data).toBeNull();
    expect(anonymous.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
    const forbidden = await app.graphql(CreateBranchServiceDocument, variables, member.token);
    expect(forbidden.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(await rawDb(app).branchServices.exists({ titleKey: "seafarers" })).toBeNull();
  });

  it("reports validation failures with the same field paths as REST", async () => {
    const result = await app.graphql(
      CreateBranchServiceDocument,
      { title: " ", description: "d", sections: [{ type: "list", items: [{ content: " " }] }] },
      admin.token,
    );
    expect(result.errors![0].extensions.code).toBe("VALIDATION_ERROR");
    expect(result.errors![0].extensions.errors!.map((e) => e.path).sort()).toEqual([
      "sections.0.items.0.content",
      "title",
    ]);
  });

  it("answers CONFLICT for a duplicate title", async () => {
    await app.graphql(
      CreateBranchServiceDocument,
      { title: "Hospital Care", description: "d" },
      admin.token,
    );
    const duplicate = await app.graphql(
      CreateBranchServiceDocument,
      { title: "hospital care", description: "d" },
      admin.token,
    );
    expect(duplicate.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
  });

  it("refuses a limit over 100 and a malformed id as validation errors", async () => {
    const list = await app.graphql(BranchServicesDocument, { limit: 101 });
    expect(list.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "limit", message: expect.any(String) }],
    });
    const get = await app.graphql(BranchServiceDocument, { id: "nope" });
    expect(get.status).toBe(400);
    expect(get.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "id", message: expect.any(String) }],
    });
  });
});
