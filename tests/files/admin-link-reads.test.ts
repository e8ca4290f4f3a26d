/**
 * Issue 39, point 3: an administrator's read of a member's document is audited whether it goes
 * by Bearer or by a signed link the service rendered for that administrator. The link names
 * its reader inside what is signed, so a link altered to name someone else, or nobody, is a 404
 * that leaves no entry; a link rendered for the owner is not audited (their own data).
 */
import { bearer, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { API, adminCall, approvedMember } from "../support/onboarding";
import { MemberOnboardingDocument } from "../graphql/generated";
import { JPEG, PDF, storageDir, upload } from "../support/file-samples";
import type { AuditEntry } from "../support/audit-entries";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: storageDir().env }));
});
afterAll(() => app?.close());

const pathOf = (fileUrl: string) => fileUrl.replace(/^https?:\/\/[^/]+/, "");

/** The audit entries about `fileId`, read the way administrators read the log. */
async function fileEntries(fileId: string): Promise<AuditEntry[]> {
  const response = await adminCall(app, admin).get(
    `/audit-logs?targetId=${fileId}&action=file.read&limit=100`,
  );
  expect(response.status).toBe(200);
  return response.body.data as AuditEntry[];
}

/** GET by a link, without a Bearer: the status and the request id the service gave it. */
async function download(link: string) {
  const response = await app.http().get(pathOf(link)).buffer(true);
  return { status: response.status, requestId: String(response.headers["x-request-id"]) };
}

/** An approved member with a NBI clearance attached and a proof of payment submitted. */
async function memberWithDocuments() {
  const member = await approvedMember(app, admin);
  const clearance = await upload(app, member.user, PDF, { filename: "nbi.pdf" });
  const proof = await upload(app, member.user, JPEG, { purpose: "PAYMENT_PROOF" });
  expect([clearance.status, proof.status]).toEqual([201, 201]);
  const attached = await member.put("/members/current/requirements", {
    attachments: [{ type: "CLEARANCE_NBI", fileId: clearance.body.data.id }],
  });
  expect(attached.status).toBe(200);
  const paid = await member.put("/members/current/payment-checkout", {
    paymentMethod: "E_WALLET",
    proofFileId: proof.body.data.id,
  });
  expect(paid.status).toBe(200);
  return {
    member,
    clearanceId: clearance.body.data.id as string,
    proofId: proof.body.data.id as string,
  };
}

describe("a link rendered for an administrator", () => {
  it("over REST: the download without a Bearer is audited as the administrator's read, like one by Bearer", async () => {
    const { member, clearanceId, proofId } = await memberWithDocuments();
    const record = await adminCall(app, admin).get(`/members/${member.id}`);
    expect(record.status).toBe(200);
    const onboarding = record.body.data.onboarding;
    const clearance = onboarding.requirements.find(
      (row: { fileId: string }) => row.fileId === clearanceId,
    );
    expect(clearance.fileUrl).toContain(`reader=${admin.id}`);
    const byLink = await download(clearance.fileUrl);
    expect(byLink.status).toBe(200);
    const byBearer = await app.http().get(`${API}/files/${clearanceId}`).set(bearer(admin));
    expect(byBearer.status).toBe(200);
    const entries = await fileEntries(clearanceId);
    const shape = (entry: AuditEntry) => ({ ...entry, requestId: "", id: "", at: "" });
    expect(entries).toHaveLength(2);
    const [linkEntry] = entries.filter((entry) => entry.requestId === byLink.requestId);
    expect(linkEntry).toMatchObject({
      actorId: admin.id,
      actorRole: "ADMIN",
      action: "file.read",
      targetType: "file",
      targetId: clearanceId,
    });
    const bearerEntry = entries.find((entry) => entry.requestId !== byLink.requestId)!;
    expect(shape(linkEntry)).toEqual(shape(bearerEntry));

    // The payment's proof on the same record, and the pending list's links, name them too.
    const proofRead = await download(onboarding.payment.proofOfPaymentUrl);
    expect(proofRead.status).toBe(200);
    expect((await fileEntries(proofId)).map((entry) => entry.requestId)).toEqual([
      proofRead.requestId,
    ]);
    const pending = await adminCall(app, admin).get("/requirements/pending?limit=100");
    const listed = pending.body.data.find((row: { fileId: string }) => row.fileId === clearanceId);
    expect(listed.fileUrl).toContain(`reader=${admin.id}`);
  });

  it("over GraphQL: member(id)'s links are audited the same way", async () => {
    const { member, clearanceId } = await memberWithDocuments();
    const answer = await app.graphql(MemberOnboardingDocument, { id: member.id }, admin.token);
    expect(answer.errors).toBeUndefined();
    const [row] = answer.data!.member.data.onboarding!.requirements;
    expect(row.fileId).toBe(clearanceId);
    const read = await download(row.fileUrl);
    expect(read.status).toBe(200);
    expect(await fileEntries(clearanceId)).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        actorRole: "ADMIN",
        targetId: clearanceId,
        requestId: read.requestId,
      }),
    ]);
  });

  it("altered to name another reader or none is a 404 and audits nothing", async () => {
    const { member, clearanceId } = await memberWithDocuments();
    const record = await adminCall(app, admin).get(`/members/${member.id}`);
    const link = new URL(record.body.data.onboarding.requirements[0].fileUrl, "http://x");
    const own = await member.get("/members/current/requirements");
    const ownLink = new URL(own.body.data.requirements[0].fileUrl, "http://x");
    const altered = (url: URL, change: (query: URLSearchParams) => void) => {
      const query = new URLSearchParams(url.searchParams);
      change(query);
      return `${url.pathname}?${query.toString()}`;
    };
    const attempts = [
      altered(link, (query) => query.set("reader", member.user.id)),
      altered(link, (query) => query.delete("reader")),
      altered(link, (query) => query.set("reader", `${admin.id}x`)),
      altered(link, (query) => query.append("reader", admin.id)),
      altered(ownLink, (query) => query.set("reader", admin.id)),
    ];
    for (const attempt of attempts) {
      const response = await app.http().get(attempt);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: "NOT_FOUND", message: "No file with this id" });
    }
    expect(await fileEntries(clearanceId)).toEqual([]);
  });
});

describe("a link rendered for the owner", () => {
  it("names nobody and its download is not audited", async () => {
    const { member, clearanceId } = await memberWithDocuments();
    const own = await member.get("/members/current/requirements");
    const fileUrl: string = own.body.data.requirements[0].fileUrl;
    expect(fileUrl).not.toContain("reader=");
    expect((await download(fileUrl)).status).toBe(200);
    expect(await fileEntries(clearanceId)).toEqual([]);
  });
});
