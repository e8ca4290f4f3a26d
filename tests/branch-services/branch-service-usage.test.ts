import { BranchServiceRepository } from "../../src/modules/branch-services/branch-service.repository";
import { BranchServiceService } from "../../src/modules/branch-services/branch-service.service";
import { buildAdmin, buildBranchService } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

// The members issue supplies the real usage check; this proves the service honours whatever
// check it is given, against the real collection.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

it("refuses to delete a branch that member records name (409) and keeps it", async () => {
  const admin = await buildAdmin(app);
  const branch = await buildBranchService(app, admin);
  const inUse = new Set([branch.id]);
  const service = new BranchServiceService(
    new BranchServiceRepository(rawDb(app).branchServices),
    (id) => Promise.resolve(inUse.has(id)),
  );
  await expect(service.delete(branch.id)).rejects.toMatchObject({
    code: "CONFLICT",
    status: 409,
  });
  expect(await rawDb(app).branchServices.exists({ _id: branch.id })).not.toBeNull();
  inUse.clear();
  await service.delete(branch.id);
  expect(await rawDb(app).branchServices.exists({ _id: branch.id })).toBeNull();
});
