import { approvedMemberOf, bearer, buildOffice, type TestUser } from "./factories";
import type { TestApp } from "./test-app";

/**
 * A one-slot office title held by a fresh approved member for a term that ends `endsInMs`
 * from now (through POST /offices/{id}/holders; fails the test on anything but 201).
 */
export async function shortTermHolder(app: TestApp, admin: TestUser, endsInMs: number) {
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const member = await approvedMemberOf(app, admin);
  const response = await app
    .http()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({
      memberId: member.id,
      startDate: "2024-01-01T00:00:00.000Z",
      endDate: new Date(Date.now() + endsInMs).toISOString(),
    });
  if (response.status !== 201) {
    throw new Error(`appoint: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { office, member, holderId: (response.body as { data: { id: string } }).data.id };
}
